import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { getTableColumns } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildSampleBenchmark } from "@/lib/benchmark/sample-benchmark";
import { SUBTASKS } from "@/lib/benchmark/subtasks";
import { scaleRun } from "@/lib/dashboard/scale-runs";
import { METRIC_IDS, METRICS, metricBit, type MetricId } from "@/lib/metrics/catalog";
import { createDb, MIGRATIONS_FOLDER, type Db } from "./client";
import { syncMetricBits } from "./metric-bits";
import { saveBenchmark } from "./queries/benchmarks";
import { scaleInstances } from "./queries/synthetic-runs";
import { insertScaleRunsThroughTriggers } from "./queries/synthetic-runs.fixture";
import * as schema from "./schema";

const CATALOG_BITS = Object.fromEntries(METRICS.map((m) => [m.id, metricBit(m.id)]));
const migrationSql = (tag: string) => fs.readFileSync(path.join(MIGRATIONS_FOLDER, `${tag}.sql`), "utf8");

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** The columns of `table` in today's schema that the database does not have yet (added later). */
function laterColumns(sqlite: Database.Database, table: string, columns: Record<string, { name: string }>): string[] {
  const present = new Set(
    (sqlite.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name),
  );
  return Object.values(columns)
    .map((c) => c.name)
    .filter((name) => !present.has(name));
}

/** A copy of the migrations folder holding only the migrations before `tag`: a database as it was. */
function migrationsBefore(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "migrations-"));
  dirs.push(dir);
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
    entries: { tag: string }[];
  };
  const cut = journal.entries.findIndex((e) => e.tag === tag);
  expect(cut).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, cut);
  fs.mkdirSync(path.join(dir, "meta"));
  fs.writeFileSync(path.join(dir, "meta", "_journal.json"), JSON.stringify(journal));
  for (const { tag: old } of journal.entries)
    fs.copyFileSync(path.join(MIGRATIONS_FOLDER, `${old}.sql`), path.join(dir, `${old}.sql`));
  return dir;
}

/** A database file migrated up to just before `tag`, open on `sqlite` (as `old`, without today's catalogs). */
function databaseBefore(tag: string): { file: string; sqlite: Database.Database; old: Db } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "before-"));
  dirs.push(dir);
  const file = path.join(dir, "studio.db");
  const sqlite = new Database(file);
  sqlite.pragma("foreign_keys = ON");
  const old = drizzle(sqlite, { schema }) as Db;
  migrate(old, { migrationsFolder: migrationsBefore(tag) });
  return { file, sqlite, old };
}

/** `runs` seed:scale runs of the sample benchmark, each judged by a rule and an LLM judge. */
// Built once for the file: the builder parses the whole sample corpus.
let sample: Awaited<ReturnType<typeof buildSampleBenchmark>>;
beforeAll(async () => {
  sample = await buildSampleBenchmark();
});

async function seedScaleRuns(db: Db, runs: number): Promise<void> {
  for (const [position, subtask] of SUBTASKS.entries()) {
    db.insert(schema.subtasks)
      .values({ id: subtask.id, family: subtask.family, label: subtask.label, position })
      .onConflictDoNothing()
      .run();
  }
  saveBenchmark(db, sample, { name: "sample", source: "sample-corpus", config: {} });
  const instances = scaleInstances(db, "sample");
  insertScaleRunsThroughTriggers(
    db,
    Array.from({ length: runs }, (_, i) => scaleRun(i, 3, instances)),
  );
}

/**
 * What the dashboard shows: every judge's masks per run with the columns the overview groups them
 * by, and the disagreements. Plain SQL over the columns every migration since 0002 has: the
 * dashboard's own queries read columns that later migrations add.
 */
function dashboardNumbers(db: Db) {
  const masks = db.$client
    .prepare(
      `SELECT run_id, judge_id, family, framework, model, in_eval_split, task_completed, violated_mask, decided_mask, violated_count
       FROM run_judge_masks ORDER BY run_id, judge_id`,
    )
    .all();
  const disagreements = db.$client.prepare("SELECT run_id, disagreement_mask FROM run_facts ORDER BY run_id").all();
  return { masks, disagreements };
}

/** Every stored mask equals the one computed in TypeScript from the verdicts with the catalog's bits. */
function expectMasksFromVerdicts(db: Db): void {
  const verdicts = db.$client.prepare("SELECT run_id, judge_id, metric, value FROM verdicts").all() as {
    run_id: string;
    judge_id: number;
    metric: MetricId;
    value: string;
  }[];
  const expected = new Map<string, { violated: number; decided: number }>();
  for (const v of verdicts) {
    const key = `${v.run_id}/${v.judge_id}`;
    const entry = expected.get(key) ?? { violated: 0, decided: 0 };
    if (v.value === "violated") entry.violated |= metricBit(v.metric);
    if (v.value === "violated" || v.value === "not_violated") entry.decided |= metricBit(v.metric);
    expected.set(key, entry);
  }
  const masks = db.$client
    .prepare("SELECT run_id, judge_id, violated_mask, decided_mask FROM run_judge_masks")
    .all() as {
    run_id: string;
    judge_id: number;
    violated_mask: number;
    decided_mask: number;
  }[];
  expect(masks.length).toBe(expected.size);
  for (const m of masks) {
    expect({ violated: m.violated_mask, decided: m.decided_mask }).toEqual(expected.get(`${m.run_id}/${m.judge_id}`));
  }
  // Judges disagree on a metric when one says violated and another not violated.
  const seen = new Map<string, Set<string>>();
  for (const v of verdicts) {
    const key = `${v.run_id}/${v.metric}`;
    seen.set(key, (seen.get(key) ?? new Set()).add(v.value));
  }
  const disagreement = new Map<string, number>();
  for (const [key, values] of seen) {
    const [runId, metric] = key.split("/") as [string, MetricId];
    const bit = values.has("violated") && values.has("not_violated") ? metricBit(metric) : 0;
    disagreement.set(runId, (disagreement.get(runId) ?? 0) | bit);
  }
  const facts = db.$client.prepare("SELECT run_id, disagreement_mask FROM run_facts").all() as {
    run_id: string;
    disagreement_mask: number;
  }[];
  for (const f of facts) expect(f.disagreement_mask).toBe(disagreement.get(f.run_id) ?? 0);
}

describe("metric bits: the database's SQL and the catalog agree", () => {
  it("fills metric_bits from the catalog, and the live triggers name no metric", () => {
    const db = createDb(":memory:");
    const stored = db.select().from(schema.metricBits).all();
    expect(Object.fromEntries(stored.map((r) => [r.metric, 1 << r.bit]))).toEqual(CATALOG_BITS);
    const triggers = db.$client.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").all() as {
      name: string;
      sql: string;
    }[];
    expect(triggers.length).toBeGreaterThan(0);
    for (const { sql } of triggers) for (const id of METRIC_IDS) expect(sql).not.toContain(`'${id}'`);
  });

  it("the bits written by migrations 0002 (CASE over the metric ids) and 0006 (metric_bits rows) are the catalog's", () => {
    // Migrations are never edited: each holds the metrics of its day, every one with the catalog's bit.
    const cases = [
      ...migrationSql("0002_dashboard").matchAll(/CASE (?:v\.)?metric((?: WHEN '\w+' THEN \d+)+) ELSE 0 END/g),
    ];
    expect(cases).toHaveLength(15);
    const written = cases.map(([, whens]) =>
      Object.fromEntries([...whens!.matchAll(/WHEN '(\w+)' THEN (\d+)/g)].map(([, id, bit]) => [id, Number(bit)])),
    );
    const values = /INSERT INTO `metric_bits` \(`metric`, `bit`\) VALUES (.*);/.exec(migrationSql("0006_metric_bits"));
    written.push(
      Object.fromEntries([...values![1]!.matchAll(/\('(\w+)', (\d+)\)/g)].map(([, id, bit]) => [id, 1 << Number(bit)])),
    );
    for (const bits of written) {
      expect(Object.keys(bits)).toHaveLength(11);
      for (const [id, bit] of Object.entries(bits)) expect([id, bit]).toEqual([id, CATALOG_BITS[id]]);
    }
  });

  it("refuses a database whose stored bit for a metric differs from the catalog's", () => {
    const db = createDb(":memory:");
    db.$client.prepare("UPDATE metric_bits SET bit = 30 WHERE metric = 'context'").run();
    expect(() => syncMetricBits(db)).toThrow(/metric context has bit 3 .* stores bit 30/);
  });

  it("adds a metric new to the catalog and counts the verdicts already stored for it", async () => {
    const db = createDb(":memory:");
    db.$client.prepare("DELETE FROM metric_bits WHERE metric = 'instruction_following'").run();
    await seedScaleRuns(db, 12);
    const bit = metricBit("instruction_following");
    const decided = () =>
      db.$client.prepare("SELECT count(*) AS n FROM run_judge_masks WHERE decided_mask & ? != 0").get(bit);
    expect(decided()).toEqual({ n: 0 });
    syncMetricBits(db);
    expect(decided()).not.toEqual({ n: 0 });
    expectMasksFromVerdicts(db);
  });
});

describe("migration 0006 on a database built before it", () => {
  it("keeps every mask and what the overview groups, and the triggers count later verdicts with the catalog's bits", async () => {
    const { file, sqlite, old } = databaseBefore("0006_metric_bits");
    expect(sqlite.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'metric_bits'").get()).toEqual({
      n: 0,
    });
    // The seeding code writes today's runs and agent_configs tables: the columns later migrations
    // add are there while it runs, and dropped again, so the file is a database of before 0006 holding runs.
    const later = [
      ...laterColumns(sqlite, "runs", getTableColumns(schema.runs)).map((column) => ["runs", column]),
      ...laterColumns(sqlite, "agent_configs", getTableColumns(schema.agentConfigs)).map((column) => [
        "agent_configs",
        column,
      ]),
    ];
    for (const [table, column] of later) sqlite.exec(`ALTER TABLE ${table} ADD ${column} text`);
    await seedScaleRuns(old, 60);
    for (const [table, column] of later) sqlite.exec(`ALTER TABLE ${table} DROP COLUMN ${column}`);
    const before = dashboardNumbers(old);
    expect(before.masks.length).toBe(120);
    expect(before.disagreements.some((r) => (r as { disagreement_mask: number }).disagreement_mask !== 0)).toBe(true);
    sqlite.close();

    const db = createDb(file);
    try {
      expect(dashboardNumbers(db)).toEqual(before);
      // One run with every metric violated by its rule judge: each catalog bit set once.
      db.$client.exec("UPDATE verdicts SET value = 'violated' WHERE run_id = (SELECT min(run_id) FROM verdicts)");
      const all = db.$client
        .prepare(
          "SELECT max(violated_mask) AS mask FROM run_judge_masks WHERE run_id = (SELECT min(run_id) FROM verdicts)",
        )
        .get();
      expect(all).toEqual({ mask: METRIC_IDS.reduce((mask, id) => mask | metricBit(id), 0) });
      // Later writes go through the rewritten triggers: flip verdicts of every metric, delete some.
      db.$client.exec(`
        UPDATE verdicts SET value = CASE value WHEN 'violated' THEN 'not_violated' ELSE 'violated' END
          WHERE rowid % 3 = 0;
        DELETE FROM verdicts WHERE rowid % 7 = 0;
      `);
      expectMasksFromVerdicts(db);
    } finally {
      db.$client.close();
    }
  });
});

describe("migration 0011 on a database built before it", () => {
  it("gives every fact and mask row its configuration's arm, keeps every mask, and later rows get the arm too", async () => {
    const { file, sqlite, old } = databaseBefore("0011_dashboard_mitigation");
    syncMetricBits(old);
    await seedScaleRuns(old, 60);
    const before = dashboardNumbers(old);
    sqlite.close();

    const db = createDb(file);
    try {
      expect(dashboardNumbers(db)).toEqual(before);
      const arms = (table: string) =>
        db.$client
          .prepare(
            `SELECT x.mitigation AS derived, c.mitigation AS config, count(*) AS n FROM ${table} x
             JOIN agent_configs c ON c.id = x.agent_config_id GROUP BY 1, 2 ORDER BY 1`,
          )
          .all();
      // seed:scale's Code-KIT variants are the codekit arm; the rest none.
      const expected = [
        { derived: "codekit", config: "codekit", n: expect.any(Number) },
        { derived: "none", config: "none", n: expect.any(Number) },
      ];
      expect(arms("run_facts")).toEqual(expected);
      expect(arms("run_judge_masks")).toEqual(expected);
      await seedScaleRuns(db, 80);
      expect(arms("run_facts")).toEqual(expected);
      expect(arms("run_judge_masks")).toEqual(expected);
      expectMasksFromVerdicts(db);
    } finally {
      db.$client.close();
    }
  });
});
