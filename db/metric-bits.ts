import { eq } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { AppError } from "@/lib/errors/app-error";
import { METRICS } from "@/lib/metrics/catalog";
import * as schema from "./schema";

/**
 * Brings `metric_bits`, which the dashboard triggers read, in line with the catalog: a metric
 * new to the catalog gets its row here, so adding one needs no migration. A stored bit is never
 * changed: every mask already stored was written with it.
 */
export function syncMetricBits(db: BetterSQLite3Database<typeof schema>): void {
  db.transaction((tx) => {
    const stored = new Map(
      tx
        .select()
        .from(schema.metricBits)
        .all()
        .map((row) => [row.metric, row.bit]),
    );
    const owner = new Map([...stored].map(([metric, bit]) => [bit, metric]));
    for (const metric of METRICS) {
      const bit = stored.get(metric.id);
      if (bit === metric.bit) continue;
      const holder = bit === undefined ? owner.get(metric.bit) : undefined;
      if (bit !== undefined || holder !== undefined) {
        throw new AppError(
          "CONFLICT",
          `metric ${metric.id} has bit ${metric.bit} in lib/metrics/catalog.ts but the database stores ` +
            (bit !== undefined ? `bit ${bit} for it` : `that bit for ${holder}`) +
            ": stored masks would be misread; a metric keeps its bit and a new metric takes an unused one",
        );
      }
      tx.insert(schema.metricBits).values({ metric: metric.id, bit: metric.bit }).run();
      // Verdicts stored before the metric had a bit (none, unless written outside the catalog)
      // are counted now: touching them runs the masks' update trigger for their runs.
      tx.update(schema.verdicts).set({ metric: metric.id }).where(eq(schema.verdicts.metric, metric.id)).run();
    }
  });
}
