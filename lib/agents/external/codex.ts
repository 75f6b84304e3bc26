/**
 * Codex CLI (`@openai/codex`), headless: `codex exec --json --skip-git-repo-check
 * --dangerously-bypass-approvals-and-sandbox TASK` (our sandbox is the sandbox), with a model
 * provider in $CODEX_HOME/config.toml speaking OpenAI Responses. Guidelines go to
 * $CODEX_HOME/AGENTS.md (Codex's global instructions). Rollouts land in $CODEX_HOME/sessions/.
 *
 * The reader turns the `exec --json` stdout into our trajectory. The exec stream has items
 * (`agent_message`, `reasoning`, `command_execution`, `file_change`, `mcp_tool_call`, `web_search`,
 * `todo_list`, `error`) and per-turn usage. The runner keeps the rollout file
 * (`$CODEX_HOME/sessions/.../rollout-*.jsonl`) in the bundle as the agent wrote it; the exec
 * stream holds the same steps. A rollout from elsewhere is read by `codexRolloutTranscript`: lines
 * `{timestamp, type, payload}` with `session_meta` (id, cwd, cli_version), `turn_context` (model,
 * cwd), `response_item` (the model's Responses items: `message`, `reasoning`, `function_call` +
 * `function_call_output`, `custom_tool_call` + its output, `local_shell_call`) and `event_msg`
 * (token counts, command ends with their exit codes, errors).
 */
import fs from "node:fs/promises";
import path from "node:path";
import { argvCommand } from "@/lib/judge/rules/shell-parse";
import { filesUnder, jsonLinesOnly } from "./files";
import { joinInstructions } from "./instructions";
import { toolEffect } from "@/lib/tool-registry";
import type { ExternalAgentAdapter } from "./types";
import {
  emptyTranscript,
  asNumber,
  asRecord,
  asString,
  isoOrUndefined,
  millisBetween,
  parseJsonLines,
  StepSink,
  toolArguments,
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
      ...(input.mcpServer
        ? [
            `[mcp_servers.${input.mcpServer.name}]`,
            `command = ${tomlString(input.mcpServer.command)}`,
            `args = [${input.mcpServer.args.map(tomlString).join(", ")}]`,
            // Required: Codex waits for it before the first request (an optional server still starting
            // was left out of the tools offered, seen on 2 busy cores) and fails if it cannot start.
            `required = true`,
            `startup_timeout_sec = 30`,
          ]
        : []),
      "",
    ].join("\n");
    await fs.writeFile(path.join(codexHome, "config.toml"), config);
    const instructions = joinInstructions(input.guidelines, input.instructions);
    if (instructions) await fs.writeFile(path.join(codexHome, "AGENTS.md"), instructions);
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
  return codexExecTranscript(parseJsonLines(text, where), task);
}

/** The records of a `codex exec --json` stream as a transcript; `task` is the prompt the stream does not repeat. */
export function codexExecTranscript(lines: readonly Record<string, unknown>[], task?: string): NormalizedTranscript {
  const sink = new StepSink();
  const result = emptyTranscript(sink.steps);
  if (task !== undefined) sink.push({ kind: "message", role: "user", text: task });
  for (const line of lines) {
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
    case "mcp_tool_call": {
      // The name the model called: the function in the server's `mcp__<server>` namespace.
      sink.push({
        kind: "tool_call",
        tool: `mcp__${asString(item.server) ?? "mcp"}__${asString(item.tool) ?? "tool"}`,
        arguments: item.arguments ?? {},
        callId,
      });
      const content = asRecord(item.result).content;
      sink.push({
        kind: "observation",
        callId,
        text: Array.isArray(content)
          ? messageText(content)
          : (asString(asRecord(item.error).message) ?? JSON.stringify(item.result ?? item.error ?? null)),
        isError: item.status === "failed",
      });
      return;
    }
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

/** The tools whose calls run a command: their output is a shell step's. */
/** The tools that run a shell command, as the tool registry describes the codex tools. */
const isShellTool = (tool: string) => toolEffect("codex", tool)?.effect === "shell";

/** Text blocks Codex adds to the conversation itself (environment, AGENTS.md, skills), not the user's words. */
const isHarnessContext = (text: string) => /^\s*(<[a-z_]+>|# AGENTS\.md instructions)/.test(text);

/** A command as one line: an argv (`["bash", "-lc", SCRIPT]` is its script) or a string as it is. */
function commandLine(command: unknown): string {
  if (typeof command === "string") return command;
  return argvCommand(Array.isArray(command) ? command.filter((w): w is string => typeof w === "string") : []);
}

/**
 * A shell tool's output as the model saw it: a JSON `{output, metadata{exit_code}}` (earlier
 * versions), or text with `Exit code: N` / `Process exited with code N` and the output after
 * `Output:` (later ones). A command still running when the call returned has no exit code.
 */
export function codexShellOutput(raw: string): { exitCode: number | null; output: string } {
  if (raw.trimStart().startsWith("{")) {
    try {
      const parsed = asRecord(JSON.parse(raw));
      const code = asRecord(parsed.metadata).exit_code;
      if (typeof parsed.output === "string")
        return { exitCode: Number.isInteger(code) ? (code as number) : null, output: parsed.output };
    } catch {
      // not JSON after all: read it as text
    }
  }
  const code = /^(?:Exit code:|Process exited with code) (-?\d+)\s*$/m.exec(raw);
  const body = /^Output:\n/m.exec(raw);
  return {
    exitCode: code ? Number(code[1]) : null,
    output: body ? raw.slice(body.index + body[0].length) : raw,
  };
}

function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  return (Array.isArray(content) ? content : [])
    .map((part) => asString(asRecord(part).text) ?? "")
    .filter((text) => text !== "")
    .join("\n");
}

/** The records of a Codex rollout file as a transcript (see the module comment for the record types). */
export function codexRolloutTranscript(lines: readonly Record<string, unknown>[]): NormalizedTranscript {
  const sink = new StepSink();
  const result = emptyTranscript(sink.steps);
  const calls = new Map<string, { name: string; command: string | null; timestamp: string | undefined }>();
  // Exit codes as the harness recorded them when the command ended (the model's text may lack one),
  // and the patches it failed to apply.
  const endedWith = new Map<string, number>();
  const patchFailed = new Set<string>();
  for (const line of lines) {
    const payload = asRecord(line.payload);
    const item = asRecord(payload.item);
    const callId = asString(payload.call_id) ?? asString(item.id);
    if (line.type !== "event_msg" || !callId) continue;
    const code = payload.type === "exec_command_end" ? payload.exit_code : item.exit_code;
    if (Number.isInteger(code)) endedWith.set(callId, code as number);
    if (payload.type === "patch_apply_end" && payload.success === false) patchFailed.add(callId);
  }
  for (const line of lines) {
    const timestamp = isoOrUndefined(line.timestamp);
    const payload = asRecord(line.payload);
    if (line.type === "session_meta") {
      result.sessionId ??= asString(payload.id) ?? asString(payload.session_id) ?? null;
      result.cwd ??= asString(payload.cwd) ?? null;
      result.cliVersion ??= asString(payload.cli_version) ?? null;
      continue;
    }
    if (line.type === "turn_context") {
      const model = asString(payload.model);
      if (model && !result.models.includes(model)) result.models.push(model);
      result.cwd ??= asString(payload.cwd) ?? null;
      continue;
    }
    if (line.type === "event_msg") {
      rolloutEvent(payload, result);
      continue;
    }
    if (line.type !== "response_item") continue;
    const callId = asString(payload.call_id);
    switch (payload.type) {
      case "message": {
        const text = messageText(payload.content);
        if (payload.role === "assistant" && text.trim() !== "") {
          sink.push({ kind: "message", role: "assistant", text, timestamp });
          result.finalAnswer = text;
        } else if (payload.role === "user" && text.trim() !== "" && !isHarnessContext(text)) {
          sink.push({ kind: "message", role: "user", text, timestamp });
        }
        break;
      }
      case "reasoning": {
        const text = messageText(payload.summary);
        if (text.trim() !== "")
          sink.push({ kind: "message", role: "assistant", text: `(thinking) ${text}`, timestamp });
        break;
      }
      case "function_call":
      case "custom_tool_call":
      case "local_shell_call": {
        const action = asRecord(payload.action);
        const namespace = asString(payload.namespace);
        const called = asString(payload.name) ?? "unknown";
        // A function in a namespace (an MCP server's `mcp__<server>`) is named as the exec stream names it.
        const name =
          payload.type === "local_shell_call" ? "local_shell" : namespace ? `${namespace}__${called}` : called;
        const args =
          payload.type === "local_shell_call"
            ? action
            : payload.type === "custom_tool_call"
              ? { input: payload.input }
              : toolArguments(payload.arguments);
        const shellArgs = asRecord(args);
        const command = isShellTool(name) ? commandLine(shellArgs.command ?? shellArgs.cmd) : null;
        if (callId) calls.set(callId, { name, command, timestamp });
        sink.push({ kind: "tool_call", tool: name, arguments: args, callId, timestamp });
        break;
      }
      case "function_call_output":
      case "custom_tool_call_output": {
        const call = callId ? calls.get(callId) : undefined;
        const raw =
          typeof payload.output === "string"
            ? payload.output
            : messageText(Array.isArray(payload.output) ? payload.output : asRecord(payload.output).content);
        const took = millisBetween(call?.timestamp, timestamp);
        const timing = { timestamp, ...(took !== undefined ? { durationMs: took } : {}) };
        const { exitCode, output } = codexShellOutput(raw);
        const ended = callId ? endedWith.get(callId) : undefined;
        if (call?.command != null) {
          sink.push({
            kind: "shell",
            callId,
            command: call.command,
            exitCode: ended ?? exitCode,
            output,
            timedOut: /timed out/i.test(output) && (ended ?? exitCode) !== 0,
            ...timing,
          });
        } else {
          const failed =
            (exitCode !== null && exitCode !== 0) ||
            asRecord(payload.output).success === false ||
            (callId !== undefined && patchFailed.has(callId));
          sink.push({ kind: "observation", callId, text: output, isError: failed, ...timing });
        }
        break;
      }
      case "web_search_call":
        sink.push({ kind: "tool_call", tool: "web_search", arguments: payload.action ?? {}, callId, timestamp });
        break;
    }
  }
  return result;
}

function rolloutEvent(payload: Record<string, unknown>, result: NormalizedTranscript): void {
  switch (payload.type) {
    case "token_count": {
      const total = asRecord(asRecord(payload.info).total_token_usage);
      if (Object.keys(total).length === 0) return;
      result.usage.inputTokens = asNumber(total.input_tokens);
      result.usage.outputTokens = asNumber(total.output_tokens) + asNumber(total.reasoning_output_tokens);
      result.usage.modelCalls = (result.usage.modelCalls ?? 0) + 1;
      return;
    }
    case "error":
      result.error = `Codex error: ${asString(payload.message) ?? "unknown error"}`;
      return;
    case "turn_aborted":
      result.error = `Codex turn aborted: ${asString(payload.reason) ?? "unknown reason"}`;
      return;
    case "task_complete":
      result.finalAnswer = asString(payload.last_agent_message) ?? result.finalAnswer;
      return;
  }
}
