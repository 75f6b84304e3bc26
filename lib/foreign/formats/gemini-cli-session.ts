/**
 * Gemini CLI session files: `~/.gemini/tmp/<project>/chats/session-*.jsonl` (one document,
 * `session-*.json`, in earlier versions). JSON Lines: a metadata line `{sessionId, projectHash,
 * startTime, kind}`, `$set` updates (`$set.messages` replaces the list), and records `{id,
 * timestamp, type: user|gemini|info|error|warning, content, toolCalls[{id, name, args, result
 * [{functionResponse{response{output|error}}}], status}], tokens, model}`, a repeated id replacing
 * the earlier record. The CLI's first user record is its own session context, which names the
 * workspace directories. Shapes from the Gemini CLI source (packages/core, chatRecordingService)
 * and the files the CLI wrote here. Imported beside the stream-json output of the same session,
 * it is read into the stream's run (gemini-cli-stream.ts) and yields no run of its own. The
 * mapping is lib/agents/external/gemini-cli.ts, the one the runner uses on its own Gemini CLI runs.
 */
import { z } from "zod";
import { geminiSessionTranscript } from "@/lib/agents/external/gemini-cli";
import type { NormalizedTranscript } from "@/lib/agents/external/transcript";
import type { ForeignFile, ForeignFormat } from "../types";
import { jsonLineRecords, probeRecords, transcriptRun } from "./cli-transcript";
import { contentProbe, parseJsonDocument, parseShape } from "./json-lines";

const ToolCallSchema = z.looseObject({ id: z.string().optional(), name: z.string().optional(), result: z.unknown() });
const SessionRecordSchema = z.looseObject({
  id: z.string().optional(),
  type: z.string().optional(),
  sessionId: z.string().optional(),
  timestamp: z.string().optional(),
  toolCalls: z.array(ToolCallSchema).optional(),
  $set: z.looseObject({ messages: z.array(z.unknown()).optional() }).optional(),
});
const SessionDocumentSchema = z.looseObject({
  sessionId: z.string(),
  messages: z.array(z.looseObject({ id: z.string(), type: z.string(), toolCalls: z.array(ToolCallSchema).optional() })),
});

/** Whether the file is a one-document session (earlier versions) rather than JSON Lines. */
const isDocument = (file: ForeignFile) => {
  const { firstChar, firstLine } = contentProbe(file);
  return firstChar === "{" && !/\}\s*$/.test(firstLine);
};

/** The session id the file records, from its start; null when it names none there. */
export function geminiSessionId(file: ForeignFile): string | null {
  return /"sessionId"\s*:\s*"([^"]+)"/.exec(contentProbe(file).head)?.[1] ?? null;
}

/** The session id of a Gemini CLI stream-json output (its `init` record), or null for any other file. */
function streamSessionId(file: ForeignFile): string | null {
  const init = probeRecords(file).find((r) => r.type === "init" && typeof r.session_id === "string");
  return typeof init?.session_id === "string" ? init.session_id : null;
}

/** The session file read to a transcript (for the stream reader beside it, too). */
export function readGeminiSession(file: ForeignFile): NormalizedTranscript {
  if (isDocument(file)) {
    return geminiSessionTranscript([parseShape(SessionDocumentSchema, parseJsonDocument(file), file.name, null)]);
  }
  return geminiSessionTranscript(jsonLineRecords(file, SessionRecordSchema));
}

export const geminiCliSession: ForeignFormat = {
  id: "gemini-cli-session",
  label: "Gemini CLI session file (~/.gemini/tmp/*/chats/session-*.jsonl)",
  readerVersion: 1,
  detect(file) {
    const { head } = contentProbe(file);
    if (isDocument(file)) return /"sessionId"\s*:/.test(head) && /"projectHash"\s*:/.test(head);
    return probeRecords(file).some(
      (r) => (typeof r.sessionId === "string" && typeof r.projectHash === "string") || r.type === "gemini",
    );
  },
  read(file, context) {
    const transcript = readGeminiSession(file);
    const streamBeside = context.siblings.some(
      (sibling) => transcript.sessionId !== null && streamSessionId(sibling) === transcript.sessionId,
    );
    return streamBeside ? [] : [transcriptRun(transcript, { framework: "gemini-cli" })];
  },
};
