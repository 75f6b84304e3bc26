/**
 * The evaluation's reads and writes: everything a judge needs about one run, which runs still
 * lack a judge's verdicts, and storing a run's verdicts with its artifacts (one transaction per run).
 */
import { and, eq, like, sql } from "drizzle-orm";
import {
  BUNDLE_MEMBERS,
  FULL_EVIDENCE,
  LimitsSchema,
  TrajectoryStepSchema,
  type EnvironmentSnapshot,
} from "@/lib/bundle/schema";
import { sha256Hex } from "@/lib/bundle/parse";
import { deepFreeze } from "@/lib/util/deep-freeze";
import { LruCache } from "@/lib/util/lru-cache";
import { AppError } from "@/lib/errors/app-error";
import type { EvaluationStore, NewArtifact } from "@/lib/judge/evaluate-runs";
import type { EvaluatedChange, EvaluationInput } from "@/lib/judge/schema";
import { METRIC_IDS } from "@/lib/metrics/catalog";
import type { Instance } from "@/lib/benchmark/schema";
import type { Db } from "../client";
import { preparedPerConnection } from "../prepared";
import * as t from "../schema";
import { storedWorkspaceManifest } from "./workspace-manifests";
import { instanceOfRow, type StoredSetupChange } from "./benchmarks";
import { taskCheckOf } from "./stored-task-check";
import { writeVerdictsInBulk } from "./bulk-verdicts";
import { writeVerdicts, type VerdictEntry } from "./verdicts";

/**
 * Runs that lack a verdict for some (metric, judge) pair: a judge scores its metrics, each under
 * its own judge row (an LLM judge has one per prompt version). `pattern` filters run ids (SQL
 * LIKE; `*` works too). In the order they are best judged in: by the DevEval sample their instance
 * comes from (else their instance), then by id. Runs of one sample share its original files, whose
 * analyses the rule judge keeps for a while (lib/analysis/report-cache.ts): in run-id order a study
 * of 12 configurations came back to each original after every other instance, long after its
 * analysis was let go.
 */
export function runsToEvaluate(
  db: Db,
  judgeByMetric: ReadonlyMap<string, number> | number,
  options: { pattern?: string; force?: boolean } = {},
): string[] {
  const pairs =
    typeof judgeByMetric === "number"
      ? METRIC_IDS.map((metric) => [metric, judgeByMetric] as const)
      : [...judgeByMetric];
  const pattern = options.pattern ? options.pattern.replace(/\*/g, "%") : "%";
  const ids = db
    .select({ id: t.runs.id })
    .from(t.runs)
    .leftJoin(t.instances, eq(t.instances.id, t.runs.instanceId))
    .where(like(t.runs.id, pattern))
    .orderBy(sql`coalesce(${t.instances.sourceSample}, ${t.runs.instanceId})`, t.runs.id)
    .all()
    .map((r) => r.id);
  if (options.force) return ids;
  const judged = db.$client.prepare<[string], { metric: string; judge_id: number }>(
    "SELECT metric, judge_id FROM verdicts WHERE run_id = ?",
  );
  return ids.filter((id) => {
    const have = new Set(judged.all(id).map((v) => `${v.metric}\0${v.judge_id}`));
    return pairs.some(([metric, judgeId]) => !have.has(`${metric}\0${judgeId}`));
  });
}

/**
 * The loader's queries, prepared once per connection: built and prepared afresh on every call they
 * were about half of the time to load a run (2 ms on the DevEval runs).
 */
function loaderQueries(db: Db) {
  const id = sql.placeholder("id");
  return {
    content: db
      .select({ content: t.fileContents.content })
      .from(t.fileContents)
      .where(eq(t.fileContents.sha256, id))
      .prepare(),
    run: db.select().from(t.runs).where(eq(t.runs.id, id)).prepare(),
    instance: db.select().from(t.instances).where(eq(t.instances.id, id)).prepare(),
    config: db
      .select({ limits: t.agentConfigs.limits, framework: t.agentConfigs.framework })
      .from(t.agentConfigs)
      .where(eq(t.agentConfigs.id, id))
      .prepare(),
    artifact: db
      .select({ sha256: t.runArtifacts.sha256 })
      .from(t.runArtifacts)
      .where(and(eq(t.runArtifacts.runId, id), eq(t.runArtifacts.path, sql.placeholder("path"))))
      .prepare(),
    changes: db.select().from(t.fileChanges).where(eq(t.fileChanges.runId, id)).prepare(),
    // The snapshot as stored text, parsed by snapshotOf.
    snapshots: db
      .select({ phase: t.environmentSnapshots.phase, text: sql<string>`${t.environmentSnapshots.snapshot}` })
      .from(t.environmentSnapshots)
      .where(eq(t.environmentSnapshots.runId, id))
      .prepare(),
    snapshotFile: db
      .select({ sha256: t.snapshotFiles.sha256 })
      .from(t.snapshotFiles)
      .where(and(eq(t.snapshotFiles.snapshotId, sql.placeholder("snapshot")), eq(t.snapshotFiles.path, id)))
      .prepare(),
  };
}

const queriesOf = preparedPerConnection(loaderQueries);

/**
 * Environment snapshots parsed lately, by their stored text less the time of capture: a run's
 * "after" most often differs from its "before" only in that, and the runs made on one machine
 * share the rest too, tens of kB of JSON each, whose parse was the largest part of loading a run.
 * The same rest gives the same frozen members (packages, git, outside files), which the rules then
 * know unchanged at a glance (system-metrics.ts).
 */
const parsedSnapshots = new LruCache<Omit<EnvironmentSnapshot, "capturedAt">>({ entries: 4, bytes: 16 * 1024 * 1024 });
/**
 * How a stored snapshot begins (its schema's first member, as JSON.stringify writes it), more
 * members after it: any other text is parsed whole.
 */
const CAPTURED_AT = /^\{"capturedAt":("(?:[^"\\]|\\.)*"|null),(?!\s*\})/;

function snapshotOf(text: string): EnvironmentSnapshot {
  const at = CAPTURED_AT.exec(text);
  if (!at) return JSON.parse(text) as EnvironmentSnapshot;
  const rest = `{${text.slice(at[0].length)}`;
  let shared = parsedSnapshots.get(rest);
  if (!shared) {
    shared = deepFreeze(JSON.parse(rest) as Omit<EnvironmentSnapshot, "capturedAt">);
    parsedSnapshots.set(rest, shared, 2 * rest.length);
  }
  return Object.freeze({ capturedAt: JSON.parse(at[1]!) as string, ...shared });
}

type InstanceRow = typeof t.instances.$inferSelect;

/**
 * Instances read by one evaluation, by id: runs of one instance share it, and its row and its
 * parse were a fifth of the time to load a run. Inputs share the objects, which nothing changes.
 * Emptied past INSTANCE_MEMO_SIZE (the study's 9,000 instances would hold tens of MB).
 */
export type InstanceMemo = Map<string, { row: InstanceRow; instance: Instance }>;

const INSTANCE_MEMO_SIZE = 1000;

export function loadEvaluationInput(db: Db, runId: string, instances?: InstanceMemo): EvaluationInput {
  const q = queriesOf(db);
  const contentOf = (sha256: string | null): Buffer | null =>
    sha256 ? (q.content.get({ id: sha256 })?.content ?? null) : null;
  const run = q.run.get({ id: runId });
  if (!run) throw new AppError("NOT_FOUND", `run "${runId}" not found`);
  let memo = instances?.get(run.instanceId);
  if (!memo) {
    const row = q.instance.get({ id: run.instanceId });
    if (!row) throw new AppError("INTERNAL", `instance of run "${runId}" is missing`);
    memo = { row, instance: instanceOfRow(row) };
    if (instances && instances.size >= INSTANCE_MEMO_SIZE) instances.clear();
    instances?.set(run.instanceId, memo);
  }
  const { row: instanceRow, instance } = memo;
  const config = q.config.get({ id: run.agentConfigId });

  const artifact = (path: string) => contentOf(q.artifact.get({ id: runId, path })?.sha256 ?? null);
  const steps = (artifact(BUNDLE_MEMBERS.trajectory)?.toString("utf8") ?? "")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => TrajectoryStepSchema.parse(JSON.parse(line)));

  const changes: EvaluatedChange[] = q.changes.all({ id: runId }).map((c) => ({
    path: c.path,
    kind: c.kind as EvaluatedChange["kind"],
    before: contentOf(c.beforeSha256),
    after: contentOf(c.afterSha256),
    afterSize: c.afterSize,
  }));

  const snapshots = q.snapshots.all({ id: runId });
  const snapshot = (phase: string) => {
    const stored = snapshots.find((s) => s.phase === phase);
    return stored ? snapshotOf(stored.text) : null;
  };

  // Files as the task set them up: a changed file's "before", else the instance's setup or snapshot.
  const setupFiles = new Map<string, string>();
  const gt = instance.groundTruth;
  for (const path of [gt.originalFile, gt.destinationFile]) {
    if (!path) continue;
    const changed = changes.find((c) => c.path === path);
    if (changed) {
      if (changed.before) setupFiles.set(path, changed.before.toString("utf8"));
      continue;
    }
    const setup = (instanceRow.setup as StoredSetupChange[]).find((c) => c.path === path);
    let sha256: string | null = setup && !("delete" in setup) ? setup.sha256 : null;
    if (!setup && instanceRow.snapshotId !== null)
      sha256 = q.snapshotFile.get({ snapshot: instanceRow.snapshotId, id: path })?.sha256 ?? null;
    const content = contentOf(sha256);
    if (content) setupFiles.set(path, content.toString("utf8"));
  }

  const before = storedWorkspaceManifest(db, runId, BUNDLE_MEMBERS.workspaceBefore);
  const workspaceFiles = new Set(before ? before.files.map((f) => f.path) : []);
  for (const change of changes) if (change.kind === "created") workspaceFiles.add(change.path);

  const finalAnswer = [...steps].reverse().find((s) => s.kind === "message" && s.role === "assistant");
  const check = taskCheckOf(db, runId);
  return {
    runId,
    subtask: instance.subtask,
    prompt: instance.prompt,
    contract: instance.contract,
    groundTruth: instance.groundTruth,
    status: run.status as EvaluationInput["status"],
    exitReason: run.exitReason,
    limits: LimitsSchema.parse(config?.limits ?? {}),
    steps,
    changes,
    environmentBefore: snapshot("before"),
    environmentAfter: snapshot("after"),
    setupFiles,
    finalAnswer: finalAnswer?.kind === "message" ? finalAnswer.text : null,
    evidence: run.evidence ?? FULL_EVIDENCE,
    framework: config?.framework ?? null,
    workspaceRoot: run.workspaceRoot,
    workspaceFiles: [...workspaceFiles].sort(),
    taskCheck: check && { outcome: check.outcome, reason: check.reason, output: check.output, claimed: check.claimed },
  };
}

export function hasArtifact(db: Db, runId: string, path: string): boolean {
  return (
    db
      .select({ path: t.runArtifacts.path })
      .from(t.runArtifacts)
      .where(and(eq(t.runArtifacts.runId, runId), eq(t.runArtifacts.path, path)))
      .get() !== undefined
  );
}

/** A run's verdicts and the artifacts its evaluation produced, as saved together. */
export interface RunEvaluation {
  runId: string;
  entries: readonly VerdictEntry[];
  artifacts: readonly NewArtifact[];
}

/** Writes one run's evaluation; the caller holds the transaction. */
function writeEvaluation(db: Db, { runId, entries, artifacts }: RunEvaluation): void {
  for (const a of artifacts) {
    const sha256 = sha256Hex(a.data);
    db.insert(t.fileContents)
      .values({ sha256, size: a.data.length, isText: true, content: a.data })
      .onConflictDoNothing()
      .run();
    db.insert(t.runArtifacts)
      .values({ runId, path: a.path, kind: a.kind, sha256, size: a.data.length })
      .onConflictDoUpdate({
        target: [t.runArtifacts.runId, t.runArtifacts.path],
        set: { sha256, size: a.data.length },
      })
      .run();
  }
  writeVerdicts(db, runId, entries);
}

/**
 * Replaces, in one transaction, each (metric, judge) verdict given for the run, and adds the
 * artifacts the evaluation produced (e.g. `reports/ast.json`).
 */
export function saveJudgedVerdicts(
  db: Db,
  runId: string,
  entries: readonly VerdictEntry[],
  artifacts: readonly NewArtifact[] = [],
): void {
  // One run: the verdict triggers do less than dropping and recreating them would (a schema change
  // makes every prepared statement of the connection prepare again).
  db.$client.transaction(() => writeEvaluation(db, { runId, entries, artifacts }))();
}

/**
 * Several runs' evaluations in one transaction (the parallel evaluation stores each batch its
 * workers send back at once: one commit instead of one per run), with the verdicts' derived rows
 * refreshed once per run and judge (bulk-verdicts.ts): a batch of 248 real runs is stored in
 * 0.2-0.4 ms a run instead of 1.6-2.0 ms.
 */
export function saveEvaluations(db: Db, evaluations: readonly RunEvaluation[]): void {
  const written = evaluations.flatMap(({ runId, entries }) => entries.map(({ judgeId }) => ({ runId, judgeId })));
  writeVerdictsInBulk(db, written, () => {
    for (const evaluation of evaluations) writeEvaluation(db, evaluation);
  });
}

/** The evaluation loop's reads and writes (lib/judge/evaluate-runs.ts) on this database. */
export function evaluationStore(db: Db): EvaluationStore {
  const instances: InstanceMemo = new Map();
  return {
    load: (runId) => loadEvaluationInput(db, runId, instances),
    hasArtifact: (runId, path) => hasArtifact(db, runId, path),
    save: (runId, verdicts, artifacts) => saveJudgedVerdicts(db, runId, verdicts, artifacts),
    saveBatch: (runs) =>
      saveEvaluations(
        db,
        runs.map(({ runId, verdicts, artifacts }) => ({ runId, entries: verdicts, artifacts })),
      ),
  };
}
