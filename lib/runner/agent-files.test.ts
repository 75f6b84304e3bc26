/**
 * The files an external agent leaves in its HOME, as the runner collects them after the run: a
 * session transcript, stderr.log or an output file replaced by a link, a FIFO or a socket is
 * noted and never followed or opened; the rest is kept.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { externalAdapter } from "@/lib/agents/external";
import { collectAgentFiles } from "./agent-files";

const SECRET = "the hidden file's text";
let root: string;
let hidden: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "agent-files-"));
  hidden = path.join(root, "hidden");
  fs.mkdirSync(hidden);
  fs.writeFileSync(path.join(hidden, "secret.jsonl"), `${SECRET}\n`);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function home(name: string): string {
  const dir = path.join(root, name);
  fs.mkdirSync(path.join(dir, ".studio", "output"), { recursive: true });
  return dir;
}

const mentions = (native: Map<string, Buffer>) => [...native.values()].some((data) => data.includes(SECRET));

describe("collectAgentFiles", () => {
  it("keeps regular session files and skips a transcript that is a link or a session folder that is one", async () => {
    const dir = home("claude");
    const projects = path.join(dir, ".claude", "projects");
    fs.mkdirSync(path.join(projects, "p"), { recursive: true });
    fs.writeFileSync(path.join(projects, "p", "real.jsonl"), '{"type":"user"}\n');
    fs.symlinkSync(path.join(hidden, "secret.jsonl"), path.join(projects, "p", "leak.jsonl"));
    fs.symlinkSync(hidden, path.join(projects, "linked"));
    const files = await collectAgentFiles({ homeDir: dir, adapter: externalAdapter("claude-code") });
    expect([...files.native.keys()]).toEqual(["home/.claude/projects/p/real.jsonl"]);
    expect(mentions(files.native)).toBe(false);
  });

  it("lists no session file under a session folder that is a link (Gemini CLI's ~/.gemini/tmp)", async () => {
    const dir = home("gemini");
    const chats = path.join(hidden, "project", "chats");
    fs.mkdirSync(chats, { recursive: true });
    fs.writeFileSync(path.join(chats, "session-1.json"), `${SECRET}\n`);
    fs.mkdirSync(path.join(dir, ".gemini"));
    fs.symlinkSync(hidden, path.join(dir, ".gemini", "tmp"));
    const adapter = externalAdapter("gemini-cli");
    expect(await adapter.sessionFiles(dir)).toEqual([]);
    const files = await collectAgentFiles({ homeDir: dir, adapter });
    expect(mentions(files.native)).toBe(false);
  });

  it("notes a stderr.log that is a FIFO and output files that are links, FIFOs or sockets, without blocking", async () => {
    const dir = home("command");
    const studio = path.join(dir, ".studio");
    execFileSync("mkfifo", [path.join(studio, "stderr.log")]);
    fs.writeFileSync(path.join(studio, "output", "result.json"), "{}");
    fs.writeFileSync(path.join(studio, "output", "back\\slash.txt"), "x");
    fs.symlinkSync(path.join(hidden, "secret.jsonl"), path.join(studio, "output", "trajectory.jsonl"));
    execFileSync("mkfifo", [path.join(studio, "output", "pipe")]);
    const files = await collectAgentFiles({ homeDir: dir, adapter: externalAdapter("command") });
    expect([...files.native.keys()]).toEqual(["output/result.json"]);
    expect(files.stderr).toBe("");
    expect(files.notes).toEqual(
      expect.arrayContaining([
        { path: ".studio/stderr.log", reason: ".studio/stderr.log is a FIFO (not read)" },
        {
          path: ".studio/output/trajectory.jsonl",
          reason: ".studio/output/trajectory.jsonl is a symbolic link (not followed)",
        },
        { path: ".studio/output/pipe", reason: ".studio/output/pipe is a FIFO (not read)" },
        {
          path: ".studio/output/back\\slash.txt",
          reason: "not kept: its name contains a backslash (use POSIX '/' separators)",
        },
      ]),
    );
    expect(mentions(files.native)).toBe(false);
  });

  it("keeps the end of a long stderr.log and refuses an output file over the size bound", async () => {
    const dir = home("bounds");
    const studio = path.join(dir, ".studio");
    fs.writeFileSync(path.join(studio, "stderr.log"), `${"x".repeat(5 * 1024 * 1024)}\nthe crash\n`);
    fs.writeFileSync(path.join(studio, "output", "huge.bin"), Buffer.alloc(4096));
    const files = await collectAgentFiles({
      homeDir: dir,
      adapter: externalAdapter("command"),
      maxStoredFileBytes: 1024,
    });
    expect(files.stderr.endsWith("\nthe crash\n")).toBe(true);
    expect(files.native.get("stderr.log")!.length).toBe(4 * 1024 * 1024);
    expect(files.native.has("output/huge.bin")).toBe(false);
    expect(files.notes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: ".studio/output/huge.bin",
          reason: expect.stringMatching(/4096 bytes, over the limit of 1024/),
        }),
      ]),
    );
  });
});
