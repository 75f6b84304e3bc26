/**
 * Verdicts written onto existing runs without the per-row work of the verdict triggers
 * (migrations 0006 and 0012): each verdict row inserted or replaced recomputed its run's mask row
 * for its judge from all of the run's verdicts, the run's disagreement mask and the agreement
 * report versions, so a run's 11 rule verdicts did it 11 times (twice each when they replaced
 * verdicts): 1.5-1.8 ms of the 1.6-2.0 ms it took to store a judged run. Here, inside one
 * transaction, the triggers are dropped, the verdicts written, the same rows refreshed once per
 * (run, judge) by set-based statements, and the triggers recreated from their stored SQL. The
 * transaction is atomic: no other connection ever sees the schema without them.
 * bulk-verdicts.test.ts checks the rows against the triggers'.
 */
import type { Db } from "../client";
import { MASK_ROWS_INSERT } from "./bulk-facts";

/** The triggers that fire once per verdict row inserted or replaced (deletes keep theirs). */
const VERDICT_TRIGGERS = [
  "run_judge_masks_after_verdict_insert",
  "run_judge_masks_after_verdict_update",
  "agreement_version_after_verdict_insert",
  "agreement_version_after_verdict_update",
];

export interface RunJudgePair {
  runId: string;
  judgeId: number;
}

/**
 * Runs `write` (which inserts or replaces verdicts of existing runs, and anything else) in one
 * transaction with the verdict triggers dropped; then refreshes, for each (run, judge) in
 * `written` (in that order), what the triggers would have: the judge's mask row of the run, the
 * run's disagreement mask, and the report version of the agreement sets holding the run (bumped
 * once, not once per verdict).
 */
export function writeVerdictsInBulk(db: Db, written: readonly RunJudgePair[], write: () => void): void {
  const sqlite = db.$client;
  sqlite
    .transaction(() => {
      const triggers = sqlite
        .prepare<string[], { name: string; sql: string }>(
          `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN (${VERDICT_TRIGGERS.map(() => "?").join(", ")})`,
        )
        .all(...VERDICT_TRIGGERS);
      for (const { name } of triggers) sqlite.exec(`DROP TRIGGER "${name}"`);
      write();
      if (written.length > 0) refreshDerivedRows(db, written);
      for (const trigger of triggers) sqlite.exec(trigger.sql);
    })
    .immediate();
}

/** What the verdict triggers would have left for these (run, judge) pairs. */
function refreshDerivedRows(db: Db, written: readonly RunJudgePair[]): void {
  const sqlite = db.$client;
  sqlite.exec(
    "CREATE TEMP TABLE IF NOT EXISTS bulk_verdict_pairs (seq INTEGER PRIMARY KEY, run_id TEXT NOT NULL, judge_id INTEGER NOT NULL); DELETE FROM temp.bulk_verdict_pairs",
  );
  const add = sqlite.prepare("INSERT INTO temp.bulk_verdict_pairs (run_id, judge_id) VALUES (?, ?)");
  const seen = new Set<string>();
  for (const { runId, judgeId } of written) {
    const key = `${judgeId}\0${runId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    add.run(runId, judgeId);
  }
  // The mask rows' own triggers (mask_counts, metric_counts) fire on this delete and insert. The
  // batch comes first in every join (CROSS JOIN): with a large database's statistics the planner
  // may otherwise scan a whole table per batch (bulk-facts.ts).
  sqlite.exec(`
    DELETE FROM run_judge_masks WHERE (run_id, judge_id) IN (SELECT run_id, judge_id FROM temp.bulk_verdict_pairs);
    ${MASK_ROWS_INSERT}
    FROM temp.bulk_verdict_pairs p
    CROSS JOIN run_facts f ON f.run_id = p.run_id
    CROSS JOIN verdicts v ON v.run_id = p.run_id AND v.judge_id = p.judge_id
    LEFT JOIN metric_bits mb ON mb.metric = v.metric
    GROUP BY p.seq
    ORDER BY p.seq;
    UPDATE run_facts SET disagreement_mask = (
      SELECT COALESCE(SUM(1 << b.bit), 0) FROM (
        SELECT metric FROM verdicts WHERE run_id = run_facts.run_id
        GROUP BY metric HAVING SUM(value = 'violated') > 0 AND SUM(value = 'not_violated') > 0) d
      LEFT JOIN metric_bits b ON b.metric = d.metric)
    WHERE run_id IN (SELECT run_id FROM temp.bulk_verdict_pairs);
    UPDATE agreement_sets SET report_version = report_version + 1
    WHERE id IN (SELECT set_id FROM agreement_items WHERE run_id IN (SELECT run_id FROM temp.bulk_verdict_pairs));
  `);
}
