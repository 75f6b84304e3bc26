/**
 * `npm run ingest` on runs made elsewhere: native logs and repo diffs go in as runs, once; the
 * flags (--format, --contract, --gold, --repo, --benchmark) say what the logs do not; bad files
 * are named and skipped. The real public logs of SOURCES.md go in too (through STUDIO_TEST_DATA).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDb } from "@/db/client";
import { runCaptured } from "@/lib/cli/cli-io.fixture";
import { describeWithTestData } from "@/lib/test-support/test-data";
import { main } from "./ingest";

const FIXTURES = "lib/foreign/formats/fixtures";
const MINI = `${FIXTURES}/mini-swe-agent-traj/django__django-16255.traj.json`;
const DIFF = `${FIXTURES}/unified-diff/django__django-16255.diff`;
const PREDS = `${FIXTURES}/swe-bench-predictions/preds.jsonl`;

let root = "";
let dbPath = "";
let work = "";
let counter = 0;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "ingest-foreign-"));
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

const errorLines = (stderr: string) => stderr.split("\n").filter((line) => line.startsWith("error: "));
const ingest = (argv: string[]) => runCaptured(main, argv, { NODE_ENV: "test", STUDIO_DB: dbPath });

interface RunRow {
  id: string;
  instance: string;
  subtask: string;
  format: string | null;
  workspace: string | null;
  steps: number;
  framework: string;
  model: string;
  contract: string;
}

function runs(): RunRow[] {
  const db = createDb(dbPath);
  try {
    return db.$client
      .prepare(
        `SELECT r.id, r.instance_id AS instance, i.subtask_id AS subtask, json_extract(r.source, '$.format') AS format,
                json_extract(r.evidence, '$.workspace') AS workspace, r.step_count AS steps,
                a.framework, a.model, i.contract
         FROM runs r JOIN instances i ON i.id = r.instance_id JOIN agent_configs a ON a.id = r.agent_config_id
         ORDER BY r.id`,
      )
      .all() as RunRow[];
  } finally {
    db.$client.close();
  }
}

function changes(runId: string): { path: string; kind: string }[] {
  const db = createDb(dbPath);
  try {
    return db.$client.prepare("SELECT path, kind FROM file_changes WHERE run_id = ? ORDER BY path").all(runId) as {
      path: string;
      kind: string;
    }[];
  } finally {
    db.$client.close();
  }
}

describe("npm run ingest on runs made elsewhere", () => {
  it("imports a mini-swe-agent log and a diff as runs on an external instance, once", async () => {
    const first = await ingest([MINI, DIFF, "--benchmark", "swe-bench-verified"]);
    expect(errorLines(first.stderr)).toEqual([]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^0 bundle\(s\) and 2 foreign log\(s\) holding 2 run\(s\): 2 imported/);
    const rows = runs();
    expect(rows.map((r) => [r.format, r.subtask, r.instance, r.workspace])).toEqual(
      expect.arrayContaining([
        ["mini-swe-agent-traj", "external", "swe-bench-verified/django__django-16255", "patch"],
        ["unified-diff", "external", expect.stringMatching(/^swe-bench-verified\//), "patch"],
      ]),
    );
    const mini = rows.find((r) => r.format === "mini-swe-agent-traj")!;
    expect(mini.steps).toBeGreaterThan(0);
    expect(mini.framework).toBe("mini-swe-agent");
    expect(changes(mini.id)).toEqual([{ path: "django/contrib/sitemaps/__init__.py", kind: "updated" }]);

    const again = await ingest([MINI, DIFF, "--benchmark", "swe-bench-verified"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/0 imported, 0 replaced, 2 unchanged/);
  });

  it("gives the runs of a predictions file the gold patches' files as may-change (--gold)", async () => {
    const run = await ingest([PREDS, "--gold", `${FIXTURES}/contracts/gold.jsonl`, "--benchmark", "swe-bench-lite"]);
    expect(errorLines(run.stderr)).toEqual([]);
    const rows = runs();
    expect(rows.length).toBe(3);
    const withGold = rows.map((r) => JSON.parse(r.contract) as { origin: string; mayChange: string[] });
    expect(withGold.some((c) => c.origin === "gold_patch" && c.mayChange.length > 0)).toBe(true);
  });

  it("takes a contract file (--contract) and refuses --contract with --gold", async () => {
    const contract = path.join(work, "contract.json");
    await fs.writeFile(
      contract,
      JSON.stringify({
        mustRead: ["django/contrib/sitemaps/__init__.py"],
        mayChange: ["django/contrib/sitemaps/__init__.py"],
      }),
    );
    expect((await ingest([MINI, "--contract", contract])).code).toBe(0);
    expect(JSON.parse(runs()[0]!.contract)).toMatchObject({
      origin: "contract_file",
      mustRead: ["django/contrib/sitemaps/__init__.py"],
    });
    const both = await ingest([MINI, "--contract", contract, "--gold", contract]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/give --contract or --gold, not both/);
  });

  it("rebuilds the files before and after the diff from the repository (--repo DIR@rev)", async () => {
    const repo = path.join(work, "repo");
    await fs.mkdir(path.join(repo, "pkg"), { recursive: true });
    await fs.writeFile(path.join(repo, "pkg/a.py"), "def f():\n    return 1\n");
    await fs.writeFile(path.join(repo, "README"), "unchanged\n");
    const git = (...args: string[]) =>
      execFileSync("git", ["-C", repo, "-c", "user.email=t@t", "-c", "user.name=t", ...args], { encoding: "utf8" });
    git("init", "-q");
    git("add", ".");
    git("commit", "-qm", "base");
    await fs.writeFile(path.join(repo, "pkg/a.py"), "def f():\n    return 2\n");
    await fs.writeFile(path.join(repo, "reproduce.py"), "print(1)\n");
    git("add", "-A");
    const patch = path.join(work, "fix.diff");
    await fs.writeFile(patch, git("diff", "--cached"));
    git("reset", "-q", "--hard");

    const run = await ingest([patch, "--repo", `${repo}@HEAD`]);
    expect(errorLines(run.stderr)).toEqual([]);
    const [row] = runs();
    expect(row!.workspace).toBe("snapshot");
    expect(changes(row!.id)).toEqual([
      { path: "pkg/a.py", kind: "updated" },
      { path: "reproduce.py", kind: "created" },
    ]);
    const db = createDb(dbPath);
    try {
      const sides = db.$client
        .prepare(
          `SELECT b.content AS before, a.content AS after FROM file_changes c
           JOIN file_contents b ON b.sha256 = c.before_sha256 JOIN file_contents a ON a.sha256 = c.after_sha256
           WHERE c.run_id = ? AND c.path = 'pkg/a.py'`,
        )
        .get(row!.id) as { before: Buffer; after: Buffer };
      expect([sides.before.toString(), sides.after.toString()]).toEqual([
        "def f():\n    return 1\n",
        "def f():\n    return 2\n",
      ]);
    } finally {
      db.$client.close();
    }
  });

  it("puts runs of several frameworks on one external instance; a later contract completes it, another one is refused", async () => {
    const preds = `${FIXTURES}/mini-swe-agent-preds/preds.json`;
    const first = await ingest([MINI, preds]);
    expect(errorLines(first.stderr)).toEqual([]);
    const onInstance = runs().filter((r) => r.instance === "swe-bench/django__django-16255");
    expect(onInstance.map((r) => r.format).sort()).toEqual(["mini-swe-agent-preds", "mini-swe-agent-traj"]);

    const contract = path.join(work, "contract.json");
    await fs.writeFile(contract, JSON.stringify({ mayChange: ["django/contrib/sitemaps/__init__.py"] }));
    expect(errorLines((await ingest([MINI, "--contract", contract, "--replace"])).stderr)).toEqual([]);
    expect(JSON.parse(runs().find((r) => r.format === "mini-swe-agent-traj")!.contract)).toMatchObject({
      origin: "contract_file",
    });

    const other = path.join(work, "other.json");
    await fs.writeFile(other, JSON.stringify({ mayChange: ["django/other.py"] }));
    const refused = await ingest([MINI, "--contract", other, "--replace"]);
    expect(errorLines(refused.stderr).join()).toMatch(/already has another contract \(from its contract file\)/);
  });

  it("forces a format with --format, and names an unknown one", async () => {
    const unknown = await ingest([MINI, "--format", "nope"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--format: unknown format "nope"; known: .*mini-swe-agent-traj/);
    const wrong = await ingest([MINI, "--format", "unified-diff"]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/django__django-16255\.traj\.json/);
  });

  it("names a file no format knows, and skips such files found in folders", async () => {
    const notes = path.join(work, "notes.json");
    await fs.writeFile(notes, '{"hello": "world"}\n');
    const named = await ingest([notes]);
    expect(named.code).toBe(1);
    expect(named.stderr).toMatch(/notes\.json: not a run bundle and not a log of a known agent/);

    const folder = path.join(work, "logs");
    await fs.mkdir(folder);
    await fs.copyFile(notes, path.join(folder, "notes.json"));
    await fs.copyFile(MINI, path.join(folder, "run.traj.json"));
    const scanned = await ingest([folder]);
    expect(scanned.code).toBe(0);
    expect(scanned.stdout).toMatch(/1 imported.*\(1 file\(s\) in folders of no known format skipped\)/);
  });

  it("reads a Gemini CLI session into its stream's run: one run, tool output filled from the session", async () => {
    const stream = `${FIXTURES}/gemini-cli-stream/read_stream.jsonl`;
    const session = `${FIXTURES}/gemini-cli-session/read_session.json`;
    const run = await ingest([stream, session]);
    expect(errorLines(run.stderr)).toEqual([]);
    expect(run.code).toBe(0);
    const rows = runs();
    expect(rows.map((r) => r.format)).toEqual(["gemini-cli-stream"]);
    const db = createDb(dbPath);
    try {
      const empty = db.$client
        .prepare("SELECT count(*) AS n FROM trajectory_steps WHERE run_id = ? AND kind = 'observation' AND text = ''")
        .get(rows[0]!.id) as { n: number };
      expect(empty.n).toBe(0);
    } finally {
      db.$client.close();
    }
  });

  it("names a FIFO given on the command line without opening it, and still imports the others", async () => {
    const fifo = path.join(work, "pipe.jsonl");
    execFileSync("mkfifo", [fifo]);
    const run = await ingest([fifo, MINI]);
    expect(run.code).toBe(1);
    expect(errorLines(run.stderr)).toEqual([`error: ${fifo}: is a FIFO, not a file or folder: not read`]);
    expect(runs().map((r) => r.format)).toEqual(["mini-swe-agent-traj"]);
  });

  it("refuses a symbolic link to a log, naming it", async () => {
    const link = path.join(work, "link.json");
    await fs.symlink(path.resolve(MINI), link);
    const run = await ingest([link]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/link\.json: is a symbolic link/);
  });
});

/** The public logs of $STUDIO_TEST_DATA/fixtures/trajectories (SOURCES.md): every one goes in. */
const REAL_LOGS = [
  ["openhands/basic.json", "openhands-events"],
  ["openhands/basic_interactions.json", "openhands-events"],
  ["openhands/multi_swe_bench_output.jsonl", "openhands-output"],
  ["swe-agent/function_calling_simple.traj", "swe-agent-traj"],
  ["mini-swe-agent/django__django-16255.traj.json", "mini-swe-agent-traj"],
  ["claude-code/session_short.jsonl", "claude-code-session"],
  ["claude-code/session_tool_heavy.jsonl", "claude-code-session"],
  ["claude-code/generated_session.jsonl", "claude-code-session"],
  ["claude-code/generated_stream.jsonl", "claude-code-stream"],
  ["codex/generated_exec.jsonl", "codex-exec"],
  ["codex/generated_rollout.jsonl", "codex-rollout"],
  ["gemini-cli/generated_stream.jsonl", "gemini-cli-stream"],
  ["gemini-cli/generated_session.jsonl", "gemini-cli-session"],
] as const;

/** Files read together: the companion goes into its partner's run. */
const REAL_PAIRS = [
  ["gemini-cli/generated_stream.jsonl", "gemini-cli/generated_session.jsonl", "gemini-cli-stream"],
  ["codex/generated_exec.jsonl", "codex/generated_rollout.jsonl", "codex-exec"],
] as const;

describeWithTestData("npm run ingest on the real logs of other agents", "fixtures/trajectories", (folder) => {
  it.each(REAL_LOGS)("imports %s as %s", async (file, format) => {
    const run = await ingest([path.join(folder, file)]);
    expect(errorLines(run.stderr)).toEqual([]);
    expect(run.code).toBe(0);
    const rows = runs();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.format).toBe(format);
  });

  it.each(REAL_PAIRS)("imports %s with %s as one %s run", async (main, companion, format) => {
    const run = await ingest([path.join(folder, main), path.join(folder, companion)]);
    expect(errorLines(run.stderr)).toEqual([]);
    expect(runs().map((r) => r.format)).toEqual([format]);
  });
});
