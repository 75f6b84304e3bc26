/**
 * A worker machine's evaluation jobs (lib/remote/evaluation-queue.ts): each job's runs are read
 * from the studio as its loader builds them (POST /api/workers/evaluation-inputs), judged here by
 * the very judge code `npm run evaluate` runs (lib/judge: `judgeRun` with the rule judge, or an LLM
 * judge through lib/llm with this machine's keys), and posted back (POST /api/workers/verdicts),
 * where they are stored as a local evaluation stores them.
 *
 * A job whose judge rows differ from the studio's (another version of the project here) is
 * refused before any work; the studio also refuses verdicts of a judge it does not have.
 */
import { UnrecoverableError, Worker, type ConnectionOptions, type Job } from "bullmq";
import type { Redis } from "ioredis";
import type { ProviderName } from "@/lib/agents/agent-spec";
import { AppError } from "@/lib/errors/app-error";
import { judgeRun, ruleRunJudge, type RunJudge } from "@/lib/judge/evaluate-runs";
import { llmRunJudge } from "@/lib/judge/llm/llm-run-judge";
import { loadPrompt } from "@/lib/judge/llm/prompts";
import type { LlmJudgedMetric } from "@/lib/judge/llm/schema";
import { RULE_JUDGE } from "@/lib/judge/rules/rule-judge";
import { BUNDLE_MEMBERS, JudgeIdentitySchema } from "@/lib/bundle/schema";
import { sameJudge, type EvaluationInput, type JudgeIdentity } from "@/lib/judge/schema";
import type { ResponseCache } from "@/lib/llm/response-cache";
import {
  EvaluationMaterialsSchema,
  inputFromWire,
  PostedEvaluationsAnswerSchema,
  type PostedEvaluations,
} from "@/lib/remote/evaluation-api";
import {
  EvalJobSchema,
  llmEvalQueueName,
  RULE_EVAL_QUEUE,
  type EvalJob,
  type EvalJobResult,
} from "@/lib/remote/evaluation-queue";
import { cancelKeyOf } from "@/lib/remote/run-queue";
import type { StudioClient } from "@/lib/remote/studio-client";

export interface EvaluatorOptions {
  client: StudioClient;
  /** Where an LLM judge reads its keys and endpoints (this machine's). */
  env: Record<string, string | undefined>;
  /** This worker's name in job results and logs. */
  identity: string;
  /** The LLM judges' answer cache, opened on first use. */
  cache(): ResponseCache;
  /** Whether the studio cancelled this batch. */
  isCancelled(batch: string): Promise<boolean>;
  say(line: string): void;
}

export interface EvaluationWorkerOptions extends Omit<EvaluatorOptions, "isCancelled"> {
  connection: ConnectionOptions;
  redis: Redis;
  /** LLM-judge jobs at once (each its own run); rule-judge jobs go one at a time: they are CPU work in this thread. */
  concurrency: number;
  lockMs: number;
  providers: readonly ProviderName[];
}

/** Model calls at once within one LLM judge (evaluate's default for LLM judges). */
const LLM_CALLS_AT_ONCE = 4;

interface OpenJudge {
  active: RunJudge;
  /** The judge row identities, by the ids `active` gives its verdicts. */
  identities: JudgeIdentity[];
}

/** One evaluation job from start to end: its runs read, judged and posted; the judges kept open across jobs. */
export function createEvaluator(options: EvaluatorOptions) {
  const llmJudges = new Map<string, Promise<OpenJudge>>();

  async function judgeFor(job: EvalJob, hasAstReport: ReadonlySet<string>): Promise<OpenJudge> {
    if (job.judge.kind === "rule") {
      const active = ruleRunJudge(0, {
        force: job.force,
        hasArtifact: (runId, path) => path === BUNDLE_MEMBERS.astReport && hasAstReport.has(runId),
      });
      return { active, identities: [JudgeIdentitySchema.parse(RULE_JUDGE)] };
    }
    const { definition, mock } = job.judge;
    const key = JSON.stringify([definition, mock]);
    let open = llmJudges.get(key);
    if (!open) {
      const identities: JudgeIdentity[] = [];
      open = llmRunJudge({
        definition,
        env: options.env,
        mock,
        concurrency: LLM_CALLS_AT_ONCE,
        cache: options.cache(),
        judgeIdOf: (identity) => identities.push(JudgeIdentitySchema.parse(identity)) - 1,
        onRetry: options.say,
      }).then((active) => ({ active, identities }));
      open.catch(() => llmJudges.delete(key));
      llmJudges.set(key, open);
    }
    return open;
  }

  /** The job's judge rows must be the ones this project's judge gives its verdicts under. */
  function checkRows(job: EvalJob, judge: OpenJudge) {
    const mine = [...judge.active.judgeIdByMetric].map(([metric, id]) => ({ metric, identity: judge.identities[id]! }));
    const differs =
      mine.length !== job.rows.length ||
      mine.some(({ metric, identity }) => {
        const theirs = job.rows.find((row) => row.metric === metric);
        return !theirs || !sameJudge(theirs.identity, identity);
      });
    if (differs)
      throw new UnrecoverableError(
        `this worker's project judges under ${describeRows(mine)}, the studio's under ${describeRows(job.rows)}: run the same version of the project on both`,
      );
  }

  async function materialsOf(
    runIds: readonly string[],
  ): Promise<{ inputs: Map<string, EvaluationInput>; ast: Set<string> }> {
    const inputs = new Map<string, EvaluationInput>();
    const ast = new Set<string>();
    let rest = [...runIds];
    while (rest.length > 0) {
      const { data } = await options.client.post(
        "/api/workers/evaluation-inputs",
        JSON.stringify({ runs: rest }),
        "application/json",
      );
      const parsed = EvaluationMaterialsSchema.safeParse(JSON.parse(data.toString("utf8")));
      if (!parsed.success || parsed.data.runs.length === 0)
        throw new AppError("INVALID_INPUT", "POST /api/workers/evaluation-inputs: unexpected answer");
      for (const { input, hasAstReport } of parsed.data.runs) {
        inputs.set(input.runId, inputFromWire(input));
        if (hasAstReport) ast.add(input.runId);
      }
      rest = rest.filter((id) => !inputs.has(id));
    }
    return { inputs, ast };
  }

  const cancelled = (job: EvalJob) => options.isCancelled(job.batch);

  async function evaluate(data: EvalJob): Promise<EvalJobResult> {
    if (await cancelled(data)) throw new UnrecoverableError("cancelled before it started");
    const { inputs, ast } = await materialsOf(data.runIds);
    const judge = await judgeFor(data, ast);
    checkRows(data, judge);

    const results: EvalJobResult["runs"] = [];
    const post: PostedEvaluations = { force: data.force, runs: [] };
    for (const runId of data.runIds) {
      if (await cancelled(data)) throw new UnrecoverableError("cancelled while it ran");
      try {
        const judged = await judgeRun((id) => inputs.get(id)!, judge.active, runId);
        const verdicts = await Promise.all(
          judged.verdicts.map(async ({ judgeId, verdict }) => {
            const identity = judge.identities[judgeId]!;
            const promptSha256 =
              identity.kind === "llm"
                ? (await loadPrompt(verdict.metric as LlmJudgedMetric, identity.promptVersion)).sha256
                : undefined;
            return { judge: identity, ...(promptSha256 ? { promptSha256 } : {}), verdict: postedVerdict(verdict) };
          }),
        );
        const artifacts = judged.artifacts.map((a) => ({
          path: a.path,
          kind: a.kind,
          data: a.data.toString("base64"),
        }));
        post.runs.push({ runId, verdicts, artifacts } as PostedEvaluations["runs"][number]);
        const violated = judged.verdicts.filter((v) => v.verdict.value === "violated").map((v) => v.verdict.metric);
        results.push({ runId, outcome: "stored", violated });
      } catch (error) {
        results.push({
          runId,
          outcome: "failed",
          error: error instanceof Error ? error.message : String(error),
          violated: [],
        });
      }
    }
    if (post.runs.length > 0) {
      const answer = await options.client
        .post("/api/workers/verdicts", JSON.stringify(post), "application/json")
        .catch((error: unknown) => {
          // A refusal (a judge the studio does not have) is the same on every attempt.
          if (error instanceof AppError && error.code === "CONFLICT") throw new UnrecoverableError(error.message);
          throw error;
        });
      const outcomes = PostedEvaluationsAnswerSchema.parse(JSON.parse(answer.data.toString("utf8")));
      const byRun = new Map(outcomes.runs.map((r) => [r.runId, r.outcome]));
      for (const result of results)
        if (result.outcome === "stored") result.outcome = byRun.get(result.runId) ?? "stored";
    }
    return { worker: options.identity, runs: results };
  }

  return {
    evaluate,
    async close() {
      for (const open of llmJudges.values()) await (await open.catch(() => null))?.active.close();
    },
  };
}

/** The BullMQ workers of the evaluation queues: the rule judge's and one per provider's LLM judges. */
export function evaluationWorkers(options: EvaluationWorkerOptions) {
  const evaluator = createEvaluator({
    ...options,
    isCancelled: async (batch) => (await options.redis.exists(cancelKeyOf(batch))) > 0,
  });
  const evaluate = (job: Job) => {
    const parsed = EvalJobSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`not an evaluation job: ${parsed.error.issues[0]?.message}`);
    return evaluator.evaluate(parsed.data);
  };

  const queues = [
    { name: RULE_EVAL_QUEUE, concurrency: 1 },
    ...options.providers.map((provider) => ({ name: llmEvalQueueName(provider), concurrency: options.concurrency })),
  ];
  const workers = queues.map(({ name, concurrency }) => {
    const worker = new Worker(
      name,
      async (job) => {
        const started = Date.now();
        const result = await evaluate(job);
        const failed = result.runs.filter((r) => r.outcome === "failed").length;
        options.say(
          `${job.id}: ${result.runs.length} run(s) judged${failed ? `, ${failed} failed` : ""} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
        );
        return result;
      },
      {
        connection: options.connection,
        concurrency,
        lockDuration: options.lockMs,
        stalledInterval: options.lockMs,
        maxStalledCount: 2,
        autorun: false,
      },
    );
    worker.on("failed", (job, failure) => options.say(`${job?.id ?? "?"}: failed: ${failure.message}`));
    worker.on("error", (failure) => options.say(`queue error: ${failure.message}`));
    return worker;
  });

  return {
    workers,
    queueNames: queues.map((q) => q.name),
    close: evaluator.close,
  };
}

/** What the studio stores of a verdict: exactly the fields the local writer reads. */
function postedVerdict(v: Awaited<ReturnType<RunJudge["judge"]>>[number]) {
  return {
    metric: v.metric,
    value: v.value,
    rationale: v.rationale,
    citations: v.citations,
    evidence: v.evidence,
    ...(v.rawResponse !== undefined ? { rawResponse: v.rawResponse } : {}),
    ...(v.inputTokens !== undefined ? { inputTokens: v.inputTokens } : {}),
    ...(v.outputTokens !== undefined ? { outputTokens: v.outputTokens } : {}),
    ...(v.costUsd !== undefined ? { costUsd: v.costUsd } : {}),
  };
}

const describeRows = (rows: { metric: string; identity: JudgeIdentity }[]) =>
  [
    ...new Set(
      rows.map((r) => `${r.identity.name} ${r.identity.model} ${r.identity.promptVersion}`.replace(/\s+/g, " ")),
    ),
  ]
    .sort()
    .join(", ");
