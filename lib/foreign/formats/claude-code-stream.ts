/**
 * Claude Code's headless output, `claude -p TASK --output-format stream-json --verbose`: one JSON
 * record per line, `system/init` (cwd, model, tools, claude_code_version, session_id), `assistant`
 * and `user` records holding the same Anthropic Messages content as the session file, and a final
 * `result` (subtype, is_error, num_turns, total_cost_usd, usage). A subagent's records carry the
 * `parent_tool_use_id` of the Task call that started it: its steps follow that call, their ids
 * prefixed with the call's step id. The stream has no prompt record; the task prompt is unknown
 * unless the session file is read instead. The mapping is lib/agents/external/claude-code.ts, the
 * one the runner uses on its own Claude Code runs.
 */
import type { ExitReason } from "@/lib/bundle/schema";
import { claudeCodeTranscript } from "@/lib/agents/external/claude-code";
import type { ForeignFormat } from "../types";
import { ClaudeCodeRecordSchema } from "./claude-code-session";
import { jsonLineRecords, probeRecords, transcriptRun } from "./cli-transcript";

export const claudeCodeStream: ForeignFormat = {
  id: "claude-code-stream",
  label: "Claude Code stream-json output (claude -p --output-format stream-json)",
  readerVersion: 1,
  detect(file) {
    return probeRecords(file).some(
      (r) =>
        typeof r.session_id === "string" &&
        ((r.type === "system" && r.subtype === "init" && typeof r.claude_code_version === "string") ||
          ((r.type === "assistant" || r.type === "user") && "parent_tool_use_id" in r)),
    );
  },
  read(file) {
    const records = jsonLineRecords(file, ClaudeCodeRecordSchema);
    const transcript = claudeCodeTranscript(records);
    // The turn limit is the one ending the result names that is not an error of the agent's own.
    const hitTurnLimit = records.some((r) => r.type === "result" && r.subtype === "error_max_turns");
    const exitReason: ExitReason | undefined = hitTurnLimit ? "step_limit" : undefined;
    return [transcriptRun(transcript, { framework: "claude-code", exitReason })];
  },
};
