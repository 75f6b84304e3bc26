import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors/app-error";
import { describeWithTestData } from "@/lib/test-support/test-data";
import { main } from "./build-benchmark";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "build-benchmark-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function io(dbName: string) {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = new PassThrough();
  const stderr = new PassThrough() as unknown as NodeJS.WriteStream;
  stdout.on("data", (c: Buffer) => out.push(c.toString()));
  (stderr as unknown as PassThrough).on("data", (c: Buffer) => err.push(c.toString()));
  const env: NodeJS.ProcessEnv = { NODE_ENV: "test", STUDIO_DB: path.join(work, dbName) };
  return { io: { stdout, stderr, env }, out: () => out.join(""), err: () => err.join("") };
}

const SAMPLE = [
  "--deveval-data",
  "data/sample-corpus/data.jsonl",
  "--source-code",
  "data/sample-corpus/Source_Code",
  "--name",
  "sample",
];

describeWithTestData("build-benchmark CLI on the real DevEval metadata", "deveval/data.jsonl", (metadata) => {
  it("prints per-subtask counts as JSON from metadata alone", async () => {
    const run = io("meta.db");
    expect(await main(["--deveval-data", metadata, "--metadata-only", "--json"], run.io)).toBe(0);
    const json = JSON.parse(run.out()) as { subtasks: Record<string, number> };
    expect(json.subtasks).toMatchObject({
      codegen_function: 1253,
      codegen_file: 1253,
      codegen_repository: 570,
      execution: 570,
      testing: 570,
    });
    expect(run.err()).toMatch(
      /dropped: boltons\.funcutils\.FunctionBuilder\.get_sig_str: defined inside a module-level conditional/,
    );
  });
});

describe("build-benchmark CLI", () => {
  it("writes byte-identical instances for the same inputs and seed, into two databases", async () => {
    const a = path.join(work, "a.jsonl");
    const b = path.join(work, "b.jsonl");
    expect(await main([...SAMPLE, "--seed", "7", "--out", a, "--strict"], io("a.db").io)).toBe(0);
    expect(await main([...SAMPLE, "--seed", "7", "--out", b, "--strict"], io("b.db").io)).toBe(0);
    expect(fs.readFileSync(a).equals(fs.readFileSync(b))).toBe(true);
    expect(fs.readFileSync(a, "utf8").split("\n").filter(Boolean).length).toBeGreaterThan(400);
  });

  it("reports a missing repository once, apart from mismatches, and fails only with --strict", async () => {
    const data = path.join(work, "missing.jsonl");
    const first = JSON.parse(fs.readFileSync("data/sample-corpus/data.jsonl", "utf8").split("\n")[0]!);
    const gone = (n: number) => ({
      ...first,
      namespace: `gone.mod.f${n}`,
      project_path: "Nowhere/gone",
      completion_path: "Nowhere/gone/gone/mod.py",
    });
    fs.writeFileSync(data, [first, gone(1), gone(2)].map((s) => JSON.stringify(s)).join("\n"));
    const argv = ["--deveval-data", data, "--source-code", "data/sample-corpus/Source_Code", "--name", "gone"];
    const run = io("missing.db");
    expect(await main(argv, run.io)).toBe(0);
    expect(run.err().match(/missing repository: Nowhere\/gone \(2 samples\)/g)).toHaveLength(1);
    expect(run.err()).toMatch(/^1 repositories not found \(2 samples\)$/m);
    expect(run.err()).not.toMatch(/mismatch:/);
    expect(run.out()).toMatch(/0 mismatches, 1 repositories not found/);
    expect(await main([...argv, "--strict"], io("missing-strict.db").io)).toBe(1);
    // Snapshots were stored while the build streamed; every instance is linked to its repository's.
    const db = new Database(path.join(work, "missing.db"), { readonly: true });
    const unlinked = db.prepare("SELECT count(*) AS n FROM instances WHERE snapshot_id IS NULL").get() as { n: number };
    const snapshots = db.prepare("SELECT count(*) AS n FROM repo_snapshots").get() as { n: number };
    db.close();
    expect(unlinked.n).toBe(0);
    expect(snapshots.n).toBe(1);
  });

  it("vets extra paraphrases from a model (local scripted Gemini) and adds the accepted ones to the pool", async () => {
    const run = io("paraphrases.db");
    const argv = [
      "--deveval-data",
      "data/sample-corpus/data.jsonl",
      "--metadata-only",
      "--paraphrase-provider",
      "gemini",
      "--paraphrase-mock",
    ];
    expect(await main(argv, run.io)).toBe(0);
    expect(run.err()).toMatch(/paraphrases codegen_file: 3 accepted, 2 rejected/);
    expect(run.err()).toMatch(/rejected: widening phrase "feel free"/);
    expect(run.err()).toMatch(/rejected: missing placeholder \{function\}/);
    const db = new Database(path.join(work, "paraphrases.db"), { readonly: true });
    const config = JSON.parse((db.prepare("SELECT config FROM benchmarks").get() as { config: string }).config);
    const maxIndex = (db.prepare("SELECT max(paraphrase_index) AS n FROM instances").get() as { n: number }).n;
    db.close();
    expect(config.extraParaphrases.codegen_file).toHaveLength(3);
    expect(maxIndex).toBeGreaterThanOrEqual(50);
  });

  it("refuses bad arguments with a usage error", async () => {
    const cases = [
      [],
      ["--deveval-data", "data/sample-corpus/data.jsonl"],
      ["--deveval-data", "nope.jsonl", "--metadata-only"],
      ["--deveval-data", "data/sample-corpus/data.jsonl", "--source-code", "no/such/dir"],
      ["--deveval-data", "data/sample-corpus/data.jsonl", "--metadata-only", "--seed", "-1"],
      ["--deveval-data", "data/sample-corpus/data.jsonl", "--metadata-only", "--name", "bad name!"],
    ];
    for (const argv of cases) {
      await expect(main(argv, io("x.db").io), argv.join(" ")).rejects.toSatisfy(
        (e: unknown) => e instanceof AppError && e.code === "INVALID_INPUT",
      );
    }
  });
});
