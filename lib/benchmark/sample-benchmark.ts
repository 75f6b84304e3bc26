import fs from "node:fs";
import path from "node:path";
import { buildBenchmark, type BuiltBenchmark } from "./build";
import { parseDevEvalJsonl } from "./deveval";

/** The committed sample corpus: six Python projects in DevEval format. */
export const SAMPLE_CORPUS_DIR = "data/sample-corpus";

/**
 * Builds benchmark "sample" from the sample corpus (seed 42, 200 per subtask in the split): the
 * demo, the e2e seed, the scale seed and the CLI tests all start from it. `sourceCodeDir` points
 * at a copy of the repositories when a test must not touch the committed ones; `benchmarkId`
 * names a second copy (the e2e seed keeps the runs of its real ablation apart from "sample").
 */
export async function buildSampleBenchmark(
  sourceCodeDir: string = path.join(SAMPLE_CORPUS_DIR, "Source_Code"),
  benchmarkId = "sample",
): Promise<BuiltBenchmark> {
  const dataFile = path.join(SAMPLE_CORPUS_DIR, "data.jsonl");
  return buildBenchmark({
    benchmarkId,
    seed: 42,
    splitSize: 200,
    samples: parseDevEvalJsonl(fs.readFileSync(dataFile, "utf8"), dataFile),
    sourceCodeDir,
  });
}
