/**
 * Claude Code (`@anthropic-ai/claude-code`), headless: `claude -p TASK --output-format stream-json
 * --verbose --dangerously-skip-permissions`, talking Anthropic Messages to ANTHROPIC_BASE_URL.
 * Its session transcript lands in ~/.claude/projects/<dir>/<session>.jsonl.
 */
import { normalizeClaudeCode } from "@/lib/transcripts/claude-code";
import { filesUnder, jsonLinesOnly } from "./files";
import type { ExternalAgentAdapter } from "./types";

export const claudeCodeAdapter: ExternalAgentAdapter = {
  framework: "claude-code",
  protocol: "anthropic",
  npmPackage: "@anthropic-ai/claude-code",
  stateInHome: [".claude"],
  binName: "claude",
  async prepare(input) {
    const argv = [
      input.binary,
      "-p",
      input.task,
      "--output-format",
      "stream-json",
      "--verbose",
      "--dangerously-skip-permissions",
      "--model",
      input.model,
      "--max-turns",
      String(input.maxSteps),
    ];
    if (input.guidelines) argv.push("--append-system-prompt", input.guidelines);
    return {
      argv,
      env: {
        ANTHROPIC_BASE_URL: input.baseUrl,
        ANTHROPIC_API_KEY: input.apiKey,
        ANTHROPIC_MODEL: input.model,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
        // Claude Code refuses --dangerously-skip-permissions as root unless told it is sandboxed (it is).
        IS_SANDBOX: "1",
      },
    };
  },
  sessionFiles: (homeDir) => filesUnder(homeDir, ".claude/projects", /\.jsonl$/),
  async normalize({ stdout, task }) {
    return normalizeClaudeCode(jsonLinesOnly(stdout), "native/stdout.jsonl", task);
  },
};
