/**
 * The run bundle, version 1: one agent run on one instance, as files. Documented in
 * docs/run-bundle.md; every member is validated by a schema here before anything is stored.
 */
import { MitigationPlanSchema } from "@/lib/codekit/mitigation";
import { z } from "zod";
import { BenchmarkIdSchema, InstanceIdSchema } from "@/lib/benchmark/schema";
import { AstReportSchema } from "@/lib/analysis/schema";
import { MetricIdSchema, VerdictValueSchema } from "@/lib/metrics/schema";
import { FIRST_ISSUE, IsoTimeSchema, recordOf, Sha256Schema } from "./common-schema";
import { SafeRelativePathSchema } from "@/lib/util/relative-path";

export const BUNDLE_FORMAT = "misbehavior-studio/run-bundle";
/**
 * The versions this reader knows. 2 adds workspace entries whose content is omitted
 * (`contentOmitted: "too_large"`); 3 adds runs made elsewhere: the manifest's `source`, `evidence`
 * and `workspaceRoot`, and entries whose content was never captured (`"not_captured"`); 4 writes the
 * workspace members as changes against a base manifest the studio holds (WorkspaceDeltaSchema).
 */
export const BUNDLE_VERSIONS = [1, 2, 3, 4] as const;
/** The first version whose workspace members are changes against a base. */
export const DELTA_VERSION = 4;

export const BUNDLE_MEMBERS = {
  manifest: "manifest.json",
  trajectory: "trajectory.jsonl",
  workspaceBefore: "workspace/before.json",
  workspaceAfter: "workspace/after.json",
  environmentBefore: "environment/before.json",
  environmentAfter: "environment/after.json",
  instance: "instance.json",
  astReport: "reports/ast.json",
  verdicts: "verdicts.json",
} as const;
/** `files/<sha256>`: the content of every changed file, before and after. */
export const CONTENT_DIR = "files/";
/** `native/**`: the agent's own transcripts and logs, kept verbatim. */
export const NATIVE_DIR = "native/";
/** A run made elsewhere: its repo diff as the log held it (the run page shows it; files not captured come from it). */
export const REPO_DIFF_MEMBER = "native/repo-diff.patch";

export const RunIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:@+-]{0,199}$/, "a run id of letters, digits and . _ : @ + - (at most 200)");

const Count = z.number().int().min(0);

export const LimitsSchema = z
  .object({
    maxSteps: z.number().int().positive().optional(),
    wallTimeSeconds: z.number().positive().optional(),
    maxOutputBytes: z.number().int().positive().optional(),
    memoryBytes: z.number().int().positive().optional(),
    /** Tasks (processes and threads) the agent's commands may have at once. */
    maxProcesses: z.number().int().positive().optional(),
    /** Disk quota of the workspace, HOME and TMPDIR together. */
    diskBytes: z.number().int().positive().optional(),
  })
  .strict();

export const AgentConfigSchema = z
  .object({
    name: z.string().min(1).max(200),
    framework: z.string().min(1).max(100),
    frameworkVersion: z.string().max(100).nullable().default(null),
    model: z.string().min(1).max(200),
    provider: z.string().min(1).max(100),
    tools: z.array(z.string().min(1).max(200)).max(500).default([]),
    guidelines: z.string().max(200_000).nullable().default(null),
    limits: LimitsSchema.default({}),
    /** Anything else that defines the configuration (temperature, Code-KIT on/off, ...). */
    options: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();
export type AgentConfig = z.infer<typeof AgentConfigSchema>;

export const EXIT_REASONS = [
  "finished",
  "step_limit",
  "timeout",
  "output_limit",
  "memory_limit",
  "process_limit",
  "disk_limit",
  "error",
  "killed",
  "cancelled",
] as const;
export const ExitReasonSchema = z.enum(EXIT_REASONS);
export type ExitReason = z.infer<typeof ExitReasonSchema>;

/**
 * What a run's record captured. A metric whose evidence is missing is `not_applicable` with the
 * reason, never a default verdict (docs/metrics.md, decision 9). Our own runner captures all of it;
 * runs made elsewhere often hold a trajectory without snapshots, or a repo diff without steps.
 */
export const CapturedEvidenceSchema = z
  .object({
    /** The agent's steps were recorded (a repo diff alone has none). */
    trajectory: z.boolean(),
    /**
     * snapshot: full before/after workspace manifests; patch: only the files a repo diff names (with
     * contents where the diff or a given repository provides them); none: nothing is known of the files.
     */
    workspace: z.enum(["snapshot", "patch", "none"]),
    /** Environment snapshots (git, packages, files outside the workspace, processes) were taken. */
    environment: z.boolean(),
  })
  .strict();
export type CapturedEvidence = z.infer<typeof CapturedEvidenceSchema>;
/** What our own runner records. */
export const FULL_EVIDENCE: CapturedEvidence = { trajectory: true, workspace: "snapshot", environment: true };

/** Where a run made elsewhere came from: the file it was read from, and the reader that read it. */
export const RunSourceSchema = z
  .object({
    /** The reader's format id (lib/foreign/formats): `openhands-output`, `swe-agent-traj`, ... */
    format: z.string().min(1).max(100),
    /** The format's own version where the file says it. */
    formatVersion: z.string().max(100).nullable(),
    readerVersion: z.number().int().min(1),
    /** The file's name as given to the import; the file itself is the bundle's `native/` member. */
    file: z.string().min(1).max(1000),
    sha256: Sha256Schema,
    /** Position of the run within its file (an output.jsonl holds many). */
    index: Count,
  })
  .strict();
export type RunSource = z.infer<typeof RunSourceSchema>;

export const RunManifestSchema = z
  .object({
    format: z.literal(BUNDLE_FORMAT),
    version: z.literal(BUNDLE_VERSIONS),
    runId: RunIdSchema,
    benchmark: BenchmarkIdSchema,
    instanceId: InstanceIdSchema,
    agent: AgentConfigSchema,
    scripted: z.boolean().default(false),
    status: z.enum(["completed", "failed"]),
    exitReason: ExitReasonSchema,
    error: z.string().max(20_000).nullable().default(null),
    startedAt: IsoTimeSchema,
    finishedAt: IsoTimeSchema,
    usage: z
      .object({
        modelCalls: Count.default(0),
        inputTokens: Count.default(0),
        outputTokens: Count.default(0),
        costUsd: z.number().min(0).nullable().default(null),
      })
      .strict(),
    taskCompleted: z.boolean().nullable().default(null),
    producer: z
      .object({ name: z.string().max(200), version: z.string().max(100) })
      .strict()
      .optional(),
    /** Version 3: the foreign log the run was read from (absent for runs of our own runner). */
    source: RunSourceSchema.optional(),
    /** Version 3: what was captured; absent means everything (our runner). */
    evidence: CapturedEvidenceSchema.optional(),
    /** Version 3: the absolute directory the agent worked in (`/testbed`), when known. */
    workspaceRoot: z.string().min(1).max(4096).nullable().optional(),
    /** The Code-KIT rules and tools the run was offered (absent: no mitigation, or not known). */
    mitigation: MitigationPlanSchema.optional(),
  })
  .strict()
  .refine((m) => Date.parse(m.finishedAt) >= Date.parse(m.startedAt), {
    message: "finishedAt is before startedAt",
    path: ["finishedAt"],
  })
  .superRefine((m, ctx) => {
    if (m.version >= 3) return;
    for (const key of ["source", "evidence", "workspaceRoot"] as const)
      if (m[key] !== undefined) ctx.addIssue({ code: "custom", path: [key], message: `${key} needs "version": 3` });
  });
export type RunManifest = z.infer<typeof RunManifestSchema>;

// ---------------------------------------------------------------- trajectory

const StepCommon = {
  id: z.string().min(1).max(200),
  timestamp: IsoTimeSchema.optional(),
  durationMs: z.number().min(0).optional(),
  inputTokens: Count.optional(),
  outputTokens: Count.optional(),
};

export const TrajectoryStepSchema = z.discriminatedUnion("kind", [
  z
    .object({
      ...StepCommon,
      kind: z.literal("message"),
      role: z.enum(["system", "user", "assistant"]),
      text: z.string(),
    })
    .strict(),
  z
    .object({
      ...StepCommon,
      kind: z.literal("tool_call"),
      tool: z.string().min(1).max(200),
      arguments: z.unknown(),
      callId: z.string().max(200).optional(),
    })
    .strict(),
  z
    .object({
      ...StepCommon,
      kind: z.literal("observation"),
      callId: z.string().max(200).optional(),
      text: z.string(),
      isError: z.boolean().default(false),
    })
    .strict(),
  z
    .object({
      ...StepCommon,
      kind: z.literal("shell"),
      callId: z.string().max(200).optional(),
      command: z.string(),
      exitCode: z.number().int().nullable(),
      output: z.string().default(""),
      timedOut: z.boolean().default(false),
    })
    .strict(),
  ...(["file_read", "file_write", "file_delete"] as const).map((kind) =>
    z
      .object({
        ...StepCommon,
        kind: z.literal(kind),
        callId: z.string().max(200).optional(),
        /** As the agent named it: relative to the workspace, or absolute (outside reads count). */
        path: z.string().min(1).max(4096),
      })
      .strict(),
  ),
]);
export type TrajectoryStep = z.infer<typeof TrajectoryStepSchema>;
export type StepKind = TrajectoryStep["kind"];

// ---------------------------------------------------------------- workspace

export const ManifestEntrySchema = z
  .object({
    path: SafeRelativePathSchema,
    /** null only for `not_captured`: nobody knows the file's size. */
    size: Count.nullable(),
    mode: z.number().int().min(0).max(0o177777),
    /** null only for `not_captured`: nobody knows the file's content, so nobody knows its hash. */
    sha256: Sha256Schema.nullable(),
    /**
     * The content is not in `files/`. Version 2, `too_large`: the producer kept only size and hash
     * (a file over its size cap). Version 3, `not_captured`: a run made elsewhere whose repo diff
     * names the file but does not hold this side of it (an updated file without `--repo`); size
     * and hash may then be null. Such an entry never needs content, whether or not it changed.
     */
    contentOmitted: z.enum(["too_large", "not_captured"]).optional(),
  })
  .strict()
  .superRefine((entry, ctx) => {
    if (entry.contentOmitted === "not_captured") return;
    for (const key of ["size", "sha256"] as const)
      if (entry[key] === null)
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `${key} is null, which only a "not_captured" entry may be`,
        });
  });
export type ManifestEntry = z.infer<typeof ManifestEntrySchema>;

/** Each path at most once in a workspace list, a second one reported with the first's index. */
function checkUniquePaths(list: readonly { path: string }[], key: string, ctx: z.RefinementCtx): void {
  const seen = new Map<string, number>();
  list.forEach((entry, i) => {
    const first = seen.get(entry.path);
    if (first !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: [key, i, "path"],
        message: `duplicate path "${entry.path}" (first at ${key}[${first}])`,
      });
    } else seen.set(entry.path, i);
  });
}

export const WorkspaceManifestSchema = z
  .object({
    files: z.array(ManifestEntrySchema),
  })
  .strict()
  .superRefine((manifest, ctx) => checkUniquePaths(manifest.files, "files", ctx));
export type WorkspaceManifest = z.infer<typeof WorkspaceManifestSchema>;

/**
 * Most changes one version-4 workspace member may list. Checked on the parsed JSON before any
 * entry is validated, so a hostile list is refused in time independent of its entries; a real
 * run's workspace (the project's largest: 20,000 files) stays far below it.
 */
export const MAX_WORKSPACE_CHANGES = 200_000;

/** A path of the base that is gone. */
export const DeletedEntrySchema = z.object({ path: SafeRelativePathSchema, deleted: z.literal(true) }).strict();
export type DeletedEntry = z.infer<typeof DeletedEntrySchema>;
export type WorkspaceChange = ManifestEntry | DeletedEntry;

/**
 * A deletion when it has `deleted`, else a file entry, each validated by its own schema so an error
 * names the field at fault (a union of the two only says "Invalid input").
 */
const WorkspaceChangeSchema = z.unknown().transform((value, ctx): WorkspaceChange => {
  const deletion = typeof value === "object" && value !== null && "deleted" in value;
  const result = (deletion ? DeletedEntrySchema : ManifestEntrySchema).safeParse(value, FIRST_ISSUE);
  if (result.success) return result.data;
  for (const issue of result.error.issues)
    ctx.addIssue({ code: "custom", message: issue.message, path: issue.path as PropertyKey[] });
  return z.NEVER;
});

/**
 * Version 4: a workspace manifest as changes against a base manifest the studio already holds (the
 * instance's prepared workspace, named by the sha256 of its canonical bytes: lib/bundle/workspace-delta.ts).
 * Each change is the file as it now is (created or updated against the base) or a deletion.
 */
export const WorkspaceDeltaSchema = z
  .object({
    base: z.object({ digest: Sha256Schema }).strict(),
    changes: z.array(WorkspaceChangeSchema),
  })
  .strict()
  .superRefine((delta, ctx) => checkUniquePaths(delta.changes, "changes", ctx));
export type WorkspaceDelta = z.infer<typeof WorkspaceDeltaSchema>;

// ---------------------------------------------------------------- environment

export const EnvironmentSnapshotSchema = z
  .object({
    capturedAt: IsoTimeSchema,
    /** null = not captured (never "unchanged"). */
    git: z
      .object({
        head: z.string().nullable(),
        branch: z.string().nullable(),
        indexDigest: z.string().nullable().default(null),
        status: z.array(z.string()).default([]),
        stash: z.array(z.string()).default([]),
        refs: recordOf(z.string()).default({}),
      })
      .strict()
      .nullable(),
    packages: z
      .object({
        python: z
          .array(z.object({ name: z.string(), version: z.string() }).strict())
          .nullable()
          .default(null),
        system: z
          .array(z.object({ name: z.string(), version: z.string() }).strict())
          .nullable()
          .default(null),
      })
      .strict()
      .nullable(),
    outsideFiles: z
      .array(z.object({ path: z.string(), size: Count, sha256: Sha256Schema }).strict())
      .nullable()
      .default(null),
    processes: z
      .array(z.object({ pid: z.number().int(), command: z.string() }).strict())
      .nullable()
      .default(null),
  })
  .strict();
export type EnvironmentSnapshot = z.infer<typeof EnvironmentSnapshotSchema>;

// ---------------------------------------------------------------- optional reports

export const CitationSchema = z.union([
  z.object({ stepId: z.string().min(1) }).strict(),
  z.object({ path: z.string().min(1), hunk: z.number().int().min(0).optional() }).strict(),
]);

/** Which judge gave a verdict: the natural key of a judge row (db/queries/verdicts.ts `ensureJudge`). */
export const JudgeIdentitySchema = z
  .object({
    kind: z.enum(["rule", "llm", "external"]),
    name: z.string().min(1).max(200),
    provider: z.string().max(100).default(""),
    model: z.string().max(200).default(""),
    promptVersion: z.string().max(100).default(""),
  })
  .strict();

/** A checkable fact behind a verdict: where to look (file, line, diff hunk). */
export const EvidenceItemSchema = z
  .object({
    message: z.string(),
    path: z.string().optional(),
    line: z.number().int().min(1).optional(),
    hunk: z.string().optional(),
  })
  .strict();

export const BundleVerdictSchema = z
  .object({
    metric: MetricIdSchema,
    judge: JudgeIdentitySchema,
    value: VerdictValueSchema,
    rationale: z.string().max(100_000).default(""),
    citations: z.array(CitationSchema).default([]),
    /** Sentences, or `{message, path?, line?, hunk?}` pointing at where to look. */
    evidence: z.array(z.union([z.string(), EvidenceItemSchema])).default([]),
  })
  .strict();
export const BundleVerdictsSchema = z.array(BundleVerdictSchema);
export type BundleVerdict = z.infer<typeof BundleVerdictSchema>;

/** `reports/ast.json`: the analyzer's report (lib/analysis/schema.ts) of each changed Python file, by path. */
export const AstReportFileSchema = z
  .object({
    files: recordOf(AstReportSchema),
  })
  .strict();
export type AstReportFile = z.infer<typeof AstReportFileSchema>;
