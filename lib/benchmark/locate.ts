/**
 * Finds a DevEval target in its source file with tree-sitter and checks the recorded positions
 * against what is really there. A mismatch is reported, never papered over with a guess.
 */
import { listFunctionDefinitions, type FunctionDefinition } from "@/lib/analysis/python-definitions";
import type { Tree } from "web-tree-sitter";
import { formatTargetName } from "@/lib/analysis/target-name";
import { fileInRepo, qualifiedNameInModule, type DevEvalSample } from "./deveval";

export interface LocatedTarget {
  definition: FunctionDefinition;
  /** `Class.method`, or `Class.method#n` when it is not the first definition of that name (target-name.ts). */
  targetName: string;
  /** 1-based inclusive spans, as recorded (and checked). */
  signature: [number, number];
  body: [number, number];
}

export type LocateResult = { ok: true; target: LocatedTarget } | { ok: false; problem: string };

export function locateTarget(tree: Tree, sample: DevEvalSample): LocateResult {
  const name = qualifiedNameInModule(sample);
  const where = `${fileInRepo(sample)}`;
  const candidates = listFunctionDefinitions(tree).filter(
    (d) => d.qualifiedName === name || (sample.type === "method" && d.qualifiedName.endsWith(`.${name}`)),
  );
  if (candidates.length === 0) return { ok: false, problem: `no ${sample.type} "${name}" in ${where}` };
  const [sigStart, sigEnd] = sample.signature_position;
  const [bodyStart, bodyEnd] = sample.body_position;
  const definition = candidates.find((d) => d.startLine <= sigStart && sigStart <= d.defLine);
  if (!definition) {
    const lines = candidates.map((d) => d.defLine).join(", ");
    return { ok: false, problem: `"${name}" is not at line ${sigStart} of ${where} (found at line ${lines})` };
  }
  if (definition.inBlock) {
    return { ok: false, problem: `"${name}" in ${where} is defined inside a module-level conditional or block` };
  }
  const signatureProblem = signatureEndProblem(tree, definition, sigEnd);
  if (signatureProblem) return { ok: false, problem: `signature of "${name}" ${signatureProblem}` };
  if (bodyEnd !== definition.endLine) {
    return { ok: false, problem: `body of "${name}" ends at line ${definition.endLine}, recorded ${bodyEnd}` };
  }
  const expectedBodyStart = definition.bodyStartLine ?? definition.docstring?.startLine ?? definition.endLine;
  if (bodyStart !== expectedBodyStart) {
    return {
      ok: false,
      problem: `body of "${name}" starts at line ${expectedBodyStart}${definition.docstring ? " (after its docstring)" : ""}, recorded ${bodyStart}`,
    };
  }
  const targetName = formatTargetName(definition.qualifiedName, definition.occurrence);
  return { ok: true, target: { definition, targetName, signature: [sigStart, sigEnd], body: [bodyStart, bodyEnd] } };
}

/**
 * The recorded signature ends on the line of the colon that opens the body, or later over lines
 * that hold only comments or nothing (DevEval's README allows it: `def commit(self):` then
 * `# Commit is a no-op ...`), never on a line of the body's code or docstring.
 */
function signatureEndProblem(tree: Tree, definition: FunctionDefinition, recordedEnd: number): string | null {
  const colonLine = definition.signatureEndLine;
  const found = `ends at line ${colonLine}, recorded ${recordedEnd}`;
  if (recordedEnd === colonLine) return null;
  if (recordedEnd < colonLine) return found;
  const firstStatement = definition.docstring?.startLine ?? definition.bodyStartLine ?? definition.endLine;
  if (recordedEnd >= firstStatement) return `${found}, a line of its body`;
  const lines = tree.rootNode.text.split(/\r?\n/).slice(colonLine, recordedEnd);
  const code = lines.findIndex((line) => line.trim() !== "" && !line.trim().startsWith("#"));
  return code < 0 ? null : `${found}, over line ${colonLine + 1 + code}, which is code`;
}
