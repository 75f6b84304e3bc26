import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDb } from "@/db/client";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import {
  tarGzDeclaring,
  tarGzWithTrailingZeros,
  withDeepArguments,
  withHeapFilling,
} from "@/lib/bundle/hostile-archives.fixture";
import { DEFAULT_MAX_JSON_BYTES } from "@/lib/bundle/json-budget";
import { contentMembers, generatedBundle, withMember } from "@/lib/bundle/test-support";
import { writeBundleTarGz } from "@/lib/bundle/test-support";
import { bundleFilesOf, writeBundleFolder } from "@/lib/bundle/write";
import { runCaptured } from "@/lib/cli/cli-io.fixture";
import { main } from "./ingest";

const SUMMARY =
  /^(\d+) bundle\(s\): (\d+) imported, (\d+) replaced, (\d+) unchanged \(already imported\), (\d+) failed in [\d.]+s\n$/;

let root = "";
let work = "";
let dbPath = "";
let counter = 0;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "ingest-cli-"));
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

beforeEach(async () => {
  counter += 1;
  work = path.join(root, `case-${counter}`);
  await fs.mkdir(work);
  dbPath = path.join(work, "studio.db");
});

const envWith = (vars: Record<string, string>): NodeJS.ProcessEnv => ({ NODE_ENV: "test", STUDIO_DB: dbPath, ...vars });

/** main() as runMain runs it, on the test database. */
const ingest = (argv: string[], env: Record<string, string> = {}) => runCaptured(main, argv, envWith(env));

/** [found, imported, replaced, unchanged, failed] from the summary line. */
function summaryOf(stdout: string): number[] {
  const match = SUMMARY.exec(stdout);
  if (!match) throw new Error(`no summary line in ${JSON.stringify(stdout)}`);
  return match.slice(1, 6).map(Number);
}

const errorLines = (stderr: string) => stderr.split("\n").filter((line) => line.startsWith("error: "));

function runIds(): string[] {
  const db = createDb(dbPath);
  try {
    return (db.$client.prepare("SELECT id FROM runs ORDER BY id").all() as { id: string }[]).map((r) => r.id);
  } finally {
    db.$client.close();
  }
}

function serialized(): Buffer {
  const db = createDb(dbPath);
  try {
    return db.$client.serialize();
  } finally {
    db.$client.close();
  }
}

async function goodBundles(): Promise<string[]> {
  const folder = path.join(work, "run-a");
  await writeBundleFolder(folder, generatedBundle({ index: 1, seed: 3 }));
  const archive = path.join(work, "run-b.tar.gz");
  await writeBundleTarGz(archive, generatedBundle({ index: 2, seed: 3 }));
  return [folder, archive];
}

describe("npm run ingest", () => {
  it("imports good bundles and exits 0", async () => {
    const paths = await goodBundles();

    const run = await ingest(paths);

    expect(run.code).toBe(0);
    expect(summaryOf(run.stdout)).toEqual([2, 2, 0, 0, 0]);
    expect(run.stdout).toContain("2 bundle(s): 2 imported");
    expect(errorLines(run.stderr)).toEqual([]);
    expect(run.stderr).toContain("ingest 2/2 (100%)");
    expect(runIds()).toEqual(["synthetic-3-000001", "synthetic-3-000002"]);
  });

  it("says unchanged when the same bundles are imported again", async () => {
    const paths = await goodBundles();
    await ingest(paths);
    const before = serialized();

    const run = await ingest(["--concurrency", "1", ...paths]);

    expect(run.code).toBe(0);
    expect(summaryOf(run.stdout)).toEqual([2, 0, 0, 2, 0]);
    expect(run.stdout).toContain("2 unchanged (already imported)");
    expect(serialized().equals(before)).toBe(true);
  });

  it("reports a bad bundle on an error line, exits 1, and still imports the good ones", async () => {
    const paths = await goodBundles();
    const files = generatedBundle({ index: 3, seed: 3 });
    const content = contentMembers(files)[0]!;
    const bad = path.join(work, "run-bad");
    await writeBundleFolder(bad, withMember(files, content, "tampered"));

    const run = await ingest([...paths, bad]);

    expect(run.code).toBe(1);
    expect(summaryOf(run.stdout)).toEqual([3, 2, 0, 0, 1]);
    const errors = errorLines(run.stderr);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`^error: ${bad}: ${content}: hash mismatch: content hashes to [0-9a-f]{64}$`));
    expect(runIds()).toEqual(["synthetic-3-000001", "synthetic-3-000002"]);
  });

  it("finds bundles in a folder of bundles", async () => {
    await goodBundles();

    const run = await ingest([work]);

    expect(run.code).toBe(0);
    expect(summaryOf(run.stdout)).toEqual([2, 2, 0, 0, 0]);
  });

  it("reports a path that does not exist, and exits 1", async () => {
    const [good] = await goodBundles();
    const missing = path.join(work, "no-such-bundle");

    const run = await ingest([missing, good!]);

    expect(run.code).toBe(1);
    expect(errorLines(run.stderr)).toEqual([`error: ${missing}: no such file or folder`]);
    expect(summaryOf(run.stdout)).toEqual([1, 1, 0, 0, 1]);
    expect(runIds()).toEqual(["synthetic-3-000001"]);
  });

  it("refuses a different bundle for an imported run, and replaces it with --replace", async () => {
    const run = generatedRunRecord({ index: 1, seed: 3 });
    const first = path.join(work, "first");
    await writeBundleFolder(first, bundleFilesOf(run));
    run.manifest.taskCompleted = !run.manifest.taskCompleted;
    const second = path.join(work, "second");
    await writeBundleFolder(second, bundleFilesOf(run));
    await ingest([first]);

    const refused = await ingest([second]);
    const replaced = await ingest(["--replace", second]);

    expect(refused.code).toBe(1);
    expect(errorLines(refused.stderr)).toEqual([
      `error: ${second}: run "synthetic-3-000001" was already imported from a different bundle; pass --replace to overwrite it`,
    ]);
    expect(replaced.code).toBe(0);
    expect(summaryOf(replaced.stdout)).toEqual([1, 0, 1, 0, 0]);
  });

  it("prints one JSON line with --json", async () => {
    const paths = await goodBundles();
    const missing = path.join(work, "missing.zip");

    const run = await ingest(["--json", ...paths, missing]);

    expect(run.code).toBe(1);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    const report = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(report).toMatchObject({ found: 2, imported: 2, replaced: 0, unchanged: 0, failed: 1 });
    expect(report.results).toEqual([
      { label: paths[0], ok: true, runId: "synthetic-3-000001", outcome: "imported" },
      { label: paths[1], ok: true, runId: "synthetic-3-000002", outcome: "imported" },
    ]);
  });

  it("applies the read limits from the environment", async () => {
    const [folder] = await goodBundles();

    const run = await ingest([folder!], { STUDIO_BUNDLE_MAX_MEMBER_BYTES: "1000" });

    expect(run.code).toBe(1);
    expect(errorLines(run.stderr)[0]).toMatch(
      new RegExp(
        `^error: ${folder}: \\S+: member is \\d+ bytes, over the limit of 1000 \\(STUDIO_BUNDLE_MAX_MEMBER_BYTES\\)$`,
      ),
    );
  });
});

describe("npm run ingest on hostile archives", () => {
  it("imports a .tar.gz followed by 32 MiB of zeros (reading stops at the archive's end)", async () => {
    const archive = path.join(work, "zeros.tar.gz");
    await fs.writeFile(archive, await tarGzWithTrailingZeros(generatedBundle({ index: 7, seed: 3 }), 32 * 1024 * 1024));

    const run = await ingest([archive]);

    expect(run.code).toBe(0);
    expect(summaryOf(run.stdout)).toEqual([1, 1, 0, 0, 0]);
    expect(runIds()).toEqual(["synthetic-3-000007"]);
  });

  it("names the member and line of JSON nested 10,000 deep, instead of overflowing the stack", async () => {
    const { files, line } = withDeepArguments(generatedBundle({ index: 8, seed: 3 }), 10_000);
    const folder = path.join(work, "run-deep");
    await writeBundleFolder(folder, files);

    const run = await ingest([folder]);

    expect(run.code).toBe(1);
    expect(errorLines(run.stderr)).toEqual([
      `error: ${folder}: trajectory.jsonl line ${line}: JSON nested deeper than 256 levels at column 269`,
    ]);
    expect(runIds()).toEqual([]);
  });

  it("refuses a member whose header declares 1 GiB", async () => {
    const archive = path.join(work, "huge.tgz");
    await fs.writeFile(archive, await tarGzDeclaring("native/huge.log", 1024 * 1024 * 1024, 1024 * 1024));

    const run = await ingest([archive]);

    expect(run.code).toBe(1);
    expect(errorLines(run.stderr)).toEqual([
      `error: ${archive}: native/huge.log: member is 1073741824 bytes, over the limit of 67108864 (STUDIO_BUNDLE_MAX_MEMBER_BYTES)`,
    ]);
  });

  it("refuses JSON members past the JSON budget before parsing them, naming the member", async () => {
    const folder = path.join(work, "run-heap");
    const files = withHeapFilling(generatedBundle({ index: 9, seed: 3 }), DEFAULT_MAX_JSON_BYTES, 1024);
    await writeBundleFolder(folder, files);

    const run = await ingest([folder]);

    expect(run.code).toBe(1);
    // Refused on the members' sizes as they are found (folder order), before any is parsed.
    const [line, ...more] = errorLines(run.stderr);
    expect(more).toEqual([]);
    expect(line).toMatch(
      new RegExp(
        `^error: ${folder}: manifest\\.json: JSON members reach \\d+ bytes with this one, over the limit of ${DEFAULT_MAX_JSON_BYTES} \\(STUDIO_BUNDLE_MAX_JSON_BYTES\\)$`,
      ),
    );
    expect(Number(/reach (\d+)/.exec(line!)![1])).toBeGreaterThanOrEqual(files.get("manifest.json")!.length);
    expect(runIds()).toEqual([]);
  });
});

describe("npm run ingest usage errors exit 2", () => {
  it("refuses a call without PATH, before opening the database", async () => {
    const run = await ingest([]);

    expect(run.error?.code).toBe("INVALID_INPUT");
    expect(run.error?.message).toBe("missing required argument 'paths'; see --help");
    expect(run.code).toBe(2);
    await expect(fs.stat(dbPath)).rejects.toThrow();
  });

  it.each([
    [["--concurrency", "0", "x"], /^error: --concurrency: expected an integer from 1 to 64, got "0"\n$/],
    [["--concurrency", "many", "x"], /^error: --concurrency: expected an integer from 1 to 64, got "many"\n$/],
    [["--concurrency", "65", "x"], /^error: --concurrency: expected an integer from 1 to 64, got "65"\n$/],
    [["--verbose", "x"], /^error: unknown option '--verbose'; see --help\n$/],
  ])("refuses %j", async (argv, message) => {
    const run = await ingest(argv);

    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe("");
  });

  it("refuses an invalid limit in the environment", async () => {
    const run = await ingest(["x"], { STUDIO_BUNDLE_MAX_BYTES: "lots" });

    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: environment variable STUDIO_BUNDLE_MAX_BYTES: /);
  });
});
