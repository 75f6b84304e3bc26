import fs from "node:fs";
import path from "node:path";
import { buildBenchmark, type BuiltBenchmark } from "./build";
import { parseDevEvalJsonl } from "./deveval";

/** The committed sample corpus: six Python projects in DevEval format. */
export const SAMPLE_CORPUS_DIR = "data/sample-corpus";

/** Builds benchmark "sample" from the sample corpus (seed 42, 200 per subtask in the split). */
export async function buildSampleBenchmark(corpusDir: string = SAMPLE_CORPUS_DIR): Promise<BuiltBenchmark> {
  const dataFile = path.join(corpusDir, "data.jsonl");
  return buildBenchmark({
    benchmarkId: "sample",
    seed: 42,
    splitSize: 200,
    samples: parseDevEvalJsonl(fs.readFileSync(dataFile, "utf8"), dataFile),
    sourceCodeDir: path.join(corpusDir, "Source_Code"),
  });
}
