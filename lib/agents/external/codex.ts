/**
 * Codex CLI (`@openai/codex`), headless: `codex exec --json --skip-git-repo-check
 * --dangerously-bypass-approvals-and-sandbox TASK` (our sandbox is the sandbox), with a model
 * provider in $CODEX_HOME/config.toml speaking OpenAI Responses. Guidelines go to
 * $CODEX_HOME/AGENTS.md (Codex's global instructions). Rollouts land in $CODEX_HOME/sessions/.
 *
 * The reader turns the `exec --json` stdout into our trajectory. The exec stream has items
 * (`agent_message`, `reasoning`, `command_execution`, `file_change`, `mcp_tool_call`, `web_search`,
 * `todo_list`, `error`) and per-turn usage. The rollout file (`$CODEX_HOME/sessions/.../rollout-*.jsonl`)
 * is kept in the bundle as the agent wrote it, not read: the exec stream holds the same steps.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { filesUnder, jsonLinesOnly } from "./files";
import type { ExternalAgentAdapter } from "./types";
import {
  emptyTranscript,
  asNumber,
  asRecord,
  asString,
  parseJsonLines,
  StepSink,
  type NormalizedTranscript,
} from "./transcript";

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

export function normalizeCodexExec(text: string, where: string, task?: string): NormalizedTranscript {
  const sink = new StepSink();
  const result = emptyTranscript(sink.steps);
  if (task !== undefined) sink.push({ kind: "message", role: "user", text: task });
  for (const line of parseJsonLines(text, where)) {
    switch (line.type) {
      case "thread.started":
        result.sessionId = asString(line.thread_id) ?? null;
        break;
      case "turn.completed": {
        const usage = asRecord(line.usage);
        result.usage.inputTokens += asNumber(usage.input_tokens);
        result.usage.outputTokens += asNumber(usage.output_tokens) + asNumber(usage.reasoning_output_tokens);
        break;
      }
      case "turn.failed":
        result.error = `Codex turn failed: ${asString(asRecord(line.error).message) ?? "unknown error"}`;
        break;
      case "error":
        result.error = `Codex error: ${asString(line.message) ?? "unknown error"}`;
        break;
      case "item.completed":
        itemSteps(sink, asRecord(line.item), result);
        break;
    }
  }
  return result;
}

function itemSteps(sink: StepSink, item: Record<string, unknown>, result: NormalizedTranscript): void {
  const callId = asString(item.id);
  switch (item.type) {
    case "agent_message": {
      const text = asString(item.text) ?? "";
      sink.push({ kind: "message", role: "assistant", text });
      result.finalAnswer = text;
      return;
    }
    case "reasoning":
      sink.push({ kind: "message", role: "assistant", text: `(thinking) ${asString(item.text) ?? ""}` });
      return;
    case "command_execution": {
      const command = asString(item.command) ?? "";
      sink.push({ kind: "tool_call", tool: "exec_command", arguments: { cmd: command }, callId });
      sink.push({
        kind: "shell",
        callId,
        command,
        exitCode: typeof item.exit_code === "number" ? item.exit_code : null,
        timedOut: false,
        output: asString(item.aggregated_output) ?? "",
      });
      return;
    }
    case "file_change": {
      const changes = Array.isArray(item.changes) ? item.changes.map(asRecord) : [];
      sink.push({ kind: "tool_call", tool: "apply_patch", arguments: { changes }, callId });
      for (const change of changes) {
        const path = asString(change.path);
        if (!path) continue;
        sink.push({ kind: change.kind === "delete" ? "file_delete" : "file_write", path, callId });
      }
      sink.push({
        kind: "observation",
        callId,
        text: `patch ${asString(item.status) ?? "applied"}`,
        isError: item.status === "failed",
      });
      return;
    }
    case "mcp_tool_call":
      sink.push({
        kind: "tool_call",
        tool: `${asString(item.server) ?? "mcp"}.${asString(item.tool) ?? "tool"}`,
        arguments: item.arguments ?? {},
        callId,
      });
      sink.push({
        kind: "observation",
        callId,
        text: JSON.stringify(item.result ?? item.error ?? null),
        isError: item.status === "failed",
      });
      return;
    case "web_search":
      sink.push({ kind: "tool_call", tool: "web_search", arguments: { query: item.query }, callId });
      return;
    case "todo_list":
      sink.push({ kind: "tool_call", tool: "todo_list", arguments: { items: item.items }, callId });
      return;
    case "error":
      sink.push({ kind: "message", role: "system", text: `Codex: ${asString(item.message) ?? "error"}` });
      return;
  }
}
