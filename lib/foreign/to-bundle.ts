/**
 * A run read from a foreign log, as one of our run bundles (version 3, docs/run-bundle.md): the
 * bundle is then parsed, stored and judged exactly like a run of our own runner. What the log did
 * not capture is said so in the manifest's `evidence` (docs/foreign-runs.md), never made up:
 * - the task: one of our instances when the log names one the caller knows, else an instance of an
 *   external benchmark (`swe-bench-verified/django__django-11163`, subtask `external`) whose
 *   contract is the one given (`--contract`, `--gold`) or none;
 * - the files: from the run's repo diff, their contents rebuilt when a repository is given
 *   (`--repo`); without a diff, none are known (`evidence.workspace: "none"`), and the rules go by
 *   the trajectory's edit actions alone;
 * - the original file, verbatim, as `native/<format>/<name>`, its sha256 in the manifest's `source`.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { GroundTruthSchema, type BoundaryContract, type Instance } from "@/lib/benchmark/schema";
import { EXTERNAL_SUBTASK } from "@/lib/benchmark/subtasks";
import { sha256Hex } from "@/lib/bundle/parse";
import type { BundleFiles } from "@/lib/bundle/read";
import {
  BUNDLE_FORMAT,
  BUNDLE_MEMBERS,
  CONTENT_DIR,
  NATIVE_DIR,
  REPO_DIFF_MEMBER,
  type CapturedEvidence,
  type ManifestEntry,
  type RunManifest,
  type TrajectoryStep,
} from "@/lib/bundle/schema";
import { canonicalJson } from "@/lib/util/canonical-json";
import { explainUnsafeRelativePath } from "@/lib/util/relative-path";
import { NO_CONTRACT } from "./contract";
import { changesFromPatch, type FileChange } from "./patch-apply";
import type { RepoReader } from "./repo";
import { ForeignFormatError, type ForeignFile, type ForeignFormat, type ForeignRun } from "./types";

/** The benchmark of a run whose log names none, and the caller gave none. */
export const UNKNOWN_BENCHMARK = "external";

/** A repository larger than this is not snapshotted whole: only the files the diff names are rebuilt. */
export const MAX_SNAPSHOT_FILES = 20_000;
export const MAX_SNAPSHOT_BYTES = 512 * 1024 * 1024;

export interface ForeignBundleOptions {
  /** One of our instances as `{ id, benchmark }` when the log names one the caller knows (ingest asks the database). */
  ourInstance?: (instanceId: string) => { id: string; benchmark: string } | null;
  /** The external benchmark when the log does not say (`--benchmark`). */
  benchmark?: string | null;
  /** The contract of an external instance (`--contract`, `--gold`), by the instance id the log names. */
  contractFor?: (instanceId: string | null) => BoundaryContract | null;
  /** The repository the run started from (`--repo DIR[@rev]`): file contents before and after the diff. */
  repo?: RepoReader | null;
}

export interface ForeignBundle {
  /** How the run is named in messages: `file.jsonl#3`. */
  label: string;
  runId: string;
  files: BundleFiles;
  /** What of the log could not be used, the run still imported (a diff that does not parse). */
  warnings: string[];
}

const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");
const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 1)}\n`);
const EPOCH = "1970-01-01T00:00:00.000Z";

/** The stable id of a foreign run: the same file read the same way gets the same id, so re-imports are no-ops. */
export function foreignRunId(fileSha256: string, index: number): string {
  return `x-${fileSha256.slice(0, 16)}-${index}`;
}

export async function foreignBundle(
  file: ForeignFile,
  format: ForeignFormat,
  run: ForeignRun,
  options: ForeignBundleOptions = {},
): Promise<ForeignBundle> {
  const fileSha256 = sha256Hex(file.data);
  const runId = foreignRunId(fileSha256, run.index);
  const label = run.index === 0 ? file.name : `${file.name}#${run.index}`;
  const steps = withTextsCut(uniqueStepIds(run.steps));
  const { instance, instanceRef } = taskOf(run, runId, options);
  const warnings: string[] = [];
  const workspace = await workspaceOf(run, options.repo ?? null, label, warnings);
  const evidence: CapturedEvidence = {
    trajectory: run.hasTrajectory,
    workspace: workspace.kind,
    environment: false,
  };
  const times = timesOf(run, steps);
  const manifest: RunManifest = {
    format: BUNDLE_FORMAT,
    version: 3,
    runId,
    benchmark: instanceRef.benchmark,
    instanceId: instanceRef.id,
    agent: {
      name: fitted([run.agent.framework, run.agent.model].filter(Boolean).join(" "), ID_LIMIT),
      framework: fitted(run.agent.framework, NAME_LIMIT),
      frameworkVersion: run.agent.frameworkVersion === null ? null : fitted(run.agent.frameworkVersion, NAME_LIMIT),
      model: fitted(run.agent.model ?? "unknown", ID_LIMIT),
      provider: fitted(run.agent.provider ?? "unknown", NAME_LIMIT),
      tools: [],
      guidelines: null,
      limits: {},
      options: {},
    },
    scripted: false,
    status: run.status,
    exitReason: run.exitReason,
    error: run.error === null ? null : run.error.slice(0, 20_000),
    startedAt: times.startedAt,
    finishedAt: times.finishedAt,
    usage: run.usage,
    taskCompleted: null,
    source: {
      format: format.id,
      formatVersion: run.formatVersion === null ? null : fitted(run.formatVersion, NAME_LIMIT),
      readerVersion: format.readerVersion,
      file: path.basename(file.name).slice(0, 1000) || "file",
      sha256: fileSha256,
      index: run.index,
    },
    evidence,
    workspaceRoot: run.workspaceRoot,
  };

  const files: BundleFiles = new Map();
  files.set(BUNDLE_MEMBERS.manifest, json(manifest));
  files.set(BUNDLE_MEMBERS.trajectory, Buffer.from(steps.map((s) => `${canonicalJson(s)}\n`).join("")));
  files.set(BUNDLE_MEMBERS.workspaceBefore, json({ files: workspace.before }));
  files.set(BUNDLE_MEMBERS.workspaceAfter, json({ files: workspace.after }));
  for (const [sha, data] of workspace.contents) files.set(`${CONTENT_DIR}${sha}`, data);
  if (instance) files.set(BUNDLE_MEMBERS.instance, json(instance));
  files.set(`${NATIVE_DIR}${format.id}/${nativeName(file.name)}`, file.data);
  if (run.patch !== null) files.set(REPO_DIFF_MEMBER, Buffer.from(run.patch));
  return { label, runId, files, warnings };
}

/** Step ids as the reader gave them, within the bundle's 200 characters and made unique (`id~2`). */
function uniqueStepIds(steps: readonly TrajectoryStep[]): TrajectoryStep[] {
  const used = new Set<string>();
  return steps.map((step) => {
    const base = fitted(step.id, ID_LIMIT - 8);
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}~${n}`;
    used.add(id);
    const callId = "callId" in step && step.callId !== undefined ? fitted(step.callId, ID_LIMIT) : undefined;
    return { ...step, id, ...(callId !== undefined ? { callId } : {}) } as TrajectoryStep;
  });
}

/** The bundle's limits on ids and names (lib/bundle/schema.ts). */
const ID_LIMIT = 200;
const NAME_LIMIT = 100;

/** A name or id within `limit` characters: cut, with a short hash of the whole so distinct ones stay distinct. */
function fitted(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit - 13)}~${sha256(text).slice(0, 12)}`;
}

/**
 * Step texts are cut to a head and a tail (the native log keeps them whole) so one runaway output
 * cannot push the run over the bundle's JSON budget (STUDIO_BUNDLE_MAX_JSON_BYTES): 256 KB a
 * field, or 16 KB when the whole trajectory would still be over 16 MB.
 */
const TEXT_LIMITS = [256 * 1024, 16 * 1024];
const TRAJECTORY_TEXT_BUDGET = 16 * 1024 * 1024;

function cutText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const half = Math.floor(limit / 2);
  const cut = text.length - 2 * half;
  return `${text.slice(0, half)}\n[... ${cut} characters cut at import; the native log keeps them ...]\n${text.slice(-half)}`;
}

function withTextsCut(steps: readonly TrajectoryStep[]): TrajectoryStep[] {
  const textOf = (s: TrajectoryStep) =>
    s.kind === "message" || s.kind === "observation"
      ? s.text.length
      : s.kind === "shell"
        ? s.command.length + (s.output?.length ?? 0)
        : s.kind === "tool_call"
          ? JSON.stringify(s.arguments ?? null).length
          : 0;
  const total = steps.reduce((sum, s) => sum + textOf(s), 0);
  const limit = total > TRAJECTORY_TEXT_BUDGET ? TEXT_LIMITS[1]! : TEXT_LIMITS[0]!;
  return steps.map((s) => {
    switch (s.kind) {
      case "message":
      case "observation":
        return { ...s, text: cutText(s.text, limit) };
      case "shell":
        return { ...s, command: cutText(s.command, limit), output: cutText(s.output ?? "", limit) };
      case "tool_call": {
        const args = JSON.stringify(s.arguments ?? null);
        return {
          ...s,
          tool: fitted(s.tool, ID_LIMIT),
          arguments: args.length > limit ? { cut_at_import: cutText(args, limit) } : s.arguments,
        };
      }
      default:
        return s;
    }
  });
}

function timesOf(run: ForeignRun, steps: readonly TrajectoryStep[]): { startedAt: string; finishedAt: string } {
  const stamps = steps
    .map((s) => s.timestamp)
    .filter((t): t is string => t !== undefined)
    .sort((a, b) => Date.parse(a) - Date.parse(b));
  const startedAt = run.startedAt ?? stamps[0] ?? run.finishedAt ?? EPOCH;
  let finishedAt = run.finishedAt ?? stamps.at(-1) ?? startedAt;
  if (Date.parse(finishedAt) < Date.parse(startedAt)) finishedAt = startedAt;
  return { startedAt: new Date(startedAt).toISOString(), finishedAt: new Date(finishedAt).toISOString() };
}

function taskOf(
  run: ForeignRun,
  runId: string,
  options: ForeignBundleOptions,
): { instance: Instance | null; instanceRef: { id: string; benchmark: string } } {
  const named = run.task.instanceId;
  const ours = named ? (options.ourInstance?.(named) ?? null) : null;
  if (ours) return { instance: null, instanceRef: ours };
  const benchmark = benchmarkId(options.benchmark ?? run.task.benchmark ?? UNKNOWN_BENCHMARK);
  const id = `${benchmark}/${named ? instanceIdPart(named) : runId}`;
  const instance: Instance = {
    id,
    benchmark,
    subtask: EXTERNAL_SUBTASK,
    sourceSample: named,
    prompt: (run.task.prompt?.trim() || `(the log of ${run.agent.framework} holds no task text)`).slice(0, 100_000),
    paraphraseIndex: null,
    contract: options.contractFor?.(named) ?? NO_CONTRACT,
    groundTruth: GroundTruthSchema.parse({}),
  };
  return { instance, instanceRef: { id, benchmark } };
}

/** A benchmark id of letters, digits and . _ - (lib/benchmark/schema.ts), from what the log or the user said. */
function benchmarkId(name: string): string {
  const id = name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[^a-z0-9]+/, "")
    .slice(0, 100);
  return id || UNKNOWN_BENCHMARK;
}

function instanceIdPart(name: string): string {
  return name.replace(/[^A-Za-z0-9._:@+-]+/g, "-").slice(0, 180) || "instance";
}

function nativeName(name: string): string {
  return (
    path
      .basename(name)
      .replace(/[^A-Za-z0-9._-]+/g, "_")
      .replace(/^\.+/, "_") || "log"
  );
}

interface ForeignWorkspace {
  kind: CapturedEvidence["workspace"];
  before: ManifestEntry[];
  after: ManifestEntry[];
  contents: Map<string, Buffer>;
}

/** A side whose content nobody has: listed so the change is recorded, with no size or hash. */
const notCaptured = (filePath: string): ManifestEntry => ({
  path: filePath,
  size: null,
  mode: 0o100644,
  sha256: null,
  contentOmitted: "not_captured",
});

async function workspaceOf(
  run: ForeignRun,
  repo: RepoReader | null,
  label: string,
  warnings: string[],
): Promise<ForeignWorkspace> {
  const contents = new Map<string, Buffer>();
  const known = (filePath: string, data: Buffer): ManifestEntry => {
    const sha = sha256(data);
    contents.set(sha, data);
    return { path: filePath, size: data.length, mode: 0o100644, sha256: sha };
  };
  const sorted = (entries: ManifestEntry[]) => entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  // No repo diff: which files changed is not known (the rules read the trajectory's edit actions).
  if (run.patch === null) return { kind: "none", before: [], after: [], contents };

  let changes: FileChange[];
  try {
    changes = await changesFromPatch(run.patch, repo, label);
  } catch (error) {
    // A diff that does not parse (models write hunk headers with wrong counts) loses its files,
    // not the run; one that does not fit the repository given is the user's error.
    if (repo || !(error instanceof ForeignFormatError)) throw error;
    warnings.push(`the repo diff could not be read, so which files changed is not known: ${error.message}`);
    return { kind: "none", before: [], after: [], contents };
  }
  const before: ManifestEntry[] = [];
  const after: ManifestEntry[] = [];
  const side = (change: FileChange, which: "before" | "after"): ManifestEntry | null => {
    const data = change[which];
    const isKnown = which === "before" ? change.beforeKnown : change.afterKnown;
    if (isKnown) return data === null ? null : known(change.path, data);
    return notCaptured(change.path);
  };
  for (const change of changes) {
    if (change.kind === "renamed" && change.oldPath) {
      const old = side({ ...change, path: change.oldPath }, "before");
      if (old) before.push(old);
    } else {
      const b = change.kind === "created" ? null : side(change, "before");
      if (b) before.push(b);
    }
    const a = change.kind === "deleted" ? null : side(change, "after");
    if (a) after.push(a);
  }

  const snapshot = repo ? await unchangedFiles(repo, changes) : null;
  if (snapshot) {
    before.push(...snapshot);
    after.push(...snapshot);
  }
  return { kind: snapshot ? "snapshot" : "patch", before: sorted(before), after: sorted(after), contents };
}

/** Every file of the repository the diff leaves alone, with its hash: the full snapshot a rebuilt workspace is. */
async function unchangedFiles(repo: RepoReader, changes: readonly FileChange[]): Promise<ManifestEntry[] | null> {
  const touched = new Set(changes.flatMap((c) => [c.path, c.oldPath].filter((p): p is string => p !== null)));
  const paths = repo.listFiles().filter((p) => !touched.has(p));
  if (paths.length > MAX_SNAPSHOT_FILES) return null;
  const entries: ManifestEntry[] = [];
  let bytes = 0;
  for (const filePath of paths) {
    if (explainUnsafeRelativePath(filePath)) continue;
    const data = await repo.readFile(filePath);
    if (data === null) continue;
    bytes += data.length;
    if (bytes > MAX_SNAPSHOT_BYTES) return null;
    entries.push({ path: filePath, size: data.length, mode: 0o100644, sha256: sha256(data) });
  }
  return entries;
}
