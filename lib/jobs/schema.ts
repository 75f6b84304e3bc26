/**
 * Jobs: long work started from the web app and executed by the worker (scripts/worker.ts) as the
 * very same CLI a person would run, in its own process, with progress and log kept in the database.
 */
import { z } from "zod";
import { isExternal, PROVIDERS } from "@/lib/agents/agent-spec";
import { BUILTIN_FRAMEWORKS } from "@/lib/agents/builtin";
import { MitigationSchema } from "@/lib/codekit/mitigation";
import { AGENT_CLI_NAMES, externalAdapter } from "@/lib/agents/external";
import { BenchmarkIdSchema } from "@/lib/benchmark/schema";
import { SubtaskIdSchema } from "@/lib/benchmark/subtasks";
import { JudgeIdSchema } from "@/lib/judge/llm/judge-definitions";

/** The agents a job can name: the built-in agents and the agent CLIs; or else an agent file. */
export const JOB_AGENTS = [...BUILTIN_FRAMEWORKS, ...AGENT_CLI_NAMES] as const;

/**
 * An agent file the worker can read: a .json path relative to the project, not hidden, never
 * leaving it (a job is a public endpoint; a `command` agent file runs its command line).
 */
export const isAgentFilePath = (value: string) =>
  /^\w[\w./-]*\.json$/.test(value) && !value.split("/").some((part) => part === ".." || part.startsWith("."));

export const JobAgentSchema = z
  .string({ error: "is required" })
  .trim()
  .min(1, "is required")
  .max(300)
  .refine((value) => (JOB_AGENTS as readonly string[]).includes(value) || isAgentFilePath(value), {
    message: `must be one of ${JOB_AGENTS.join(", ")}, or an agent file (.json) inside the project`,
  });

export const RunAgentsJobSchema = z
  .object({
    kind: z.literal("run-agents"),
    benchmark: BenchmarkIdSchema,
    agent: JobAgentSchema,
    /** Absent: the agent's own (gemini for the built-in agents, the CLI's protocol, the agent file's). */
    provider: z.enum(PROVIDERS).optional(),
    /** The Code-KIT arm (lib/codekit/arms.ts); absent: the agent's own (none for a named agent). */
    mitigation: MitigationSchema.optional(),
    mock: z.boolean().default(true),
    split: z.enum(["eval", "all"]).default("eval"),
    subtask: SubtaskIdSchema.optional(),
    perSubtask: z.coerce.number().int().min(1).max(200).optional(),
    limit: z.coerce.number().int().min(1).max(100_000).optional(),
  })
  .superRefine((job, ctx) => {
    // The CLIs each speak one protocol (run-agents refuses another; say so before queueing).
    if (!job.provider || !isExternal(job.agent) || job.agent === "command") return;
    const protocol = externalAdapter(job.agent).protocol;
    if (job.provider !== protocol)
      ctx.addIssue({
        code: "custom",
        path: ["provider"],
        message: `${job.agent} speaks the ${protocol} protocol only`,
      });
  });

export const EvaluateJobSchema = z.object({
  kind: z.literal("evaluate"),
  /** `rule`, or the id of an LLM judge definition (checked against the available ones when queued). */
  judge: JudgeIdSchema.default("rule"),
  mock: z.boolean().default(false),
  runs: z.string().min(1).max(200).optional(),
  force: z.boolean().default(false),
});

/** One agent under several Code-KIT arms on the same instances, judged (npm run ablation; docs/ablation.md). */
export const AblationJobSchema = z.object({
  kind: z.literal("ablation"),
  benchmark: BenchmarkIdSchema,
  agent: JobAgentSchema,
  /** The arms, in the order they run; the baseline the others are compared with is `none`, else the first. */
  arms: z
    .array(MitigationSchema)
    .min(2, "choose at least two arms")
    .refine((arms) => new Set(arms).size === arms.length, "an arm is chosen twice"),
  provider: z.enum(PROVIDERS).optional(),
  mock: z.boolean().default(true),
  split: z.enum(["eval", "all"]).default("eval"),
  subtask: SubtaskIdSchema.optional(),
  perSubtask: z.coerce.number().int().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100_000).optional(),
});

export const JobParamsSchema = z.discriminatedUnion("kind", [RunAgentsJobSchema, EvaluateJobSchema, AblationJobSchema]);
export type JobParams = z.infer<typeof JobParamsSchema>;
export type JobKind = JobParams["kind"];

export const JOB_STATUSES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** The CLI (script and arguments) a job runs. */
export function commandOf(params: JobParams): { script: string; argv: string[] } {
  if (params.kind === "evaluate") {
    const argv = ["--judge", params.judge];
    if (params.mock) argv.push("--mock");
    if (params.runs) argv.push("--runs", params.runs);
    if (params.force) argv.push("--force");
    return { script: "scripts/evaluate.ts", argv };
  }
  // run-agents and ablation choose an agent and instances alike (ablation passes them on to run-agents).
  const argv = ["--benchmark", params.benchmark, "--agent", params.agent];
  if (params.kind === "ablation") argv.push("--arms", params.arms.join(","));
  argv.push("--split", params.split);
  if (params.provider) argv.push("--provider", params.provider);
  if (params.kind === "run-agents" && params.mitigation) argv.push("--mitigation", params.mitigation);
  if (params.mock) argv.push("--mock");
  if (params.subtask) argv.push("--subtask", params.subtask);
  if (params.perSubtask) argv.push("--per-subtask", String(params.perSubtask));
  if (params.limit) argv.push("--limit", String(params.limit));
  return { script: params.kind === "ablation" ? "scripts/ablation.ts" : "scripts/run-agents.ts", argv };
}

/**
 * Where a finished ablation job's table is (npm run ablation prints `see /ablation?... in the
 * dashboard`): only a path of this site's ablation page, whatever else the log holds.
 */
export function ablationLinkOf(log: string): string | null {
  return /^see (\/ablation(?:\?[\w=&%.:-]*)?) in the dashboard/m.exec(log)?.[1] ?? null;
}

/** Reads a CLI progress line (`label 12/40 (30%) ...`, lib/cli/progress.ts) into counts. */
export function progressOf(line: string): { done: number; total: number } | null {
  const match = /^\S+ (\d+)\/(\d+) \(\d+%/.exec(line.replace(/^\r?\x1b\[2K/, ""));
  return match ? { done: Number(match[1]), total: Number(match[2]) } : null;
}
