/**
 * Codex CLI (`@openai/codex`), headless: `codex exec --json --skip-git-repo-check
 * --dangerously-bypass-approvals-and-sandbox TASK` (our sandbox is the sandbox), with a model
 * provider in $CODEX_HOME/config.toml speaking OpenAI Responses. Guidelines go to
 * $CODEX_HOME/AGENTS.md (Codex's global instructions). Rollouts land in $CODEX_HOME/sessions/.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { normalizeCodexExec } from "@/lib/transcripts/codex";
import { filesUnder, jsonLinesOnly } from "./files";
import type { ExternalAgentAdapter } from "./types";

const tomlString = (value: string) => JSON.stringify(value); // a TOML basic string has JSON's escapes

export const codexAdapter: ExternalAgentAdapter = {
  framework: "codex",
  protocol: "openai",
  npmPackage: "@openai/codex",
  stateInHome: [".codex"],
  binName: "codex",
  async prepare(input) {
    const codexHome = path.join(input.homeDir, ".codex");
    await fs.mkdir(codexHome, { recursive: true });
    const config = [
      `model = ${tomlString(input.model)}`,
      `model_provider = "studio"`,
      `[model_providers.studio]`,
      `name = "Misbehavior Studio gateway"`,
      `base_url = ${tomlString(`${input.baseUrl}/v1`)}`,
      `wire_api = "responses"`,
      `env_key = "STUDIO_GATEWAY_KEY"`,
      "",
    ].join("\n");
    await fs.writeFile(path.join(codexHome, "config.toml"), config);
    if (input.guidelines) await fs.writeFile(path.join(codexHome, "AGENTS.md"), `${input.guidelines}\n`);
    return {
      argv: [
        input.binary,
        "exec",
        "--json",
        "--skip-git-repo-check",
        "--dangerously-bypass-approvals-and-sandbox",
        input.task,
      ],
      env: { CODEX_HOME: codexHome, STUDIO_GATEWAY_KEY: input.apiKey },
    };
  },
  sessionFiles: (homeDir) => filesUnder(homeDir, ".codex/sessions", /^rollout-.*\.jsonl$/),
  async normalize({ stdout, task }) {
    return normalizeCodexExec(jsonLinesOnly(stdout), "native/stdout.jsonl", task);
  },
};
