/**
 * npm run demo: the main job on the embedded default database (STUDIO_DB, default data/studio.db): prepare the
 * data, import it, build the dashboard and serve it on http://127.0.0.1:PORT.
 * --smoke serves, checks the pages answer with the imported data, then stops (used by CI).
 *
 * Stages: [0] system packages (scripts/setup.ts)  [1] database  [2] the sample benchmark  [3] both built-in agents run on a spread of
 * instances, driven by a local scripted model speaking Gemini's protocol  [4] bundles made
 * elsewhere are imported (synthetic), and native logs of other agents  [5] the rule judge and the LLM judge (scripted, same
 * protocol) score every run, task completion is checked, and judge-check scores both judges on the scripted runs  [6] an agreement study to label (scripts/demo-study.ts)  [7] build  [8] serve.
 * Every scripted run is marked so in the data and the UI.
 * On first run it also creates an admin account, three annotators and a viewer, their random passwords in
 * data/demo-admin.txt.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createDb, databasePathFromEnv } from "@/db/client";
import { saveBenchmark } from "@/db/queries/benchmarks";
import { judgeOptions } from "@/db/queries/overview";
import { buildSampleBenchmark, SAMPLE_CORPUS_DIR } from "@/lib/benchmark/sample-benchmark";
import { SUBTASK_IDS } from "@/lib/benchmark/subtasks";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { bundleFilesOf, writeBundleFolder } from "@/lib/bundle/write";
import { cliCommand, integerOption, parseCli } from "@/lib/cli/args";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";
import { serveUntilStopped, startServices, stopRequested, type ServiceSpec } from "@/lib/process/services";
import { main as evaluate } from "./evaluate";
import { main as judgeCheck } from "./judge-check";

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
import { DEMO_SET_SIZE, ensureDemoStudy } from "./demo-study";
import { smokeCheck } from "./demo-smoke";
import { main as ingest } from "./ingest";
import { main as runAgents } from "./run-agents";
import { main as ablation } from "./ablation";
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

/** The demo's ablation: the study's four arms, one instance per subtask (docs/ablation.md). */
const DEMO_ABLATION_ARMS = ["none", "rules", "tools", "codekit"] as const;
const DEMO_ABLATION_PER_SUBTASK = 1;

/** The benchmark the demo builds and its agents run on; its runs make the agreement study. */
const DEMO_BENCHMARK = "sample";

/** Between SIGTERM and SIGKILL of a service: the worker stops its job (3 s grace) and records why. */
const SERVICE_GRACE_MS = 10_000;

/** The accounts made on first run: their random passwords, for the person who ran the demo only. */
const DEMO_ACCOUNTS_FILE = "data/demo-admin.txt";

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = await parseCli(cli(), argv, io);
  if (!parsed) return 0;
  const args = parsed.options;
  const say = (line: string) => io.stdout.write(`${line}\n`);
  const dbFile = databasePathFromEnv(io.env);

  // Before any work: a missing sandbox would otherwise fail every agent run of stage 3.
  say(`[0/9] system packages`);
  const installed = await ensureSystemPackages("demo", io);
  say(installed.length > 0 ? `      installed ${installed.map((p) => p.apt).join(", ")}` : "      all present");

  say(`[1/9] database: ${dbFile}`);
  const db = createDb(dbFile);
  const admin = await ensureAdmin(db, { username: "admin", passwordFile: DEMO_ACCOUNTS_FILE });
  say(
    admin.created
      ? `      admin account "admin" created; its password is in ${DEMO_ACCOUNTS_FILE} (mode 600): sign in at /login`
      : `      an admin account exists: left alone (npm run users -- list)`,
  );

  say(`[2/9] sample benchmark from ${SAMPLE_CORPUS_DIR}`);
  const built = await buildSampleBenchmark();
  if (built.mismatches.length > 0)
    throw new AppError("INTERNAL", `sample corpus mismatch: ${JSON.stringify(built.mismatches[0])}`);
  const dropped = built.dropped.map((d) => ({ namespace: d.sample.namespace, reason: d.reason }));
  const saved = saveBenchmark(db, built, {
    name: DEMO_BENCHMARK,
    source: "sample-corpus",
    config: { metadataOnly: false, dropped, mismatches: [] },
  });
  say(`      ${saved.instances} instances in ${SUBTASK_IDS.filter((id) => built.counts[id] > 0).length} subtasks`);

  db.$client.close();

  say(
    `[3/9] run agents: both built-in agents on ${args.perSubtask} instances per subtask, with a local scripted model`,
  );
  for (const agent of ["file-tools", "terminal-editor"]) {
    const argv = ["--benchmark", DEMO_BENCHMARK, "--agent", agent, "--mock", "--per-subtask", String(args.perSubtask)];
    const code = await runAgents(argv, io);
    if (code !== 0) throw new AppError("INTERNAL", `run-agents ${argv.join(" ")} failed with exit code ${code}`);
  }

  say(
    `[4/9] Code-KIT ablation: file-tools under ${DEMO_ABLATION_ARMS.join(", ")} on ${DEMO_ABLATION_PER_SUBTASK} instance per subtask (scripted: the script, not the arm, decides the effect)`,
  );
  const ablationArgv = [
    ...["--benchmark", DEMO_BENCHMARK, "--agent", "file-tools", "--mock"],
    ...["--arms", DEMO_ABLATION_ARMS.join(","), "--per-subtask", String(DEMO_ABLATION_PER_SUBTASK)],
  ];
  const ablated = await ablation(ablationArgv, io);
  if (ablated !== 0)
    throw new AppError("INTERNAL", `ablation ${ablationArgv.join(" ")} failed with exit code ${ablated}`);

  say(`[5/9] import runs made elsewhere: ${args.runs} synthetic scripted bundles written to ${DEMO_DIR}/bundles`);
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
    `[6/9] evaluate: task completion, the rule judge, then the LLM judge (a local scripted model speaking Gemini's protocol); both judges checked against the scripted runs' known misbehaviors`,
  );
  // Task completion first: both judges read the stored check as evidence (Instruction Following of a move).
  for (const argv of [["--task-checks"], [], ["--judge", "gemini", "--mock"]]) {
    const code = await evaluate(argv, io);
    if (code !== 0) throw new AppError("INTERNAL", `evaluate ${argv.join(" ")} failed with exit code ${code}`);
  }
  for (const argv of [
    ["--judge", "rule"],
    ["--judge", "gemini", "--mock"],
  ]) {
    const code = await judgeCheck(argv, io);
    if (code !== 0) throw new AppError("INTERNAL", `judge-check ${argv.join(" ")} failed with exit code ${code}`);
  }

  say(`[7/9] agreement study: annotator and viewer accounts, a ${DEMO_SET_SIZE}-run set over the judges above`);
  await prepareStudy(dbFile, say);

  say(`[8/9] build the dashboard (next build)`);
  const env = { ...io.env, NEXT_TELEMETRY_DISABLED: "1", STUDIO_DB: dbFile };
  const build = spawnSync("npx", ["next", "build"], { stdio: "inherit", env });
  if (build.status !== 0) throw new AppError("INTERNAL", `next build failed with exit code ${build.status}`);

  const url = `http://127.0.0.1:${args.port}`;
  say(`[9/9] serve: ${url}  (Ctrl-C to stop)`);
  const services = demoServices(env, args.port, args.smoke ? "ignore" : "inherit");
  if (!args.smoke)
    return serveUntilStopped(services, { graceMs: SERVICE_GRACE_MS, onStop: (why) => say(`stopping: ${why}`) });
  const started = startServices(services, { graceMs: SERVICE_GRACE_MS });
  const stop = stopRequested();
  const stopped = stop.reason.then((reason) => {
    throw new AppError("UNAVAILABLE", `smoke check stopped (${reason})`);
  });
  try {
    await Promise.race([smokeCheck(url, dbFile, say), stopped]);
    return 0;
  } finally {
    stop.dispose();
    await started.stop();
  }
}

/** Stage 6: the accounts and the demo's agreement set, over every judge that scored the sample benchmark's runs. */
async function prepareStudy(dbFile: string, say: (line: string) => void): Promise<void> {
  const db = createDb(dbFile);
  try {
    const judgeIds = judgeOptions(db, DEMO_BENCHMARK).map((j) => j.id);
    const study = await ensureDemoStudy(db, {
      passwordFile: DEMO_ACCOUNTS_FILE,
      judgeIds,
      benchmarkId: DEMO_BENCHMARK,
    });
    const names = (accounts: { username: string }[]) => accounts.map((a) => a.username).join(", ");
    if (study.accounts.created.length > 0)
      say(`      accounts ${names(study.accounts.created)} created; passwords in ${DEMO_ACCOUNTS_FILE}`);
    if (study.accounts.existing.length > 0) say(`      accounts ${names(study.accounts.existing)} exist: left alone`);
    const { set } = study;
    say(
      study.setCreated
        ? `      set "${set.name}" drawn: ${set.size} runs over ${judgeIds.length} judge(s), each given to ${names(set.annotators)}`
        : `      set "${set.name}" exists (${set.completedItems}/${set.size} items complete): left alone`,
    );
    say(`      sign in as annotator1 to label at /annotate; as admin, the report is at /agreement/${set.id}`);
  } finally {
    db.$client.close();
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

if (isEntryPoint(import.meta.url)) await runMain(main);
