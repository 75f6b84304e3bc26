/**
 * Writes one parsed bundle in one synchronous transaction: all of it lands, or none of it.
 * Upserts on natural keys, so importing the same bundle again changes nothing.
 */
import { mitigationOf } from "@/lib/codekit/mitigation";
import { createHash } from "node:crypto";
import type { Statement } from "better-sqlite3";
import { eq } from "drizzle-orm";
import { BundleError } from "@/lib/bundle/errors";
import type { ParsedBundle } from "@/lib/bundle/parse";
import type { BoundaryContract } from "@/lib/benchmark/schema";
import type { AgentConfig, TrajectoryStep } from "@/lib/bundle/schema";
import { EXTERNAL_SUBTASK } from "@/lib/benchmark/subtasks";
import { AppError } from "@/lib/errors/app-error";
import { canonicalJson } from "@/lib/util/canonical-json";
import type { Db } from "../client";
import { preparedPerConnection } from "../prepared";
import { instanceRow } from "./benchmarks";
import { indexRunText } from "./run-search";
import { ensureJudge, writeVerdicts } from "./verdicts";
import { resolveAgainstInstance } from "./workspace-manifests";
import * as t from "../schema";

/** The source of a benchmark that runs made elsewhere brought (SWE-bench, an Inspect task): not one of ours. */
export const EXTERNAL_BENCHMARK_SOURCE = "external";

export type ImportOutcome = "imported" | "unchanged" | "replaced";

export interface ImportResult {
  runId: string;
  outcome: ImportOutcome;
}

export interface ImportOptions {
  via: "cli" | "http" | "runner";
  /** Replace a run of the same id that was imported from a different bundle. */
  replace?: boolean;
  jobId?: number | null;
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export function agentConfigId(agent: AgentConfig): string {
  return createHash("sha256").update(canonicalJson(agent)).digest("hex").slice(0, 16);
}

export function importParsedBundle(db: Db, parsed: ParsedBundle, options: ImportOptions): ImportResult {
  const { manifest } = parsed;
  const runId = manifest.runId;
  return db.transaction((tx) => {
    const existing = tx.select({ digest: t.runs.bundleDigest }).from(t.runs).where(eq(t.runs.id, runId)).get();
    if (existing?.digest === parsed.digest) return { runId, outcome: "unchanged" as const };
    if (existing && !options.replace) {
      throw new AppError(
        "CONFLICT",
        `${parsed.label}: run "${runId}" was already imported from a different bundle; pass --replace to overwrite it`,
      );
    }
    let caseStudy: typeof t.caseStudies.$inferSelect | undefined;
    if (existing) {
      const inAgreementSet = tx
        .select({ setId: t.agreementItems.setId })
        .from(t.agreementItems)
        .where(eq(t.agreementItems.runId, runId))
        .get();
      if (inAgreementSet) {
        throw new AppError(
          "CONFLICT",
          `${parsed.label}: run "${runId}" is in an agreement set; replacing it would detach its human labels`,
        );
      }
      caseStudy = tx.select().from(t.caseStudies).where(eq(t.caseStudies.runId, runId)).get();
      // Cascades to the run's steps, changes, snapshots, artifacts and verdicts: all were about the old bundle.
      tx.delete(t.runs).where(eq(t.runs.id, runId)).run();
    }

    ensureInstance(tx, parsed);
    // Version 4: the full manifests, from the workspace changes and the instance's prepared workspace.
    const { bundle, base } = resolveAgainstInstance(db, parsed);
    const configId = agentConfigId(manifest.agent);
    tx.insert(t.agentConfigs)
      .values({
        id: configId,
        name: manifest.agent.name,
        framework: manifest.agent.framework,
        frameworkVersion: manifest.agent.frameworkVersion,
        model: manifest.agent.model,
        provider: manifest.agent.provider,
        tools: manifest.agent.tools,
        guidelines: manifest.agent.guidelines,
        limits: manifest.agent.limits,
        options: manifest.agent.options,
        mitigation: mitigationOf(manifest.agent.options),
      })
      .onConflictDoNothing()
      .run();

    const hot = hotStatements(db);
    for (const member of bundle.members) {
      hot.insertContent.run(member.sha256, member.size, member.isText ? 1 : 0, member.data);
    }
    // Stored once per prepared workspace, by its digest: what the run's workspace members expand
    // against later, even after the instance's repository snapshot is rebuilt.
    if (base) hot.insertContent.run(base.digest, base.bytes.length, 1, base.bytes);

    const startedAt = new Date(manifest.startedAt);
    const finishedAt = new Date(manifest.finishedAt);
    tx.insert(t.runs)
      .values({
        id: runId,
        instanceId: manifest.instanceId,
        agentConfigId: configId,
        status: manifest.status,
        exitReason: manifest.exitReason,
        error: manifest.error,
        scripted: manifest.scripted,
        startedAt: startedAt.toISOString(),
        finishedAt: finishedAt.toISOString(),
        durationMs: finishedAt.getTime() - startedAt.getTime(),
        stepCount: bundle.steps.length,
        modelCalls: manifest.usage.modelCalls,
        inputTokens: manifest.usage.inputTokens,
        outputTokens: manifest.usage.outputTokens,
        costUsd: manifest.usage.costUsd,
        taskCompleted: manifest.taskCompleted,
        filesBefore: bundle.workspaceBefore.files.length,
        filesAfter: bundle.workspaceAfter.files.length,
        bundleDigest: bundle.digest,
        bundleVersion: manifest.version,
        importedVia: options.via,
        source: manifest.source ?? null,
        evidence: manifest.evidence ?? null,
        workspaceRoot: manifest.workspaceRoot ?? null,
        mitigation: manifest.mitigation ?? null,
        jobId: options.jobId ?? null,
      })
      .run();

    bundle.steps.forEach((step, position) => hot.insertStep.run(stepRow(runId, position, step)));

    if (bundle.changes.length > 0) {
      tx.insert(t.fileChanges)
        .values(
          bundle.changes.map((c) => ({
            runId,
            path: c.path,
            kind: c.kind,
            // A side kept by size and hash only has no file_contents row to reference: its hash stays in
            // the stored workspace manifest (db/queries/omitted-content.ts), its size here.
            beforeSha256: c.before && !c.before.contentOmitted ? c.before.sha256 : null,
            afterSha256: c.after && !c.after.contentOmitted ? c.after.sha256 : null,
            beforeMode: c.before?.mode ?? null,
            afterMode: c.after?.mode ?? null,
            beforeSize: c.before?.size ?? null,
            afterSize: c.after?.size ?? null,
          })),
        )
        .run();
    }

    for (const [phase, snapshot] of [
      ["before", bundle.environmentBefore],
      ["after", bundle.environmentAfter],
    ] as const) {
      if (snapshot) {
        tx.insert(t.environmentSnapshots).values({ runId, phase, capturedAt: snapshot.capturedAt, snapshot }).run();
      }
    }

    for (const m of bundle.members) hot.insertArtifact.run(runId, m.path, m.kind, m.sha256, m.size);

    writeVerdicts(
      db,
      runId,
      bundle.verdicts.map((verdict) => ({ judgeId: ensureJudge(tx, verdict.judge), verdict })),
    );
    indexRunText(tx, runId);
    // A case study is a person's note about the run, not part of the bundle: it survives a replace.
    if (caseStudy) tx.insert(t.caseStudies).values(caseStudy).run();

    return { runId, outcome: existing ? ("replaced" as const) : ("imported" as const) };
  });
}

/** The run's instance must be known, or come with the bundle (instance.json). */
function ensureInstance(tx: Tx, bundle: ParsedBundle): void {
  const { manifest, instance } = bundle;
  const stored = tx.select().from(t.instances).where(eq(t.instances.id, manifest.instanceId)).get();
  if (stored) {
    if (stored.benchmarkId !== manifest.benchmark) {
      throw new BundleError(
        { bundle: bundle.label, member: "manifest.json", field: "benchmark" },
        `instance "${manifest.instanceId}" belongs to benchmark "${stored.benchmarkId}", not "${manifest.benchmark}"`,
      );
    }
    if (instance?.subtask === EXTERNAL_SUBTASK && stored.subtaskId === EXTERNAL_SUBTASK) {
      ensureSameExternalTask(tx, bundle, stored.contract as BoundaryContract);
      return;
    }
    if (instance) {
      const differing = (["subtask", "prompt", "contract", "groundTruth"] as const).find((field) => {
        const storedValue = field === "subtask" ? stored.subtaskId : stored[field];
        return canonicalJson(storedValue) !== canonicalJson(instance[field]);
      });
      if (differing) {
        throw new BundleError(
          { bundle: bundle.label, member: "instance.json", field: differing },
          `differs from the stored instance "${manifest.instanceId}": the run was made on another version of the task`,
        );
      }
    }
    return;
  }
  if (!instance) {
    throw new BundleError(
      { bundle: bundle.label, member: "manifest.json", field: "instanceId" },
      `instance "${manifest.instanceId}" is not in the database and the bundle has no instance.json`,
    );
  }
  tx.insert(t.benchmarks)
    .values({
      id: instance.benchmark,
      name: instance.benchmark,
      source: instance.subtask === EXTERNAL_SUBTASK ? EXTERNAL_BENCHMARK_SOURCE : "imported",
    })
    .onConflictDoNothing()
    .run();
  tx.insert(t.instances).values(instanceRow(instance)).run();
}

/**
 * A task from another benchmark is met by logs of many frameworks, each wrapping its text its own
 * way: the first text stays. Its contract is knowledge about the task: one given later completes an
 * instance that had none (earlier runs are then re-judged with `npm run evaluate -- --force`); two
 * different contracts for one instance are refused.
 */
function ensureSameExternalTask(tx: Tx, bundle: ParsedBundle, stored: BoundaryContract): void {
  const given = bundle.instance!.contract;
  if (given.origin === "none" || canonicalJson(given) === canonicalJson(stored)) return;
  if (stored.origin === "none") {
    tx.update(t.instances).set({ contract: given }).where(eq(t.instances.id, bundle.manifest.instanceId)).run();
    return;
  }
  throw new BundleError(
    { bundle: bundle.label, member: "instance.json", field: "contract" },
    `instance "${bundle.manifest.instanceId}" already has another contract (from its ${stored.origin === "gold_patch" ? "gold patch" : "contract file"}); import with the same --contract or --gold`,
  );
}

/**
 * The three statements run once per step or member are prepared once per connection: building
 * them through the query builder cost ~3 ms per bundle, half the import time (bench:ingest).
 */
interface HotStatements {
  insertContent: Statement<[string, number, number, Buffer]>;
  insertStep: Statement<[StepRow]>;
  insertArtifact: Statement<[string, string, string, string, number]>;
}
const hotStatements = preparedPerConnection((db): HotStatements => {
  const sqlite = db.$client;
  return {
    insertContent: sqlite.prepare(
      "INSERT INTO file_contents (sha256, size, is_text, content) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
    ),
    insertStep: sqlite.prepare(
      `INSERT INTO trajectory_steps (run_id, position, step_id, kind, role, timestamp, text, tool_name, tool_arguments,
         call_id, command, exit_code, is_error, path, duration_ms, input_tokens, output_tokens)
       VALUES (@runId, @position, @stepId, @kind, @role, @timestamp, @text, @toolName, @toolArguments,
         @callId, @command, @exitCode, @isError, @path, @durationMs, @inputTokens, @outputTokens)`,
    ),
    insertArtifact: sqlite.prepare(
      "INSERT INTO run_artifacts (run_id, path, kind, sha256, size) VALUES (?, ?, ?, ?, ?)",
    ),
  };
});

/** A trajectory_steps row as SQLite stores it (JSON as text, booleans as 0/1). */
interface StepRow {
  runId: string;
  position: number;
  stepId: string;
  kind: string;
  role: string | null;
  timestamp: string | null;
  text: string | null;
  toolName: string | null;
  toolArguments: string | null;
  callId: string | null;
  command: string | null;
  exitCode: number | null;
  isError: number | null;
  path: string | null;
  durationMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
}

function stepRow(runId: string, position: number, step: TrajectoryStep): StepRow {
  const row: StepRow = {
    runId,
    position,
    stepId: step.id,
    kind: step.kind,
    role: null,
    timestamp: step.timestamp ? new Date(step.timestamp).toISOString() : null,
    text: null,
    toolName: null,
    toolArguments: null,
    callId: "callId" in step ? (step.callId ?? null) : null,
    command: null,
    exitCode: null,
    isError: null,
    path: null,
    durationMs: step.durationMs === undefined ? null : Math.round(step.durationMs),
    inputTokens: step.inputTokens ?? null,
    outputTokens: step.outputTokens ?? null,
  };
  switch (step.kind) {
    case "message":
      return { ...row, role: step.role, text: step.text };
    case "tool_call":
      return { ...row, toolName: step.tool, toolArguments: JSON.stringify(step.arguments ?? null) };
    case "observation":
      return { ...row, text: step.text, isError: step.isError ? 1 : 0 };
    case "shell": {
      const failed = step.timedOut || (step.exitCode !== null && step.exitCode !== 0);
      return { ...row, command: step.command, exitCode: step.exitCode, text: step.output, isError: failed ? 1 : 0 };
    }
    case "file_read":
    case "file_write":
    case "file_delete":
      return { ...row, path: step.path };
  }
}
