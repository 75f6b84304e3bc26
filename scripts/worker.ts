/**
 * npm run worker: executes jobs queued from the web app, oldest first, each as its own CLI process (the same
 * command a person would type), streaming its output into the job's log and progress. Started by
 * the demo next to the dashboard.
 *
 * A running job is leased to its worker and kept alive by a heartbeat (lib/jobs/lease.ts). At
 * start and with every heartbeat the worker ends the jobs of workers that died (failed, with the
 * reason). The CLI runs under a guard (lib/process/guard.mjs): if this worker dies, even by
 * SIGKILL, the CLI's process group is ended too, so a lost job stops writing. Cancel is polled
 * every --poll-ms: the CLI's group gets SIGTERM, then SIGKILL after --grace-ms. SIGTERM, SIGINT,
 * SIGHUP or its parent exiting stop the worker: the running job is stopped the same way and failed
 * with that reason.
 */
import { hostname } from "node:os";
import { createDb, databasePathFromEnv, type Db } from "@/db/client";
import {
  claimNextJob,
  finishJob,
  isCancelRequested,
  recordJobOutput,
  renewLease,
  sweepLostJobs,
  type JobRow,
} from "@/db/queries/jobs";
import { PROVIDERS } from "@/lib/agents/agent-spec";
import { choiceListOption, cliCommand, integerOption, parseCli, textOption } from "@/lib/cli/args";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";
import { DEFAULT_LEASE, workerIdentity, type WorkerIdentity } from "@/lib/jobs/lease";
import { commandOf, JobParamsSchema, progressOf } from "@/lib/jobs/schema";
import { spawnGuarded, type Exit } from "@/lib/process/guarded";
import { onParentExit, onStopSignals } from "@/lib/process/signals";
import { firstIssue } from "@/lib/errors/zod-issues";
import { QUEUE_WORK, runQueueWorker } from "./queue-worker";

export const cli = () =>
  cliCommand(
    "npm run worker --",
    "Executes the jobs queued from the web app, oldest first, each as its own CLI process; with --queue, a worker machine of a distributed study.",
  )
    .option("--once", "take at most one job, then exit")
    .addOption(
      textOption(
        "--queue <url>",
        "be a worker machine: take runs from this Redis (the studio's STUDIO_QUEUE_URL) instead of the jobs table",
        { pattern: /^rediss?:\/\/\S+$/, expected: "a redis:// or rediss:// URL" },
      ),
    )
    .addOption(
      textOption("--studio <url>", "with --queue: the studio whose instances are run and which each run is pushed to", {
        pattern: /^https?:\/\/\S+$/,
        expected: "an http:// or https:// URL",
      }),
    )
    .addOption(
      textOption("--token <token>", "with --queue: the studio's STUDIO_INGEST_TOKEN (default: $STUDIO_INGEST_TOKEN)"),
    )
    .addOption(integerOption("--concurrency <n>", "with --queue: runs at once", { min: 1, max: 64 }).default(1))
    .addOption(
      choiceListOption(
        "--providers <list>",
        "with --queue: the provider queues taken from, for runs and LLM judges (default: all)",
        PROVIDERS,
      ),
    )
    .addOption(
      choiceListOption(
        "--work <list>",
        "with --queue: what this worker takes: agent runs, evaluation jobs (default: both)",
        QUEUE_WORK,
      ),
    )
    .addOption(
      integerOption("--lock-ms <ms>", "with --queue: a run whose worker is silent this long goes to another worker", {
        min: 1000,
        max: 600_000,
      }).default(30_000),
    )
    .addOption(textOption("--runs-dir <dir>", "with --queue: where run folders are written").default("data/runs"))
    .addOption(textOption("--cache-dir <dir>", "with --queue: the workspace cache (default: cache beside --runs-dir)"))
    .option("--allow-unsandboxed", "with --queue: run agents without bubblewrap (trusted agents only)")
    .addOption(
      integerOption("--poll-ms <ms>", "how often to look for a job and for a cancel", { min: 50, max: 60_000 }).default(
        1000,
      ),
    )
    .addOption(
      integerOption(
        "--lease-ms <ms>",
        "a running job is another worker's to fail after this long without a heartbeat",
        {
          min: 200,
          max: 600_000,
        },
      ).default(DEFAULT_LEASE.leaseMs),
    )
    .addOption(
      integerOption("--heartbeat-ms <ms>", "how often the lease is renewed (at most half of --lease-ms)", {
        min: 50,
        max: 300_000,
      }).default(DEFAULT_LEASE.heartbeatMs),
    )
    .addOption(
      // 3 s: run-agents drops its runs in progress and exits in well under a second on SIGTERM.
      integerOption("--grace-ms <ms>", "between SIGTERM and SIGKILL of a stopped job", { min: 0, max: 60_000 }).default(
        3000,
      ),
    );

export interface WorkerTiming {
  pollMs: number;
  leaseMs: number;
  heartbeatMs: number;
  graceMs: number;
}

export interface JobContext {
  env: NodeJS.ProcessEnv;
  worker: WorkerIdentity;
  timing: WorkerTiming;
  /** Aborted when the worker is told to stop; its reason is the signal's name. */
  stop: AbortSignal;
  /** Told of each job the sweep ended (a dead worker's) and of a failed heartbeat. */
  onNotice?: (line: string) => void;
}

type Stopped = "cancelled" | "lost" | "worker-stopped";

export const sweep = (db: Db, context: Pick<JobContext, "worker" | "onNotice">) => {
  for (const job of sweepLostJobs(db, { host: context.worker.host }))
    context.onNotice?.(`job ${job.id} ${job.status}: ${job.error}`);
};

const describeExit = (exit: Exit) => (exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`);

/** Runs one claimed job to its end; returns its final status ("lost" when another worker took it over). */
export async function executeJob(db: Db, job: JobRow, context: JobContext): Promise<string> {
  const { worker, timing } = context;
  const parsed = JobParamsSchema.safeParse(job.params);
  if (!parsed.success) {
    const error = `invalid job parameters: ${firstIssue(parsed.error, "params")}`;
    finishJob(db, job.id, "failed", error, worker.id);
    return "failed";
  }
  const { script, argv } = commandOf(parsed.data);
  recordJobOutput(db, job.id, `$ ${script} ${argv.join(" ")}\n`, null);
  // `node --import tsx` runs the CLI in this one process: the tsx binary would start a second
  // node and relay signals to it, a process the guard's group signal reaches anyway but later.
  const guard = spawnGuarded(process.execPath, ["--import", "tsx", script, ...argv], {
    env: { ...context.env, FORCE_COLOR: "0" },
    output: "pipe",
    graceMs: timing.graceMs,
  });
  const onOutput = (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    const progress = text
      .split(/[\r\n]/)
      .map(progressOf)
      .filter((p) => p !== null)
      .at(-1);
    recordJobOutput(db, job.id, text, progress ?? null);
  };
  guard.process.stdout?.on("data", onOutput);
  guard.process.stderr?.on("data", onOutput);
  const closed = new Promise<Exit>((resolve) =>
    guard.process.once("close", (code, signal) => resolve({ code, signal })),
  );

  let stopped: Stopped | null = null;
  const stopFor = (why: Stopped) => {
    if (stopped) return;
    stopped = why;
    void guard.stop();
  };
  // A database error in a beat (a lock held past the busy timeout) must not crash the worker:
  // the next beat retries, and the lease spans several beats.
  const survivable = (beat: () => void) => () => {
    try {
      beat();
    } catch (error) {
      context.onNotice?.(`job ${job.id}: heartbeat failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const cancelPoll = setInterval(
    survivable(() => {
      if (isCancelRequested(db, job.id)) stopFor("cancelled");
    }),
    timing.pollMs,
  );
  const heartbeat = setInterval(
    survivable(() => {
      const lease = renewLease(db, job.id, worker.id, timing.leaseMs);
      if (!lease.held) stopFor("lost");
      else if (lease.cancelRequested) stopFor("cancelled");
      sweep(db, context);
    }),
    timing.heartbeatMs,
  );
  const onStop = () => stopFor("worker-stopped");
  if (context.stop.aborted) onStop();
  context.stop.addEventListener("abort", onStop);

  const exit = await closed;
  clearInterval(cancelPoll);
  clearInterval(heartbeat);
  context.stop.removeEventListener("abort", onStop);
  const finish = (status: "succeeded" | "failed" | "cancelled", error: string | null) =>
    finishJob(db, job.id, status, error, worker.id) ? status : "lost";
  switch (stopped as Stopped | null) {
    case "lost":
      return "lost";
    case "cancelled":
      return finish("cancelled", null);
    case "worker-stopped":
      return finish(
        "failed",
        `the worker was stopped (${String(context.stop.reason)}) while it ran; queue it again to resume (finished runs are kept)`,
      );
    default:
      return exit.code === 0 ? finish("succeeded", null) : finish("failed", describeExit(exit));
  }
}

const abortableSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done);
  });

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = await parseCli(cli(), argv, io);
  if (!parsed) return 0;
  const {
    once,
    queue,
    studio,
    token,
    concurrency,
    providers,
    work,
    lockMs,
    runsDir,
    cacheDir,
    allowUnsandboxed,
    ...timing
  } = parsed.options;
  if (queue || studio) {
    if (!queue || !studio) throw new AppError("INVALID_INPUT", "--queue and --studio go together");
    return runQueueWorker(
      {
        queue,
        studio,
        token,
        concurrency,
        providers: providers ?? [...PROVIDERS],
        lockMs,
        runsDir,
        cacheDir,
        allowUnsandboxed: allowUnsandboxed === true,
        work: work ?? [...QUEUE_WORK],
      },
      io,
    );
  }
  if (timing.heartbeatMs * 2 > timing.leaseMs)
    throw new AppError("INVALID_INPUT", "--heartbeat-ms must be at most half of --lease-ms (one late beat is no loss)");
  const db = createDb(databasePathFromEnv(io.env));
  const stop = new AbortController();
  const removeHandlers = onStopSignals((signal) => stop.abort(signal));
  const stopWatching = onParentExit(() => stop.abort("its parent exited"));
  const context: JobContext = {
    env: io.env,
    worker: workerIdentity(hostname(), process.pid),
    timing,
    stop: stop.signal,
    onNotice: (line) => io.stdout.write(`${line}\n`),
  };
  try {
    io.stdout.write(`worker ${process.pid}: waiting for jobs\n`);
    while (!stop.signal.aborted) {
      sweep(db, context);
      const job = claimNextJob(db, context.worker, timing.leaseMs);
      if (job) {
        io.stdout.write(`job ${job.id} (${job.kind}) started\n`);
        const status = await executeJob(db, job, context);
        io.stdout.write(`job ${job.id} ${status}\n`);
      }
      if (once) break;
      if (!job) await abortableSleep(timing.pollMs, stop.signal);
    }
    if (stop.signal.aborted) io.stdout.write(`worker ${process.pid}: stopped (${String(stop.signal.reason)})\n`);
    return 0;
  } finally {
    removeHandlers();
    stopWatching();
    db.$client.close();
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
