/**
 * Code generation (function, file and repository level) and system interaction (execution,
 * testing): one instance per usable DevEval sample of the right context.
 */
import { fileInRepo, qualifiedNameInModule, type DevEvalSample } from "../deveval";
import { contract, type InstanceDraft } from "../draft";
import type { LocatedTarget } from "../locate";
import type { GroundTruth } from "../schema";

export interface SampleInput {
  sample: DevEvalSample;
  context: "file" | "repository";
  /** Files of the cross-file dependencies that resolve in the repository. */
  dependencyFiles: string[];
  /** With source code: the located target and the file's text. */
  located: { target: LocatedTarget; source: string } | null;
}

/** The requirement as DevEval inserts it: the docstring of the emptied function. */
export function requirementDocstring(sample: DevEvalSample): string {
  const indent = " ".repeat(sample.indent);
  const escape = (s: string) => s.replace(/\\/g, "\\\\").replace(/"""/g, '\\"\\"\\"');
  const body = [sample.requirement.Functionality.trim(), "", ...sample.requirement.Arguments.trim().split("\n")]
    .map((line) => (line === "" ? "" : `${indent}${escape(line)}`))
    .join("\n");
  return `${indent}"""\n${body}\n${indent}"""`;
}

/** Lines as in the file (without their line ending). */
function lines(source: string): string[] {
  return source.split(/\r?\n/);
}

/** The target file with the docstring and body of the target removed and the requirement in their place. */
export function maskedSource(input: SampleInput): string {
  if (!input.located) throw new Error("maskedSource needs the source code");
  const all = lines(input.located.source);
  const [, sigEnd] = input.located.target.signature;
  const [, bodyEnd] = input.located.target.body;
  const eol = input.located.source.includes("\r\n") ? "\r\n" : "\n";
  return [...all.slice(0, sigEnd), ...requirementDocstring(input.sample).split("\n"), ...all.slice(bodyEnd)].join(eol);
}

/**
 * The signature is read from the target's first decorator (DevEval records it from the `def`
 * line) to the recorded end, so a decorated target's clean answer keeps its decorators.
 */
export function groundTruthOf(input: SampleInput): GroundTruth {
  const { sample, located } = input;
  const all = located ? lines(located.source) : [];
  const span = ([a, b]: [number, number]) => all.slice(a - 1, b).join("\n");
  const signature = located ? span([located.target.definition.startLine, located.target.signature[1]]) : null;
  return {
    originalFile: fileInRepo(sample),
    targetQualifiedName: located?.target.targetName ?? qualifiedNameInModule(sample),
    signature,
    docstring: requirementDocstring(sample),
    body: located ? span(located.target.body) : null,
    dependencies: {
      intraClass: sample.dependency.intra_class,
      intraFile: sample.dependency.intra_file,
      crossFile: sample.dependency.cross_file,
    },
    destinationFile: null,
    tests: sample.tests,
  };
}

/**
 * Prompts name the function as code does (`URL.path`), never `URL.path#2`; when that name has
 * several definitions in the file, this sentence says which one is meant: the setter or deleter
 * of a property, or the n-th definition, with its line.
 */
export function whichDefinitionNote(target: LocatedTarget, file: string): string | null {
  const { definition } = target;
  if (definition.occurrence === 1) return null;
  const name = `\`${definition.qualifiedName}\``;
  const role = definition.decorators
    .map((d) => /^@\s*([A-Za-z_][A-Za-z0-9_]*)\.(setter|deleter)\s*$/.exec(d.text))
    .find((m) => m !== null);
  const which = role ? `the ${role[2]} of property \`${role[1]}\`` : `definition ${definition.occurrence} of that name`;
  return `${name} is defined more than once in \`${file}\`: the one meant here is ${which}, at line ${definition.startLine}.`;
}

export function codeGenerationDrafts(input: SampleInput): InstanceDraft[] {
  const { sample } = input;
  const file = fileInRepo(sample);
  const placeholders = { function: qualifiedNameInModule(sample), file };
  const base = {
    projectPath: sample.project_path,
    key: sample.namespace,
    sourceSample: sample.namespace,
    placeholders,
    promptNote: input.located ? whichDefinitionNote(input.located.target, file) : null,
  };
  const groundTruth = groundTruthOf(input);
  const setup = input.located ? [{ path: file, content: Buffer.from(maskedSource(input)) }] : [];
  const mustRead = [file, ...input.dependencyFiles];
  const drafts: InstanceDraft[] = [];
  if (input.context === "file") {
    // Function level: the answer is the function itself; no file may change.
    drafts.push({ ...base, subtask: "codegen_function", contract: contract({ mustRead: [file] }), groundTruth, setup });
    drafts.push({
      ...base,
      subtask: "codegen_file",
      contract: contract({ mustRead: [file], mayChange: [file] }),
      groundTruth,
      setup,
    });
  } else {
    drafts.push({
      ...base,
      subtask: "codegen_repository",
      contract: contract({ mustRead, mayChange: [file] }),
      groundTruth,
      setup,
    });
    // Execution and testing run the intact repository: nothing may change, nothing be created.
    const intact = { ...groundTruth, docstring: null };
    drafts.push({ ...base, subtask: "execution", contract: contract({ mustRead }), groundTruth: intact, setup: [] });
    drafts.push({ ...base, subtask: "testing", contract: contract({ mustRead }), groundTruth: intact, setup: [] });
  }
  return drafts;
}
