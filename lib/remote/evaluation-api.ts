/**
 * The workers' API for distributed evaluation (app/api/workers/evaluation-inputs and verdicts):
 * what a judge reads of a run, as it crosses the network, and the verdicts a worker posts back.
 *
 * The studio sends each run's EvaluationInput as its own loader builds it (db/queries/evaluation.ts),
 * not the raw materials: a worker then judges exactly what a local evaluation judges, with no
 * second loader to drift. Structured parts are checked by their schemas but kept as sent, since
 * key order reaches what judges write (rationales list what they iterate over).
 */
import { z } from "zod";
import { BoundaryContractSchema, GroundTruthSchema } from "@/lib/benchmark/schema";
import { InstanceSubtaskSchema } from "@/lib/benchmark/subtasks";
import {
  AstReportFileSchema,
  BUNDLE_MEMBERS,
  CapturedEvidenceSchema,
  CitationSchema,
  EnvironmentSnapshotSchema,
  EvidenceItemSchema,
  JudgeIdentitySchema,
  LimitsSchema,
  RunIdSchema,
  TrajectoryStepSchema,
} from "@/lib/bundle/schema";
import { AppError } from "@/lib/errors/app-error";
import type { NewArtifact } from "@/lib/judge/evaluate-runs";
import { loadPrompt } from "@/lib/judge/llm/prompts";
import { LLM_JUDGED_METRICS, type LlmJudgedMetric } from "@/lib/judge/llm/schema";
import { RULE_JUDGE } from "@/lib/judge/rules/rule-judge";
import { sameJudge, type EvaluationInput, type JudgeIdentity } from "@/lib/judge/schema";
import { MetricIdSchema, VerdictValueSchema } from "@/lib/metrics/schema";
import { MAX_RUNS_PER_JOB } from "./evaluation-queue";

const Sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, "a sha256 in hex");
const Base64Schema = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, "base64");

/** Checked by the schema, kept as sent (no defaults filled in, no keys reordered). */
const asSent = <S extends z.ZodType>(schema: S) =>
  z.unknown().transform((value, ctx): z.input<S> => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: "custom", message: issue.message });
      return z.NEVER;
    }
    return value as z.input<S>;
  });

const bytes = () => Base64Schema.nullable();

/** POST /api/workers/evaluation-inputs `{ runs }`: what the judges read of these runs. */
export const EvaluationInputsRequestSchema = z.object({ runs: z.array(RunIdSchema).min(1).max(MAX_RUNS_PER_JOB) });

const WireInputSchema = z.object({
  runId: RunIdSchema,
  subtask: InstanceSubtaskSchema,
  prompt: z.string(),
  contract: asSent(BoundaryContractSchema),
  groundTruth: asSent(GroundTruthSchema),
  status: z.enum(["completed", "failed"]),
  exitReason: z.string(),
  limits: asSent(LimitsSchema),
  steps: asSent(z.array(TrajectoryStepSchema)),
  changes: z.array(
    z.object({
      path: z.string().min(1),
      kind: z.enum(["created", "updated", "deleted"]),
      before: bytes(),
      after: bytes(),
      afterSize: z.number().int().min(0).nullable().optional(),
    }),
  ),
  environmentBefore: asSent(EnvironmentSnapshotSchema.nullable()),
  environmentAfter: asSent(EnvironmentSnapshotSchema.nullable()),
  /** The setup files in the loader's order, as [path, text] pairs. */
  setupFiles: z.array(z.tuple([z.string(), z.string()])),
  finalAnswer: z.string().nullable(),
  evidence: asSent(CapturedEvidenceSchema),
  framework: z.string().nullable(),
  workspaceRoot: z.string().nullable(),
  workspaceFiles: z.array(z.string()),
  taskCheck: z
    .object({
      outcome: z.enum(["completed", "not_completed", "not_checkable"]),
      reason: z.string(),
      output: z.string(),
      claimed: z.boolean().nullable(),
    })
    .nullable(),
});
type WireInput = z.input<typeof WireInputSchema>;

export const EvaluationMaterialsSchema = z.object({
  runs: z.array(
    z.object({
      input: WireInputSchema,
      /** The run has its AST report: the rule judge leaves it as is unless forced. */
      hasAstReport: z.boolean(),
    }),
  ),
});
export type EvaluationMaterials = z.input<typeof EvaluationMaterialsSchema>;
/** An answer stops before this many bytes (at least one run): the worker asks again for the rest. */
export const MAX_EVALUATION_INPUTS_BYTES = 48 * 1024 * 1024;

const b64 = (data: Buffer | null) => (data ? data.toString("base64") : null);
const unb64 = (data: string | null) => (data === null ? null : Buffer.from(data, "base64"));

export function inputToWire(input: EvaluationInput): WireInput {
  return {
    ...input,
    changes: input.changes.map((c) => ({ ...c, before: b64(c.before), after: b64(c.after) })),
    setupFiles: [...input.setupFiles],
    workspaceFiles: [...input.workspaceFiles],
  };
}

export function inputFromWire(wire: z.output<typeof WireInputSchema>): EvaluationInput {
  return {
    ...(wire as Omit<EvaluationInput, "changes" | "setupFiles">),
    changes: wire.changes.map((c) => ({ ...c, before: unb64(c.before), after: unb64(c.after) })),
    setupFiles: new Map(wire.setupFiles),
  };
}

/** A verdict as a worker posts it: the judge row it goes under and, for an LLM judge, its prompt's digest. */
const PostedVerdictSchema = z.object({
  judge: JudgeIdentitySchema,
  promptSha256: Sha256Schema.optional(),
  verdict: z.object({
    metric: MetricIdSchema,
    value: VerdictValueSchema,
    rationale: z.string().max(200_000),
    citations: asSent(z.array(CitationSchema)),
    evidence: asSent(z.array(EvidenceItemSchema)),
    rawResponse: z.string().nullable().optional(),
    inputTokens: z.number().int().min(0).nullable().optional(),
    outputTokens: z.number().int().min(0).nullable().optional(),
    costUsd: z.number().min(0).nullable().optional(),
  }),
});
export type PostedVerdict = z.output<typeof PostedVerdictSchema>;

/** The one artifact an evaluation leaves: the rule judge's AST report, as bytes. */
const PostedArtifactSchema = z.object({
  path: z.literal(BUNDLE_MEMBERS.astReport),
  kind: z.literal("ast_report"),
  data: Base64Schema,
});

/** POST /api/workers/verdicts: runs' verdicts, stored as a local evaluation stores them. */
export const PostedEvaluationsSchema = z.object({
  force: z.boolean(),
  runs: z
    .array(
      z.object({
        runId: RunIdSchema,
        verdicts: z.array(PostedVerdictSchema).min(1).max(100),
        artifacts: z.array(PostedArtifactSchema).max(1),
      }),
    )
    .min(1)
    .max(MAX_RUNS_PER_JOB),
});
export type PostedEvaluations = z.input<typeof PostedEvaluationsSchema>;
export const MAX_POSTED_EVALUATIONS_BYTES = 64 * 1024 * 1024;

export const PostedEvaluationsAnswerSchema = z.object({
  runs: z.array(z.object({ runId: z.string(), outcome: z.enum(["stored", "unchanged", "already judged"]) })),
});
export type PostedEvaluationsAnswer = z.infer<typeof PostedEvaluationsAnswerSchema>;

/** An artifact's bytes, refused unless they are an AST report. */
export function postedArtifact(artifact: z.output<typeof PostedArtifactSchema>): NewArtifact {
  const data = Buffer.from(artifact.data, "base64");
  let json: unknown;
  try {
    json = JSON.parse(data.toString("utf8"));
  } catch {
    throw new AppError("INVALID_INPUT", `${artifact.path}: not JSON`);
  }
  if (!AstReportFileSchema.safeParse(json).success)
    throw new AppError("INVALID_INPUT", `${artifact.path}: not an AST report`);
  return { path: artifact.path, kind: artifact.kind, data };
}

const describe = (j: JudgeIdentity) =>
  `${j.kind} judge ${j.name}${j.model ? ` (${j.provider}/${j.model})` : ""} ${j.promptVersion}`;

/**
 * Refuses (409) a verdict whose judge is not this studio's: a rule judge of another version, an
 * LLM judge's prompt version this studio does not have or whose file differs from its own. Its
 * verdicts would sit under a judge row whose name promises what the studio's code does not do.
 */
export async function checkPostedJudge(posted: PostedVerdict): Promise<void> {
  const { judge, verdict } = posted;
  const refuse = (why: string) =>
    new AppError(
      "CONFLICT",
      `${verdict.metric} by the ${describe(judge)}: ${why}; run the same version of the project on the worker and the studio`,
    );
  if (judge.kind === "rule") {
    if (!sameJudge(judge, RULE_JUDGE))
      throw refuse(`this studio's rule judge is ${describe(JudgeIdentitySchema.parse(RULE_JUDGE))}`);
    return;
  }
  if (judge.kind !== "llm") throw refuse("only rule and LLM judges are evaluated on workers");
  if (!(LLM_JUDGED_METRICS as readonly string[]).includes(verdict.metric))
    throw refuse("LLM judges do not judge this metric");
  const prompt = await loadPrompt(verdict.metric as LlmJudgedMetric, judge.promptVersion).catch(() => null);
  if (!prompt) throw refuse(`this studio has no prompt ${judge.promptVersion}`);
  if (posted.promptSha256 !== prompt.sha256)
    throw refuse(
      `the worker's prompt ${judge.promptVersion} differs from this studio's (sha256 ${prompt.sha256.slice(0, 12)})`,
    );
}
