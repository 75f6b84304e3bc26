import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { firstSyntaxError, parsePython } from "@/lib/analysis/python-parser";
import { buildBenchmark, type BuiltBenchmark } from "./build";
import { contextOf, metadataResolver, parseDevEvalJsonl, splitUsable } from "./deveval";
import { SUBTASK_IDS } from "./subtasks";

const CORPUS = "data/sample-corpus";
const DATA = `${CORPUS}/data.jsonl`;
const SOURCE = `${CORPUS}/Source_Code`;

const samples = parseDevEvalJsonl(fs.readFileSync(DATA, "utf8"), DATA);
let built: BuiltBenchmark;

beforeAll(async () => {
  built = await buildBenchmark({ benchmarkId: "sample", seed: 42, splitSize: 200, samples, sourceCodeDir: SOURCE });
});

describe("the sample corpus", () => {
  it("ships at least 60 usable DevEval-format samples of both contexts", () => {
    const { usable } = splitUsable(samples);
    expect(usable.length).toBeGreaterThanOrEqual(60);
    const resolver = metadataResolver(usable);
    const repository = usable.filter((s) => contextOf(s, resolver(s)) === "repository").length;
    expect(repository).toBeGreaterThanOrEqual(20);
    expect(usable.length - repository).toBeGreaterThanOrEqual(30);
    expect(new Set(usable.map((s) => s.project_path)).size).toBeGreaterThanOrEqual(5);
  });

  it("has every recorded position right (no mismatch) and drops only the conditional samples", () => {
    expect(built.mismatches).toEqual([]);
    expect(built.dropped.every((d) => /conditional/.test(d.reason))).toBe(true);
  });

  it("gives every subtask instances", () => {
    for (const subtask of SUBTASK_IDS) expect(built.counts[subtask], subtask).toBeGreaterThan(0);
  });

  it("keeps every generated workspace parsing: the repositories and every setup change", async () => {
    for (const [project, files] of built.snapshots) {
      for (const [file, { data }] of files) {
        if (!file.endsWith(".py")) continue;
        expect(firstSyntaxError(await parsePython(data.toString("utf8"))), `${project}/${file}`).toBeNull();
      }
    }
    for (const b of built.instances) {
      for (const change of b.setup) {
        if (change.content && change.path.endsWith(".py")) {
          expect(firstSyntaxError(await parsePython(change.content.toString("utf8"))), b.instance.id).toBeNull();
        }
      }
    }
  });

  it("builds byte-identical instances from the same inputs and seed", async () => {
    const again = await buildBenchmark({
      benchmarkId: "sample",
      seed: 42,
      splitSize: 200,
      samples,
      sourceCodeDir: SOURCE,
    });
    expect(JSON.stringify(again.instances)).toBe(JSON.stringify(built.instances));
  });

  // One test per repository: each runs that repository's unittest suite from its snapshot.
  it.each([...new Set(samples.map((s) => s.project_path))].sort())(
    "%s: its own tests pass with python3 -m unittest",
    (project) => {
      const files = built.snapshots.get(project)!;
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "corpus-"));
      try {
        for (const [file, { data }] of files) {
          fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
          fs.writeFileSync(path.join(dir, file), data);
        }
        const result = spawnSync("python3", ["-m", "unittest", "discover", "-s", "tests", "-t", "."], {
          cwd: dir,
          env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
          encoding: "utf8",
        });
        expect(result.status, `${project}: ${result.stderr}`).toBe(0);
        expect(result.stderr, project).toMatch(/Ran [1-9]\d* tests?[\s\S]*\nOK/);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
