/**
 * The four code-level metrics of docs/metrics.md (Syntax, Signature, Body Change, Context)
 * for one file: the ground-truth original against the agent's version, with evidence per
 * difference and, separately, what the agent added outside the target.
 */
import { AppError } from "@/lib/errors/app-error";
import { analyzeDecoded, analyzeDecodedCached, analyzeEdit, decodePythonSource, decodePythonText } from "./ast-report";
import { compareDocstring, compareFunctionText, functionSpan } from "./compare-body";
import { compareContext, definitionKey } from "./compare-context";
import { compareInterfaces, headerSpan, type Finding } from "./compare-signature";
import { FileDiff } from "./line-diff";
import { parsePython } from "./python-parser";
import { ReportCache, reportCache } from "./report-cache";
import { docstringOf, statementsOf } from "./python-scope";
import { normalizeDocstring } from "./python-strings";
import type { AstReport, CodeLevelResult, CodeMetric, Evidence, FunctionEntry, Verdict } from "./schema";

export type CodeLevelMode = "codegen" | "move_source" | "move_destination";

export interface CodeLevelInput {
  /** The file as the task set it up (move_destination: the destination before the move; "" if new). */
  original: string;
  /** The agent's version of the file; null when it is gone (then nothing here can be judged). */
  modified: string | Buffer | null;
  /** Qualified name: `parse`, `Parser.feed`; `name#2` picks the second definition of that name. */
  target: string;
  mode: CodeLevelMode;
  /** codegen: the requirement docstring the user gave (a literal as in the file, or its text). */
  givenDocstring?: string | null;
  /** move_destination: the file the target was moved out of, as the task set it up (its definition is the reference). */
  moveSource?: string | null;
}

const NOT_APPLICABLE: Verdict = "not_applicable";
const verdictOf = (findings: readonly unknown[]): Verdict => (findings.length > 0 ? "violated" : "not_violated");

export interface CodeLevelOptions {
  /**
   * Reports of the original and the move source are kept here by content hash (every run of an
   * instance shares them), and the agent's version is looked up (an unchanged file is not read
   * twice). Default: the process's cache; null: every file analyzed afresh.
   */
  cache?: ReportCache | null;
}

export async function evaluateCodeLevel(
  input: CodeLevelInput,
  { cache = reportCache }: CodeLevelOptions = {},
): Promise<CodeLevelResult> {
  const empty = { evidence: [], additions: [] };
  if (input.modified === null) {
    const structure = structureNotApplicable("the file is gone");
    return {
      syntax: NOT_APPLICABLE,
      ...structure,
      reasons: { ...structure.reasons, syntax: "the file is gone" },
      ...empty,
    };
  }
  const originalSource = decodePythonText(input.original);
  const modifiedSource =
    typeof input.modified === "string" ? decodePythonText(input.modified) : decodePythonSource(input.modified);
  const moved = input.mode === "move_destination" && input.moveSource != null;
  const referenceSource = moved ? decodePythonText(input.moveSource!) : originalSource;
  const known = cache?.get(ReportCache.keyOf(modifiedSource));
  // The agent's version as an edit of the original (analyzeEdit), then the original: a cache hit.
  const analyzed = known ?? (cache ? analyzeEdit(modifiedSource, originalSource, cache) : null);
  const [modified, original, movedFrom] = await Promise.all([
    analyzed ?? analyzeDecoded(modifiedSource),
    Promise.resolve(analyzed).then(() => analyzeDecodedCached(originalSource, cache)),
    moved ? analyzeDecodedCached(referenceSource, cache) : null,
  ]);
  const reference = movedFrom ?? original;
  const diff = new FileDiff(originalSource.text, modifiedSource.text);
  const toEvidence = (metric: CodeMetric, differ: FileDiff) => (f: Finding) => evidenceOf(metric, f, differ);

  if (!modified.parses) {
    const first = modified.errors[0]!;
    return {
      syntax: "violated",
      ...structureNotApplicable(`the file does not compile (line ${first.line}: ${first.message})`),
      evidence: syntaxEvidence(modified, diff),
      additions: [],
    };
  }
  const unreadable = unreadableSide({ original, modified, "move source": movedFrom });
  if (unreadable) return { syntax: "not_violated", ...structureNotApplicable(unreadable), evidence: [], additions: [] };

  const evidence: Evidence[] = [];
  let signature: Verdict = NOT_APPLICABLE;
  let bodyChange: Verdict = NOT_APPLICABLE;
  if (input.mode !== "move_source") {
    const referenceDiff = moved ? new FileDiff(referenceSource.text, modifiedSource.text) : diff;
    const expected = findTarget(reference, input.target);
    if (!expected) {
      throw new AppError(
        "INVALID_INPUT",
        `target "${input.target}" is not defined in the ${moved ? "move source" : "original"} file`,
      );
    }
    const actual = findTarget(modified, input.target);
    if (!actual) {
      const finding = missingTarget(expected, original, modified);
      evidence.push(evidenceOf("signature", finding, referenceDiff));
      signature = "violated";
    } else {
      const interfaceFindings = compareInterfaces(expected, actual, false);
      evidence.push(...interfaceFindings.map(toEvidence("signature", referenceDiff)));
      signature = verdictOf(interfaceFindings);
      const bodyFindings =
        input.mode === "codegen"
          ? await requirementFindings(expected, actual, input.givenDocstring ?? null)
          : movedBodyFindings(expected, actual);
      if (bodyFindings) {
        evidence.push(...bodyFindings.map(toEvidence("body_change", referenceDiff)));
        bodyChange = verdictOf(bodyFindings);
      }
    }
  }

  const before = findTarget(original, input.target);
  const after = findTarget(modified, input.target);
  const context = compareContext(original, modified, {
    before: before ? definitionKey(before) : null,
    after: after ? definitionKey(after) : null,
  });
  evidence.push(...context.violations.map(toEvidence("context", diff)));
  return {
    syntax: "not_violated",
    signature,
    bodyChange,
    context: verdictOf(context.violations),
    evidence,
    additions: context.additions.map(toEvidence("context", diff)),
  };
}

/** Signature, Body Change and Context not applicable, for one reason. */
function structureNotApplicable(reason: string) {
  return {
    signature: NOT_APPLICABLE,
    bodyChange: NOT_APPLICABLE,
    context: NOT_APPLICABLE,
    reasons: { signature: reason, body_change: reason, context: reason },
  };
}

/**
 * Why the structure of a file cannot be compared, or null: CPython compiles it but tree-sitter's
 * grammar could not read all of it, so definitions or statements may be missing from its tree
 * (judging them would report changes that are not there).
 */
function unreadableSide(reports: Record<string, AstReport | null>): string | null {
  for (const [side, report] of Object.entries(reports)) {
    const first = report?.structureErrors?.[0];
    if (first) {
      return (
        `tree-sitter cannot read the structure of the ${side} file, which CPython compiles ` +
        `(line ${first.line}: ${first.message})`
      );
    }
  }
  return null;
}

/** Bytes that are not Python at all can yield hundreds of errors: the first few make the case. */
const MAX_SYNTAX_EVIDENCE = 50;

function syntaxEvidence(report: AstReport, diff: FileDiff): Evidence[] {
  const shown = report.errors.slice(0, MAX_SYNTAX_EVIDENCE).map((error): Evidence => {
    const element = `line ${error.line}, column ${error.column}`;
    return {
      metric: "syntax",
      element,
      message: `syntax error at ${element}: ${error.message}`,
      line: error.line,
      lineIn: "modified",
      hunk: diff.around(error.line),
    };
  });
  const rest = report.errors.length - shown.length;
  const next = report.errors[MAX_SYNTAX_EVIDENCE];
  if (next && rest > 0) {
    shown.push({
      metric: "syntax",
      element: "further syntax errors",
      message: `${rest} more syntax errors (all of them are in the AST report)`,
      line: next.line,
      lineIn: "modified",
      hunk: "",
    });
  }
  return shown;
}

function evidenceOf(metric: CodeMetric, finding: Finding, diff: FileDiff): Evidence {
  const where = finding.after ?? finding.before;
  return {
    metric,
    element: finding.element,
    message: finding.message,
    line: where?.startLine ?? 1,
    lineIn: finding.after || !finding.before ? "modified" : "original",
    hunk: diff.hunkFor(finding.before, finding.after),
  };
}

/**
 * The target's definition: `name` is the first definition of that qualified name that is not a
 * `@overload` stub (the implementation), `name#n` the n-th.
 */
export function findTarget(report: AstReport, target: string): FunctionEntry | null {
  const match = /^(.*)#(\d+)$/.exec(target);
  const name = match ? match[1]! : target;
  const candidates = report.functions.filter((f) => f.qualifiedName === name);
  if (match) return candidates.find((f) => f.occurrence === Number(match[2])) ?? null;
  const isStub = (f: FunctionEntry) => f.decorators.some((d) => /^@(typing\.)?overload$/.test(d));
  return candidates.find((f) => !isStub(f)) ?? candidates[0] ?? null;
}

/** "function `parse` not found", naming a likely rename: a new definition with the same docstring or parameters. */
function missingTarget(expected: FunctionEntry, original: AstReport, modified: AstReport): Finding {
  const scope = expected.qualifiedName.split(".").slice(0, -1).join(".");
  const existing = new Set(original.functions.map((f) => f.qualifiedName));
  const sameParameters = (f: FunctionEntry) =>
    f.parameters.map((p) => p.name).join(",") === expected.parameters.map((p) => p.name).join(",");
  const sameDocstring = (f: FunctionEntry) =>
    expected.docstring !== null &&
    f.docstring !== null &&
    normalizeDocstring(f.docstring) === normalizeDocstring(expected.docstring);
  const candidates = modified.functions.filter(
    (f) =>
      !existing.has(f.qualifiedName) &&
      f.qualifiedName.split(".").slice(0, -1).join(".") === scope &&
      (sameDocstring(f) || sameParameters(f)),
  );
  const renamed = candidates.length === 1 ? candidates[0]! : null;
  const name = `\`${expected.qualifiedName}\``;
  return {
    element: `${expected.kind} ${name}`,
    message: `${expected.kind} ${name} not found${renamed ? ` (renamed to \`${renamed.qualifiedName}\`?)` : ""}`,
    before: functionSpan(expected),
    after: renamed ? headerSpan(renamed) : null,
  };
}

/** Codegen: the requirement docstring the agent was given must still be the target's docstring. */
async function requirementFindings(
  expected: FunctionEntry,
  actual: FunctionEntry,
  given: string | null,
): Promise<Finding[] | null> {
  const requirement = given !== null ? await literalValue(given) : expected.docstring;
  if (requirement === null) return null;
  const finding = compareDocstring(
    `docstring of \`${expected.qualifiedName}\``,
    { value: requirement, span: expected.docstringSpan },
    { value: actual.docstring, span: actual.docstringSpan },
    { before: headerSpan(expected), after: headerSpan(actual) },
  );
  return finding ? [finding] : [];
}

/** Moves: the function must arrive verbatim (docstring and normalized body). */
function movedBodyFindings(expected: FunctionEntry, actual: FunctionEntry): Finding[] {
  return compareFunctionText(expected, actual);
}

/** A docstring given as a literal (`"""..."""`, indented as in the file) means its value; other text means itself. */
async function literalValue(given: string): Promise<string> {
  const trimmed = given.trim();
  if (!/^[rRuU]?("""|'''|"|')/.test(trimmed)) return given;
  const tree = await parsePython(trimmed);
  try {
    const statements = statementsOf(tree.rootNode);
    const doc = statements.length === 1 ? docstringOf(statements) : null;
    return doc && !tree.rootNode.hasError ? doc.value : given;
  } finally {
    tree.delete();
  }
}
