/**
 * The evaluation loop every caller shares (npm run evaluate, bench:evaluate, the e2e seed): each
 * run is loaded, judged, and stored with what the judge leaves beside its verdicts, runs judged
 * concurrently, one run's failure recorded without stopping the others. The database side comes
 * in as an EvaluationStore (db/queries/evaluation.ts `evaluationStore`).
 */
import pLimit from "p-limit";
import { BUNDLE_MEMBERS } from "@/lib/bundle/schema";
import { AppError } from "@/lib/errors/app-error";
import { METRIC_IDS } from "@/lib/metrics/catalog";
import { astReportsOf, RunReportCache } from "./rules/ast-reports";
import { ruleJudge } from "./rules/rule-judge";
import type { EvaluationInput, VerdictDraft } from "./schema";

/** What a model judge spent on a verdict; rule judges and bundles leave it out. */
export interface VerdictUsage {
  rawResponse?: string | null;
  inputTokens?: number | null;
  outputTokens?: number | null;
  costUsd?: number | null;
}

/** A file the evaluation adds to the run (e.g. `reports/ast.json`), stored with its verdicts. */
export interface NewArtifact {
  path: string;
  kind: string;
  data: Buffer;
}

export interface JudgedVerdict {
  judgeId: number;
  verdict: VerdictDraft & VerdictUsage;
}

export interface EvaluationStore {
  load(runId: string): EvaluationInput;
  hasArtifact(runId: string, path: string): boolean;
  /** A run's verdicts and artifacts, in one transaction. */
  save(runId: string, verdicts: readonly JudgedVerdict[], artifacts: readonly NewArtifact[]): void;
  /** Several runs' verdicts and artifacts in one transaction, when the store can do it faster than one by one. */
  saveBatch?(runs: readonly StoredRun[]): void;
}

/** One run's evaluation as it is stored. */
export interface StoredRun {
  runId: string;
  verdicts: readonly JudgedVerdict[];
  artifacts: readonly NewArtifact[];
}

/** Judged runs are stored together (saveBatch) once this many are waiting, ... */
const STORE_BATCH_RUNS = 64;
/** ... or once the first of them has waited this long (a slow judge's runs are stored, and counted, within a second). */
const STORE_BATCH_MS = 1000;

/** A judge as the loop sees it: which judge row each metric's verdict goes under, and how to judge a run. */
export interface RunJudge {
  label: string;
  judgeIdByMetric: ReadonlyMap<string, number>;
  judge(input: EvaluationInput): Promise<(VerdictDraft & VerdictUsage)[]>;
  /** What else the judge leaves on the run, stored with its verdicts. */
  artifacts?(input: EvaluationInput): Promise<NewArtifact[]>;
  close(): Promise<void>;
  usage?(): string;
}

/**
 * The rule judge on every metric it scores, under one judge row, leaving the static analysis behind
 * the code metrics as the run's AST report (kept if the run has one, redone with `force`). The
 * report is made first and its reports handed to the code-level metrics (RunReportCache), so each
 * of the agent's files is analyzed once.
 */
export function ruleRunJudge(
  judgeId: number,
  options: { force?: boolean; hasArtifact(runId: string, path: string): boolean },
): RunJudge {
  const made = new WeakMap<EvaluationInput, NewArtifact>();
  return {
    label: "rule judge",
    judgeIdByMetric: new Map(METRIC_IDS.map((m) => [m, judgeId])),
    async judge(input) {
      const reports = new RunReportCache();
      if (options.force || !options.hasArtifact(input.runId, BUNDLE_MEMBERS.astReport)) {
        // Written out before the metrics read the same reports.
        const report = await astReportsOf(input.changes, reports);
        const data = Buffer.from(`${JSON.stringify(report)}\n`);
        made.set(input, { path: BUNDLE_MEMBERS.astReport, kind: "ast_report", data });
      }
      return ruleJudge(input, reports);
    },
    artifacts: async (input) => {
      const artifact = made.get(input);
      return artifact ? [artifact] : [];
    },
    close: async () => {},
  };
}

export interface EvaluationSummary {
  evaluated: number;
  failures: { runId: string; error: string }[];
  /** Violated verdicts per metric. */
  violations: Map<string, number>;
}

/** One run judged: its verdicts under their judge rows, and what the judge leaves beside them. */
export interface JudgedRun {
  verdicts: JudgedVerdict[];
  artifacts: NewArtifact[];
}

/** Loads and judges one run (nothing stored): the step the loop here and the worker threads of npm run evaluate share. */
export async function judgeRun(
  load: EvaluationStore["load"],
  active: Pick<RunJudge, "label" | "judgeIdByMetric" | "judge" | "artifacts">,
  runId: string,
): Promise<JudgedRun> {
  const input = load(runId);
  const verdicts = await active.judge(input);
  const artifacts = (await active.artifacts?.(input)) ?? [];
  return { verdicts: verdicts.map((verdict) => ({ judgeId: judgeIdOf(active, verdict.metric), verdict })), artifacts };
}

/** Adds a run's violated verdicts to the per-metric counts of a summary. */
export function countViolations(violations: Map<string, number>, verdicts: readonly JudgedVerdict[]): void {
  for (const { verdict: v } of verdicts)
    if (v.value === "violated") violations.set(v.metric, (violations.get(v.metric) ?? 0) + 1);
}

/** Judges each run and stores its verdicts; `onRun` hears of each run as it ends (with its error, if it failed). */
export async function evaluateRuns(
  store: EvaluationStore,
  active: RunJudge,
  runIds: readonly string[],
  options: { concurrency: number; onRun?: (runId: string, error?: string) => void },
): Promise<EvaluationSummary> {
  const failures: EvaluationSummary["failures"] = [];
  const violations = new Map<string, number>();
  const fail = (runId: string, error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    failures.push({ runId, error: message });
    options.onRun?.(runId, message);
  };
  const stored = (run: StoredRun) => {
    countViolations(violations, run.verdicts);
    options.onRun?.(run.runId);
  };
  const saveOne = (run: StoredRun) => {
    try {
      store.save(run.runId, run.verdicts, run.artifacts);
      stored(run);
    } catch (error) {
      fail(run.runId, error);
    }
  };
  // Runs judged are stored in batches where the store can (one transaction, the verdicts' derived
  // rows refreshed once: a fifth of the time one run's own transaction takes).
  let waiting: StoredRun[] = [];
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const batch = waiting;
    waiting = [];
    if (batch.length === 0) return;
    if (batch.length === 1 || !store.saveBatch) return batch.forEach(saveOne);
    try {
      store.saveBatch(batch);
    } catch {
      // One run that cannot be stored must not cost the batch: store them one by one to find it.
      return batch.forEach(saveOne);
    }
    batch.forEach(stored);
  };

  const limit = pLimit(options.concurrency);
  await Promise.all(
    runIds.map((runId) =>
      limit(async () => {
        let judged: JudgedRun;
        try {
          judged = await judgeRun((id) => store.load(id), active, runId);
        } catch (error) {
          return fail(runId, error);
        }
        waiting.push({ runId, ...judged });
        if (waiting.length >= STORE_BATCH_RUNS) flush();
        else timer ??= setTimeout(flush, STORE_BATCH_MS);
      }),
    ),
  );
  flush();
  return { evaluated: runIds.length - failures.length, failures, violations };
}

function judgeIdOf(active: Pick<RunJudge, "label" | "judgeIdByMetric">, metric: string): number {
  const id = active.judgeIdByMetric.get(metric);
  if (id === undefined)
    throw new AppError("INTERNAL", `the ${active.label} judged ${metric}, which it has no judge row for`);
  return id;
}
