/**
 * `npm run worker -- --queue URL --studio URL --token T [--concurrency K] [--work runs,evaluations]`:
 * a worker machine of a distributed study. It takes evaluation jobs (queue-evaluator.ts) and runs
 * from the providers' queues on Redis (lib/remote/run-queue.ts),
 * makes each in its own workspace and sandbox exactly as run-agents does, with the instance and
 * its workspace from the studio and the bundle pushed to the studio (lib/remote/remote-store.ts).
 * It needs no benchmark build and no database of its own beyond a cache.
 *
 * Delivery: a job whose worker dies is found stalled by the queue once its lock expires
 * (--lock-ms) and is taken by another worker; a run the studio already has is not made again (it
 * is asked first), and run ids are deterministic, so every run lands once. A run that could not
 * be recorded is retried with backoff (RUN_JOB_OPTIONS). A stop signal drops the active runs and
 * leaves their jobs to the queue, which gives them to another worker.
 */
import { hostname } from "node:os";
import path from "node:path";
import { UnrecoverableError, Worker, type Job } from "bullmq";
import { Redis } from "ioredis";
import pLimit from "p-limit";
import { agentConfigId } from "@/db/queries/run-import";
import type { ProviderName } from "@/lib/agents/agent-spec";
import type { CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";
import { onStopSignals } from "@/lib/process/signals";
import { remoteBatchStore, remotePlan } from "@/lib/remote/remote-store";
import {
  cancelKeyOf,
  redisConnection,
  RunJobSchema,
  runQueueName,
  type RunJob,
  type RunJobResult,
} from "@/lib/remote/run-queue";
import { createStudioClient } from "@/lib/remote/studio-client";
import { prepareAgent, type AgentSetup } from "@/lib/runner/agent-setup";
import { removeTree } from "@/lib/runner/copy-tree";
import { runBatch } from "@/lib/runner/run-batch";
import { bubblewrapAvailable } from "@/lib/runner/sandbox";
import { sandboxUnavailableReason } from "@/lib/setup/system-packages";
import { loadEnv } from "@/lib/config/env";
import { createDb, databasePathFromEnv, type Db } from "@/db/client";
import { createDbJudgeCache } from "@/db/queries/judge-cache";
import { evaluationWorkers } from "./queue-evaluator";

export interface QueueWorkerOptions {
  queue: string;
  studio: string;
  token: string | undefined;
  concurrency: number;
  providers: ProviderName[];
  lockMs: number;
  runsDir: string;
  cacheDir?: string;
  allowUnsandboxed: boolean;
  /** What this worker takes: agent runs, evaluation jobs, or both. */
  work: readonly QueueWork[];
}

export const QUEUE_WORK = ["runs", "evaluations"] as const;
export type QueueWork = (typeof QUEUE_WORK)[number];

/** How often an active run looks for its batch's cancel key. */
const CANCEL_POLL_MS = 2_000;

export async function runQueueWorker(options: QueueWorkerOptions, io: CliIo): Promise<number> {
  const env = loadEnv(io.env);
  const token = options.token ?? env.STUDIO_INGEST_TOKEN;
  if (!token) throw new AppError("INVALID_INPUT", "--studio needs the studio's token: --token or $STUDIO_INGEST_TOKEN");
  const takesRuns = options.work.includes("runs");
  // Judging reads the studio's data and runs no agent: only runs need the sandbox.
  if (takesRuns && !options.allowUnsandboxed) {
    const reason = await sandboxUnavailableReason(bubblewrapAvailable, io.env);
    if (reason) throw new AppError("UNAVAILABLE", reason);
  }
  const say = (line: string) => io.stdout.write(`${line}\n`);
  const identity = `${hostname()}:${process.pid}`;
  const connection = redisConnection(options.queue);
  const client = createStudioClient({
    url: options.studio,
    token,
    onRetry: (what, attempt, reason, waitMs) =>
      say(`retry ${attempt}: ${reason}; again in ${(waitMs / 1000).toFixed(1)} s (${what})`),
  });
  const runsDir = options.runsDir;
  const cacheDir = options.cacheDir ?? path.join(runsDir, "..", "cache");
  const store = remoteBatchStore(client, { cacheDir, unpushedDir: path.join(runsDir, "..", "unpushed") });
  const redis = new Redis(options.queue, { maxRetriesPerRequest: null });
  const machine = pLimit(options.concurrency);
  const stop = new AbortController();
  const setups = new Map<string, Promise<AgentSetup>>();

  const setupFor = (job: RunJob) => {
    const key = JSON.stringify([job.agent, job.mock]);
    let setup = setups.get(key);
    if (!setup) {
      setup = prepareAgent(job.agent, { mock: job.mock, env: io.env, cwd: process.cwd() });
      setup.catch(() => setups.delete(key));
      setups.set(key, setup);
    }
    return setup;
  };

  async function makeRun(job: Job): Promise<RunJobResult> {
    const parsed = RunJobSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`not a run job: ${parsed.error.issues[0]?.message}`);
    const data = parsed.data;
    if (await redis.exists(cancelKeyOf(data.batch))) throw new UnrecoverableError("cancelled before it started");
    // A worker that died after pushing leaves a run the studio has: it is not made twice.
    const plan = await remotePlan(client, {
      benchmarkId: data.benchmark,
      configId: data.configId,
      split: "all",
      instanceIds: [data.instanceId],
    });
    if (plan.todo.length === 0) return { outcome: "already in the studio", worker: identity };
    const setup = await setupFor(data);
    const configId = agentConfigId(setup.agent);
    if (configId !== data.configId)
      throw new UnrecoverableError(
        `this worker's project makes configuration ${configId} of the agent, the studio's ${data.configId}: run the same version of the project on both`,
      );

    const own = new AbortController();
    const abort = (reason: string) => !own.signal.aborted && own.abort(reason);
    const onStop = () => abort("the worker stopped");
    stop.signal.addEventListener("abort", onStop);
    const poll = setInterval(() => {
      redis.exists(cancelKeyOf(data.batch)).then(
        (n) => n > 0 && abort("cancelled"),
        () => undefined,
      );
    }, CANCEL_POLL_MS);
    let error: string | undefined;
    try {
      const outcomes = await runBatch(setup, [{ instanceId: data.instanceId, runId: data.runId }], store, {
        runsDir,
        cacheDir,
        concurrency: 1,
        seed: data.seed,
        keepWorkspaces: false,
        allowUnsandboxed: options.allowUnsandboxed,
        maxStoredFileBytes: env.STUDIO_MAX_STORED_FILE_BYTES,
        stop: {
          signal: own.signal,
          dropIfStopped: async (runDir) => {
            if (!own.signal.aborted) return false;
            await removeTree(runDir);
            return true;
          },
        },
        onRun: (_instance, outcome) => (error = outcome.error),
      });
      if (outcomes.dropped > 0 || outcomes.notStarted > 0) {
        if (own.signal.reason === "cancelled") throw new UnrecoverableError("cancelled while it ran");
        // Stopping: the job goes back to the queue (stalled) for another worker.
        throw new Error(`dropped: ${String(own.signal.reason)}`);
      }
      if (outcomes.errors > 0) throw new Error(error ?? "the run could not be recorded");
      return { outcome: outcomes.completed > 0 ? "completed" : "failed", worker: identity };
    } finally {
      clearInterval(poll);
      stop.signal.removeEventListener("abort", onStop);
    }
  }

  let cacheDb: Db | null = null;
  const evaluation = options.work.includes("evaluations")
    ? evaluationWorkers({
        connection,
        redis,
        client,
        env: io.env,
        identity,
        concurrency: options.concurrency,
        lockMs: options.lockMs,
        providers: options.providers,
        // This machine's own database holds only the LLM judges' answer cache, as evaluate's does.
        cache: () => createDbJudgeCache((cacheDb ??= createDb(databasePathFromEnv(io.env)))),
        say,
      })
    : null;

  const runWorkers = (takesRuns ? options.providers : []).map((provider) => {
    const worker = new Worker(
      runQueueName(provider),
      (job) => {
        const started = Date.now();
        say(`${job.id}: taken (${provider}, attempt ${job.attemptsMade + 1})`);
        return machine(() => makeRun(job)).then((result) => {
          say(`${job.id}: ${result.outcome} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
          return result;
        });
      },
      {
        connection,
        concurrency: options.concurrency,
        lockDuration: options.lockMs,
        stalledInterval: options.lockMs,
        // A job whose worker died twice is tried once more, then failed (a run that kills its worker).
        maxStalledCount: 2,
        autorun: false,
      },
    );
    worker.on("failed", (job, failure) => say(`${job?.id ?? "?"}: failed: ${failure.message}`));
    worker.on("error", (failure) => say(`queue error: ${failure.message}`));
    return worker;
  });

  const stopped = new Promise<string>((resolve) => {
    const dispose = onStopSignals((signal) => {
      dispose();
      resolve(signal);
    });
  });
  const workers = [...runWorkers, ...(evaluation?.workers ?? [])];
  const queueNames = [...(takesRuns ? options.providers.map(runQueueName) : []), ...(evaluation?.queueNames ?? [])];
  say(
    `worker ${identity}: taking jobs from ${queueNames.join(", ")} on ${options.queue} for ${client.url}, ${options.concurrency} at once`,
  );
  const running = Promise.all(workers.map((worker) => worker.run()));
  const signal = await Promise.race([stopped, running.then(() => "the queue closed")]);
  say(`worker ${identity}: stopping (${signal}); active runs are dropped and go back to the queue`);
  stop.abort(signal);
  // Not waiting for active jobs: their locks lapse and the queue gives them to another worker.
  await Promise.all(workers.map((worker) => worker.close(true)));
  for (const setup of setups.values()) await (await setup.catch(() => null))?.close();
  await evaluation?.close();
  (cacheDb as Db | null)?.$client.close();
  redis.disconnect();
  return 0;
}
