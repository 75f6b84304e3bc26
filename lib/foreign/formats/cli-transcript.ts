/**
 * What the readers of the coding-agent CLIs' own files (Claude Code, Codex, Gemini CLI) share: the
 * files are read by the same normalizers the runner uses on its own runs of those CLIs
 * (lib/agents/external), so one trajectory format has one mapping; this module checks the JSON
 * Lines records, probes the start of a file for detection, and turns a normalized transcript
 * into a ForeignRun.
 */
import { z } from "zod";
import type { ExitReason } from "@/lib/bundle/schema";
import type { NormalizedTranscript } from "@/lib/agents/external/transcript";
import type { ForeignFile, ForeignRun } from "../types";
import { contentProbe, parseJsonLines, parseShape, PROBE_BYTES, stepTimes } from "./json-lines";

/** How many records at the start of a file detection looks at. */
const PROBE_RECORDS = 20;

/**
 * The complete JSON objects among the first lines of the file's first 64 KB (a line cut off by
 * the probe, or not JSON, is skipped): what detection looks at.
 */
export function probeRecords(file: ForeignFile): Record<string, unknown>[] {
  const { head } = contentProbe(file);
  // A head cut off by the probe ends in a partial line: it is left out.
  const complete = file.data.length > PROBE_BYTES ? head.slice(0, head.lastIndexOf("\n") + 1) : head;
  const records: Record<string, unknown>[] = [];
  for (const line of complete.split("\n")) {
    if (records.length >= PROBE_RECORDS) break;
    if (!line.trimStart().startsWith("{")) continue;
    try {
      const value: unknown = JSON.parse(line);
      if (value !== null && typeof value === "object" && !Array.isArray(value))
        records.push(value as Record<string, unknown>);
    } catch {
      // not a whole JSON line: detection decides on the others
    }
  }
  return records;
}

/**
 * Every line of a JSON Lines file as an object of the given shape; a line that is not JSON, not an
 * object, or has a field of the wrong type is a ForeignFormatError naming the line and field.
 */
export function jsonLineRecords<S extends z.ZodType<Record<string, unknown>>>(
  file: ForeignFile,
  schema: S,
): Record<string, unknown>[] {
  return parseJsonLines(file).map(
    ({ line, value }) => parseShape(schema, value, file.name, `line ${line}`) as Record<string, unknown>,
  );
}

/** Content as these CLIs write it: a string or a list of blocks. */
export const ContentSchema = z.union([z.string(), z.array(z.unknown())]);

export interface CliRunFacts {
  framework: string;
  /** The format's own version where the file says it, else null. */
  formatVersion?: string | null;
  exitReason?: ExitReason;
  patch?: string | null;
}

/** A normalized CLI transcript as the one run of its file. */
export function transcriptRun(transcript: NormalizedTranscript, facts: CliRunFacts): ForeignRun {
  const prompt = transcript.steps.find((step) => step.kind === "message" && step.role === "user");
  const { startedAt, finishedAt } = stepTimes(transcript.steps);
  const failed = transcript.error !== null;
  return {
    index: 0,
    formatVersion: facts.formatVersion ?? null,
    task: { benchmark: null, instanceId: null, prompt: prompt?.kind === "message" ? prompt.text : null },
    agent: {
      framework: facts.framework,
      frameworkVersion: transcript.cliVersion ?? null,
      model: transcript.models[0] ?? null,
      provider: null,
    },
    steps: transcript.steps,
    hasTrajectory: true,
    patch: facts.patch ?? null,
    workspaceRoot: transcript.cwd ?? null,
    status: failed ? "failed" : "completed",
    exitReason: facts.exitReason ?? (failed ? "error" : "finished"),
    error: transcript.error,
    startedAt,
    finishedAt,
    usage: {
      modelCalls: transcript.usage.modelCalls ?? 0,
      inputTokens: transcript.usage.inputTokens,
      outputTokens: transcript.usage.outputTokens,
      costUsd: transcript.usage.costUsd,
    },
  };
}
