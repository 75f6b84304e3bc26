/**
 * What crosses the analysis boundary: the per-file AST report (stored as `reports/ast.json` under
 * `files[path]`, docs/run-bundle.md 3.7) and the code-level verdicts with their evidence.
 */
import { z } from "zod";

const Line = z.number().int().min(1);
const Span = { startLine: Line, endLine: Line };
/** One statement: its first and last line. */
const Lines = { line: Line, endLine: Line };

/** `line` 1-based; `column` 1-based, in characters of the line. */
export const PythonSyntaxErrorSchema = z.object({ line: Line, column: Line, message: z.string() }).strict();
export type PythonSyntaxError = z.infer<typeof PythonSyntaxErrorSchema>;

export const ImportEntrySchema = z
  .object({
    /** `import a.b as c` -> kind "import", module "a.b", names [{ name: "a.b", alias: "c" }]; one entry per module. */
    kind: z.enum(["import", "from"]),
    /** `from ..x import y` -> "..x"; `from . import y` -> ".". */
    module: z.string(),
    names: z.array(z.object({ name: z.string(), alias: z.string().nullable() }).strict()),
    ...Lines,
  })
  .strict();
export type ImportEntry = z.infer<typeof ImportEntrySchema>;

export const ParameterKindSchema = z.enum([
  "positional_only",
  "positional_or_keyword",
  "var_positional",
  "keyword_only",
  "var_keyword",
]);
export type ParameterKind = z.infer<typeof ParameterKindSchema>;

export const ParameterSchema = z
  .object({
    name: z.string(),
    kind: ParameterKindSchema,
    /** Normalized text (lib/analysis/normalize.ts), or null. */
    default: z.string().nullable(),
    annotation: z.string().nullable(),
    line: Line,
  })
  .strict();
export type Parameter = z.infer<typeof ParameterSchema>;

/** A top-level (or class-level) statement that is not a definition, import or assignment. */
export const StatementEntrySchema = z.object({ text: z.string(), ...Lines }).strict();
export type StatementEntry = z.infer<typeof StatementEntrySchema>;

export const VariableEntrySchema = z
  .object({
    /** Every name the statement binds, in order (`a, b = ...` -> ["a", "b"]). */
    names: z.array(z.string()),
    /** Normalized left-hand side(s): `LIMIT`, `a, b`, `a = b` (chained). */
    target: z.string(),
    annotation: z.string().nullable(),
    /** Normalized right-hand side; null for a bare annotation `x: int`. */
    value: z.string().nullable(),
    ...Lines,
  })
  .strict();
export type VariableEntry = z.infer<typeof VariableEntrySchema>;

const DefinitionBase = {
  qualifiedName: z.string(),
  name: z.string(),
  /** 1 for the first definition of a qualified name, 2 for the next (property setters, overloads). */
  occurrence: z.number().int().min(1),
  decorators: z.array(z.string()),
  /** The docstring's value (escapes processed, quotes removed), or null. */
  docstring: z.string().nullable(),
  docstringSpan: z.object(Span).strict().nullable(),
  /** Inside an if/try/with/for/while block of its module or class. */
  inBlock: z.boolean(),
  ...Span,
};

export const FunctionEntrySchema = z
  .object({
    ...DefinitionBase,
    kind: z.enum(["function", "method"]),
    isAsync: z.boolean(),
    parameters: z.array(ParameterSchema),
    returnAnnotation: z.string().nullable(),
    /** Normalized body without its docstring; "" when the docstring is the whole body. */
    normalizedBody: z.string(),
    /** sha256 (hex) of `normalizedBody`. */
    bodyHash: z.string(),
    /** The `def` line (`startLine` is the first decorator's). */
    defLine: Line,
  })
  .strict();
export type FunctionEntry = z.infer<typeof FunctionEntrySchema>;

export const ClassEntrySchema = z
  .object({
    ...DefinitionBase,
    /** The `class` line (`startLine` is the first decorator's). */
    defLine: Line,
    bases: z.array(z.string()),
    /** Class-level assignments (attributes). */
    variables: z.array(VariableEntrySchema),
    /** Other class-level statements (not methods, nested classes, the docstring or attributes). */
    statements: z.array(StatementEntrySchema),
  })
  .strict();
export type ClassEntry = z.infer<typeof ClassEntrySchema>;

export const AstReportSchema = z
  .object({
    version: z.literal(1),
    /** False when CPython would refuse the file: a syntax error, or bytes that are not UTF-8. */
    parses: z.boolean(),
    errors: z.array(PythonSyntaxErrorSchema),
    /**
     * Tree-sitter's errors in a file CPython compiles (its grammar lags CPython's): the structure
     * below was read from an incomplete tree. Absent when tree-sitter read the file whole.
     */
    structureErrors: z.array(PythonSyntaxErrorSchema).optional(),
    /** Byte offset of the first byte that is not UTF-8 (decoded as U+FFFD for the rest of the analysis). */
    encodingError: z
      .object({ offset: z.number().int().min(0) })
      .strict()
      .nullable(),
    hasBom: z.boolean(),
    lineCount: z.number().int().min(0),
    moduleDocstring: z.string().nullable(),
    moduleDocstringSpan: z.object(Span).strict().nullable(),
    imports: z.array(ImportEntrySchema),
    classes: z.array(ClassEntrySchema),
    functions: z.array(FunctionEntrySchema),
    variables: z.array(VariableEntrySchema),
    otherStatements: z.array(StatementEntrySchema),
  })
  .strict();
export type AstReport = z.infer<typeof AstReportSchema>;

export const VerdictSchema = z.enum(["violated", "not_violated", "not_applicable"]);
export type Verdict = z.infer<typeof VerdictSchema>;

export const CodeMetricSchema = z.enum(["syntax", "signature", "body_change", "context"]);
export type CodeMetric = z.infer<typeof CodeMetricSchema>;

export const EvidenceSchema = z
  .object({
    metric: CodeMetricSchema,
    /** What the evidence is about: "parameter `limit`", "import `os.path`", "function `helper`". */
    element: z.string(),
    /** One human sentence: "parameter `limit` renamed to `n`". */
    message: z.string(),
    /** 1-based line in the file `lineIn` names: the modified file, or the original when the element is gone. */
    line: Line,
    lineIn: z.enum(["modified", "original"]),
    /** A small unified-diff hunk of the relevant lines (original vs modified); "" when there is nothing to show. */
    hunk: z.string(),
  })
  .strict();
export type Evidence = z.infer<typeof EvidenceSchema>;

export const CodeLevelResultSchema = z
  .object({
    syntax: VerdictSchema,
    signature: VerdictSchema,
    bodyChange: VerdictSchema,
    context: VerdictSchema,
    evidence: z.array(EvidenceSchema),
    /** Pure additions outside the target (a new import, helper, variable): information, never a violation. */
    additions: z.array(EvidenceSchema),
    /** Why a metric is not applicable, where the file gave a reason (it does not compile, tree-sitter cannot read it). */
    reasons: z.partialRecord(CodeMetricSchema, z.string()).optional(),
  })
  .strict();
export type CodeLevelResult = z.infer<typeof CodeLevelResultSchema>;
