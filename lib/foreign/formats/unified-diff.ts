/**
 * A repo diff alone: a `.diff` / `.patch` file as `git diff`, `git format-patch` or `diff -u` write
 * it (the format: lib/foreign/patch.ts). It is one run with no trajectory (no step was recorded, so
 * trajectory metrics are not applicable) whose patch is the file's text; which agent and task it
 * belongs to is not in the file, so the import's flags say it.
 */
import { NO_USAGE, ForeignFormatError, type ForeignFormat, type ForeignRun } from "../types";
import { parseUnifiedDiff } from "../patch";
import { contentProbe } from "./json-lines";

/** What a run that is only a repo diff knows: its patch, and the task and model when its file names them. */
export interface RepoDiffFacts {
  index: number;
  patch: string | null;
  benchmark?: string | null;
  instanceId?: string | null;
  model?: string | null;
  provider?: string | null;
}

/** A run that is only a repo diff: no steps, no times, no usage; completed, since the diff was submitted. */
export function repoDiffRun(facts: RepoDiffFacts): ForeignRun {
  return {
    index: facts.index,
    formatVersion: null,
    task: { benchmark: facts.benchmark ?? null, instanceId: facts.instanceId ?? null, prompt: null },
    agent: {
      framework: "unknown",
      frameworkVersion: null,
      model: facts.model ?? null,
      provider: facts.provider ?? null,
    },
    steps: [],
    hasTrajectory: false,
    patch: facts.patch,
    workspaceRoot: null,
    status: "completed",
    exitReason: "finished",
    error: null,
    startedAt: null,
    finishedAt: null,
    usage: NO_USAGE,
  };
}

/** `git format-patch`'s first line: `From <commit> Mon Sep 17 00:00:00 2001`. */
const FORMAT_PATCH_FROM = /^From [0-9a-f]{40} /;

export const unifiedDiff: ForeignFormat = {
  id: "unified-diff",
  label: "Unified diff (git diff, git format-patch, diff -u)",
  readerVersion: 1,
  detect(file) {
    const lines = contentProbe(file).head.replace(/\r/g, "").split("\n");
    const start = lines.findIndex((line) => line.trim() !== "");
    const [first = "", second = "", third = ""] = lines.slice(start);
    if (first.startsWith("diff --git ")) return true;
    if (FORMAT_PATCH_FROM.test(first)) return lines.some((line) => line.startsWith("diff --git "));
    // `diff -u a b` (a `diff -ruN old/x new/x` line may come first).
    const [minus, plus, hunk] = first.startsWith("diff ")
      ? [second, third, lines[start + 3] ?? ""]
      : [first, second, third];
    return minus.startsWith("--- ") && plus.startsWith("+++ ") && hunk.startsWith("@@ ");
  },
  read(file) {
    const text = file.data.toString("utf8").replace(/^\uFEFF/, "");
    if (text.trim() === "") throw new ForeignFormatError(file.name, null, "is empty");
    if (parseUnifiedDiff(text, file.name).length === 0) {
      throw new ForeignFormatError(file.name, null, "has no file diff in it (no `diff --git` or `---`/`+++` header)");
    }
    return [repoDiffRun({ index: 0, patch: text })];
  },
};
