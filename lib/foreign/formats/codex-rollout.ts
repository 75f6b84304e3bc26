/**
 * Codex CLI rollout files: the `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl` Codex writes for
 * every session, one `{timestamp, type, payload}` record per line: `session_meta` (id, cwd,
 * cli_version), `turn_context` (model, cwd), `response_item` (the model's Responses items:
 * messages, reasoning summaries, `function_call` of `shell`/`exec_command` with its
 * `function_call_output`, `custom_tool_call` of `apply_patch` with its patch text) and `event_msg`
 * (token counts, command ends with exit codes, errors). Shapes from the Codex source
 * (codex-rs/protocol, `RolloutItem`) and the files the CLI wrote here. Imported beside the
 * `exec --json` output of the same session, it is read into that run (codex-exec.ts) and yields
 * no run of its own. The mapping is lib/agents/external/codex.ts, beside the one the runner uses
 * on Codex's `exec --json` stream.
 */
import { z } from "zod";
import { codexRolloutTranscript } from "@/lib/agents/external/codex";
import type { ForeignFile, ForeignFormat } from "../types";
import { contentProbe } from "./json-lines";
import { jsonLineRecords, probeRecords, transcriptRun } from "./cli-transcript";

const ROLLOUT_TYPES = new Set(["session_meta", "turn_context", "response_item", "event_msg"]);

export const CodexRolloutRecordSchema = z.looseObject({
  type: z.string(),
  timestamp: z.string().optional(),
  payload: z.record(z.string(), z.unknown()),
});

/** The session id a rollout file records (its `session_meta`), read from its first line; null when absent. */
export function rolloutSessionId(file: ForeignFile): string | null {
  // session_meta leads the file and can be long (it holds the base instructions): a regex on the head.
  const match = /"type":"session_meta","payload":\{[^]*?"id":"([^"]+)"/.exec(contentProbe(file).firstLine);
  return match?.[1] ?? null;
}

export const codexRollout: ForeignFormat = {
  id: "codex-rollout",
  label: "Codex CLI rollout file (~/.codex/sessions/rollout-*.jsonl)",
  readerVersion: 1,
  detect(file) {
    if (/^\{[^\n]{0,200}"type":"session_meta","payload":\{/.test(contentProbe(file).head)) return true;
    return probeRecords(file).some(
      (r) =>
        typeof r.type === "string" && ROLLOUT_TYPES.has(r.type) && typeof r.payload === "object" && r.payload !== null,
    );
  },
  read(file, context) {
    const records = jsonLineRecords(file, CodexRolloutRecordSchema);
    const sessionId = rolloutSessionId(file);
    const execBeside = context.siblings.some(
      (sibling) =>
        sessionId !== null &&
        probeRecords(sibling).some((r) => r.type === "thread.started" && r.thread_id === sessionId),
    );
    return execBeside ? [] : [transcriptRun(codexRolloutTranscript(records), { framework: "codex" })];
  },
};
