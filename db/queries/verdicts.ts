/**
 * Judges and their verdicts: the one place a verdict row is written, whether it came in a bundle
 * (run-import.ts), from a judge (evaluation.ts) or from the scale seeder (synthetic-runs.ts).
 */
import { and, eq } from "drizzle-orm";
import { AppError } from "@/lib/errors/app-error";
import type { VerdictUsage } from "@/lib/judge/evaluate-runs";
import type { VerdictDraft } from "@/lib/judge/schema";
import type { Db } from "../client";
import { preparedPerConnection } from "../prepared";
import * as t from "../schema";

export interface JudgeIdentity {
  kind: "rule" | "llm" | "external";
  name: string;
  provider?: string;
  model?: string;
  promptVersion?: string;
}

/** The judge's row id, created on first use (also inside a transaction: pass the transaction). */
export function ensureJudge(db: Pick<Db, "insert" | "select">, judge: JudgeIdentity): number {
  const values = {
    kind: judge.kind,
    name: judge.name,
    provider: judge.provider ?? "",
    model: judge.model ?? "",
    promptVersion: judge.promptVersion ?? "",
  };
  db.insert(t.judges).values(values).onConflictDoNothing().run();
  const row = db
    .select({ id: t.judges.id })
    .from(t.judges)
    .where(
      and(
        eq(t.judges.kind, values.kind),
        eq(t.judges.name, values.name),
        eq(t.judges.provider, values.provider),
        eq(t.judges.model, values.model),
        eq(t.judges.promptVersion, values.promptVersion),
      ),
    )
    .get();
  if (!row) throw new AppError("INTERNAL", `judge ${judge.name} could not be stored`);
  return row.id;
}

export interface VerdictEntry {
  judgeId: number;
  /**
   * A judge's draft, a bundle's verdict (whose evidence may be plain sentences) or a scale run's
   * made-up one (no evidence at all).
   */
  verdict: Pick<VerdictDraft, "metric" | "value" | "rationale"> & {
    citations: readonly unknown[];
    evidence?: readonly unknown[];
  } & VerdictUsage;
}

// An upsert that sets every column replaces a (run, metric, judge) verdict whole, as re-evaluation
// needs (usage the new verdict lacks becomes null, created_at is now). The importer writes onto a
// run it has just inserted (a replaced run's verdicts went with it), and the parser refuses a bundle
// with two verdicts of one judge on one metric, so for it this is a plain insert.
const UPSERT = `INSERT INTO verdicts
  (run_id, metric, judge_id, value, rationale, citations, evidence, raw_response, input_tokens, output_tokens, cost_usd)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (run_id, metric, judge_id) DO UPDATE SET
    value = excluded.value, rationale = excluded.rationale, citations = excluded.citations,
    evidence = excluded.evidence, raw_response = excluded.raw_response, input_tokens = excluded.input_tokens,
    output_tokens = excluded.output_tokens, cost_usd = excluded.cost_usd, created_at = excluded.created_at`;

type UpsertArgs = [string, string, number, string, string, string, string, ...(string | number | null)[]];

/** Prepared once per connection: the scale seeder writes 22 verdicts for each of up to 100,000 runs. */
const upsertOf = preparedPerConnection((db) => db.$client.prepare<UpsertArgs>(UPSERT));

/**
 * Writes each entry's verdict on the run, replacing the verdict of the same metric and judge. Call
 * it inside the caller's transaction (all of a run's verdicts, and whatever goes with them, at once).
 */
export function writeVerdicts(db: Db, runId: string, entries: readonly VerdictEntry[]): void {
  const upsert = upsertOf(db);
  for (const entry of entries) upsert.run(...verdictColumns(runId, entry));
}

/** A verdict's columns as stored, in the upsert's order (also what a re-posted verdict is compared by). */
export function verdictColumns(runId: string, { judgeId, verdict: v }: VerdictEntry): UpsertArgs {
  return [
    runId,
    v.metric,
    judgeId,
    v.value,
    v.rationale,
    JSON.stringify(v.citations),
    JSON.stringify(v.evidence ?? []),
    v.rawResponse ?? null,
    v.inputTokens ?? null,
    v.outputTokens ?? null,
    v.costUsd ?? null,
  ];
}

/** One judge's verdicts on a run, in one transaction. */
export function saveVerdicts(db: Db, runId: string, judgeId: number, drafts: (VerdictDraft & VerdictUsage)[]): void {
  db.transaction(() =>
    writeVerdicts(
      db,
      runId,
      drafts.map((verdict) => ({ judgeId, verdict })),
    ),
  );
}
