/**
 * Gemini CLI's headless output, `gemini -p TASK -o stream-json`: one event per line, `init`
 * (session_id, model: possibly the router's "auto"), `message` (role, content, `delta` pieces of
 * one answer), `tool_use` (tool_name, tool_id, parameters), `tool_result` (tool_id, status,
 * output), `error`, and a final `result` (status, stats with tokens per model). The stream sends
 * an empty output for `read_file` and `write_file` and no exit codes: when the session file of
 * the same session is imported beside it, both come from there (and the workspace); alone, an
 * empty output stays empty. The mapping is lib/agents/external/gemini-cli.ts, the one the runner
 * uses on its own Gemini CLI runs.
 */
import { z } from "zod";
import { geminiStreamTranscript, withSessionResults } from "@/lib/agents/external/gemini-cli";
import type { ForeignFormat } from "../types";
import { jsonLineRecords, probeRecords, transcriptRun } from "./cli-transcript";
import { geminiCliSession, geminiSessionId, readGeminiSession } from "./gemini-cli-session";

const STREAM_TYPES = new Set(["message", "tool_use", "tool_result", "result"]);

const StreamEventSchema = z.looseObject({
  type: z.string(),
  timestamp: z.string().optional(),
  tool_id: z.string().optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
  output: z.string().optional(),
});

export const geminiCliStream: ForeignFormat = {
  id: "gemini-cli-stream",
  label: "Gemini CLI stream-json output (gemini -p -o stream-json)",
  readerVersion: 1,
  detect(file) {
    return probeRecords(file).some(
      (r) =>
        (r.type === "init" && typeof r.session_id === "string") ||
        (typeof r.type === "string" && STREAM_TYPES.has(r.type) && ("tool_id" in r || "stats" in r)),
    );
  },
  read(file, context) {
    const stream = geminiStreamTranscript(jsonLineRecords(file, StreamEventSchema));
    const sessionFile = context.siblings.find(
      (sibling) =>
        stream.sessionId !== null && geminiCliSession.detect(sibling) && geminiSessionId(sibling) === stream.sessionId,
    );
    const transcript = sessionFile ? withSessionResults(stream, readGeminiSession(sessionFile)) : stream;
    return [transcriptRun(transcript, { framework: "gemini-cli" })];
  },
};
