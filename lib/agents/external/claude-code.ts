/**
 * Claude Code (`@anthropic-ai/claude-code`), headless: `claude -p TASK --output-format stream-json
 * --verbose --dangerously-skip-permissions`, talking Anthropic Messages to ANTHROPIC_BASE_URL.
 * Its session transcript lands in ~/.claude/projects/<dir>/<session>.jsonl.
 *
 * The reader turns the stream-json stdout, or the session file, into our trajectory. Both carry the same message
 * lines: an assistant message is split into one line per content block (merged by `message.id`),
 * tool results come back on `user` lines as `tool_result` blocks. The stream adds `system/init` and
 * a final `result` with totals; the session file adds the user's prompt.
 */
import { filesUnder, jsonLinesOnly } from "./files";
import type { ExternalAgentAdapter } from "./types";
import {
  emptyTranscript,
  asNumber,
  asRecord,
  asString,
  isoOrUndefined,
  parseJsonLines,
  StepSink,
  type NormalizedTranscript,
} from "./transcript";

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

const SHELL_TOOLS = new Set(["Bash"]);

function blockText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block) => {
      const b = asRecord(block);
      return b.type === "text" ? (asString(b.text) ?? "") : b.type === "image" ? "[image]" : "";
    })
    .filter((t) => t !== "")
    .join("\n");
}

/** `Exit code N` opens a failed Bash result; a successful one has no such line. */
function bashExitCode(text: string, isError: boolean): number | null {
  const match = /^Exit code (\d+)/.exec(text);
  if (match) return Number(match[1]);
  return isError ? null : 0;
}

export function normalizeClaudeCode(text: string, where: string, task?: string): NormalizedTranscript {
  const lines = parseJsonLines(text, where);
  const sink = new StepSink();
  const calls = new Map<string, { name: string; input: Record<string, unknown> }>();
  const usageByMessage = new Map<string, { input: number; output: number }>();
  const models = new Set<string>();
  const result = emptyTranscript(sink.steps);
  let sawPrompt = false;
  let lastAssistantText: string | null = null;
  let lastTextStep: string | null = null;
  let totals: { input: number; output: number } | null = null;

  for (const line of lines) {
    const type = line.type;
    const timestamp = isoOrUndefined(line.timestamp);
    result.sessionId ??= asString(line.session_id) ?? asString(line.sessionId) ?? null;
    if (type === "system" && line.subtype === "init") {
      const tools = Array.isArray(line.tools) ? line.tools.filter((t) => typeof t === "string") : [];
      if (typeof line.model === "string") models.add(line.model);
      sink.push({
        kind: "message",
        role: "system",
        text: `Claude Code session (model ${asString(line.model) ?? "?"}, cwd ${asString(line.cwd) ?? "?"}); tools: ${tools.join(", ")}`,
      });
      if (task !== undefined && !sawPrompt) {
        sink.push({ kind: "message", role: "user", text: task });
        sawPrompt = true;
      }
      continue;
    }
    if (type === "result") {
      const usage = asRecord(line.usage);
      totals = {
        input:
          asNumber(usage.input_tokens) +
          asNumber(usage.cache_read_input_tokens) +
          asNumber(usage.cache_creation_input_tokens),
        output: asNumber(usage.output_tokens),
      };
      if (typeof line.total_cost_usd === "number") result.usage.costUsd = line.total_cost_usd;
      if (typeof line.num_turns === "number") result.usage.modelCalls = line.num_turns;
      if (typeof line.result === "string") result.finalAnswer = line.result;
      if (line.is_error === true || (typeof line.subtype === "string" && line.subtype !== "success")) {
        result.error = `Claude Code ended with ${asString(line.subtype) ?? "an error"}${typeof line.result === "string" && line.result ? `: ${line.result}` : ""}`;
      }
      continue;
    }
    if (type !== "assistant" && type !== "user") continue;
    // Session files also hold sidechain (sub-agent) lines and meta lines; the main thread is enough here.
    if (line.isSidechain === true || line.isMeta === true) continue;
    const message = asRecord(line.message);
    if (type === "user") {
      const content = message.content;
      if (
        typeof content === "string" ||
        (Array.isArray(content) && content.every((b) => asRecord(b).type === "text"))
      ) {
        const prompt = blockText(content);
        if (!sawPrompt && prompt.trim() !== "") {
          sink.push({ kind: "message", role: "user", text: prompt, timestamp });
          sawPrompt = true;
        }
        continue;
      }
      for (const block of Array.isArray(content) ? content : []) {
        const b = asRecord(block);
        if (b.type !== "tool_result") continue;
        const callId = asString(b.tool_use_id);
        const output = blockText(b.content);
        const isError = b.is_error === true;
        const call = callId ? calls.get(callId) : undefined;
        if (call && SHELL_TOOLS.has(call.name)) {
          sink.push({
            kind: "shell",
            callId,
            command: asString(call.input.command) ?? "",
            exitCode: bashExitCode(output, isError),
            output,
            timedOut: /timed out/i.test(output) && isError,
            timestamp,
          });
        } else {
          sink.push({ kind: "observation", callId, text: output, isError, timestamp });
        }
      }
      continue;
    }
    // assistant: one content block per line, several lines per message id
    const id = asString(message.id) ?? `line-${sink.steps.length}`;
    if (typeof message.model === "string" && message.model !== "<synthetic>") models.add(message.model);
    const usage = asRecord(message.usage);
    usageByMessage.set(id, {
      input:
        asNumber(usage.input_tokens) +
        asNumber(usage.cache_read_input_tokens) +
        asNumber(usage.cache_creation_input_tokens),
      output: asNumber(usage.output_tokens),
    });
    for (const block of Array.isArray(message.content) ? message.content : []) {
      const b = asRecord(block);
      if (b.type === "text" && typeof b.text === "string" && b.text.trim() !== "") {
        const last = sink.steps.at(-1);
        // Text blocks of one message arrive on separate lines: keep them in one step.
        if (last?.kind === "message" && last.role === "assistant" && lastTextStep === `${id}:${last.id}`) {
          last.text = `${last.text}\n${b.text}`;
        } else {
          sink.push({ kind: "message", role: "assistant", text: b.text, timestamp });
          lastTextStep = `${id}:${sink.steps.at(-1)!.id}`;
        }
        lastAssistantText = b.text;
      } else if (b.type === "thinking" && typeof b.thinking === "string" && b.thinking.trim() !== "") {
        sink.push({ kind: "message", role: "assistant", text: `(thinking) ${b.thinking}`, timestamp });
      } else if (b.type === "tool_use") {
        const name = asString(b.name) ?? "unknown";
        const input = asRecord(b.input);
        const callId = asString(b.id);
        if (callId) calls.set(callId, { name, input });
        sink.push({ kind: "tool_call", tool: name, arguments: input, callId, timestamp });
      }
    }
  }
  const summed = [...usageByMessage.values()].reduce(
    (acc, u) => ({ input: acc.input + u.input, output: acc.output + u.output }),
    { input: 0, output: 0 },
  );
  const used = totals ?? summed;
  result.usage.inputTokens = used.input;
  result.usage.outputTokens = used.output;
  result.usage.modelCalls ??= usageByMessage.size > 0 ? usageByMessage.size : null;
  result.finalAnswer ??= lastAssistantText;
  result.models = [...models];
  return result;
}
