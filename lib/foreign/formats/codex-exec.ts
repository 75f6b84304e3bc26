/**
 * Codex CLI's headless output, `codex exec --json`: one event per line, `thread.started`
 * (thread_id), `turn.started` / `turn.completed` (usage) / `turn.failed`, and `item.started` /
 * `item.completed` with items `agent_message`, `reasoning`, `command_execution` (command,
 * aggregated_output, exit_code), `file_change` (changes[{path, kind}]), `mcp_tool_call`,
 * `web_search`, `todo_list`, `error`. The stream names neither the prompt, the model, the version
 * nor the directory: when the session's rollout file (same session id) is imported with it, those
 * come from the rollout. The mapping is lib/agents/external/codex.ts, the one the runner uses on
 * its own Codex runs.
 */
import { z } from "zod";
import { codexExecTranscript, codexRolloutTranscript } from "@/lib/agents/external/codex";
import { asRecord } from "@/lib/agents/external/transcript";
import type { ForeignFormat } from "../types";
import { jsonLineRecords, probeRecords, transcriptRun } from "./cli-transcript";
import { codexRollout, CodexRolloutRecordSchema, rolloutSessionId } from "./codex-rollout";

export const CodexExecEventSchema = z.looseObject({
  type: z.string(),
  item: z.looseObject({ type: z.string(), id: z.string().optional() }).optional(),
});

export const codexExec: ForeignFormat = {
  id: "codex-exec",
  label: "Codex CLI exec --json output",
  readerVersion: 1,
  detect(file) {
    return probeRecords(file).some(
      (r) =>
        (r.type === "thread.started" && typeof r.thread_id === "string") ||
        (typeof r.type === "string" && r.type.startsWith("item.") && typeof asRecord(r.item).type === "string"),
    );
  },
  read(file, context) {
    const transcript = codexExecTranscript(jsonLineRecords(file, CodexExecEventSchema));
    const rolloutFile = context.siblings.find(
      (sibling) =>
        transcript.sessionId !== null &&
        codexRollout.detect(sibling) &&
        rolloutSessionId(sibling) === transcript.sessionId,
    );
    if (rolloutFile) {
      const rollout = codexRolloutTranscript(jsonLineRecords(rolloutFile, CodexRolloutRecordSchema));
      const prompt = rollout.steps.find((s) => s.kind === "message" && s.role === "user");
      if (prompt) transcript.steps.unshift({ ...prompt, id: `rollout.${prompt.id}` });
      transcript.cwd = rollout.cwd;
      transcript.cliVersion = rollout.cliVersion;
      transcript.models = rollout.models;
    }
    return [transcriptRun(transcript, { framework: "codex" })];
  },
};
