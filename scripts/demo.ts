/**
 * npm run demo: the main job on the embedded default database (STUDIO_DB, default data/studio.db): prepare the
 * data, import it, build the dashboard and serve it on http://127.0.0.1:PORT.
 * --smoke serves, checks the pages answer with the imported data, then stops (used by CI).
 *
 * Stages: [0] system packages (scripts/setup.ts)  [1] database  [2] the sample benchmark  [3] both built-in agents run on a spread of
 * instances, driven by a local scripted model speaking Gemini's protocol  [4] bundles made
 * elsewhere are imported (synthetic), and native logs of other agents  [5] the rule judge and the LLM judge (scripted, same
 * protocol) score every run  [6] build  [7] serve. Every scripted run is marked so in the data and the UI.
 * On first run it also creates an admin account, its random password in data/demo-admin.txt.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createDb, databasePathFromEnv } from "@/db/client";
import { saveBenchmark } from "@/db/queries/benchmarks";
import { buildSampleBenchmark, SAMPLE_CORPUS_DIR } from "@/lib/benchmark/sample-benchmark";
import { SUBTASK_IDS } from "@/lib/benchmark/subtasks";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { bundleFilesOf, writeBundleFolder } from "@/lib/bundle/write";
import { cliCommand, integerOption, parseCli } from "@/lib/cli/args";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";
import { serveUntilStopped, startServices, stopRequested, type ServiceSpec } from "@/lib/process/services";
import { main as evaluate } from "./evaluate";

/** Native logs of other agents the demo imports as runs made elsewhere (docs/foreign-runs.md). */
const FOREIGN_FIXTURES = "lib/foreign/formats/fixtures";
const DEMO_FOREIGN_LOGS = [
  "openhands-output/output.jsonl",
  "swe-agent-traj/pkg__pkg-7.traj",
  "mini-swe-agent-traj/django__django-16255.traj.json",
  "claude-code-session/subagent_session.jsonl",
  "codex-exec/handmade_exec.jsonl",
  "gemini-cli-stream/read_stream.jsonl",
  "gemini-cli-session/read_session.json",
  "smolagents-memory/code-agent.json",
  "agno-run-output/run.json",
  "inspect-json/swe_bench_mini.json",
];
import { main as ingest } from "./ingest";
import { main as runAgents } from "./run-agents";
import { ensureSystemPackages } from "./setup";
import { ensureAdmin } from "./users";

export const cli = () =>
  cliCommand(
    "npm run demo --",
    "Prepares the data, imports it, builds the dashboard and serves it on http://127.0.0.1:PORT (database STUDIO_DB, default data/studio.db).",
  )
    .addOption(integerOption("--port <port>", "port to serve on", { min: 1, max: 65535 }).default(3000))
    .addOption(
      integerOption("--per-subtask <n>", "instances per subtask each built-in agent runs", {
        min: 1,
        max: 200,
      }).default(3),
    )
    .addOption(
      integerOption("--runs <n>", "synthetic bundles imported as runs made elsewhere", { min: 1, max: 10_000 }).default(
        60,
      ),
    )
    .option("--smoke", "serve, check the pages answer with the imported data, then stop (CI)");

const DEMO_DIR = "data/demo";

/** Between SIGTERM and SIGKILL of a service: the worker stops its job (3 s grace) and records why. */
const SERVICE_GRACE_MS = 10_000;

/** The admin made on first run: its random password, for the person who ran the demo only. */
const DEMO_ADMIN_FILE = "data/demo-admin.txt";

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = await parseCli(cli(), argv, io);
  if (!parsed) return 0;
  const args = parsed.options;
  const say = (line: string) => io.stdout.write(`${line}\n`);
  const dbFile = databasePathFromEnv(io.env);

  // Before any work: a missing sandbox would otherwise fail every agent run of stage 3.
  say(`[0/7] system packages`);
  const installed = await ensureSystemPackages("demo", io);
  say(installed.length > 0 ? `      installed ${installed.map((p) => p.apt).join(", ")}` : "      all present");

  say(`[1/7] database: ${dbFile}`);
  const db = createDb(dbFile);
  const admin = await ensureAdmin(db, { username: "admin", passwordFile: DEMO_ADMIN_FILE });
  say(
    admin.created
      ? `      admin account "admin" created; its password is in ${DEMO_ADMIN_FILE} (mode 600): sign in at /login`
      : `      an admin account exists: left alone (npm run users -- list)`,
  );

  say(`[2/7] sample benchmark from ${SAMPLE_CORPUS_DIR}`);
  const built = await buildSampleBenchmark();
  if (built.mismatches.length > 0)
    throw new AppError("INTERNAL", `sample corpus mismatch: ${JSON.stringify(built.mismatches[0])}`);
  const dropped = built.dropped.map((d) => ({ namespace: d.sample.namespace, reason: d.reason }));
  const saved = saveBenchmark(db, built, {
    name: "sample",
    source: "sample-corpus",
    config: { metadataOnly: false, dropped, mismatches: [] },
  });
  say(`      ${saved.instances} instances in ${SUBTASK_IDS.filter((id) => built.counts[id] > 0).length} subtasks`);

  db.$client.close();

  say(
    `[3/7] run agents: both built-in agents on ${args.perSubtask} instances per subtask, with a local scripted model`,
  );
  for (const agent of ["file-tools", "terminal-editor"]) {
    const argv = ["--benchmark", "sample", "--agent", agent, "--mock", "--per-subtask", String(args.perSubtask)];
    const code = await runAgents(argv, io);
    if (code !== 0) throw new AppError("INTERNAL", `run-agents ${argv.join(" ")} failed with exit code ${code}`);
  }

  say(`[4/7] import runs made elsewhere: ${args.runs} synthetic scripted bundles written to ${DEMO_DIR}/bundles`);
  const bundleDir = path.join(DEMO_DIR, "bundles");
  for (let i = 0; i < args.runs; i++) {
    const dir = path.join(bundleDir, `run-${String(i).padStart(4, "0")}`);
    if (!fs.existsSync(path.join(dir, "manifest.json"))) {
      await writeBundleFolder(dir, bundleFilesOf(generatedRunRecord({ index: i, seed: 2026 })));
    }
  }
  const ingested = await ingest([bundleDir], io);
  if (ingested !== 0) throw new AppError("INTERNAL", `ingest ${bundleDir} failed with exit code ${ingested}`);
  say(`      and ${DEMO_FOREIGN_LOGS.length} native logs of other agents (${FOREIGN_FIXTURES}), read as they are`);
  const foreign = await ingest(
    DEMO_FOREIGN_LOGS.map((file) => path.join(FOREIGN_FIXTURES, file)),
    io,
  );
  if (foreign !== 0) throw new AppError("INTERNAL", `ingest of the native logs failed with exit code ${foreign}`);

  say(
    `[5/7] evaluate: the rule judge, then the LLM judge (a local scripted model speaking Gemini's protocol), then task completion`,
  );
  for (const argv of [[], ["--judge", "gemini", "--mock"], ["--task-checks"]]) {
    const code = await evaluate(argv, io);
    if (code !== 0) throw new AppError("INTERNAL", `evaluate ${argv.join(" ")} failed with exit code ${code}`);
  }

  say(`[6/7] build the dashboard (next build)`);
  const env = { ...io.env, NEXT_TELEMETRY_DISABLED: "1", STUDIO_DB: dbFile };
  const build = spawnSync("npx", ["next", "build"], { stdio: "inherit", env });
  if (build.status !== 0) throw new AppError("INTERNAL", `next build failed with exit code ${build.status}`);

  const url = `http://127.0.0.1:${args.port}`;
  say(`[7/7] serve: ${url}  (Ctrl-C to stop)`);
  const services = demoServices(env, args.port, args.smoke ? "ignore" : "inherit");
  if (!args.smoke)
    return serveUntilStopped(services, { graceMs: SERVICE_GRACE_MS, onStop: (why) => say(`stopping: ${why}`) });
  const started = startServices(services, { graceMs: SERVICE_GRACE_MS });
  const stop = stopRequested();
  const stopped = stop.reason.then((reason) => {
    throw new AppError("UNAVAILABLE", `smoke check stopped (${reason})`);
  });
  try {
    await Promise.race([smokeCheck(url, say), stopped]);
    return 0;
  } finally {
    stop.dispose();
    await started.stop();
  }
}

/**
 * The serving stage: `next start` and the worker (it executes the jobs queued from the Jobs
 * page), each under a guard, so stopping the demo in any way stops both (lib/process/services.ts).
 */
function demoServices(env: NodeJS.ProcessEnv, port: number, output: "inherit" | "ignore"): ServiceSpec[] {
  return [
    { name: "server", file: "npx", args: ["next", "start", "-H", "127.0.0.1", "-p", String(port)], env, output },
    { name: "worker", file: process.execPath, args: ["--import", "tsx", "scripts/worker.ts"], env, output },
  ];
}

async function smokeCheck(url: string, say: (line: string) => void): Promise<void> {
  const body = await waitForPage(`${url}/runs`, 60_000);
  if (!body.includes('data-testid="runs-table"'))
    throw new AppError("INTERNAL", "the runs page answered without the runs table");
  const benchmark = await waitForPage(`${url}/benchmarks/sample`, 10_000);
  if (!benchmark.includes('data-testid="subtasks-table"')) {
    throw new AppError("INTERNAL", "the benchmark page answered without the subtask table");
  }
  const overview = await waitForPage(`${url}/overview`, 10_000);
  if (!overview.includes('data-testid="overview-table-')) {
    throw new AppError("INTERNAL", "the overview page answered without its tables");
  }
  const login = await waitForPage(`${url}/login`, 10_000);
  if (!login.includes('data-testid="login-form"')) throw new AppError("INTERNAL", "the sign-in page has no form");
  say(
    `smoke check: ${url}/overview, ${url}/runs and ${url}/benchmarks/sample answer with their tables, ${url}/login with its form`,
  );
}

async function waitForPage(url: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let lastError = "";
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return await response.text();
      lastError = `HTTP ${response.status}`;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new AppError("UNAVAILABLE", `${url} did not answer within ${timeoutMs / 1000}s (${lastError})`);
}

if (isEntryPoint(import.meta.url)) await runMain(main);
