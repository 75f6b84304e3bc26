/** Test setup shared by the CLI tests: the sample benchmark built into a fresh database. */
import fs from "node:fs";
import { saveBenchmark } from "@/db/queries/benchmarks";
import type { Db } from "@/db/client";
import { buildBenchmark, type BuiltBenchmark } from "@/lib/benchmark/build";
import { parseDevEvalJsonl } from "@/lib/benchmark/deveval";

export const SAMPLE_DATA = "data/sample-corpus/data.jsonl";
export const SAMPLE_SOURCE = "data/sample-corpus/Source_Code";

/** Builds the sample corpus as benchmark "sample" and stores it in `db`. */
export async function saveSampleBenchmark(db: Db, sourceCodeDir = SAMPLE_SOURCE): Promise<BuiltBenchmark> {
  const built = await buildBenchmark({
    benchmarkId: "sample",
    seed: 42,
    splitSize: 200,
    samples: parseDevEvalJsonl(fs.readFileSync(SAMPLE_DATA, "utf8"), SAMPLE_DATA),
    sourceCodeDir,
  });
  saveBenchmark(db, built, { name: "sample", source: "sample-corpus", config: {} });
  return built;
}
