/**
 * Validates a bundle's members (already read into memory) and turns them into typed data.
 * Pure: no I/O, no database. Throws a BundleError naming the member, line and field.
 */
import { createHash } from "node:crypto";
import { isUtf8 } from "node:buffer";
import { InstanceSchema, type Instance } from "@/lib/benchmark/schema";
import { BundleError, type BundleLocation } from "./errors";
import { decodeUtf8, parseJsonMember, parseJsonText, validateJson } from "./decode";
import { checkJsonBytes, DEFAULT_MAX_JSON_BYTES } from "./json-budget";
import type { BundleFiles } from "./read";
import {
  AstReportFileSchema,
  BUNDLE_MEMBERS,
  BundleVerdictsSchema,
  CONTENT_DIR,
  DELTA_VERSION,
  MAX_WORKSPACE_CHANGES,
  EnvironmentSnapshotSchema,
  NATIVE_DIR,
  RunManifestSchema,
  TrajectoryStepSchema,
  WorkspaceDeltaSchema,
  WorkspaceManifestSchema,
  type BundleVerdict,
  type EnvironmentSnapshot,
  type ManifestEntry,
  type RunManifest,
  type TrajectoryStep,
  type WorkspaceDelta,
  type WorkspaceManifest,
} from "./schema";

export type ArtifactKind =
  | "manifest"
  | "trajectory"
  | "workspace"
  | "environment"
  | "instance"
  | "ast_report"
  | "verdicts"
  | "content"
  | "native";

export interface ParsedMember {
  path: string;
  kind: ArtifactKind;
  sha256: string;
  size: number;
  isText: boolean;
  data: Buffer;
}

export type FileChangeKind = "created" | "updated" | "deleted";

export interface FileChange {
  path: string;
  kind: FileChangeKind;
  before: ManifestEntry | null;
  after: ManifestEntry | null;
}

export interface ParsedBundle {
  label: string;
  /** sha256 over the sorted (path, sha256) of every member. */
  digest: string;
  manifest: RunManifest;
  steps: TrajectoryStep[];
  /**
   * The full manifests and the changes between them. For a version-4 bundle they are empty until
   * its `workspaceDelta` is resolved against the base (resolveWorkspaceDelta, which the importer calls).
   */
  workspaceBefore: WorkspaceManifest;
  workspaceAfter: WorkspaceManifest;
  changes: FileChange[];
  /** Version 4: the workspace members as they came, changes against the base named by `base`. */
  workspaceDelta: WorkspaceDeltaPair | null;
  environmentBefore: EnvironmentSnapshot | null;
  environmentAfter: EnvironmentSnapshot | null;
  instance: Instance | null;
  verdicts: BundleVerdict[];
  members: ParsedMember[];
}

export interface WorkspaceDeltaPair {
  /** sha256 of the base manifest's canonical bytes (workspace-delta.ts). */
  base: string;
  before: WorkspaceDelta;
  after: WorkspaceDelta;
}

const KNOWN_MEMBERS = new Map<string, ArtifactKind>([
  [BUNDLE_MEMBERS.manifest, "manifest"],
  [BUNDLE_MEMBERS.trajectory, "trajectory"],
  [BUNDLE_MEMBERS.workspaceBefore, "workspace"],
  [BUNDLE_MEMBERS.workspaceAfter, "workspace"],
  [BUNDLE_MEMBERS.environmentBefore, "environment"],
  [BUNDLE_MEMBERS.environmentAfter, "environment"],
  [BUNDLE_MEMBERS.instance, "instance"],
  [BUNDLE_MEMBERS.astReport, "ast_report"],
  [BUNDLE_MEMBERS.verdicts, "verdicts"],
]);

const REQUIRED_MEMBERS = [
  BUNDLE_MEMBERS.manifest,
  BUNDLE_MEMBERS.trajectory,
  BUNDLE_MEMBERS.workspaceBefore,
  BUNDLE_MEMBERS.workspaceAfter,
];

function kindOf(path: string, label: string): ArtifactKind {
  const known = KNOWN_MEMBERS.get(path);
  if (known) return known;
  if (path.startsWith(CONTENT_DIR)) return "content";
  if (path.startsWith(NATIVE_DIR)) return "native";
  throw new BundleError(
    { bundle: label, member: path },
    "unexpected member: a bundle holds manifest.json, trajectory.jsonl, workspace/, files/, environment/, instance.json, reports/ast.json, verdicts.json and native/ (docs/run-bundle.md)",
  );
}

/**
 * Hashes of large buffers already hashed, by identity: the runs of one foreign log (an OpenHands
 * output.jsonl holds thousands) each carry the same file as their native member.
 */
const largeHashes = new WeakMap<Buffer, string>();
const LARGE_BYTES = 1024 * 1024;

export function sha256Hex(data: Buffer): string {
  const known = data.length >= LARGE_BYTES ? largeHashes.get(data) : undefined;
  if (known) return known;
  const digest = createHash("sha256").update(data).digest("hex");
  if (data.length >= LARGE_BYTES) largeHashes.set(data, digest);
  return digest;
}

/** `maxJsonBytes`: the most bytes of all JSON members together (json-budget.ts). */
export function parseBundle(
  files: BundleFiles,
  label: string,
  maxJsonBytes = DEFAULT_MAX_JSON_BYTES,
  maxJsonBytesSetBy?: string,
): ParsedBundle {
  for (const required of REQUIRED_MEMBERS) {
    if (!files.has(required)) throw new BundleError({ bundle: label, member: required }, "required member is missing");
  }
  checkJsonBytes(files, label, maxJsonBytes, maxJsonBytesSetBy);
  const members: ParsedMember[] = [...files.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, data]) => ({
      path,
      kind: kindOf(path, label),
      sha256: sha256Hex(data),
      size: data.length,
      isText: isUtf8(data),
      data,
    }));
  const member = (path: string) => files.get(path);
  const at = (path: string) => ({ bundle: label, member: path });

  const manifest = parseJsonMember(member(BUNDLE_MEMBERS.manifest)!, RunManifestSchema, at(BUNDLE_MEMBERS.manifest));
  const steps = parseTrajectory(member(BUNDLE_MEMBERS.trajectory)!, label);
  let workspaceBefore: WorkspaceManifest = { files: [] };
  let workspaceAfter: WorkspaceManifest = { files: [] };
  let changes: FileChange[] = [];
  let workspaceDelta: WorkspaceDeltaPair | null = null;
  if (manifest.version >= DELTA_VERSION) {
    // Changes and contents are checked once the delta is resolved against its base (resolveWorkspaceDelta).
    workspaceDelta = parseDeltas(files, label);
  } else {
    workspaceBefore = parseFullManifest(member(BUNDLE_MEMBERS.workspaceBefore)!, at(BUNDLE_MEMBERS.workspaceBefore));
    workspaceAfter = parseFullManifest(member(BUNDLE_MEMBERS.workspaceAfter)!, at(BUNDLE_MEMBERS.workspaceAfter));
    checkOmittedContent(manifest, [workspaceBefore, workspaceAfter], label);
    changes = diffManifests(workspaceBefore, workspaceAfter);
    checkContents(changes, members, label);
  }

  const optional = <T>(path: string, parse: (data: Buffer) => T): T | null => {
    const data = member(path);
    return data === undefined ? null : parse(data);
  };
  const environmentBefore = optional(BUNDLE_MEMBERS.environmentBefore, (d) =>
    parseJsonMember(d, EnvironmentSnapshotSchema, at(BUNDLE_MEMBERS.environmentBefore)),
  );
  const environmentAfter = optional(BUNDLE_MEMBERS.environmentAfter, (d) =>
    parseJsonMember(d, EnvironmentSnapshotSchema, at(BUNDLE_MEMBERS.environmentAfter)),
  );
  const instance = optional(BUNDLE_MEMBERS.instance, (d) =>
    parseJsonMember(d, InstanceSchema, at(BUNDLE_MEMBERS.instance)),
  );
  if (instance && (instance.id !== manifest.instanceId || instance.benchmark !== manifest.benchmark)) {
    throw new BundleError(
      { ...at(BUNDLE_MEMBERS.instance), field: instance.id !== manifest.instanceId ? "id" : "benchmark" },
      instance.id !== manifest.instanceId
        ? `names instance "${instance.id}" but manifest.json names "${manifest.instanceId}"`
        : `names benchmark "${instance.benchmark}" but manifest.json names "${manifest.benchmark}"`,
    );
  }
  optional(BUNDLE_MEMBERS.astReport, (d) => parseJsonMember(d, AstReportFileSchema, at(BUNDLE_MEMBERS.astReport)));
  const verdicts =
    optional(BUNDLE_MEMBERS.verdicts, (d) => parseJsonMember(d, BundleVerdictsSchema, at(BUNDLE_MEMBERS.verdicts))) ??
    [];
  checkVerdicts(verdicts, steps, label);

  const digest = createHash("sha256");
  for (const m of members) digest.update(`${m.path}\0${m.sha256}\n`);

  return {
    label,
    digest: digest.digest("hex"),
    manifest,
    steps,
    workspaceBefore,
    workspaceAfter,
    changes,
    workspaceDelta,
    environmentBefore,
    environmentAfter,
    instance,
    verdicts,
    members,
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function parseFullManifest(data: Buffer, location: BundleLocation): WorkspaceManifest {
  const value = parseJsonText(decodeUtf8(data, location), location);
  if (isObject(value) && "base" in value && !("files" in value)) {
    throw new BundleError(
      location,
      `holds changes against a base, which needs "version": ${DELTA_VERSION} in manifest.json`,
    );
  }
  return validateJson(value, WorkspaceManifestSchema, location);
}

/** Both version-4 workspace members, which must name one base. */
function parseDeltas(files: BundleFiles, label: string): WorkspaceDeltaPair {
  const [before, after] = [BUNDLE_MEMBERS.workspaceBefore, BUNDLE_MEMBERS.workspaceAfter].map((name) => {
    const location = { bundle: label, member: name };
    const value = parseJsonText(decodeUtf8(files.get(name)!, location), location);
    if (isObject(value) && "files" in value && !("base" in value)) {
      throw new BundleError(
        location,
        `a version-${DELTA_VERSION} bundle lists changes against a base ({"base": {"digest": ...}, "changes": [...]}), not every file; write version 3 or lower for full manifests`,
      );
    }
    // Counted before any entry is validated: a list this long is refused without walking it.
    if (isObject(value) && Array.isArray(value.changes) && value.changes.length > MAX_WORKSPACE_CHANGES) {
      throw new BundleError(
        { ...location, field: "changes" },
        `${value.changes.length} changes, over the limit of ${MAX_WORKSPACE_CHANGES}`,
        "TOO_LARGE",
      );
    }
    return validateJson(value, WorkspaceDeltaSchema, location);
  }) as [WorkspaceDelta, WorkspaceDelta];
  if (before.base.digest !== after.base.digest) {
    throw new BundleError(
      { bundle: label, member: BUNDLE_MEMBERS.workspaceAfter, field: "base.digest" },
      `names base ${after.base.digest}, but workspace/before.json names ${before.base.digest}: both must name one base`,
    );
  }
  return { base: before.base.digest, before, after };
}

function parseTrajectory(data: Buffer, label: string): TrajectoryStep[] {
  const location = { bundle: label, member: BUNDLE_MEMBERS.trajectory };
  const text = decodeUtf8(data, location);
  const steps: TrajectoryStep[] = [];
  const firstLineOfId = new Map<string, number>();
  // Line by line instead of text.split("\n"): 64 MiB of newlines made one 512 MB array, a single
  // allocation larger than the worker's leeway at its heap cap, which aborts the whole process.
  for (let start = 0, line = 1; start <= text.length; line++) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    const raw = text.slice(start, end);
    start = end + 1;
    if (raw.trim() === "") continue;
    const step = validateJson(parseJsonText(raw, { ...location, line }), TrajectoryStepSchema, { ...location, line });
    const previous = firstLineOfId.get(step.id);
    if (previous !== undefined) {
      throw new BundleError(
        { ...location, line, field: "id" },
        `duplicate step id "${step.id}" (first used on line ${previous})`,
      );
    }
    firstLineOfId.set(step.id, line);
    steps.push(step);
  }
  return steps;
}

/** Full before/after manifests compared by content hash and mode, never by modification time. */
export function diffManifests(before: WorkspaceManifest, after: WorkspaceManifest): FileChange[] {
  const beforeByPath = new Map(before.files.map((e) => [e.path, e]));
  const afterByPath = new Map(after.files.map((e) => [e.path, e]));
  const changes: FileChange[] = [];
  for (const [path, b] of beforeByPath) {
    const a = afterByPath.get(path);
    if (!a) changes.push({ path, kind: "deleted", before: b, after: null });
    // A side not captured (a run made elsewhere) is listed only because the repo diff names the file.
    else if (a.sha256 === null || b.sha256 === null || a.sha256 !== b.sha256 || a.mode !== b.mode)
      changes.push({ path, kind: "updated", before: b, after: a });
  }
  for (const [path, a] of afterByPath) {
    if (!beforeByPath.has(path)) changes.push({ path, kind: "created", before: null, after: a });
  }
  return changes.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

/**
 * Every changed file's before and after content is present under files/<sha256>, and nothing else.
 * `held`: content the studio already has (a version-4 base's files, by sha256 -> size), which the
 * bundle leaves out.
 */
export function checkContents(
  changes: FileChange[],
  members: ParsedMember[],
  label: string,
  held?: ReadonlyMap<string, number>,
): void {
  // Each content hash, with every changed entry that has it (their sizes must all match).
  const needed = new Map<string, { entry: ManifestEntry; side: string }[]>();
  const need = (entry: ManifestEntry, side: string) => {
    if (entry.sha256 !== null && !held?.has(entry.sha256))
      needed.set(entry.sha256, [...(needed.get(entry.sha256) ?? []), { entry, side }]);
  };
  for (const change of changes) {
    if (change.before && !change.before.contentOmitted) need(change.before, "workspace/before.json");
    if (change.after && !change.after.contentOmitted) need(change.after, "workspace/after.json");
  }
  const present = new Set<string>();
  for (const m of members) {
    if (m.kind !== "content") continue;
    const name = m.path.slice(CONTENT_DIR.length);
    const users = needed.get(name);
    if (!/^[0-9a-f]{64}$/.test(name)) {
      throw new BundleError(
        { bundle: label, member: m.path },
        "content files are named by their sha256 (64 lowercase hex digits)",
      );
    }
    if (!users) {
      throw new BundleError(
        { bundle: label, member: m.path },
        held?.has(name)
          ? "content is already in the base the workspace changes are against: leave it out"
          : "content is not referenced by any changed file in workspace/",
      );
    }
    if (m.sha256 !== name) {
      throw new BundleError({ bundle: label, member: m.path }, `hash mismatch: content hashes to ${m.sha256}`);
    }
    const wrongSize = users.find((u) => u.entry.size !== m.size);
    if (wrongSize) {
      throw new BundleError(
        { bundle: label, member: m.path },
        `size mismatch: ${m.size} bytes, but ${wrongSize.side} says ${wrongSize.entry.size} for "${wrongSize.entry.path}"`,
      );
    }
    present.add(name);
  }
  for (const [sha, [first]] of needed) {
    if (first && !present.has(sha)) {
      throw new BundleError(
        { bundle: label, member: `${CONTENT_DIR}${sha}` },
        `missing content of "${first.entry.path}" (changed file, listed in ${first.side})`,
      );
    }
  }
}

/** The bundle version each `contentOmitted` value first appeared in. */
const OMITTED_SINCE = { too_large: 2, not_captured: 3 } as const;

/** A `contentOmitted` value newer than the bundle's version is refused, naming the entry. */
function checkOmittedContent(manifest: RunManifest, sides: WorkspaceManifest[], label: string): void {
  sides.forEach((side, i) => {
    const index = side.files.findIndex((e) => e.contentOmitted && OMITTED_SINCE[e.contentOmitted] > manifest.version);
    if (index === -1) return;
    const entry = side.files[index]!;
    throw new BundleError(
      { bundle: label, member: i === 0 ? BUNDLE_MEMBERS.workspaceBefore : BUNDLE_MEMBERS.workspaceAfter },
      `files[${index}] ("${entry.path}") has contentOmitted "${entry.contentOmitted}", which needs "version": ${OMITTED_SINCE[entry.contentOmitted!]} in manifest.json`,
    );
  });
}

function checkVerdicts(verdicts: BundleVerdict[], steps: TrajectoryStep[], label: string): void {
  const ids = new Set(steps.map((s) => s.id));
  const firstIndexOf = new Map<string, number>();
  verdicts.forEach((verdict, i) => {
    const { judge } = verdict;
    const key = [verdict.metric, judge.kind, judge.name, judge.provider, judge.model, judge.promptVersion].join("\0");
    const first = firstIndexOf.get(key);
    if (first !== undefined) {
      throw new BundleError(
        { bundle: label, member: BUNDLE_MEMBERS.verdicts, field: `[${i}]` },
        `second verdict on "${verdict.metric}" by judge "${judge.name}" (first at [${first}])`,
      );
    }
    firstIndexOf.set(key, i);
    verdict.citations.forEach((citation, j) => {
      if ("stepId" in citation && !ids.has(citation.stepId)) {
        throw new BundleError(
          { bundle: label, member: BUNDLE_MEMBERS.verdicts, field: `[${i}].citations[${j}].stepId` },
          `cites step "${citation.stepId}", which is not in trajectory.jsonl`,
        );
      }
    });
  });
}
