/**
 * Judge checks: the scripted runs and the behaviour each was given (the run-agents `--mock`
 * bundles keep it as native/scripted-behaviour.json), a judge's verdicts on them, and the stored
 * per-metric scores (lib/agreement/judge-check.ts) the agreement page shows beside the humans.
 */
import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { BEHAVIOURS, type Behaviour } from "@/lib/agents/scripted-behaviours";
import type { JudgeCheckResult, JudgeCheckVerdict } from "@/lib/agreement/judge-check";
import type { MetricId } from "@/lib/metrics/catalog";
import type { Db } from "../client";
import * as t from "../schema";

export const SCRIPTED_BEHAVIOUR_PATH = "native/scripted-behaviour.json";
const BehaviourFileSchema = z.object({ behaviour: z.enum(BEHAVIOURS) });

/** Every scripted run whose behaviour is on record, by run id. */
export function scriptedBehaviours(db: Db): Map<string, Behaviour> {
  const rows = db
    .select({ runId: t.runs.id, content: t.fileContents.content })
    .from(t.runs)
    .innerJoin(
      t.runArtifacts,
      and(eq(t.runArtifacts.runId, t.runs.id), eq(t.runArtifacts.path, SCRIPTED_BEHAVIOUR_PATH)),
    )
    .innerJoin(t.fileContents, eq(t.fileContents.sha256, t.runArtifacts.sha256))
    .where(eq(t.runs.scripted, true))
    .orderBy(t.runs.id)
    .all();
  const behaviours = new Map<string, Behaviour>();
  for (const row of rows) {
    try {
      const parsed = BehaviourFileSchema.safeParse(JSON.parse(row.content?.toString("utf8") ?? ""));
      if (parsed.success) behaviours.set(row.runId, parsed.data.behaviour);
    } catch {
      // A bundle from elsewhere may carry a file of that name that is not ours: not a scripted run we know.
    }
  }
  return behaviours;
}

/** The verdicts of a judge (one row per metric, as an LLM judge has) on the given runs. */
export function judgeCheckVerdicts(
  db: Db,
  judgeIdByMetric: ReadonlyMap<MetricId, number>,
  runIds: readonly string[],
): JudgeCheckVerdict[] {
  const judgeIds = [...new Set(judgeIdByMetric.values())];
  if (judgeIds.length === 0 || runIds.length === 0) return [];
  const wanted = new Set([...judgeIdByMetric].map(([metric, id]) => `${metric}\0${id}`));
  const rows: JudgeCheckVerdict[] = [];
  // Chunks keep each statement under SQLite's bound-parameter limit.
  for (let i = 0; i < runIds.length; i += 500) {
    const chunk = runIds.slice(i, i + 500);
    for (const row of db
      .select({
        runId: t.verdicts.runId,
        metric: t.verdicts.metric,
        value: t.verdicts.value,
        judgeId: t.verdicts.judgeId,
      })
      .from(t.verdicts)
      .where(and(inArray(t.verdicts.judgeId, judgeIds), inArray(t.verdicts.runId, chunk)))
      .all()) {
      if (wanted.has(`${row.metric}\0${row.judgeId}`))
        rows.push({ runId: row.runId, metric: row.metric as MetricId, value: row.value });
    }
  }
  return rows;
}

/** Stores a check's scores, replacing the previous check of each (judge row, metric). */
export function saveJudgeCheck(
  db: Db,
  judgeIdByMetric: ReadonlyMap<MetricId, number>,
  result: JudgeCheckResult,
  now: string = new Date().toISOString(),
): void {
  db.transaction((tx) => {
    for (const m of result.metrics) {
      const judgeId = judgeIdByMetric.get(m.metric);
      if (judgeId === undefined) continue;
      const values = {
        truePositives: m.truePositives,
        falseNegatives: m.falseNegatives,
        trueNegatives: m.trueNegatives,
        falsePositives: m.falsePositives,
        abstained: m.abstained,
        notApplicable: m.notApplicable,
        runs: result.runs,
        checkedAt: now,
      };
      tx.insert(t.judgeChecks)
        .values({ judgeId, metric: m.metric, ...values })
        .onConflictDoUpdate({ target: [t.judgeChecks.judgeId, t.judgeChecks.metric], set: values })
        .run();
    }
  });
}

export interface StoredJudgeCheck {
  judgeId: number;
  metric: MetricId;
  correct: number;
  scored: number;
  abstained: number;
  runs: number;
  checkedAt: string;
}

/** The latest checks of these judge rows. */
export function judgeChecksOf(db: Db, judgeIds: readonly number[]): StoredJudgeCheck[] {
  if (judgeIds.length === 0) return [];
  return db
    .select()
    .from(t.judgeChecks)
    .where(inArray(t.judgeChecks.judgeId, [...judgeIds]))
    .all()
    .map((row) => ({
      judgeId: row.judgeId,
      metric: row.metric as MetricId,
      correct: row.truePositives + row.trueNegatives,
      scored: row.truePositives + row.trueNegatives + row.falsePositives + row.falseNegatives,
      abstained: row.abstained,
      runs: row.runs,
      checkedAt: row.checkedAt,
    }));
}
