/**
 * The registry of foreign log formats: one module per format in this folder, one line here.
 * Detection tries them in this order, the more specific first: a format whose detector could also
 * accept another's files comes before it (an OpenHands output.jsonl line holds an event list; a
 * mini-swe-agent preds.json and SWE-bench predictions both carry model_patch; a plain diff is last).
 * `--format ID` forces one.
 */
import type { ForeignFile, ForeignFormat } from "../types";
import { agnoRunOutput } from "./agno-run-output";
import { codexExec } from "./codex-exec";
import { codexRollout } from "./codex-rollout";
import { geminiCliSession } from "./gemini-cli-session";
import { geminiCliStream } from "./gemini-cli-stream";
import { smolagentsMemory } from "./smolagents-memory";
import { sweAgentTraj } from "./swe-agent-traj";
import { claudeCodeSession } from "./claude-code-session";
import { inspectEval } from "./inspect-eval";
import { inspectJson } from "./inspect-json";
import { claudeCodeStream } from "./claude-code-stream";
import { miniSweAgentPreds } from "./mini-swe-agent-preds";
import { miniSweAgentTraj } from "./mini-swe-agent-traj";
import { openhandsEvents } from "./openhands-events";
import { openhandsOutput } from "./openhands-output";
import { sweBenchPredictions } from "./swe-bench-predictions";
import { unifiedDiff } from "./unified-diff";

export const FOREIGN_FORMATS: readonly ForeignFormat[] = [
  inspectEval,
  inspectJson,
  openhandsOutput,
  openhandsEvents,
  sweAgentTraj,
  miniSweAgentTraj,
  miniSweAgentPreds,
  codexRollout,
  codexExec,
  claudeCodeStream,
  claudeCodeSession,
  geminiCliStream,
  geminiCliSession,
  smolagentsMemory,
  agnoRunOutput,
  sweBenchPredictions,
  unifiedDiff,
];

export function foreignFormat(id: string): ForeignFormat | undefined {
  return FOREIGN_FORMATS.find((f) => f.id === id);
}

/** The first format whose detector accepts the file, or null. */
export function detectFormat(file: ForeignFile): ForeignFormat | null {
  return FOREIGN_FORMATS.find((f) => f.detect(file)) ?? null;
}
