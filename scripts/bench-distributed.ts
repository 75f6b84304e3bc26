/**
 * npm run bench:distributed: a distributed study on this one machine, measured. For each worker
 * count N it starts Redis (Debian's redis-server) on a free port, the built studio (run `npx next
 * build` first) on a fresh copy of a database holding the sample benchmark, and N queue workers
 * (`npm run worker -- --queue ...`, each its own process, runs folder and cache), then queues R
 * scripted runs with `run-agents --queue` and times the batch from queueing to the last run in
 * the studio. It then re-imports the bundles the workers made (`?replace=1`, two at a time: the
 * studio's import slots) to measure the studio's import rate, the ceiling of any fleet.
 *
 * Everything shares this machine's cores, so N workers here measure the queue's overhead and
 * the studio's side, not a fleet's speed-up; the closing note of issue 20 works out a fleet.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createDb } from "@/db/client";
import { saveBenchmark } from "@/db/queries/benchmarks";
import { buildSampleBenchmark } from "@/lib/benchmark/sample-benchmark";
import { readBundleFolder, DEFAULT_READ_LIMITS } from "@/lib/bundle/read";
import { zipBuffer } from "@/lib/bundle/write";
import { cliCommand, integerOption, parseCli, textOption } from "@/lib/cli/args";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";
import { spawnGuarded, type Guarded } from "@/lib/process/guarded";
import { freePort } from "@/lib/util/free-port";

const TOKEN = "bench-distributed-token-0123456789";

export const cli = () =>
  cliCommand(
    "npm run bench:distributed --",
    "A distributed batch on this machine (Redis, the built studio, N queue workers): runs/s per worker count, and the studio's import rate.",
  )
    .addOption(
      textOption("--workers <list>", "worker counts measured, comma-separated", {
        pattern: /^\d{1,2}(,\d{1,2})*$/,
        expected: "a comma-separated list of counts, e.g. 1,2,4",
      }).default("1,2,4"),
    )
    .addOption(integerOption("--runs <n>", "scripted runs per worker count", { min: 1, max: 10_000 }).default(24))
    .addOption(integerOption("--concurrency <n>", "runs at once per worker", { min: 1, max: 16 }).default(1))
    .addOption(integerOption("--port <port>", "the studio's port", { min: 1024, max: 65535 }).default(3191));

async function waitFor(what: string, check: () => Promise<boolean>, seconds = 60): Promise<void> {
  for (let i = 0; i < seconds * 4; i++) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new AppError("UNAVAILABLE", `${what} did not come up within ${seconds} s`);
}

function stopAll(children: (ChildProcess | Guarded)[]): Promise<unknown> {
  return Promise.all(
    children.map((child) => {
      if ("stop" in child) return child.stop();
      if (child.exitCode !== null) return null;
      return new Promise((resolve) => {
        child.once("exit", resolve);
        child.kill("SIGTERM");
      });
    }),
  );
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = await parseCli(cli(), argv, io);
  if (!parsed) return 0;
  const args = parsed.options;
  const say = (line: string) => io.stdout.write(`${line}\n`);
  if (!fs.existsSync(".next/BUILD_ID"))
    throw new AppError("INVALID_INPUT", "no production build: run `npx next build`");
  try {
    execFileSync("sh", ["-c", "command -v redis-server"], { stdio: "ignore" });
  } catch {
    throw new AppError(
      "UNAVAILABLE",
      "redis-server is not installed: apt-get install redis-server (npm run setup does)",
    );
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-distributed-"));
  const base = path.join(work, "base.db");
  const seedDb = createDb(base);
  saveBenchmark(seedDb, await buildSampleBenchmark(), { name: "sample", source: "sample-corpus", config: {} });
  seedDb.$client.pragma("wal_checkpoint(TRUNCATE)");
  seedDb.$client.close();
  const studioUrl = `http://127.0.0.1:${args.port}`;
  const counts = args.workers.split(",").map(Number);
  say(
    `${args.runs} scripted runs (file-tools, mock model) per worker count, ${args.concurrency} at once per worker; load ${load()}`,
  );

  try {
    for (const n of counts) {
      const dir = path.join(work, `n${n}`);
      fs.mkdirSync(dir);
      const db = path.join(dir, "studio.db");
      fs.copyFileSync(base, db);
      const port = await freePort();
      const queueUrl = `redis://127.0.0.1:${port}`;
      const children: (ChildProcess | Guarded)[] = [];
      try {
        children.push(
          spawn(
            "redis-server",
            ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
            { stdio: "ignore" },
          ),
        );
        const env = { ...io.env, STUDIO_DB: db, STUDIO_INGEST_TOKEN: TOKEN, NEXT_TELEMETRY_DISABLED: "1" };
        children.push(
          spawnGuarded(
            process.execPath,
            ["node_modules/next/dist/bin/next", "start", "-H", "127.0.0.1", "-p", String(args.port)],
            {
              env,
              output: "ignore",
              graceMs: 5000,
            },
          ),
        );
        await waitFor(`the studio at ${studioUrl}`, async () => (await fetch(`${studioUrl}/login`)).ok);
        for (let i = 0; i < n; i++) {
          children.push(
            spawnGuarded(
              process.execPath,
              [
                ...["--import", "tsx", "scripts/worker.ts", "--queue", queueUrl, "--studio", studioUrl],
                ...[
                  "--token",
                  TOKEN,
                  "--concurrency",
                  String(args.concurrency),
                  "--runs-dir",
                  path.join(dir, `w${i}`, "runs"),
                ],
              ],
              { env: { ...io.env, STUDIO_DB: path.join(dir, `w${i}.db`) }, output: "ignore", graceMs: 5000 },
            ),
          );
        }
        const started = performance.now();
        const batch = await new Promise<{ code: number | null; out: string }>((resolve) => {
          const child = spawn(
            process.execPath,
            [
              ...["--import", "tsx", "scripts/run-agents.ts", "--queue", queueUrl, "--benchmark", "sample"],
              ...["--agent", "file-tools", "--mock", "--split", "all", "--limit", String(args.runs)],
            ],
            { env: { ...io.env, STUDIO_DB: db }, stdio: ["ignore", "pipe", "pipe"] },
          );
          let out = "";
          child.stdout.on("data", (c: Buffer) => (out += c.toString()));
          child.stderr.on("data", (c: Buffer) => (out += c.toString()));
          child.on("close", (code) => resolve({ code, out }));
        });
        const seconds = (performance.now() - started) / 1000;
        if (batch.code !== 0) throw new AppError("INTERNAL", `run-agents --queue failed:\n${batch.out.slice(-2000)}`);
        const summary = batch.out.split("\n").find((line) => line.includes("queued run(s)")) ?? "";

        // The studio's import rate: the workers' bundles again, two at a time (its import slots).
        const bundles: Buffer[] = [];
        for (let i = 0; i < n; i++) {
          const runs = path.join(dir, `w${i}`, "runs");
          for (const run of fs.existsSync(runs) ? fs.readdirSync(runs) : []) {
            const folder = path.join(runs, run, "bundle");
            if (fs.existsSync(folder))
              bundles.push(await zipBuffer(await readBundleFolder(folder, run, DEFAULT_READ_LIMITS)));
          }
        }
        const importStarted = performance.now();
        let next = 0;
        const post = async () => {
          while (next < bundles.length) {
            const body = bundles[next++]!;
            const answer = await fetch(`${studioUrl}/api/runs/import?replace=1`, {
              method: "POST",
              headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/zip" },
              body: new Uint8Array(body),
            });
            if (!answer.ok)
              throw new AppError("INTERNAL", `re-import answered ${answer.status}: ${await answer.text()}`);
          }
        };
        await Promise.all([post(), post()]);
        const importSeconds = (performance.now() - importStarted) / 1000;
        const kb = bundles.reduce((sum, b) => sum + b.length, 0) / Math.max(1, bundles.length) / 1024;
        say(
          `${n} worker(s): ${args.runs} runs in ${seconds.toFixed(1)} s = ${(args.runs / seconds).toFixed(2)} runs/s ` +
            `(${(args.runs / seconds / n).toFixed(2)} per worker); studio import ${(bundles.length / importSeconds).toFixed(1)} bundles/s ` +
            `(${bundles.length} bundles of ${kb.toFixed(0)} KB zipped); load ${load()}`,
        );
        say(`  ${summary.trim()}`);
      } finally {
        await stopAll(children.reverse());
      }
    }
    return 0;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
