import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { externalAdapter } from "./index";
import { resolveAgentProgram } from "./program";

describe("agent CLI programs", () => {
  it("says how to install a CLI that is missing", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "no-clis-"));
    await expect(resolveAgentProgram(empty, externalAdapter("claude-code"))).rejects.toThrow(
      'claude-code is not installed: run `npm run setup:agents` (the pinned Claude Code, Codex CLI and Gemini CLI, into agent-clis/), or set "binary" in the agent file',
    );
  });

  it("takes the pinned CLIs from agent-clis/ first, with their versions and only their node_modules shown", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "clis-"));
    for (const [folder, version] of [
      ["agent-clis/node_modules", "2.0.0"],
      ["node_modules", "1.0.0"],
    ] as const) {
      const pkg = path.join(root, folder, "@anthropic-ai/claude-code");
      fs.mkdirSync(pkg, { recursive: true });
      fs.writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ version }));
      fs.mkdirSync(path.join(root, folder, ".bin"), { recursive: true });
      fs.writeFileSync(path.join(root, folder, ".bin", "claude"), "#!/bin/sh\n", { mode: 0o755 });
    }
    expect(await resolveAgentProgram(root, externalAdapter("claude-code"))).toEqual({
      binary: path.join(root, "agent-clis/node_modules/.bin/claude"),
      version: "2.0.0",
      programDirs: [path.join(root, "agent-clis/node_modules")],
    });
  });
});
