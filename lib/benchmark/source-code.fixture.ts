/** Writes hand-made repositories as a DevEval `Source_Code` folder (`<Topic>/<repo>/<file>`) for tests. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildBenchmark, type BuiltBenchmark } from "./build";
import { parseDevEvalJsonl } from "./deveval";

/** Project path -> relative file path -> content. Returns the new folder; the caller removes it. */
export function writeSourceCode(prefix: string, projects: Record<string, Record<string, string>>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const [project, files] of Object.entries(projects)) {
    for (const [rel, content] of Object.entries(files)) {
      const target = path.join(root, project, rel);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, content);
    }
  }
  return root;
}

/** The benchmark of a DevEval metadata file whose `Source_Code` folder lies beside it (the five real repositories). */
export function buildBesideMetadata(metadata: string, splitSize: number): Promise<BuiltBenchmark> {
  return buildBenchmark({
    benchmarkId: "real5",
    seed: 42,
    splitSize,
    samples: parseDevEvalJsonl(fs.readFileSync(metadata, "utf8"), metadata),
    sourceCodeDir: path.join(path.dirname(metadata), "Source_Code"),
  });
}
