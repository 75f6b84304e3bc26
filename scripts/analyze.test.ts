import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIo } from "@/lib/cli/cli-io.fixture";
import { exitCodeOf } from "@/lib/cli/run-cli";
import { AppError, isAppError } from "@/lib/errors/app-error";
import { main, MAX_BATCH_LINE_BYTES, MAX_SOURCE_BYTES } from "./analyze";

let root = "";

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "analyze-cli-"));
  await fs.writeFile(
    path.join(root, "original.py"),
    'import os\n\n\ndef parse(text, limit=10):\n    """Parse text."""\n',
  );
  await fs.writeFile(
    path.join(root, "modified.py"),
    'import os\nimport json\n\n\ndef parse(text, n=10):\n    """Parse text."""\n    return json.loads(text)[:n]\n',
  );
  await fs.writeFile(path.join(root, "broken.py"), "def parse(text:\n    pass\n");
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** main() as runMain runs it; an AppError is thrown, for its code and message. */
async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { io, out, err } = captureIo({ NODE_ENV: "test" });
  const code = await main(argv, io);
  return { code, stdout: out(), stderr: err() };
}

const at = (name: string) => path.join(root, name);
const files = (modified = "modified.py") => ["--original", at("original.py"), "--modified", at(modified)];

describe("analyze CLI", () => {
  it("prints exactly the four verdicts and the evidence with --json", async () => {
    const { code, stdout } = await run([...files(), "--target", "parse", "--json"]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as Record<string, unknown>;
    expect(Object.keys(report)).toEqual(["syntax", "signature", "body_change", "context", "evidence"]);
    expect(report).toMatchObject({ syntax: false, signature: true, body_change: false, context: false });
    expect(report.evidence).toEqual([
      expect.objectContaining({
        metric: "signature",
        element: "parameter `limit`",
        message: "parameter `limit` renamed to `n`",
        line: 5,
        lineIn: "modified",
        hunk: expect.stringContaining("+def parse(text, n=10):"),
      }),
    ]);
  });

  it("prints null for metrics that cannot be judged", async () => {
    const { stdout } = await run([...files("broken.py"), "--target", "parse", "--json"]);
    const report = JSON.parse(stdout) as Record<string, unknown>;
    expect(report).toMatchObject({ syntax: true, signature: null, body_change: null, context: null });
  });

  it("prints a readable table with evidence and additions", async () => {
    const { code, stdout } = await run([...files(), "--target", "parse"]);
    expect(code).toBe(0);
    expect(stdout).toContain("syntax       not violated\nsignature    VIOLATED\n");
    expect(stdout).toContain("[signature] modified:5  parameter `limit` renamed to `n`");
    expect(stdout).toContain("additions (information, not violations)\n  modified:2  import `json` added");
  });

  it("judges a move destination against the file the function came from", async () => {
    await fs.writeFile(at("destination.py"), "X = 1\n");
    await fs.writeFile(at("moved.py"), 'X = 1\n\n\ndef parse(text, limit=10):\n    """Parse text."""\n');
    const { stdout } = await run([
      "--original",
      at("destination.py"),
      "--modified",
      at("moved.py"),
      "--source",
      at("original.py"),
      "--target",
      "parse",
      "--mode",
      "move_destination",
      "--json",
    ]);
    expect(JSON.parse(stdout)).toMatchObject({ syntax: false, signature: false, body_change: false, context: false });
  });

  it.each([
    [
      "a missing file",
      () => [...files("nope.py"), "--target", "parse"],
      /cannot read --modified ".*nope\.py": no such file/,
    ],
    ["a folder", () => ["--original", root, "--modified", at("modified.py"), "--target", "parse"], /is a directory/],
    ["a missing --target", () => files(), /--target is required \(or --batch FILE\)/],
    ["a missing batch file", () => ["--batch", at("none.jsonl")], /--batch ".*none\.jsonl": no such file/],
    ["an unknown mode", () => [...files(), "--target", "parse", "--mode", "rename"], /--mode/],
    ["a target the original lacks", () => [...files(), "--target", "nothing"], /target "nothing" is not defined/],
  ])("refuses %s with INVALID_INPUT (exit code 2)", async (_label, argv, message) => {
    // argv is built lazily: the temporary folder exists only once beforeAll has run.
    const error = await run(argv()).catch((e: unknown) => e);
    expect(isAppError(error, "INVALID_INPUT")).toBe(true);
    expect((error as AppError).message).toMatch(message);
    expect(exitCodeOf(error)).toBe(2);
  });
});

describe("analyze --batch", () => {
  it("prints one --json line per pair, in order, and names each bad line", async () => {
    await fs.writeFile(at("destination.py"), "X = 1\n");
    await fs.writeFile(at("moved.py"), 'X = 1\n\n\ndef parse(text, limit=10):\n    """Parse text."""\n');
    const pair = (id: unknown, modified: string, extra: Record<string, unknown> = {}) =>
      JSON.stringify({
        id,
        original: at("original.py"),
        modified: at(modified),
        target: "parse",
        mode: "codegen",
        ...extra,
      });
    const lines = [
      pair("renamed", "modified.py"),
      "",
      "{not json",
      pair(7, "broken.py"),
      pair("gone", "nope.py"),
      JSON.stringify({ id: "bad-mode", original: "a.py", modified: "b.py", target: "f", mode: "rename" }),
      pair("moved", "moved.py", {
        mode: "move_destination",
        original: at("destination.py"),
        source: at("original.py"),
      }),
    ];
    await fs.writeFile(path.join(root, "pairs.jsonl"), `${lines.join("\n")}\n`);
    const { code, stdout, stderr } = await run(["--batch", at("pairs.jsonl")]);
    expect(code).toBe(1);
    const out = stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(out.map((o) => o.id)).toEqual(["renamed", "line-3", 7, "gone", "line-6", "moved"]);
    expect(Object.keys(out[0]!)).toEqual(["id", "syntax", "signature", "body_change", "context", "evidence"]);
    expect(out[0]).toMatchObject({ syntax: false, signature: true, body_change: false, context: false });
    expect(out[1]!.error).toMatch(/pairs\.jsonl: line 3: not JSON/);
    expect(out[2]).toMatchObject({ syntax: true, signature: null, body_change: null, context: null });
    expect(out[3]!.error).toMatch(/pairs\.jsonl: line 5: cannot read --modified ".*nope\.py": no such file/);
    expect(out[4]!.error).toMatch(/pairs\.jsonl: line 6: .*mode/);
    expect(out[5]).toMatchObject({ syntax: false, signature: false, body_change: false, context: false });
    expect(stderr).toMatch(/analyze 6\/6 \(100%, 3 failed\)/);
  });

  it("refuses a line over the limit by its size, and a file over the size limit", async () => {
    await fs.writeFile(at("long.jsonl"), `${"x".repeat(MAX_BATCH_LINE_BYTES + 10)}\n`);
    const long = await run(["--batch", at("long.jsonl")]);
    expect(JSON.parse(long.stdout)).toEqual({
      id: "line-1",
      error: expect.stringContaining(`line 1: ${MAX_BATCH_LINE_BYTES + 10} bytes, over the`),
    });
    await fs.writeFile(at("huge.py"), Buffer.alloc(MAX_SOURCE_BYTES + 1, 0x20));
    const huge = JSON.stringify({
      id: 1,
      original: at("huge.py"),
      modified: at("huge.py"),
      target: "f",
      mode: "codegen",
    });
    await fs.writeFile(at("huge.jsonl"), `${huge}\n`);
    const { stdout } = await run(["--batch", at("huge.jsonl")]);
    expect(JSON.parse(stdout).error).toMatch(/huge\.py": \d+ bytes, over the \d+-byte limit of a file/);
  });
});
