/**
 * Bounded reading for the foreign-format readers in this folder: a whole JSON document or JSON
 * Lines, with the file and the line or field named in every error (ForeignFormatError); a cheap
 * content probe for detection; and the small conversions every reader needs (times, tool-call
 * arguments, step ids). The formats themselves are documented in each reader's module comment.
 */
import type { z } from "zod";
import { MAX_JSON_DEPTH, overDepthOffset } from "@/lib/bundle/decode";
import type { TrajectoryStep } from "@/lib/bundle/schema";
import { formatIssuePath } from "@/lib/errors/zod-issues";
import { ForeignFormatError, type ForeignFile } from "../types";

/** A whole-document file larger than this is refused: JSON.parse holds several times its size in memory. */
export const MAX_DOCUMENT_BYTES = 128 * 1024 * 1024;
/** One JSON Lines record larger than this is refused (the largest real OpenHands record seen is 0.3 MB). */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;
/** How much of a file detection may look at, from its start (and a little from its end). */
export const PROBE_BYTES = 64 * 1024;
const TAIL_BYTES = 4 * 1024;

/** What detection looks at: the first 64 KB as text, the last 4 KB, and the first non-blank character. */
export interface ContentProbe {
  head: string;
  tail: string;
  firstChar: string;
  /** The first line, when it ends within the head (else the head itself). */
  firstLine: string;
}

export function contentProbe(file: ForeignFile): ContentProbe {
  const head = withoutBom(file.data.subarray(0, PROBE_BYTES).toString("utf8"));
  const tail = file.data.subarray(Math.max(0, file.data.length - TAIL_BYTES)).toString("utf8");
  const firstChar = head.trimStart().charAt(0);
  const newline = head.indexOf("\n");
  return { head, tail, firstChar, firstLine: newline === -1 ? head : head.slice(0, newline) };
}

/** The file as one JSON document; an empty, oversized or malformed file is a ForeignFormatError. */
export function parseJsonDocument(file: ForeignFile): unknown {
  if (file.data.length > MAX_DOCUMENT_BYTES) {
    throw new ForeignFormatError(
      file.name,
      null,
      `is ${file.data.length} bytes, over the ${MAX_DOCUMENT_BYTES} a JSON document may have`,
    );
  }
  const text = withoutBom(file.data.toString("utf8"));
  if (text.trim() === "") throw new ForeignFormatError(file.name, null, "is empty");
  return parseJsonText(file.name, text, 1);
}

export interface JsonLine {
  /** 1-based line number in the file. */
  line: number;
  value: unknown;
}

/** Every non-blank line of the file as JSON; an empty file, an oversized or malformed line is a ForeignFormatError. */
export function parseJsonLines(file: ForeignFile): JsonLine[] {
  const lines: JsonLine[] = [];
  const data = file.data;
  let start = 0;
  for (let line = 1; start < data.length; line++) {
    const newline = data.indexOf(10, start);
    const end = newline === -1 ? data.length : newline;
    if (end - start > MAX_LINE_BYTES) {
      throw new ForeignFormatError(file.name, `line ${line}`, `is over ${MAX_LINE_BYTES} bytes`);
    }
    const text = data.subarray(start, end).toString("utf8");
    const clean = line === 1 ? withoutBom(text) : text;
    if (clean.trim() !== "") lines.push({ line, value: parseJsonText(file.name, clean, line) });
    start = end + 1;
  }
  if (lines.length === 0) throw new ForeignFormatError(file.name, null, "is empty");
  return lines;
}

/**
 * `value` checked against `schema`; the first problem becomes a ForeignFormatError naming where it
 * is (`line 3, history[4].args`).
 */
export function parseShape<S extends z.ZodType>(
  schema: S,
  value: unknown,
  file: string,
  where: string | null,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue ? fieldPath(issue.path) : "";
  const at = [where, path].filter((part) => part !== null && part !== "").join(", ");
  throw new ForeignFormatError(file, at === "" ? null : at, issue?.message ?? "has an unexpected shape");
}

/** `["history", 3, "args"]` → `history[3].args`, as every zod path is written (lib/errors/zod-issues.ts). */
export const fieldPath = formatIssuePath;

/** Tool-call arguments as the framework sent them (one home with the runner's normalizers). */
export { toolArguments } from "@/lib/agents/external/transcript";

/** Any JSON value as step text: a string as it is, anything else as JSON. */
export function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  return JSON.stringify(value);
}

/** Like textOf, but null for an absent value. */
export function textOrNull(value: unknown): string | null {
  return value === undefined || value === null ? null : textOf(value);
}

/**
 * An ISO-8601 time from a log's own: an ISO string (one without an offset is taken as UTC, as
 * OpenHands writes `2025-04-30T16:32:54.707474`), or Unix epoch seconds. Undefined when absent or unreadable.
 */
export function isoTime(value: unknown): string | undefined {
  let ms: number;
  if (typeof value === "number" && Number.isFinite(value) && value > 0) ms = value * 1000;
  else if (typeof value === "string" && value !== "") {
    const hasOffset = /(Z|[+-]\d\d:?\d\d)$/i.test(value);
    const isoLike = value.includes("T") ? value : value.replace(" ", "T");
    ms = Date.parse(hasOffset ? isoLike : `${isoLike}Z`);
  } else return undefined;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** Milliseconds from one ISO time to another, when both are known and in order. */
export function durationBetween(from: string | undefined, to: string | undefined): number | undefined {
  if (from === undefined || to === undefined) return undefined;
  const ms = Date.parse(to) - Date.parse(from);
  return ms >= 0 ? ms : undefined;
}

/** Benchmark families as logs spell them (dataset names, output folders, image names), the more specific first. */
const BENCHMARK_NAMES: readonly (readonly [RegExp, string])[] = [
  [/multi[-_ ]?swe[-_ ]?bench/i, "multi-swe-bench"],
  [/swe[-_ ]?bench[-_ ]?verified/i, "swe-bench-verified"],
  [/swe[-_ ]?bench[-_ ]?lite/i, "swe-bench-lite"],
  [/swe[-_ ]?bench[-_ ]?live/i, "swe-bench-live"],
  [/swe[-_ ]?bench[-_ ]?multimodal/i, "swe-bench-multimodal"],
  [/swe[-_ ]?gym/i, "swe-gym"],
  [/swe[-_ ]?bench|sweb\.eval/i, "swe-bench"],
];

/**
 * The benchmark the first of `names` that names one says (`princeton-nlp/SWE-bench_Verified` →
 * `swe-bench-verified`, `..._multi_swe_bench_c_...` → `multi-swe-bench`), or null. Callers pass the
 * log's own fields first (dataset, output folder) and the file name last.
 */
export function benchmarkFromNames(names: readonly (string | null | undefined)[]): string | null {
  for (const name of names) {
    if (!name) continue;
    const known = BENCHMARK_NAMES.find(([pattern]) => pattern.test(name));
    if (known) return known[1];
  }
  return null;
}

/** A token or call count from a log: a non-negative number, else 0. */
export function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

type WithoutId<S> = S extends unknown ? Omit<S, "id"> : never;
/** A trajectory step before it is numbered. */
export type UnnumberedStep = WithoutId<TrajectoryStep>;

/** Numbers the steps of one run `s1`, `s2`, ... (unique within the run, in order). */
export function numberSteps(steps: readonly UnnumberedStep[]): TrajectoryStep[] {
  return steps.map((step, i) => ({ id: `s${i + 1}`, ...step }) as TrajectoryStep);
}

/** The ISO times of the first and last timestamped steps. */
export function stepTimes(steps: readonly UnnumberedStep[]): { startedAt: string | null; finishedAt: string | null } {
  const times = steps.flatMap((step) => (step.timestamp === undefined ? [] : [step.timestamp])).sort();
  return { startedAt: times[0] ?? null, finishedAt: times[times.length - 1] ?? null };
}

/**
 * JSON.parse with the line of an error in the message; nesting deeper than MAX_JSON_DEPTH is
 * refused first (JSON.parse copes with it, but what handles the value next recurses: canonical
 * JSON overflowed the stack, an error naming no file).
 */
function parseJsonText(file: string, text: string, firstLine: number): unknown {
  const deep = overDepthOffset(text, MAX_JSON_DEPTH);
  if (deep !== -1) {
    const lineStart = text.lastIndexOf("\n", deep) + 1;
    throw new ForeignFormatError(
      file,
      `line ${firstLine + countNewlines(text, deep)}`,
      `is JSON nested deeper than ${MAX_JSON_DEPTH} levels (at column ${deep - lineStart + 1})`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ForeignFormatError(
      file,
      `line ${firstLine + countNewlines(text, errorOffset(text, message))}`,
      `is not valid JSON (${message.split("\n")[0]})`,
    );
  }
}

/**
 * Where in `text` JSON.parse stopped, from its message: "at position N" in some messages, the end
 * for a truncated text, else the quoted context V8 shows ("Unexpected token ']', ..."1,\n  "b": ]"
 * is not valid JSON": 10 characters before the token when elided).
 */
function errorOffset(text: string, message: string): number {
  const position = /position (\d+)/.exec(message);
  if (position) return Number(position[1]);
  if (/end of JSON/i.test(message)) return text.length;
  const context = /^Unexpected token '([\s\S])', (\.\.\.)?"([\s\S]*?)"(\.\.\.)? is not valid JSON/.exec(message);
  if (!context) return 0;
  const [, token = "", elided, snippet = ""] = context;
  const at = text.indexOf(snippet);
  if (at === -1) return 0;
  return at + (elided ? Math.min(10, snippet.length) : Math.max(0, snippet.indexOf(token)));
}

function countNewlines(text: string, upTo: number): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < upTo; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
