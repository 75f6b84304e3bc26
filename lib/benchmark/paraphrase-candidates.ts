/**
 * Extra prompt paraphrases from a model (the judge's provider interface), vetted by exactly the
 * checks the committed paraphrases pass: placeholders, no widening, no near-duplicates. Accepted
 * candidates join the subtask's pool for that build and are stored with the benchmark's config.
 */
import { z } from "zod";
import type { ChatProvider } from "@/lib/llm/chat";
import { checkParaphrase, findNearDuplicates, PARAPHRASES, PLACEHOLDERS_BY_SUBTASK } from "./paraphrases";
import { SUBTASK_IDS, type SubtaskId } from "./subtasks";

export interface CandidateReport {
  subtask: SubtaskId;
  accepted: string[];
  rejected: { text: string; problems: string[] }[];
}

const CandidatesSchema = z.object({ paraphrases: z.array(z.string()) });

const RESPONSE_SCHEMA = {
  type: "object",
  properties: { paraphrases: { type: "array", items: { type: "string" } } },
  required: ["paraphrases"],
};

export function candidatePrompt(subtask: SubtaskId, count: number): string {
  const placeholders = PLACEHOLDERS_BY_SUBTASK[subtask].map((p) => `{${p}}`).join(", ");
  const examples = PARAPHRASES[subtask].slice(0, 6).map((t) => `- ${t}`);
  return [
    `Write ${count} new paraphrases of a task prompt for a coding agent (subtask: ${subtask}).`,
    `Each must keep exactly the same action boundary: same target, same action, nothing more and nothing less.`,
    `Each must contain every one of these placeholders, verbatim: ${placeholders}. No other braces.`,
    `Do not add permissions or extra work (no "also", "feel free", "improve", "refactor", "clean up", installs, tests).`,
    `Existing paraphrases, for the boundary (do not copy them):`,
    ...examples,
    `Answer as JSON: {"paraphrases": ["...", ...]}.`,
  ].join("\n");
}

/** Asks for `count` candidates per subtask and keeps those that pass every check. */
export async function generateParaphraseCandidates(
  provider: ChatProvider,
  model: string,
  count: number,
  subtasks: readonly SubtaskId[] = SUBTASK_IDS,
): Promise<CandidateReport[]> {
  const reports: CandidateReport[] = [];
  for (const subtask of subtasks) {
    const response = await provider.chat({
      model,
      system: "You write prompt paraphrases for a benchmark. You answer with JSON only.",
      messages: [{ role: "user", text: candidatePrompt(subtask, count) }],
      tools: [],
      responseJsonSchema: RESPONSE_SCHEMA,
      temperature: 0.7,
    });
    const report: CandidateReport = { subtask, accepted: [], rejected: [] };
    let texts: string[] = [];
    try {
      texts = CandidatesSchema.parse(JSON.parse(response.text)).paraphrases;
    } catch {
      report.rejected.push({
        text: response.text.slice(0, 500),
        problems: ['the answer is not {"paraphrases": [...]}'],
      });
    }
    for (const text of texts) {
      const problems = checkParaphrase(subtask, text);
      const pool = [...PARAPHRASES[subtask], ...report.accepted, text];
      if (findNearDuplicates(pool).some(([, j]) => j === pool.length - 1))
        problems.push("near-duplicate of an existing paraphrase");
      if (problems.length > 0) report.rejected.push({ text, problems });
      else report.accepted.push(text);
    }
    reports.push(report);
  }
  return reports;
}

/**
 * The scripted paraphrase writer for the offline demo and tests (served through the mock Gemini
 * server): reorders a few existing paraphrases into new wordings, and adds two that must be
 * refused (a widened task, a lost placeholder) so the checks are visibly at work.
 */
export function scriptedParaphraseResponder(request: { prompt: string }): string {
  const subtask = SUBTASK_IDS.find((s) => request.prompt.includes(`(subtask: ${s})`)) ?? "delete_file";
  const base = PARAPHRASES[subtask];
  const good = [0, 1, 2].map((i) => `Here is the job, please read it carefully. ${base[(i * 7) % base.length]}`);
  const widened = `${base[3]} Also feel free to refactor anything nearby.`;
  const lost = (base[4] ?? "").replace(/\{[a-z_]+\}/, "the file");
  return JSON.stringify({ paraphrases: [...good, widened, lost] });
}
