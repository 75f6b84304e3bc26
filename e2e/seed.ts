/**
 * Builds the e2e database from scratch: the sample benchmark (data/sample-corpus) and 60
 * synthetic scripted runs (two pages of the runs list) judged by the rule judge, through the same library calls as the CLIs.
 */
import fs from "node:fs";
import { createDb, databasePathFromEnv } from "@/db/client";
import { saveBenchmark } from "@/db/queries/benchmarks";
import { ensureJudge, loadEvaluationInput, runsToEvaluate, saveVerdicts } from "@/db/queries/evaluation";
import { importParsedBundle } from "@/db/queries/run-import";
import { RULE_JUDGE, ruleJudge } from "@/lib/evaluation/rule-judge";
import { buildBenchmark } from "@/lib/benchmark/build";
import { parseDevEvalJsonl } from "@/lib/benchmark/deveval";
import { parseBundle } from "@/lib/bundle/parse";
import { syntheticRun } from "@/lib/bundle/synthetic";
import { bundleFilesOf } from "@/lib/bundle/write";

const SEEDED_RUNS = 60;
const DATA = "data/sample-corpus/data.jsonl";

const file = databasePathFromEnv();
for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${file}${suffix}`, { force: true });
const db = createDb(file);
const built = await buildBenchmark({
  benchmarkId: "sample",
  seed: 42,
  splitSize: 200,
  samples: parseDevEvalJsonl(fs.readFileSync(DATA, "utf8"), DATA),
  sourceCodeDir: "data/sample-corpus/Source_Code",
});
saveBenchmark(db, built, { name: "sample", source: "sample-corpus", config: { metadataOnly: false } });
for (let i = 0; i < SEEDED_RUNS; i++) {
  const label = `seed-${i}`;
  importParsedBundle(db, parseBundle(bundleFilesOf(syntheticRun({ index: i, seed: 11 })), label), { via: "cli" });
}
const judgeId = ensureJudge(db, RULE_JUDGE);
for (const runId of runsToEvaluate(db, judgeId))
  saveVerdicts(db, runId, judgeId, await ruleJudge(loadEvaluationInput(db, runId)));
db.$client.close();
console.log(`seeded the sample benchmark (${built.instances.length} instances) and ${SEEDED_RUNS} runs into ${file}`);
