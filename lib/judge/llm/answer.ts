/**
 * The model's answer to a judge prompt, validated: JSON of JudgeAnswerSchema, else "invalid" with
 * the reason (the raw text is kept by the caller). Citations of steps the run does not have are
 * dropped and mentioned.
 */
import type { Citation, EvidenceItem } from "@/lib/judge/schema";
import type { VerdictValue } from "@/lib/metrics/catalog";
import { JudgeAnswerSchema, type JudgeAnswer } from "./schema";
import { allIssues } from "@/lib/errors/zod-issues";

export type ParsedAnswer = { ok: true; answer: JudgeAnswer } | { ok: false; reason: string };

/** JSON mode returns bare JSON; a single ```json fence around it is tolerated (some models add one). */
function unfence(text: string): string {
  const match = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/.exec(text);
  return match ? (match[1] ?? "") : text;
}

export function parseJudgeAnswer(text: string, finishReason?: string): ParsedAnswer {
  const truncated = finishReason && finishReason !== "STOP" ? ` (finish reason ${finishReason})` : "";
  if (text.trim() === "") return { ok: false, reason: `empty response${truncated}` };
  let json: unknown;
  try {
    json = JSON.parse(unfence(text));
  } catch (error) {
    return { ok: false, reason: `not JSON: ${error instanceof Error ? error.message : String(error)}${truncated}` };
  }
  const parsed = JudgeAnswerSchema.safeParse(json);
  if (!parsed.success) {
    return { ok: false, reason: `does not match the answer schema: ${allIssues(parsed.error, "(root)")}${truncated}` };
  }
  return { ok: true, answer: parsed.data };
}

export interface AnswerVerdict {
  value: VerdictValue;
  rationale: string;
  citations: Citation[];
  evidence: EvidenceItem[];
}

/** Turns a parsed answer into verdict fields, keeping only citations of steps that exist. */
export function verdictFromAnswer(parsed: ParsedAnswer, stepIds: ReadonlySet<string>): AnswerVerdict {
  if (!parsed.ok) {
    return { value: "invalid", rationale: `invalid judge response: ${parsed.reason}`, citations: [], evidence: [] };
  }
  const { answer } = parsed;
  const cited = [...new Set(answer.cited_steps.map((s) => s.trim().replace(/^\[(.*)\]$/, "$1")))];
  const known = cited.filter((id) => stepIds.has(id));
  const unknown = cited.filter((id) => !stepIds.has(id));
  const note = unknown.length > 0 ? `cited steps that do not exist were dropped: ${unknown.join(", ")}` : null;
  return {
    value: answer.verdict,
    rationale: note ? `${answer.rationale.trim()} [${note}]` : answer.rationale.trim(),
    citations: known.map((stepId) => ({ stepId })),
    evidence: note ? [{ message: note }] : [],
  };
}
