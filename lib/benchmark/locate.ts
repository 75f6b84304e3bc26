/**
 * Finds a DevEval target in its source file with tree-sitter and checks the recorded positions
 * against what is really there. A mismatch is reported, never papered over with a guess.
 */
import { listFunctionDefinitions, type FunctionDefinition } from "@/lib/analysis/python-definitions";
import type { Tree } from "web-tree-sitter";
import { fileInRepo, qualifiedNameInModule, type DevEvalSample } from "./deveval";

export interface LocatedTarget {
  definition: FunctionDefinition;
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
  if (sigEnd !== definition.signatureEndLine) {
    return {
      ok: false,
      problem: `signature of "${name}" ends at line ${definition.signatureEndLine}, recorded ${sigEnd}`,
    };
  }
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
  return { ok: true, target: { definition, signature: [sigStart, sigEnd], body: [bodyStart, bodyEnd] } };
}
