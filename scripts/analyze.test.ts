import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIo } from "@/lib/cli/cli-io.fixture";
import { exitCodeOf } from "@/lib/cli/run-cli";
import { AppError, isAppError } from "@/lib/errors/app-error";
import { main } from "./analyze";

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
async function run(argv: string[]): Promise<{ code: number; stdout: string }> {
  const { io, out } = captureIo({ NODE_ENV: "test" });
  const code = await main(argv, io);
  return { code, stdout: out() };
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
    ["a missing --target", () => files(), /--target/],
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
