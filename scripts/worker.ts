/**
 * npm run worker -- [--once] [--poll-ms N]
 * Executes jobs queued from the web app, oldest first, each as its own CLI process (the same
 * command a person would type), streaming its output into the job's log and progress. A cancel
 * request kills the job's process group. Started by the demo next to the dashboard.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { z } from "zod";
import { createDb, databasePathFromEnv, type Db } from "@/db/client";
import { claimNextJob, finishJob, isCancelRequested, recordJobOutput, type JobRow } from "@/db/queries/jobs";
import { parseCliArgs } from "@/lib/cli/args";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { commandOf, JobParamsSchema, progressOf } from "@/lib/jobs/schema";

const ArgsSchema = z.object({
  once: z.boolean().default(false),
  "poll-ms": z.coerce.number().int().min(50).max(60_000).default(1000),
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function executeJob(db: Db, job: JobRow, env: NodeJS.ProcessEnv, pollMs: number): Promise<string> {
  const parsed = JobParamsSchema.safeParse(job.params);
  if (!parsed.success) {
    finishJob(db, job.id, "failed", `invalid job parameters: ${parsed.error.issues[0]?.message ?? "unknown"}`);
    return "failed";
  }
  const { script, argv } = commandOf(parsed.data);
  recordJobOutput(db, job.id, `$ ${script} ${argv.join(" ")}\n`, null);
  const child = spawn(path.join("node_modules", ".bin", "tsx"), [script, ...argv], {
    env: { ...env, FORCE_COLOR: "0" },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
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
  child.stdout.on("data", onOutput);
  child.stderr.on("data", onOutput);
  let cancelled = false;
  const exit = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const watcher = setInterval(() => {
    if (!cancelled && isCancelRequested(db, job.id)) {
      cancelled = true;
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // already gone
      }
    }
  }, pollMs);
  const code = await exit;
  clearInterval(watcher);
  const status = cancelled ? "cancelled" : code === 0 ? "succeeded" : "failed";
  finishJob(db, job.id, status, status === "failed" ? `exit code ${code}` : null);
  return status;
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const { values: args } = parseCliArgs(
    argv,
    { once: { type: "boolean" }, "poll-ms": { type: "string" } },
    ArgsSchema,
    "usage: npm run worker -- [--once] [--poll-ms N]",
  );
  const db = createDb(databasePathFromEnv(io.env));
  let stopping = false;
  const stop = () => {
    stopping = true;
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  try {
    io.stdout.write(`worker ${process.pid}: waiting for jobs\n`);
    while (!stopping) {
      const job = claimNextJob(db, process.pid);
      if (job) {
        io.stdout.write(`job ${job.id} (${job.kind}) started\n`);
        const status = await executeJob(db, job, io.env, args["poll-ms"]);
        io.stdout.write(`job ${job.id} ${status}\n`);
      }
      if (args.once) break;
      if (!job) await sleep(args["poll-ms"]);
    }
    return 0;
  } finally {
    db.$client.close();
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
