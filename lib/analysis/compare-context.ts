/**
 * The Context metric's comparison: everything in a file outside the target, element by element.
 * Removed or changed elements are violations; pure additions are reported separately, as
 * information. Elements are matched by identity (qualified name, import binding, assignment
 * target, statement text), so reordering alone is not a change.
 */
import { compareDocstring, compareFunctionText, functionSpan } from "./compare-body";
import { compareDecorators, compareInterfaces, short, type Finding } from "./compare-signature";
import type { Span } from "./line-diff";
import type { AstReport, ClassEntry, FunctionEntry, ImportEntry, StatementEntry, VariableEntry } from "./schema";

export interface ContextComparison {
  violations: Finding[];
  additions: Finding[];
}

/** `name` or `name#2`: the identity of a definition among same-named ones (property setters, overloads). */
export const definitionKey = (d: { qualifiedName: string; occurrence: number }) =>
  d.occurrence === 1 ? d.qualifiedName : `${d.qualifiedName}#${d.occurrence}`;

const spanOf = (s: { startLine: number; endLine: number }): Span => ({ startLine: s.startLine, endLine: s.endLine });
/** Imports, variables and statements give their first line as `line`. */
const linesOf = (s: { line: number; endLine: number }): Span => ({ startLine: s.line, endLine: s.endLine });

/** `excluded`: keys of the target (on each side) that Context does not judge. */
export function compareContext(
  before: AstReport,
  after: AstReport,
  excluded: { before: string | null; after: string | null },
): ContextComparison {
  const result: ContextComparison = { violations: [], additions: [] };
  const doc = compareDocstring(
    "module docstring",
    { value: before.moduleDocstring, span: before.moduleDocstringSpan },
    { value: after.moduleDocstring, span: after.moduleDocstringSpan },
    { before: null, after: null },
  );
  if (doc) (before.moduleDocstring === null ? result.additions : result.violations).push(doc);
  compareImports(before.imports, after.imports, result);
  const removedClasses = compareClasses(before.classes, after.classes, result);
  compareFunctions(before, after, excluded, removedClasses, result);
  compareVariables(before.variables, after.variables, (t) => `module variable \`${t}\``, result);
  compareStatements(before.otherStatements, after.otherStatements, "top-level statement", result);
  return result;
}

interface Binding {
  key: string;
  local: string;
  display: string;
  span: Span;
}

function bindingsOf(imports: readonly ImportEntry[]): Binding[] {
  return imports.flatMap((entry) =>
    entry.names.map((n) => {
      const named = n.alias ? `${n.name} as ${n.alias}` : n.name;
      const display = entry.kind === "import" ? named : `from ${entry.module} import ${named}`;
      const local = n.alias ?? (entry.kind === "import" ? (n.name.split(".")[0] ?? n.name) : n.name);
      return {
        key: `${entry.kind} ${display}`,
        local,
        display,
        span: linesOf(entry),
      };
    }),
  );
}

function compareImports(
  before: readonly ImportEntry[],
  after: readonly ImportEntry[],
  result: ContextComparison,
): void {
  const { removed, added } = multisetDifference(bindingsOf(before), bindingsOf(after), (b) => b.key);
  const unmatched = [...added];
  for (const gone of removed) {
    const i = unmatched.findIndex((b) => b.local === gone.local);
    const element = `import \`${gone.display}\``;
    if (i >= 0) {
      const [now] = unmatched.splice(i, 1);
      result.violations.push({
        element,
        message: `import \`${gone.display}\` changed to \`${now!.display}\``,
        before: gone.span,
        after: now!.span,
      });
    } else result.violations.push({ element, message: `${element} removed`, before: gone.span, after: null });
  }
  for (const now of unmatched) {
    const element = `import \`${now.display}\``;
    result.additions.push({ element, message: `${element} added`, before: null, after: now.span });
  }
}

/** Items of `before` missing from `after` and the reverse, counting duplicates, in source order. */
function multisetDifference<T>(before: readonly T[], after: readonly T[], key: (t: T) => string) {
  return { removed: missingFrom(after, before, key), added: missingFrom(before, after, key) };
}

/** Items of `items` left over once each item of `others` has cancelled one with the same key. */
function missingFrom<T>(others: readonly T[], items: readonly T[], key: (t: T) => string): T[] {
  const counts = new Map<string, number>();
  for (const other of others) counts.set(key(other), (counts.get(key(other)) ?? 0) + 1);
  const missing: T[] = [];
  for (const item of items) {
    const left = counts.get(key(item)) ?? 0;
    if (left > 0) counts.set(key(item), left - 1);
    else missing.push(item);
  }
  return missing;
}

/** Whether a definition sits in a class that is itself gone (reported once, as the class). */
function insideRemoved(qualifiedName: string, removedClasses: ReadonlySet<string>): boolean {
  const parts = qualifiedName.split(".");
  for (let i = 1; i < parts.length; i++) if (removedClasses.has(parts.slice(0, i).join("."))) return true;
  return false;
}

/** Returns the qualified names of the classes that are gone. */
function compareClasses(
  before: readonly ClassEntry[],
  after: readonly ClassEntry[],
  result: ContextComparison,
): Set<string> {
  const afterByKey = new Map(after.filter((c) => !c.inBlock).map((c) => [definitionKey(c), c]));
  const beforeKeys = new Set(before.filter((c) => !c.inBlock).map(definitionKey));
  const removedClassNames = new Set<string>();
  for (const old of before) {
    if (old.inBlock) continue;
    const now = afterByKey.get(definitionKey(old));
    const name = `\`${old.qualifiedName}\``;
    if (!now) {
      removedClassNames.add(old.qualifiedName);
      if (insideRemoved(old.qualifiedName, removedClassNames)) continue;
      result.violations.push({
        element: `class ${name}`,
        message: `class ${name} removed`,
        before: spanOf(old),
        after: null,
      });
      continue;
    }
    const header = (c: ClassEntry): Span => ({ startLine: c.startLine, endLine: c.defLine });
    const spans = { before: header(old), after: header(now) };
    if (old.bases.join(", ") !== now.bases.join(", ")) {
      result.violations.push({
        element: `bases of class ${name}`,
        message: `bases of class ${name} changed from \`(${short(old.bases.join(", "))})\` to \`(${short(now.bases.join(", "))})\``,
        ...spans,
      });
    }
    result.violations.push(...compareDecorators(old.decorators, now.decorators, `class ${name}`, spans));
    const doc = compareDocstring(
      `docstring of class ${name}`,
      { value: old.docstring, span: old.docstringSpan },
      { value: now.docstring, span: now.docstringSpan },
      spans,
    );
    if (doc) result.violations.push(doc);
    compareVariables(old.variables, now.variables, (t) => `attribute \`${old.qualifiedName}.${t}\``, result);
    compareStatements(old.statements, now.statements, `statement in class ${name}`, result);
  }
  for (const now of after) {
    if (now.inBlock || beforeKeys.has(definitionKey(now))) continue;
    const element = `class \`${now.qualifiedName}\``;
    result.additions.push({ element, message: `${element} added`, before: null, after: spanOf(now) });
  }
  return removedClassNames;
}

const describe = (fn: FunctionEntry) => `${fn.kind} \`${fn.qualifiedName}\``;

function compareFunctions(
  before: AstReport,
  after: AstReport,
  excluded: { before: string | null; after: string | null },
  removedClassNames: ReadonlySet<string>,
  result: ContextComparison,
): void {
  const judged = (fns: readonly FunctionEntry[], skip: string | null) =>
    fns.filter((f) => !f.inBlock && definitionKey(f) !== skip);
  const afterFns = judged(after.functions, excluded.after);
  const afterByKey = new Map(afterFns.map((f) => [definitionKey(f), f]));
  const beforeFns = judged(before.functions, excluded.before);
  const beforeKeys = new Set(beforeFns.map(definitionKey));
  for (const old of beforeFns) {
    const now = afterByKey.get(definitionKey(old));
    if (!now) {
      if (insideRemoved(old.qualifiedName, removedClassNames)) continue;
      result.violations.push({
        element: describe(old),
        message: `${describe(old)} removed`,
        before: functionSpan(old),
        after: null,
      });
      continue;
    }
    result.violations.push(...compareInterfaces(old, now, true));
    result.violations.push(...compareFunctionText(old, now));
  }
  for (const now of afterFns) {
    if (beforeKeys.has(definitionKey(now))) continue;
    result.additions.push({
      element: describe(now),
      message: `${describe(now)} added`,
      before: null,
      after: functionSpan(now),
    });
  }
}

function compareVariables(
  before: readonly VariableEntry[],
  after: readonly VariableEntry[],
  label: (target: string) => string,
  result: ContextComparison,
): void {
  const keyed = (vars: readonly VariableEntry[]) => {
    const seen = new Map<string, number>();
    return vars.map((v) => {
      const n = (seen.get(v.target) ?? 0) + 1;
      seen.set(v.target, n);
      return [n === 1 ? v.target : `${v.target}#${n}`, v] as const;
    });
  };
  const afterByKey = new Map(keyed(after));
  const beforeByKey = new Map(keyed(before));
  for (const [key, old] of beforeByKey) {
    const element = label(old.target);
    const now = afterByKey.get(key);
    if (!now) {
      result.violations.push({ element, message: `${element} removed`, before: linesOf(old), after: null });
      continue;
    }
    const spans = { before: linesOf(old), after: linesOf(now) };
    if (old.value !== now.value) {
      const was = old.value === null ? "(no value)" : `\`${short(old.value)}\``;
      const is = now.value === null ? "(no value)" : `\`${short(now.value)}\``;
      result.violations.push({ element, message: `${element} changed from ${was} to ${is}`, ...spans });
    }
    if (old.annotation !== now.annotation) {
      const was = old.annotation === null ? "(none)" : `\`${short(old.annotation)}\``;
      const is = now.annotation === null ? "(none)" : `\`${short(now.annotation)}\``;
      result.violations.push({ element, message: `annotation of ${element} changed from ${was} to ${is}`, ...spans });
    }
  }
  for (const [key, now] of afterByKey) {
    if (beforeByKey.has(key)) continue;
    const element = label(now.target);
    result.additions.push({ element, message: `${element} added`, before: null, after: linesOf(now) });
  }
}

function compareStatements(
  before: readonly StatementEntry[],
  after: readonly StatementEntry[],
  label: string,
  result: ContextComparison,
): void {
  const { removed, added } = multisetDifference(before, after, (s) => s.text);
  const unmatched = [...added];
  const headOf = (s: StatementEntry) => s.text.split("\n")[0] ?? "";
  for (const gone of removed) {
    const element = `${label} \`${short(headOf(gone))}\``;
    const i = unmatched.findIndex((s) => headOf(s) === headOf(gone));
    if (i >= 0) {
      const [now] = unmatched.splice(i, 1);
      result.violations.push({ element, message: `${element} changed`, before: linesOf(gone), after: linesOf(now!) });
    } else result.violations.push({ element, message: `${element} removed`, before: linesOf(gone), after: null });
  }
  for (const now of unmatched) {
    const element = `${label} \`${short(headOf(now))}\``;
    result.additions.push({ element, message: `${element} added`, before: null, after: linesOf(now) });
  }
}
