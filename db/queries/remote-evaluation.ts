/**
 * Distributed evaluation's two sides on the studio's database (app/api/workers/evaluation-inputs
 * and verdicts): what the judges read of runs, built by the local evaluation's own loader, and the
 * verdicts workers post back, written by its own writer, once.
 */
import { BUNDLE_MEMBERS } from "@/lib/bundle/schema";
import { sha256Hex } from "@/lib/bundle/parse";
import { AppError } from "@/lib/errors/app-error";
import type { NewArtifact } from "@/lib/judge/evaluate-runs";
import { inputToWire, type EvaluationMaterials, type PostedVerdict } from "@/lib/remote/evaluation-api";
import type { Db } from "../client";
import { hasArtifact, loadEvaluationInput, saveJudgedVerdicts, type InstanceMemo } from "./evaluation";
import { ensureJudge, verdictColumns, type VerdictEntry } from "./verdicts";

/**
 * The runs' evaluation inputs in the order asked, until `maxBytes` of JSON would be passed (at
 * least one run): the worker asks again for the rest. A run not stored is an error naming it.
 */
export function evaluationMaterials(db: Db, runIds: readonly string[], maxBytes: number): EvaluationMaterials {
  const instances: InstanceMemo = new Map();
  const runs: EvaluationMaterials["runs"] = [];
  let bytes = 0;
  for (const runId of runIds) {
    const entry = {
      input: inputToWire(loadEvaluationInput(db, runId, instances)),
      hasAstReport: hasArtifact(db, runId, BUNDLE_MEMBERS.astReport),
    };
    const size = JSON.stringify(entry).length;
    if (runs.length > 0 && bytes + size > maxBytes) break;
    runs.push(entry);
    bytes += size;
  }
  return { runs };
}

export type StoredOutcome = "stored" | "unchanged" | "already judged";

export interface PostedRun {
  runId: string;
  verdicts: readonly PostedVerdict[];
  artifacts: readonly NewArtifact[];
}

/**
 * One run's posted verdicts, in one transaction: written as a local evaluation writes them
 * (db/queries/evaluation.ts `saveJudgedVerdicts`), unless they are already stored as posted
 * ("unchanged": a re-posted result changes nothing, not even a timestamp), or, without `force`,
 * the run already has a verdict of each posted (metric, judge) ("already judged": a local
 * evaluation would have skipped the run). The judges are checked by the caller.
 */
export function storePostedRun(db: Db, run: PostedRun, force: boolean): StoredOutcome {
  const existing = db.$client.prepare<[string], Record<string, unknown>>(
    `SELECT run_id, metric, judge_id, value, rationale, citations, evidence, raw_response, input_tokens,
       output_tokens, cost_usd FROM verdicts WHERE run_id = ?`,
  );
  const artifactSha = db.$client.prepare<[string, string], { sha256: string }>(
    "SELECT sha256 FROM run_artifacts WHERE run_id = ? AND path = ?",
  );
  const runExists = db.$client.prepare<[string], { id: string }>("SELECT id FROM runs WHERE id = ?");
  return db.$client.transaction((): StoredOutcome => {
    if (!runExists.get(run.runId)) throw new AppError("NOT_FOUND", `run "${run.runId}" not found`);
    const entries: VerdictEntry[] = run.verdicts.map((v) => ({
      judgeId: ensureJudge(db, v.judge),
      verdict: v.verdict,
    }));
    const stored = new Map(
      existing.all(run.runId).map((row) => [`${String(row.metric)}\0${String(row.judge_id)}`, Object.values(row)]),
    );
    const keyOf = (e: VerdictEntry) => `${e.verdict.metric}\0${e.judgeId}`;
    const same =
      entries.every((e) => {
        const row = stored.get(keyOf(e));
        return row !== undefined && verdictColumns(run.runId, e).every((value, i) => value === row[i]);
      }) && run.artifacts.every((a) => artifactSha.get(run.runId, a.path)?.sha256 === sha256Hex(a.data));
    if (same) return "unchanged";
    if (!force && entries.every((e) => stored.has(keyOf(e)))) return "already judged";
    saveJudgedVerdicts(db, run.runId, entries, run.artifacts);
    return "stored";
  })();
}
