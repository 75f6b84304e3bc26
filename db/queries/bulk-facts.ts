/**
 * Bulk writes of runs without the per-row work of the dashboard's insert triggers (migrations
 * 0002, 0006, 0011, 0013 and 0015): inside one transaction the insert triggers are dropped, the runs and
 * verdicts written, the derived rows (run_facts, run_judge_masks, run_search, mask_counts,
 * metric_counts, run_fact_counts) filled for the whole batch by set-based statements that compute what the
 * triggers would, and the triggers recreated from their stored SQL. The transaction is atomic, so an interrupted batch leaves neither runs
 * without derived rows nor a database without its triggers. bulk-facts.test.ts checks the rows
 * against the triggers'.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../client";
import { indexRunTexts } from "./run-search";

/**
 * The triggers that fire once per run or verdict row inserted; the others (updates, deletes) stay.
 * The agreement report's version needs no bump: a run inserted now is in no agreement set yet.
 */
const INSERT_TRIGGERS = [
  "run_facts_after_run_insert",
  "run_judge_masks_after_verdict_insert",
  "agreement_version_after_verdict_insert",
  // The counts' triggers upsert once per row; the batch adds its counts with one GROUP BY each.
  "mask_counts_after_mask_insert",
  "metric_counts_after_mask_insert",
  "run_fact_counts_after_fact_insert",
];

/**
 * Runs `write` in one transaction with the insert triggers dropped; `write` returns the ids of the
 * runs it inserted, in insertion order, whose derived rows are then filled. Returns those ids.
 */
export function insertRunsInBulk(db: Db, write: () => string[]): string[] {
  const sqlite = db.$client;
  return db.transaction(
    () => {
      const triggers = sqlite
        .prepare<string[], { name: string; sql: string }>(
          `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN (${INSERT_TRIGGERS.map(() => "?").join(", ")})`,
        )
        .all(...INSERT_TRIGGERS);
      for (const { name } of triggers) sqlite.exec(`DROP TRIGGER "${name}"`);
      const ids = write();
      if (ids.length > 0) fillDerivedRows(db, ids);
      for (const trigger of triggers) sqlite.exec(trigger.sql);
      return ids;
      // Immediate: the write lock is waited for (busy timeout) at BEGIN. A deferred transaction that
      // read first fails at once with SQLITE_BUSY when another connection wrote in between.
    },
    { behavior: "immediate" },
  );
}

/**
 * The insert of run_judge_masks rows as the verdict triggers compute them (migration 0006, kept
 * in 0011), over `f` (run_facts), `v` (a run's verdicts by one judge) and `mb` (metric_bits): the
 * bulk fills follow it with their FROM (the batch first), GROUP BY and ORDER BY.
 */
export const MASK_ROWS_INSERT = `INSERT INTO run_judge_masks (run_id, judge_id, benchmark_id, instance_id, subtask_id, family, in_eval_split, agent_config_id, framework, model, mitigation, task_completed, started_at, violated_mask, decided_mask, violated_count)
    SELECT f.run_id, v.judge_id, f.benchmark_id, f.instance_id, f.subtask_id, f.family, f.in_eval_split, f.agent_config_id, f.framework, f.model, f.mitigation,
      f.task_completed, f.started_at,
      SUM(CASE WHEN v.value = 'violated' THEN COALESCE(1 << mb.bit, 0) ELSE 0 END),
      SUM(CASE WHEN v.value IN ('violated', 'not_violated') THEN COALESCE(1 << mb.bit, 0) ELSE 0 END),
      SUM(v.value = 'violated')`;

/**
 * What the insert triggers would have written for these newly inserted runs and their verdicts.
 * Every statement starts from the batch (temp.bulk_runs) and looks its rows up by run id: CROSS
 * JOIN keeps SQLite's planner from reordering. With the statistics of a database already holding
 * runs it scanned all of run_judge_masks (or runs) once per batch, so a seed onto 20,000 runs
 * cost 300 us of CPU a run more, and more as the database grows.
 */
function fillDerivedRows(db: Db, runIds: string[]): void {
  const sqlite = db.$client;
  sqlite.exec(
    "CREATE TEMP TABLE IF NOT EXISTS bulk_runs (seq INTEGER PRIMARY KEY, id TEXT NOT NULL); DELETE FROM temp.bulk_runs",
  );
  const add = sqlite.prepare("INSERT INTO temp.bulk_runs (id) VALUES (?)");
  for (const id of runIds) add.run(id);
  // run_facts_after_run_insert, once per run in insertion order (its id is the runs browser's
  // tie-break), with the disagreement mask the verdict trigger would set afterwards: an UPDATE of
  // every new row cost 30-50 us a run more.
  db.run(sql`
    INSERT INTO run_facts (run_id, benchmark_id, instance_id, subtask_id, family, in_eval_split, agent_config_id, framework, model, mitigation, status, scripted, synthetic, started_at, step_count, total_tokens, cost_usd, duration_ms, task_completed, disagreement_mask)
    SELECT r.id, i.benchmark_id, r.instance_id, i.subtask_id, s.family, i.in_eval_split, r.agent_config_id, c.framework, c.model, c.mitigation,
      r.status, r.scripted, r.synthetic, r.started_at, r.step_count, r.input_tokens + r.output_tokens, r.cost_usd, r.duration_ms, r.task_completed,
      (SELECT COALESCE(SUM(1 << mb.bit), 0) FROM (
        SELECT metric FROM verdicts WHERE run_id = r.id
        GROUP BY metric HAVING SUM(value = 'violated') > 0 AND SUM(value = 'not_violated') > 0) d
      LEFT JOIN metric_bits mb ON mb.metric = d.metric)
    FROM temp.bulk_runs b
    CROSS JOIN runs r ON r.id = b.id
    CROSS JOIN instances i ON i.id = r.instance_id
    CROSS JOIN subtasks s ON s.id = i.subtask_id
    CROSS JOIN agent_configs c ON c.id = r.agent_config_id
    ORDER BY b.seq`);
  // run_judge_masks_after_verdict_insert after a run's last verdict of each judge.
  db.run(sql`
    ${sql.raw(MASK_ROWS_INSERT)}
    FROM temp.bulk_runs b
    CROSS JOIN run_facts f ON f.run_id = b.id
    CROSS JOIN verdicts v ON v.run_id = f.run_id
    LEFT JOIN metric_bits mb ON mb.metric = v.metric
    GROUP BY b.seq, v.judge_id
    ORDER BY b.seq, v.judge_id`);
  // mask_counts_after_mask_insert and run_fact_counts_after_fact_insert, summed per combination.
  // (WHERE true: an upsert's SELECT needs a WHERE for SQLite to parse its ON CONFLICT.)
  db.run(sql`
    INSERT INTO mask_counts (judge_id, benchmark_id, family, framework, model, mitigation, violated_mask, decided_mask, task_completed, in_eval_split, subtask_id, agent_config_id, runs)
    SELECT m.judge_id, m.benchmark_id, m.family, m.framework, m.model, m.mitigation, m.violated_mask, m.decided_mask, COALESCE(m.task_completed, -1), m.in_eval_split, m.subtask_id, m.agent_config_id, count(*)
    FROM temp.bulk_runs b CROSS JOIN run_judge_masks m ON m.run_id = b.id
    WHERE true
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
    ON CONFLICT (judge_id, benchmark_id, family, framework, model, mitigation, violated_mask, decided_mask, task_completed, in_eval_split, subtask_id, agent_config_id) DO UPDATE SET runs = runs + excluded.runs`);
  // metric_counts_after_mask_insert: per combination, each metric bit the judge decided, and -1.
  db.run(sql`
    INSERT INTO metric_counts (judge_id, benchmark_id, family, framework, model, mitigation, bit, in_eval_split, subtask_id, agent_config_id, runs, violated, decided)
    SELECT m.judge_id, m.benchmark_id, m.family, m.framework, m.model, m.mitigation, mb.bit, m.in_eval_split, m.subtask_id, m.agent_config_id, count(*), sum((m.violated_mask >> mb.bit) & 1), count(*)
    FROM temp.bulk_runs b CROSS JOIN run_judge_masks m ON m.run_id = b.id JOIN metric_bits mb ON (m.decided_mask >> mb.bit) & 1
    WHERE true
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
    UNION ALL
    SELECT m.judge_id, m.benchmark_id, m.family, m.framework, m.model, m.mitigation, -1, m.in_eval_split, m.subtask_id, m.agent_config_id, count(*), sum(m.task_completed IS 1), sum(m.task_completed IS NOT NULL)
    FROM temp.bulk_runs b CROSS JOIN run_judge_masks m ON m.run_id = b.id
    WHERE true
    GROUP BY 1, 2, 3, 4, 5, 6, 8, 9, 10
    ON CONFLICT (judge_id, benchmark_id, family, framework, model, mitigation, bit, in_eval_split, subtask_id, agent_config_id)
    DO UPDATE SET runs = runs + excluded.runs, violated = violated + excluded.violated, decided = decided + excluded.decided`);
  db.run(sql`
    INSERT INTO run_fact_counts (benchmark_id, subtask_id, framework, model, mitigation, status, disagreement, runs)
    SELECT f.benchmark_id, f.subtask_id, f.framework, f.model, f.mitigation, f.status, f.disagreement_mask <> 0, count(*)
    FROM temp.bulk_runs b CROSS JOIN run_facts f ON f.run_id = b.id
    WHERE true
    GROUP BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT (benchmark_id, subtask_id, framework, model, mitigation, status, disagreement) DO UPDATE SET runs = runs + excluded.runs`);
  indexRunTexts(db, sql`f.run_id IN (SELECT id FROM temp.bulk_runs)`);
}
