/**
 * The runner never trusts what an agent leaves behind. Command agents (docs/external-agents.md)
 * run for real through run-agents in bubblewrap and plant links to a file the sandbox hides, FIFOs
 * and oversized files where the runner reads after the run: stderr.log, the output folder, .git/,
 * the workspace. Each run is recorded, and the hidden file's text is nowhere in the database.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "@/db/client";
import { getChangedFileContent } from "@/db/queries/run-changes";
import { bubblewrapAvailable } from "@/lib/runner/sandbox";
import { main as runAgents } from "./run-agents";
import { cliIo, queryDb, saveSampleBenchmark } from "./test-support";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "run-untrusted-"));
const dbPath = path.join(work, "studio.db");
const runsDir = path.join(work, "runs");
// Outside every folder the sandbox shows (its /tmp is private): only the host can read it.
const hiddenDir = path.join(work, "hidden");
const secretFile = path.join(hiddenDir, "demo-admin.txt");
const SECRET = `admin password ${process.pid}-${Date.now()}`;
const STEP = `echo '{"id":"s1","kind":"message","role":"assistant","text":"done"}' > "$STUDIO_OUTPUT_DIR/trajectory.jsonl"`;

beforeAll(async () => {
  fs.mkdirSync(hiddenDir);
  fs.writeFileSync(secretFile, `${SECRET}\n`);
  fs.writeFileSync(
    path.join(hiddenDir, "trajectory.jsonl"),
    `{"id":"s1","kind":"message","role":"user","text":"${SECRET}"}\n`,
  );
  const db = createDb(dbPath);
  await saveSampleBenchmark(db);
  db.$client.close();
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const query = <T>(sql: string, ...params: unknown[]) => queryDb<T>(dbPath, sql, ...params);

interface RunRow {
  id: string;
  status: string;
  exit_reason: string;
  error: string | null;
}

async function runCommand(name: string, command: string, env: Record<string, string> = {}) {
  const agentFile = path.join(work, `${name}.json`);
  fs.writeFileSync(agentFile, JSON.stringify({ framework: "command", name, command }));
  const cli = cliIo(dbPath);
  Object.assign(cli.io.env, env);
  const argv = ["--benchmark", "sample", "--agent", agentFile, "--mock", "--runs-dir", runsDir];
  const code = await runAgents([...argv, "--subtask", "codegen_file", "--limit", "1"], cli.io);
  const [run] = query<RunRow>(
    `SELECT r.id, r.status, r.exit_reason, r.error FROM runs r JOIN agent_configs c ON c.id = r.agent_config_id WHERE c.name = ?`,
    name,
  );
  return { code, out: cli.out(), err: cli.err(), run };
}

/** Every place the run's text is stored: its row, its steps, its snapshots and every stored blob. */
function secretStored(): string[] {
  const needle = Buffer.from(SECRET);
  return [
    ...query<{ id: string }>("SELECT id FROM runs WHERE instr(error, ?) > 0", SECRET).map((r) => `runs ${r.id}`),
    ...query<{ run_id: string }>("SELECT run_id FROM trajectory_steps WHERE instr(text, ?) > 0", SECRET).map(
      (r) => `step of ${r.run_id}`,
    ),
    ...query<{ run_id: string }>("SELECT run_id FROM environment_snapshots WHERE instr(snapshot, ?) > 0", SECRET).map(
      (r) => `snapshot of ${r.run_id}`,
    ),
    ...query<{ sha256: string }>("SELECT sha256 FROM file_contents WHERE instr(content, ?) > 0", needle).map(
      (r) => `file_contents ${r.sha256}`,
    ),
  ];
}

function runnerNotes(runId: string): string {
  const file = path.join(runsDir, runId, "bundle", "native", "runner-notes.json");
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
}

describe.runIf(await bubblewrapAvailable())("what an agent leaves for the runner to read", () => {
  it("stderr.log replaced by a link to a hidden file: the run's error shows the exit, not the file", async () => {
    const stderr = '"$HOME/.studio/stderr.log"';
    const result = await runCommand(
      "stderr link",
      `echo boom >&2; rm -f ${stderr}; ln -s ${secretFile} ${stderr}; ${STEP}; exit 3`,
    );
    expect(result.code, result.err).toBe(0);
    expect(result.run).toMatchObject({ status: "failed", exit_reason: "error", error: "command exited with status 3" });
    expect(runnerNotes(result.run!.id)).toMatch(/stderr\.log is a symbolic link \(not followed\)/);
    expect(secretStored()).toEqual([]);
  }, 60_000);

  it("output/trajectory.jsonl linked to a hidden file, or output/ itself a link: neither is read", async () => {
    const file = await runCommand("trajectory link", `ln -s ${secretFile} "$STUDIO_OUTPUT_DIR/trajectory.jsonl"`);
    expect(file.run).toMatchObject({ status: "failed", exit_reason: "error" });
    expect(file.run!.error).toMatch(/native\/output\/trajectory\.jsonl: the file is a symbolic link \(not followed\)/);
    const folder = await runCommand(
      "output folder link",
      `rm -rf "$STUDIO_OUTPUT_DIR"; ln -s ${hiddenDir} "$STUDIO_OUTPUT_DIR"`,
    );
    expect(folder.run).toMatchObject({ status: "failed", exit_reason: "error" });
    expect(folder.run!.error).toMatch(/\.studio\/output is a symbolic link \(not followed\)/);
    const artifacts = query<{ path: string }>("SELECT path FROM run_artifacts WHERE run_id = ?", folder.run!.id);
    expect(artifacts.filter((a) => a.path.startsWith("native/output/"))).toEqual([]);
    expect(secretStored()).toEqual([]);
  }, 60_000);

  it(".git/logs/refs/stash linked to a hidden file: the environment snapshot does not hold it", async () => {
    const result = await runCommand(
      "stash link",
      `mkdir -p .git/logs/refs .git/refs/heads && echo 'ref: refs/heads/main' > .git/HEAD && ln -s ${secretFile} .git/logs/refs/stash; ${STEP}`,
    );
    expect(result.run).toMatchObject({ status: "completed", exit_reason: "finished" });
    const [after] = query<{ snapshot: string }>(
      "SELECT snapshot FROM environment_snapshots WHERE run_id = ? AND phase = 'after'",
      result.run!.id,
    );
    expect(JSON.parse(after!.snapshot)).toMatchObject({ git: { branch: "main", stash: [] } });
    expect(runnerNotes(result.run!.id)).toMatch(/\.git\/logs\/refs\/stash is a symbolic link/);
    expect(secretStored()).toEqual([]);
  }, 60_000);

  it(".git/HEAD turned into a FIFO: the run is recorded, the FIFO noted and never opened for reading", async () => {
    const result = await runCommand("head fifo", `mkdir -p .git && rm -f .git/HEAD && mkfifo .git/HEAD; ${STEP}`);
    expect(result.code, result.err).toBe(0);
    expect(result.run).toMatchObject({ status: "completed", exit_reason: "finished" });
    expect(runnerNotes(result.run!.id)).toMatch(/\.git\/HEAD is a FIFO \(not read\)/);
    const change = query<{ after_mode: number }>(
      "SELECT after_mode FROM file_changes WHERE run_id = ? AND path = '.git/HEAD'",
      result.run!.id,
    );
    expect(change).toEqual([{ after_mode: 0o010644 }]);
  }, 60_000);

  it("a file over the size cap, a link, a FIFO and a name no bundle holds: the run is recorded, the big file by size and hash", async () => {
    const content = Buffer.from("0123456789abcdef\n".repeat(12_000));
    const result = await runCommand(
      "workspace oddities",
      `yes 0123456789abcdef | head -c ${content.length} > big.bin; ln -s ${hiddenDir} leak; mkfifo pipe; touch 'back\\slash'; ${STEP}`,
      { STUDIO_MAX_STORED_FILE_BYTES: "65536" },
    );
    expect(result.code, result.err).toBe(0);
    const runId = result.run!.id;
    expect(result.run, result.run!.error ?? "").toMatchObject({ status: "completed", exit_reason: "finished" });
    const sha256 = createHash("sha256").update(content).digest("hex");
    const changes = query<{ path: string; after_size: number; after_sha256: string | null; after_mode: number }>(
      "SELECT path, after_size, after_sha256, after_mode FROM file_changes WHERE run_id = ? ORDER BY path",
      runId,
    );
    // No file_contents row for it, so no hash here: the hash is in the stored workspace manifest.
    expect(changes).toEqual([
      { path: "big.bin", after_size: content.length, after_sha256: null, after_mode: 0o100644 },
      expect.objectContaining({ path: "leak", after_mode: 0o120777, after_size: hiddenDir.length }),
      expect.objectContaining({ path: "pipe", after_mode: 0o010644, after_size: 0 }),
    ]);
    const bundle = path.join(runsDir, runId, "bundle");
    // Version 4: the workspace members are changes against the prepared workspace, big.bin among them.
    const after = JSON.parse(fs.readFileSync(path.join(bundle, "workspace", "after.json"), "utf8")) as {
      changes: { path: string; size: number; sha256: string; contentOmitted?: string }[];
    };
    expect(after.changes.find((f) => f.path === "big.bin")).toMatchObject({
      size: content.length,
      sha256,
      contentOmitted: "too_large",
    });
    expect(JSON.parse(fs.readFileSync(path.join(bundle, "manifest.json"), "utf8"))).toMatchObject({ version: 4 });
    expect(fs.existsSync(path.join(bundle, "files", sha256))).toBe(false);
    expect(JSON.parse(runnerNotes(runId))).toMatchObject({
      notes: [{ area: "workspace", path: "back\\slash", reason: expect.stringMatching(/contains a backslash/) }],
    });
    const db = createDb(dbPath);
    try {
      expect(getChangedFileContent(db, runId, "big.bin")).toEqual({
        status: "not_kept",
        beforeSha256: null,
        afterSha256: sha256,
      });
    } finally {
      db.$client.close();
    }
    // The workspace went back to the pool, HOME and TMPDIR are gone: the run folder holds the bundle only.
    expect(fs.readdirSync(path.join(runsDir, runId)).sort()).toEqual(["bundle"]);
    expect(secretStored()).toEqual([]);
  }, 60_000);

  it("an agent's error longer than a bundle holds is cut, and the run recorded whole", async () => {
    const result = await runCommand(
      "long error",
      `${STEP}; printf '{"error":"%s"}' "$(head -c 30000 /dev/zero | tr '\\0' x)" > "$STUDIO_OUTPUT_DIR/result.json"`,
    );
    expect(result.run).toMatchObject({ status: "failed", exit_reason: "error" });
    expect(result.run!.error).toMatch(/^x{19999}…$/);
    const steps = query<{ n: number }>("SELECT count(*) AS n FROM trajectory_steps WHERE run_id = ?", result.run!.id);
    expect(steps).toEqual([{ n: 1 }]);
  }, 60_000);

  it("a run whose bundle the importer refuses is recorded as failed with the reason, nothing else left on disk", async () => {
    const twice = `echo '{"id":"s1","kind":"message","role":"assistant","text":"again"}' >> "$STUDIO_OUTPUT_DIR/trajectory.jsonl"`;
    const result = await runCommand("duplicate steps", `${STEP}; ${twice}; echo x > big.bin`);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toMatch(/0 completed, 1 failed/);
    expect(result.run).toMatchObject({ status: "failed", exit_reason: "error" });
    expect(result.run!.error).toMatch(
      /^the run could not be stored whole \(.*duplicate step id "s1".*\); only this summary/,
    );
    expect(fs.readdirSync(path.join(runsDir, result.run!.id)).sort()).toEqual(["bundle"]);
  }, 60_000);
});
