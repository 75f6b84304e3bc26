/**
 * Codex CLI `codex exec --json` (stdout) and its rollout file (`$CODEX_HOME/sessions/.../rollout-*.jsonl`)
 * into our trajectory. The exec stream has items (`agent_message`, `reasoning`, `command_execution`,
 * `file_change`, `mcp_tool_call`, `web_search`, `todo_list`, `error`) and per-turn usage; the rollout
 * has the model-facing `response_item`s (`message`, `function_call`, `function_call_output`,
 * `custom_tool_call` carrying apply_patch text) and `event_msg` token counts.
 */
import {
  emptyTranscript,
  asNumber,
  asRecord,
  asString,
  isoOrUndefined,
  parseJsonLines,
  StepSink,
  type NormalizedTranscript,
} from "./types";

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

/** A Responses `message` item's text, from its input_text/output_text parts. */
function contentText(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => asString(asRecord(part).text) ?? "")
    .filter((t) => t !== "")
    .join("\n");
}

/** The rollout file: what the model saw and said, in order; environment and instruction messages are left out. */
export function normalizeCodexRollout(text: string, where: string): NormalizedTranscript {
  const sink = new StepSink();
  const result = emptyTranscript(sink.steps);
  const calls = new Map<string, { name: string; command: string | null }>();
  for (const line of parseJsonLines(text, where)) {
    const payload = asRecord(line.payload);
    const timestamp = isoOrUndefined(line.timestamp);
    if (line.type === "session_meta") {
      result.sessionId = asString(payload.id) ?? asString(payload.session_id) ?? null;
      continue;
    }
    if (line.type === "turn_context" && typeof payload.model === "string" && !result.models.includes(payload.model)) {
      result.models.push(payload.model);
      continue;
    }
    if (line.type === "event_msg" && payload.type === "token_count") {
      const total = asRecord(asRecord(payload.info).total_token_usage);
      result.usage.inputTokens = asNumber(total.input_tokens);
      result.usage.outputTokens = asNumber(total.output_tokens) + asNumber(total.reasoning_output_tokens);
      continue;
    }
    if (line.type !== "response_item") continue;
    switch (payload.type) {
      case "message": {
        const text = contentText(payload.content);
        // Instructions and environment context are injected by Codex, not said by the user.
        if (payload.role === "developer" || /^<(environment_context|user_instructions|skills_instructions)/.test(text))
          break;
        if (payload.role === "assistant") {
          sink.push({ kind: "message", role: "assistant", text, timestamp });
          result.finalAnswer = text;
        } else if (payload.role === "user") sink.push({ kind: "message", role: "user", text, timestamp });
        break;
      }
      case "reasoning": {
        const summary = Array.isArray(payload.summary) ? contentText(payload.summary) : "";
        if (summary) sink.push({ kind: "message", role: "assistant", text: `(thinking) ${summary}`, timestamp });
        break;
      }
      case "function_call":
      case "custom_tool_call": {
        const name = asString(payload.name) ?? "unknown";
        const callId = asString(payload.call_id);
        let args: unknown = payload.arguments ?? payload.input ?? {};
        if (typeof args === "string" && payload.type === "function_call") {
          try {
            args = JSON.parse(args);
          } catch {
            // kept as the string the model sent
          }
        }
        if (payload.type === "custom_tool_call") args = { input: payload.input };
        const a = asRecord(args);
        const command =
          typeof a.cmd === "string" ? a.cmd : Array.isArray(a.command) ? a.command.join(" ") : asString(a.command);
        if (callId) calls.set(callId, { name, command: command ?? null });
        sink.push({ kind: "tool_call", tool: name, arguments: args, callId, timestamp });
        break;
      }
      case "function_call_output":
      case "custom_tool_call_output": {
        const callId = asString(payload.call_id);
        const raw = payload.output;
        const output = typeof raw === "string" ? raw : (asString(asRecord(raw).content) ?? JSON.stringify(raw ?? ""));
        const call = callId ? calls.get(callId) : undefined;
        const exit = /Process exited with code (-?\d+)/.exec(output);
        if (call?.command) {
          sink.push({
            kind: "shell",
            callId,
            command: call.command,
            exitCode: exit ? Number(exit[1]) : null,
            timedOut: false,
            output,
            timestamp,
          });
        } else sink.push({ kind: "observation", callId, text: output, isError: false, timestamp });
        break;
      }
    }
  }

  return result;
}
