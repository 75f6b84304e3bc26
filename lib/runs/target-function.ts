/**
 * Ground truth vs the agent for the target function of a code generation instance. The ground
 * truth is the instance's signature, the docstring the agent was given and the original body; the
 * agent's version is the function in its final answer (function level) or in the target file as
 * the run left it (file and repository level). Both are shown dedented, to diff cleanly.
 */
import { findFunction, outlinePython, type DefinitionOutline } from "@/lib/analysis/python-definitions";
import { expandTabs, leadingWhitespace, removeIndent } from "@/lib/analysis/python-strings";
import { answerDefinition } from "@/lib/analysis/snippet";
import { plainFunctionName } from "@/lib/analysis/target-name";
import type { GroundTruth } from "@/lib/benchmark/schema";

const CODE_GENERATION = new Set(["codegen_function", "codegen_file", "codegen_repository"]);

export interface TargetComparison {
  qualifiedName: string;
  file: string;
  groundTruth: string;
  /** The agent's function, or null with `problem` saying why there is none. */
  agent: string | null;
  /** answer: the final message; file: the target file after the run; unchanged_file: the run left it as set up. */
  source: "answer" | "file" | "unchanged_file";
  problem: string | null;
}

export interface TargetInput {
  subtask: string;
  groundTruth: GroundTruth;
  /** The target file after the run: its text, null when deleted, undefined when the run did not change it. */
  fileAfter: string | null | undefined;
  /** The target file as the task set it up, when known. */
  fileSetup: string | null;
  /** The agent's last assistant message. */
  finalAnswer: string | null;
}

/** Removes the smallest indentation of the non-blank lines from each line. */
export function dedentBlock(text: string): string {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const widths = lines.filter((l) => l.trim() !== "").map((l) => expandTabs(leadingWhitespace(l)).length);
  const common = widths.length === 0 ? 0 : Math.min(...widths);
  return lines
    .map((line) => removeIndent(line, common))
    .join("\n")
    .replace(/\n+$/, "");
}

/** The ground-truth function: signature, the given docstring when it is a string literal, body. */
export function groundTruthFunction(gt: GroundTruth): string {
  const docstring = gt.docstring && /^[rRuUbB]?("""|'''|"|')/.test(gt.docstring.trim()) ? gt.docstring : null;
  return dedentBlock([gt.signature, docstring, gt.body].filter((part): part is string => !!part).join("\n"));
}

/** A definition's lines in `text` (from its decorators when `withDecorators`), dedented. */
function definitionText(text: string, definition: DefinitionOutline, withDecorators: boolean): string {
  const start = withDecorators ? definition.startLine : definition.defLine;
  return dedentBlock(
    text
      .split("\n")
      .slice(start - 1, definition.endLine)
      .join("\n"),
  );
}

/** The target's lines in `source` (from its decorators when `withDecorators`), dedented; null when absent. */
export async function extractFunction(source: string, target: string, withDecorators: boolean): Promise<string | null> {
  const text = source.replace(/\r\n?/g, "\n");
  const definition = findFunction(await outlinePython(text), target);
  return definition ? definitionText(text, definition, withDecorators) : null;
}

export async function compareTarget(input: TargetInput): Promise<TargetComparison | null> {
  const gt = input.groundTruth;
  const target = gt.targetQualifiedName;
  const file = gt.originalFile;
  if (!CODE_GENERATION.has(input.subtask) || !target || !file || (!gt.signature && !gt.body)) return null;
  // Decorators belong to the comparison only when the recorded signature starts with them.
  const withDecorators = gt.signature?.trimStart().startsWith("@") ?? false;
  const base = { qualifiedName: target, file, groundTruth: groundTruthFunction(gt) };
  const name = plainFunctionName(target);

  if (input.subtask === "codegen_function") {
    const result = { ...base, source: "answer" as const };
    if (!input.finalAnswer?.trim()) return { ...result, agent: null, problem: "the agent gave no final answer" };
    const found = await answerDefinition(input.finalAnswer, target);
    if (found) return { ...result, agent: definitionText(found.code, found.definition, withDecorators), problem: null };
    return { ...result, agent: null, problem: `the final answer has no definition of \`${name}\`` };
  }

  if (input.fileAfter === null) return { ...base, source: "file", agent: null, problem: `the agent deleted ${file}` };
  const source = input.fileAfter === undefined ? "unchanged_file" : "file";
  const text = input.fileAfter ?? input.fileSetup;
  if (text === null) {
    return { ...base, source, agent: null, problem: `the task's version of ${file} is not available` };
  }
  const agent = await extractFunction(text, target, withDecorators);
  return agent === null
    ? { ...base, source, agent: null, problem: `\`${target}\` is not defined in ${file} after the run` }
    : { ...base, source, agent, problem: null };
}
