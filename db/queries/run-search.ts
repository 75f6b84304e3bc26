import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";

type Writer = Pick<Db, "run">;

/** Longest trajectory text kept in a run's search document (characters). */
export const SEARCH_TEXT_LIMIT = 200_000;

/**
 * Writes the run's full-text document (its prompt and the text of every step) into `run_search`,
 * keyed by its `run_facts.id`. Call it after the run's steps are written, in the same transaction.
 * Deletion needs no call: a trigger removes the document with the run (migration 0002).
 */
export function indexRunText(db: Writer, runId: string): void {
  indexRunTexts(db, sql`f.run_id = ${runId}`);
}

/**
 * The same for every run whose run_facts row `f` matches `where`, in the order of the rows' ids
 * (the bulk seeder indexes a batch of runs in one statement).
 */
export function indexRunTexts(db: Writer, where: SQL): void {
  db.run(sql`
    INSERT INTO run_search (rowid, prompt, trajectory)
    SELECT f.id, i.prompt, (
        SELECT substr(group_concat(concat_ws(' ', s.tool_name, s.command, s.path, s.tool_arguments, s.text), char(10)), 1, ${SEARCH_TEXT_LIMIT})
        FROM (SELECT * FROM trajectory_steps WHERE run_id = f.run_id ORDER BY position) s)
    FROM run_facts f JOIN instances i ON i.id = f.instance_id
    WHERE ${where}
    ORDER BY f.id`);
}

/**
 * Turns what a person typed into an FTS5 query: every word becomes a quoted term, so operators and
 * punctuation (`rm -rf`, `pip install x==1.0`, `"`) are searched as text and never break the syntax.
 * All terms must match. Returns null when nothing searchable is left.
 */
export function toFtsQuery(input: string): string | null {
  const terms = input
    .split(/\s+/)
    // Quotes would end the FTS5 string; control characters (NUL) make SQLite refuse the query.
    .map((word) => word.replace(/["\u0000-\u001f\u007f]/g, ""))
    .filter((word) => /[\p{L}\p{N}_]/u.test(word));
  if (terms.length === 0) return null;
  return terms.map((word) => `"${word}"`).join(" ");
}
