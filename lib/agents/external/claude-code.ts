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
import fs from "node:fs/promises";
import path from "node:path";
import type { TrajectoryStep } from "@/lib/bundle/schema";
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
  type NormalizedTranscript,
} from "./transcript";

export const claudeCodeAdapter: ExternalAgentAdapter = {
  framework: "claude-code",
  protocol: "anthropic",
  npmPackage: "@anthropic-ai/claude-code",
  // .cache/claude-cli-nodejs: its logs of MCP servers (a run with Code-KIT tools has one).
  stateInHome: [".claude", ".cache/claude-cli-nodejs"],
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
    const claudeDir = path.join(input.homeDir, ".claude");
    await fs.mkdir(claudeDir, { recursive: true });
    // The user's memory file, which Claude Code loads into every session (also in -p mode).
    const instructions = joinInstructions(input.instructions);
    if (instructions) await fs.writeFile(path.join(claudeDir, "CLAUDE.md"), instructions);
    if (input.mcpServer) {
      const { name, command, args } = input.mcpServer;
      const config = path.join(claudeDir, "studio-mcp.json");
      const servers = { mcpServers: { [name]: { type: "stdio", command, args } } };
      await fs.writeFile(config, `${JSON.stringify(servers, null, 2)}\n`);
      // --dangerously-skip-permissions above lets the run call its tools (`mcp__codekit__...`).
      argv.push("--mcp-config", config, "--strict-mcp-config");
    }
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
        // In -p mode it connects MCP servers in the background by default, and its first request went
        // out without their tools whenever the server took longer than Claude's own start (seen on
        // 2 busy cores): wait for them (up to MCP_TIMEOUT), as the other CLIs do.
        ...(input.mcpServer ? { MCP_CONNECTION_NONBLOCKING: "false" } : {}),
      },
    };
  },
  sessionFiles: (homeDir) => filesUnder(homeDir, ".claude/projects", /\.jsonl$/),
  async normalize({ stdout, task }) {
    return normalizeClaudeCode(jsonLinesOnly(stdout), "native/stdout.jsonl", task);
  },
};

/** The tools that run a shell command, as the tool registry describes the claude-code tools. */
const isShellTool = (tool: string) => toolEffect("claude-code", tool)?.effect === "shell";
/** The tool that starts a subagent (`Task`, renamed `Agent` in later versions); its steps run on a sidechain. */
const SUBAGENT_TOOLS = new Set(["Task", "Agent"]);

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

/**
 * `Exit code N` opens a failed Bash result (`Error: Exit code N` in some versions); a successful one
 * has no such line. A command sent to the background has not finished when its result comes: unknown.
 */
function bashExitCode(text: string, isError: boolean, input: Record<string, unknown>): number | null {
  const match = /^(?:Error: )?Exit code (\d+)/.exec(text);
  if (match) return Number(match[1]);
  if (input.run_in_background === true) return null;
  return isError ? null : 0;
}

/** The stream-json stdout or a session file of Claude Code, as text (one JSON record per line). */
export function normalizeClaudeCode(text: string, where: string, task?: string): NormalizedTranscript {
  return claudeCodeTranscript(parseJsonLines(text, where), { task });
}

export interface ClaudeCodeOptions {
  /** The task as the runner gave it, when the log does not hold the prompt (stream-json). */
  task?: string;
}

export function claudeCodeTranscript(
  lines: readonly Record<string, unknown>[],
  options: ClaudeCodeOptions = {},
): NormalizedTranscript {
  const { main, sidechains } = splitThreads(lines);
  const result = threadTranscript(main, options.task, false);
  for (const line of lines) {
    result.cwd ??= asString(line.cwd) ?? null;
    result.cliVersion ??= asString(line.claude_code_version) ?? asString(line.version) ?? null;
  }
  if (sidechains.length === 0) return result;
  const transcripts = new Map(sidechains.map((side) => [side, threadTranscript(side.lines, undefined, true)]));
  const taskCalls = result.steps.flatMap((step) =>
    step.kind === "tool_call" && SUBAGENT_TOOLS.has(step.tool) && step.callId
      ? [{ callId: step.callId, prompt: asString(asRecord(step.arguments).prompt) ?? null }]
      : [],
  );
  const linked = linkSidechains(taskCalls, sidechains, taskAgentIds(main));
  const steps: TrajectoryStep[] = [];
  const addThread = (prefix: string, label: string, side: Sidechain) => {
    const thread = transcripts.get(side)!;
    steps.push({ id: `${prefix}.sub`, kind: "message", role: "system", text: label });
    for (const step of thread.steps) {
      const id = `${prefix}.${step.id}`;
      if (step.kind === "message" && step.role === "user")
        steps.push({ ...step, id, role: "system", text: `Subagent prompt: ${step.text}` });
      else steps.push({ ...step, id });
    }
    // A session file has no totals: its subagents' usage adds up (stream-json's result counts it already).
    if (side.parentToolUseId === null) {
      result.usage.inputTokens += thread.usage.inputTokens;
      result.usage.outputTokens += thread.usage.outputTokens;
      result.usage.modelCalls = (result.usage.modelCalls ?? 0) + (thread.usage.modelCalls ?? 0);
    }
    for (const model of thread.models) if (!result.models.includes(model)) result.models.push(model);
  };
  for (const step of result.steps) {
    steps.push(step);
    if (step.kind !== "tool_call" || !step.callId) continue;
    const side = linked.get(step.callId);
    if (side) addThread(step.id, `Subagent of ${step.tool} call ${step.callId}: its steps follow`, side);
  }
  const linkedSides = new Set(linked.values());
  sidechains
    .filter((side) => !linkedSides.has(side))
    .forEach((side, i) => addThread(`side${i}`, "Subagent whose Task call is not in this log: its steps follow", side));
  return { ...result, steps };
}

interface Sidechain {
  /** stream-json: the Task call the subagent's records answer to. */
  parentToolUseId: string | null;
  agentId: string | null;
  /** The subagent's first user text (the Task prompt). */
  prompt: string | null;
  lines: Record<string, unknown>[];
}

function splitThreads(lines: readonly Record<string, unknown>[]) {
  const main: Record<string, unknown>[] = [];
  const byKey = new Map<string, Sidechain>();
  const rootOf = new Map<string, string>();
  for (const line of lines) {
    const parentToolUseId = asString(line.parent_tool_use_id) ?? null;
    if (line.isSidechain !== true && parentToolUseId === null) {
      main.push(line);
      continue;
    }
    const uuid = asString(line.uuid);
    const parent = asString(line.parentUuid);
    const agentId = asString(line.agentId) ?? null;
    // One subagent's records chain by parentUuid from its prompt; its root names the thread.
    const root = (parent !== undefined ? rootOf.get(parent) : undefined) ?? uuid ?? `line${byKey.size}`;
    if (uuid) rootOf.set(uuid, root);
    const key =
      parentToolUseId !== null ? `tool:${parentToolUseId}` : agentId !== null ? `agent:${agentId}` : `root:${root}`;
    let sidechain = byKey.get(key);
    if (!sidechain) {
      sidechain = { parentToolUseId, agentId, prompt: null, lines: [] };
      byKey.set(key, sidechain);
    }
    if (sidechain.prompt === null && line.type === "user") {
      const content = asRecord(line.message).content;
      const text = blockText(content);
      if (text.trim() !== "" && (typeof content === "string" || Array.isArray(content))) sidechain.prompt = text;
    }
    sidechain.lines.push(line);
  }
  return { main, sidechains: [...byKey.values()] };
}

/**
 * Which sidechain each Task call started: the explicit links first (stream-json's
 * `parent_tool_use_id`, the result's `agentId`), then the same prompt, then the next one in order.
 */
function linkSidechains(
  taskCalls: readonly { callId: string; prompt: string | null }[],
  sidechains: readonly Sidechain[],
  agentIds: ReadonlyMap<string, string>,
): Map<string, Sidechain> {
  const linked = new Map<string, Sidechain>();
  const free = new Set(sidechains);
  const pass = (matches: (side: Sidechain, call: { callId: string; prompt: string | null }) => boolean) => {
    for (const call of taskCalls) {
      if (linked.has(call.callId)) continue;
      const side = [...free].find((s) => matches(s, call));
      if (!side) continue;
      linked.set(call.callId, side);
      free.delete(side);
    }
  };
  pass((side, call) => side.parentToolUseId === call.callId);
  pass((side, call) => side.agentId !== null && side.agentId === agentIds.get(call.callId));
  pass((side, call) => side.parentToolUseId === null && call.prompt !== null && side.prompt === call.prompt);
  pass((side) => side.parentToolUseId === null);
  return linked;
}

/** The `agentId` each Task call's result names (session files of later versions). */
function taskAgentIds(lines: readonly Record<string, unknown>[]): Map<string, string> {
  const ids = new Map<string, string>();
  for (const line of lines) {
    const agentId = asString(asRecord(line.toolUseResult).agentId);
    if (line.type !== "user" || agentId === undefined) continue;
    const content = asRecord(line.message).content;
    for (const block of Array.isArray(content) ? content : []) {
      const callId = asString(asRecord(block).tool_use_id);
      if (callId) ids.set(callId, agentId);
    }
  }
  return ids;
}

/** One thread's records (the main one, or a subagent's sidechain) as a transcript. */
function threadTranscript(
  lines: readonly Record<string, unknown>[],
  task: string | undefined,
  sidechain: boolean,
): NormalizedTranscript {
  const sink = new StepSink();
  const calls = new Map<string, { name: string; input: Record<string, unknown>; timestamp: string | undefined }>();
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
    if (line.isMeta === true || (line.isSidechain === true && !sidechain)) continue;
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
        const took = millisBetween(call?.timestamp, timestamp);
        const timing = { timestamp, ...(took !== undefined ? { durationMs: took } : {}) };
        // A call the user rejected never ran: its answer is the refusal, not a command's output.
        const rejected = isError && output.startsWith("The user doesn't want to proceed with this tool use");
        if (call && isShellTool(call.name) && !rejected) {
          sink.push({
            kind: "shell",
            callId,
            command: asString(call.input.command) ?? "",
            exitCode: bashExitCode(output, isError, call.input),
            output,
            timedOut: /timed out/i.test(output) && isError,
            ...timing,
          });
        } else {
          sink.push({ kind: "observation", callId, text: output, isError, ...timing });
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
        if (callId) calls.set(callId, { name, input, timestamp });
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
