/**
 * Gemini CLI (`@google/gemini-cli`), headless: `gemini -m MODEL -p TASK --yolo -o stream-json`,
 * talking Gemini REST to GOOGLE_GEMINI_BASE_URL with API-key auth chosen in ~/.gemini/settings.json.
 * An explicit model skips the CLI's model router (an extra classifier call per turn). Guidelines go
 * to ~/.gemini/GEMINI.md (its global context file). Sessions land in ~/.gemini/tmp/<project>/chats/.
 *
 * The reader turns the stream-json stdout, and the session file, into our trajectory. The stream has `init`,
 * `message` (assistant text arrives in `delta` pieces), `tool_use`, `tool_result`, `error` and a
 * final `result` with stats. The session file has a metadata line, `$set` updates, and records
 * `{id, type: user|gemini|info|error, content, toolCalls, tokens}` where a repeated id replaces
 * the earlier record (earlier versions wrote one JSON document `{sessionId, messages: [...]}`).
 * The stream leaves the output of some tools empty (`read_file`, `write_file`) and prints no exit
 * codes: `withSessionResults` takes both from the session file, where the model's view of each
 * call is.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { filesUnder, jsonLinesOnly, readAgentFile } from "./files";
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

export const geminiCliAdapter: ExternalAgentAdapter = {
  framework: "gemini-cli",
  protocol: "gemini",
  npmPackage: "@google/gemini-cli",
  stateInHome: [".gemini"],
  binName: "gemini",
  async prepare(input) {
    const geminiDir = path.join(input.homeDir, ".gemini");
    await fs.mkdir(geminiDir, { recursive: true });
    const settings = {
      security: { auth: { selectedType: "gemini-api-key" } },
      // Trusted: its tools run without a confirmation (--yolo covers the rest).
      ...(input.mcpServer
        ? {
            mcpServers: {
              [input.mcpServer.name]: { command: input.mcpServer.command, args: input.mcpServer.args, trust: true },
            },
          }
        : {}),
    };
    await fs.writeFile(path.join(geminiDir, "settings.json"), `${JSON.stringify(settings, null, 2)}\n`);
    const instructions = joinInstructions(input.guidelines, input.instructions);
    if (instructions) await fs.writeFile(path.join(geminiDir, "GEMINI.md"), instructions);
    return {
      argv: [input.binary, "-m", input.model, "-p", input.task, "--yolo", "-o", "stream-json"],
      env: {
        GOOGLE_GEMINI_BASE_URL: input.baseUrl,
        GEMINI_API_KEY: input.apiKey,
        GEMINI_CLI_TRUST_WORKSPACE: "true",
      },
    };
  },
  sessionFiles: (homeDir) => filesUnder(homeDir, ".gemini/tmp", /^session-.*\.jsonl?$/),
  async normalize({ stdout, homeDir }) {
    const stream = normalizeGeminiStream(jsonLinesOnly(stdout), "native/stdout.jsonl");
    // Exit codes of shell commands are only in the session file (what the model was shown).
    const [sessionFile] = await geminiCliAdapter.sessionFiles(homeDir);
    if (!sessionFile) return stream;
    const shownAs = `native/home/${sessionFile}`;
    const text = await readAgentFile(homeDir, sessionFile, shownAs);
    if (text === null) return stream;
    return withSessionResults(stream, normalizeGeminiSession(text, shownAs));
  },
};

/** The tools that run a shell command, as the tool registry describes the gemini-cli tools. */
const isShellTool = (tool: string) => toolEffect("gemini-cli", tool)?.effect === "shell";

/**
 * `Exit Code: N` in a shell tool's output, as the model saw it (session file; printed only when
 * not 0, so a successful session record without it means 0). The stream's
 * `tool_result` says "success" even for a failing command and prints no code: null there, and
 * `withSessionResults` fills it in from the session file.
 */
function shellExitCode(output: string): number | null {
  const match = /Exit Code: (-?\d+)/i.exec(output);
  return match ? Number(match[1]) : null;
}

export function normalizeGeminiStream(text: string, where: string): NormalizedTranscript {
  return geminiStreamTranscript(parseJsonLines(text, where));
}

/** The records of Gemini CLI's `-o stream-json` output as a transcript. */
export function geminiStreamTranscript(lines: readonly Record<string, unknown>[]): NormalizedTranscript {
  const sink = new StepSink();
  const result = emptyTranscript(sink.steps);
  const calls = new Map<string, { name: string; parameters: Record<string, unknown>; timestamp?: string }>();
  let answer: string[] = [];
  for (const line of lines) {
    const timestamp = isoOrUndefined(line.timestamp);
    const last = sink.steps.at(-1);
    switch (line.type) {
      case "init":
        result.sessionId = asString(line.session_id) ?? null;
        if (typeof line.model === "string") result.models.push(line.model);
        break;
      case "message": {
        const content = asString(line.content) ?? "";
        const role = line.role === "user" ? "user" : "assistant";
        // Deltas of one answer follow each other: append to the open message step.
        if (line.delta === true && last?.kind === "message" && last.role === role) {
          last.text += content;
        } else sink.push({ kind: "message", role, text: content, timestamp });
        if (role === "assistant")
          answer =
            line.delta === true && last?.kind === "message" && last.role === "assistant"
              ? [...answer, content]
              : [content];
        break;
      }
      case "tool_use": {
        const name = asString(line.tool_name) ?? "unknown";
        const callId = asString(line.tool_id);
        const parameters = asRecord(line.parameters);
        if (callId) calls.set(callId, { name, parameters, timestamp });
        sink.push({ kind: "tool_call", tool: name, arguments: parameters, callId, timestamp });
        answer = [];
        break;
      }
      case "tool_result": {
        const callId = asString(line.tool_id);
        const ok = line.status === "success";
        // A failed call's `output` is a summary for the terminal ("Error: MCP tool 'x' reported an
        // error."); its `error.message` is what the model was told, the tool's own words included.
        const output = ok
          ? (asString(line.output) ?? "")
          : (asString(asRecord(line.error).message) ?? asString(line.output) ?? `tool ${String(line.status)}`);
        const call = callId ? calls.get(callId) : undefined;
        const took = millisBetween(call?.timestamp, timestamp);
        const timing = { timestamp, ...(took !== undefined ? { durationMs: took } : {}) };
        if (call && isShellTool(call.name)) {
          sink.push({
            kind: "shell",
            callId,
            command: asString(call.parameters.command) ?? "",
            exitCode: shellExitCode(output),
            timedOut: false,
            output,
            ...timing,
          });
        } else sink.push({ kind: "observation", callId, text: output, isError: !ok, ...timing });
        break;
      }
      case "error":
        sink.push({
          kind: "message",
          role: "system",
          text: `Gemini CLI ${asString(line.severity) ?? "error"}: ${asString(line.message) ?? ""}`,
          timestamp,
        });
        break;
      case "result": {
        const stats = asRecord(line.stats);
        result.usage.inputTokens = asNumber(stats.input_tokens);
        result.usage.outputTokens = asNumber(stats.output_tokens);
        // `init` may name the router ("auto"): the models that answered are those with tokens in the stats.
        const used = Object.entries(asRecord(stats.models))
          .map(([model, usage]) => ({ model, tokens: asNumber(asRecord(usage).total_tokens) }))
          .filter((m) => m.tokens > 0)
          .sort((a, b) => b.tokens - a.tokens)
          .map((m) => m.model);
        if (used.length > 0) result.models = used;
        if (line.status !== "success") {
          result.error =
            `Gemini CLI ended with ${asString(line.status) ?? "an error"}: ${asString(asRecord(line.error).message) ?? ""}`.trim();
        }
        break;
      }
    }
  }
  result.finalAnswer = answer.length > 0 ? answer.join("") : null;
  return result;
}

function recordText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => asString(asRecord(part).text) ?? "").join("");
}

/** The result text of a session-file tool call (`functionResponse.response.output` or `.error`). */
function toolCallOutput(call: Record<string, unknown>): string {
  const parts = Array.isArray(call.result) ? call.result : [];
  return parts
    .map((part) => {
      const response = asRecord(asRecord(asRecord(part).functionResponse).response);
      return asString(response.output) ?? asString(response.error) ?? "";
    })
    .join("\n");
}

export function normalizeGeminiSession(text: string, where: string): NormalizedTranscript {
  // Earlier versions wrote the session as one JSON document, later ones as JSON Lines.
  const document = sessionDocument(text);
  return geminiSessionTranscript(document ? [document] : parseJsonLines(text, where));
}

/** The session as one JSON document `{sessionId, messages}`, or null when it is not one. */
function sessionDocument(text: string): Record<string, unknown> | null {
  if (!/^\s*\{\s*\n/.test(text) && text.trim().includes("\n")) return null;
  try {
    const value = asRecord(JSON.parse(text));
    return Array.isArray(value.messages) ? value : null;
  } catch {
    return null;
  }
}

/** The context the CLI sends as the chat's first user turn (tagged in later versions). */
const isSessionContext = (text: string) =>
  /^\s*(<session_context>|This is the Gemini CLI\. We are setting up the context)/.test(text);

/** The directory the CLI's own session context names first (`Workspace Directories:` or `working in the directory:`). */
function sessionContextDirectory(text: string): string | null {
  const match =
    /Workspace Directories:\**\s*\n\s*-\s*(\S[^\n]*)/.exec(text) ?? /working in the directory:\s*(\S[^\n]*)/.exec(text);
  return match?.[1]?.trim() ?? null;
}

/**
 * The records of a Gemini CLI session file (JSON Lines, or the one document of earlier versions)
 * as a transcript. `$set.messages` (or a document's `messages`) replaces the record list; a record
 * whose id repeats replaces the earlier one, in first-seen order. The CLI's own session context
 * (its first user record) names the workspace and is not a step.
 */
export function geminiSessionTranscript(lines: readonly Record<string, unknown>[]): NormalizedTranscript {
  const sink = new StepSink();
  const result = emptyTranscript(sink.steps);
  const records = new Map<string, Record<string, unknown>>();
  const add = (record: unknown) => {
    const r = asRecord(record);
    if (typeof r.id === "string" && typeof r.type === "string") records.set(r.id, r);
  };
  for (const line of lines) {
    if (typeof line.sessionId === "string") result.sessionId = line.sessionId;
    const messages = line.messages ?? asRecord(line.$set).messages;
    if (Array.isArray(messages)) {
      records.clear();
      messages.forEach(add);
    } else add(line);
  }
  for (const record of records.values()) {
    const timestamp = isoOrUndefined(record.timestamp);
    const content = recordText(record.content);
    if (record.type === "user") {
      if (isSessionContext(content)) {
        result.cwd ??= sessionContextDirectory(content);
        continue;
      }
      // A user record holding only function responses is the tool results, already under their calls.
      if (content.trim() !== "") sink.push({ kind: "message", role: "user", text: content, timestamp });
      continue;
    }
    if (record.type === "info" || record.type === "error" || record.type === "warning") {
      sink.push({ kind: "message", role: "system", text: `Gemini CLI ${String(record.type)}: ${content}`, timestamp });
      continue;
    }
    if (record.type !== "gemini") continue;
    if (typeof record.model === "string" && !result.models.includes(record.model)) result.models.push(record.model);
    const tokens = asRecord(record.tokens);
    result.usage.inputTokens += asNumber(tokens.input);
    result.usage.outputTokens += asNumber(tokens.output) + asNumber(tokens.thoughts);
    result.usage.modelCalls = (result.usage.modelCalls ?? 0) + 1;
    if (content.trim() !== "") {
      sink.push({ kind: "message", role: "assistant", text: content, timestamp });
      result.finalAnswer = content;
    }
    for (const call of (Array.isArray(record.toolCalls) ? record.toolCalls : []).map(asRecord)) {
      const name = asString(call.name) ?? "unknown";
      const callId = asString(call.id);
      const args = asRecord(call.args);
      const callTime = isoOrUndefined(call.timestamp) ?? timestamp;
      sink.push({ kind: "tool_call", tool: name, arguments: args, callId, timestamp: callTime });
      const output = toolCallOutput(call);
      const ok = call.status === "success";
      if (isShellTool(name)) {
        sink.push({
          kind: "shell",
          callId,
          command: asString(args.command) ?? "",
          exitCode: shellExitCode(output) ?? (ok ? 0 : null),
          timedOut: false,
          output,
          timestamp: callTime,
        });
      } else sink.push({ kind: "observation", callId, text: output, isError: !ok, timestamp: callTime });
    }
  }
  return result;
}

/**
 * The stream completed from the session file of the same run: the exit codes of its shell steps,
 * the output of tool calls the stream left empty (`read_file`, `write_file`), the workspace the
 * session context names, the number of model calls. A call the session does not have keeps what the stream said.
 */
export function withSessionResults(stream: NormalizedTranscript, session: NormalizedTranscript): NormalizedTranscript {
  const codes = new Map<string, number | null>();
  const texts = new Map<string, string>();
  for (const step of session.steps) {
    if (step.kind === "shell" && step.callId) codes.set(step.callId, step.exitCode);
    if (step.kind === "observation" && step.callId) texts.set(step.callId, step.text);
  }
  return {
    ...stream,
    cwd: stream.cwd ?? session.cwd ?? null,
    models: stream.models.length > 0 ? stream.models : session.models,
    usage: { ...stream.usage, modelCalls: stream.usage.modelCalls ?? session.usage.modelCalls },
    steps: stream.steps.map((step) => {
      if (step.kind === "shell" && step.exitCode === null && step.callId && codes.get(step.callId) != null)
        return { ...step, exitCode: codes.get(step.callId) ?? null };
      if (step.kind === "observation" && step.text === "" && step.callId && texts.get(step.callId))
        return { ...step, text: texts.get(step.callId) ?? "" };
      return step;
    }),
  };
}
