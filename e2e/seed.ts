/**
 * Builds the e2e database from scratch: the sample benchmark (data/sample-corpus) and 60
 * synthetic scripted runs (two pages of the runs list) judged by the rule judge, through the same library calls as the CLIs,
 * and a toy Code-KIT ablation (one configuration under arms none and codekit on the same instances).
 * Two more runs for the run detail page: a long one (over LONG_RUN_STEPS steps, a few of them
 * outside the boundary contract, judged) for the virtualized trajectory, and an empty one (no
 * steps, no changes, never judged) for its empty states. Two runs made elsewhere (FOREIGN_LOGS),
 * read from native logs and judged. Accounts: `admin` and the annotators
 * `ann1`..`ann3` (e2e/auth.ts has their passwords and signs specs in); then the demo's study
 * (scripts/demo-study.ts): `annotator1`..`annotator3` with random passwords in
 * E2E_DEMO_ACCOUNTS_FILE and a 30-run set of the synthetic benchmark given to all three.
 */
import { DISTRIBUTED_BENCHMARK, REAL_ABLATION_BENCHMARK } from "./db";
import fs from "node:fs";
import { createDb, databasePathFromEnv } from "@/db/client";
import { saveBenchmark } from "@/db/queries/benchmarks";
import { evaluationStore, runsToEvaluate } from "@/db/queries/evaluation";
import { importParsedBundle } from "@/db/queries/run-import";
import { ensureJudge } from "@/db/queries/verdicts";
import { evaluateRuns, ruleRunJudge } from "@/lib/judge/evaluate-runs";
import { RULE_JUDGE } from "@/lib/judge/rules/rule-judge";
import { buildSampleBenchmark } from "@/lib/benchmark/sample-benchmark";
import { parseBundle } from "@/lib/bundle/parse";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { bundleFilesOf } from "@/lib/bundle/write";
import { insertScaleRuns, scaleInstances } from "@/db/queries/synthetic-runs";
import { scaleRun } from "@/lib/dashboard/scale-runs";
import { ablationRunRecord } from "@/lib/dashboard/ablation.fixture";
import { createUser } from "@/db/queries/users";
import { foreignBundles, readForeignFile } from "@/lib/foreign/import";
import { hashPassword } from "@/lib/auth/password";
import { ensureDemoStudy } from "../scripts/demo-study";
import { E2E_ACCOUNTS, E2E_DEMO_ACCOUNTS_FILE } from "./auth";

const SEEDED_RUNS = 60;
const LONG_RUN_STEPS = 2400;
/** Indexes well past the seeded ones, so their instances (`task-<index % 500>`) are their own. */
const LONG_RUN = { index: 777, seed: 12, steps: LONG_RUN_STEPS };
const EMPTY_RUN = { index: 778, seed: 12, steps: 0 };
/** Synthetic scale runs on the sample benchmark: 20 configurations, two judges, for the overview and compare pages. */
const SCALE_RUNS = 400;
/** Instances of the toy ablation (benchmark "toy-ablation"), each run under two arms. */
const ABLATION_INSTANCES = 6;
/** Native logs of other agents, imported as runs made elsewhere. */
export const FOREIGN_LOGS = [
  "lib/foreign/formats/fixtures/mini-swe-agent-traj/django__django-16255.traj.json",
  "lib/foreign/formats/fixtures/unified-diff/format-patch.patch",
];

const file = databasePathFromEnv();
for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${file}${suffix}`, { force: true });
fs.rmSync(E2E_DEMO_ACCOUNTS_FILE, { force: true });
const db = createDb(file);
const built = await buildSampleBenchmark();
saveBenchmark(db, built, { name: "sample", source: "sample-corpus", config: { metadataOnly: false } });
// The same corpus again for e2e/ablation.spec.ts's real ablation, whose runs and rule judge must
// not change what the pages show of "sample".
const forAblation = await buildSampleBenchmark(undefined, REAL_ABLATION_BENCHMARK);
// Its source label leaves "sample" to the one row that specs find by that text.
saveBenchmark(db, forAblation, {
  name: REAL_ABLATION_BENCHMARK,
  source: "corpus copy for e2e",
  config: { metadataOnly: false },
});
// And again for e2e/distributed.spec.ts: workers push runs of it from machines without a benchmark.
saveBenchmark(db, await buildSampleBenchmark(undefined, DISTRIBUTED_BENCHMARK), {
  name: DISTRIBUTED_BENCHMARK,
  source: "corpus copy for e2e workers",
  config: { metadataOnly: false },
});
for (let i = 0; i < SEEDED_RUNS; i++) {
  const label = `seed-${i}`;
  importParsedBundle(db, parseBundle(bundleFilesOf(generatedRunRecord({ index: i, seed: 11 })), label), { via: "cli" });
}
const longRun = generatedRunRecord(LONG_RUN);
// Halfway through, steps that touch files against the contract: the trajectory highlights them.
longRun.steps.splice(
  LONG_RUN_STEPS / 2,
  0,
  { id: "w1", kind: "file_write", path: longRun.instance!.contract.mayChange[0]! },
  { id: "w2", kind: "file_write", path: "scratch_test.py" },
  { id: "w3", kind: "shell", command: "cat /etc/hostname", exitCode: 0, output: "sandbox\n", timedOut: false },
);
importParsedBundle(db, parseBundle(bundleFilesOf(longRun), "long-run"), { via: "cli" });
// Runs made elsewhere, read from their native logs (e2e/foreign-runs.spec.ts): judged like ours.
const foreign = await foreignBundles(await Promise.all(FOREIGN_LOGS.map((log) => readForeignFile(log))), {});
for (const outcome of foreign) {
  if (!outcome.ok) throw new Error(`seed: ${outcome.error}`);
  importParsedBundle(db, outcome.bundle, { via: "cli" });
}
// A small Code-KIT ablation (e2e/ablation.spec.ts): arms none and codekit on the same toy instances.
for (const arm of ["none", "codekit"] as const) {
  for (let i = 0; i < ABLATION_INSTANCES; i++) {
    const record = ablationRunRecord(i, arm);
    importParsedBundle(db, parseBundle(bundleFilesOf(record), record.manifest.runId), { via: "cli" });
  }
}
const store = evaluationStore(db);
const judgeId = ensureJudge(db, RULE_JUDGE);
const judged = await evaluateRuns(store, ruleRunJudge(judgeId, store), runsToEvaluate(db, judgeId), { concurrency: 1 });
if (judged.failures.length > 0) throw new Error(`seed: judging failed: ${JSON.stringify(judged.failures)}`);
const sampleInstances = scaleInstances(db, "sample");
insertScaleRuns(
  db,
  Array.from({ length: SCALE_RUNS }, (_, i) => scaleRun(i, 5, sampleInstances)),
);
// Imported after judging: a run with nothing recorded and no verdicts.
const empty = generatedRunRecord(EMPTY_RUN);
importParsedBundle(db, parseBundle(bundleFilesOf({ ...empty, after: new Map(empty.before) }), "empty-run"), {
  via: "cli",
});
// Accounts: an admin and three annotators (passwords in e2e/auth.ts, which signs the specs in).
for (const [username, account] of Object.entries(E2E_ACCOUNTS)) {
  const passwordHash = await hashPassword(account.password);
  createUser(db, { username, displayName: account.displayName, role: account.role, passwordHash });
}
// As `npm run demo` does after judging; here over the rule judge, the only one that scored these runs.
const study = await ensureDemoStudy(db, {
  passwordFile: E2E_DEMO_ACCOUNTS_FILE,
  judgeIds: [judgeId],
  benchmarkId: "synthetic",
});
db.$client.close();
console.log(
  `seeded the sample benchmark (${built.instances.length} instances), ${SEEDED_RUNS} + 2 runs, ${2 * ABLATION_INSTANCES} ablation runs, ${SCALE_RUNS} synthetic scale runs, ${Object.keys(E2E_ACCOUNTS).length} accounts and the demo's study (${study.set.size} items, accounts in ${E2E_DEMO_ACCOUNTS_FILE}) into ${file}`,
);
