/**
 * Claude Code session transcripts: the `~/.claude/projects/<dir>/<session>.jsonl` file Claude Code
 * writes for every session. One record per line, linked by `uuid`/`parentUuid`: `user` and
 * `assistant` records carry an Anthropic Messages `message` (an assistant message is split into
 * one record per content block: `text`, `thinking`, `tool_use{id,name,input}`; tool results come
 * back on `user` records as `tool_result{tool_use_id,content,is_error}`), with `cwd`, `version`,
 * `sessionId` and `timestamp` on each; `summary`, `file-history-snapshot`, `progress`,
 * `queue-operation` and meta records are bookkeeping. A subagent started by the Task tool writes
 * its own thread of `isSidechain: true` records, in the session file (earlier versions) or in a
 * file of its own (`agent-<id>.jsonl`, same `sessionId`): its steps follow the Task call, their ids
 * prefixed with that call's step id. A subagent's file imported beside its session is read into
 * the session's run and yields no run of its own. The mapping is lib/agents/external/claude-code.ts,
 * the one the runner uses on its own Claude Code runs.
 */
import { z } from "zod";
import { claudeCodeTranscript } from "@/lib/agents/external/claude-code";
import type { ForeignFile, ForeignFormat } from "../types";
import { ContentSchema, jsonLineRecords, probeRecords, transcriptRun } from "./cli-transcript";
import { contentProbe } from "./json-lines";

/** The fields the mapping relies on, checked per line (the rest are kept loose). */
export const ClaudeCodeRecordSchema = z.looseObject({
  type: z.string(),
  uuid: z.string().nullish(),
  parentUuid: z.string().nullish(),
  isSidechain: z.boolean().optional(),
  timestamp: z.string().optional(),
  cwd: z.string().optional(),
  message: z.looseObject({ content: ContentSchema.optional(), model: z.string().optional() }).optional(),
});

/** The session id the file's first records name, from its start. */
const sessionIdOf = (file: ForeignFile) => /"sessionId"\s*:\s*"([^"]+)"/.exec(contentProbe(file).head)?.[1] ?? null;

/** A subagent's own transcript: every message record is on a sidechain. */
function isSubagentTranscript(records: readonly Record<string, unknown>[]): boolean {
  const messages = records.filter((r) => r.type === "user" || r.type === "assistant");
  return messages.length > 0 && messages.every((r) => r.isSidechain === true);
}

export const claudeCodeSession: ForeignFormat = {
  id: "claude-code-session",
  label: "Claude Code session transcript (~/.claude/projects/*.jsonl)",
  readerVersion: 1,
  detect(file) {
    return probeRecords(file).some(
      (r) =>
        (typeof r.sessionId === "string" && "parentUuid" in r && typeof r.type === "string") ||
        (r.type === "summary" && typeof r.leafUuid === "string"),
    );
  },
  read(file, context) {
    const records = jsonLineRecords(file, ClaudeCodeRecordSchema);
    const sessionId = sessionIdOf(file);
    const sameSession = context.siblings.filter(
      (sibling) =>
        sibling !== file &&
        sessionId !== null &&
        sessionIdOf(sibling) === sessionId &&
        claudeCodeSession.detect(sibling),
    );
    if (isSubagentTranscript(records)) {
      const parent = sameSession.some((sibling) => !/"isSidechain"\s*:\s*true/.test(contentProbe(sibling).head));
      if (parent) return [];
      return [transcriptRun(claudeCodeTranscript(records), { framework: "claude-code" })];
    }
    const subagents = sameSession
      .map((sibling) => jsonLineRecords(sibling, ClaudeCodeRecordSchema))
      .filter(isSubagentTranscript);
    return [transcriptRun(claudeCodeTranscript([...records, ...subagents.flat()]), { framework: "claude-code" })];
  },
};
