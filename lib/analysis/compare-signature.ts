/**
 * Differences between two versions of a function's public interface: parameters (names, order,
 * kinds, defaults, annotations: all of them, annotated or not), return annotation, `async`,
 * decorators. One finding per difference.
 */
import type { Span } from "./line-diff";
import type { FunctionEntry, Parameter } from "./schema";

export interface Finding {
  element: string;
  message: string;
  /** Lines in the first (original/reference) file, if the element is there. */
  before: Span | null;
  /** Lines in the second (modified) file, if the element is there. */
  after: Span | null;
}

/** A short one-line rendering of code for a message. */
export function short(text: string, max = 60): string {
  const first = text.split("\n")[0] ?? "";
  const clipped = first.length > max ? `${first.slice(0, max - 1)}…` : first;
  return first === text ? clipped : `${clipped.replace(/…$/, "")} …`;
}

const KIND_LABEL: Record<Parameter["kind"], string> = {
  positional_only: "positional-only",
  positional_or_keyword: "positional-or-keyword",
  var_positional: "variadic positional (*)",
  keyword_only: "keyword-only",
  var_keyword: "variadic keyword (**)",
};

export function headerSpan(fn: FunctionEntry): Span {
  const lastParameter = fn.parameters.at(-1)?.line ?? fn.defLine;
  return { startLine: fn.startLine, endLine: Math.max(fn.defLine, lastParameter) };
}

const lineSpan = (line: number): Span => ({ startLine: line, endLine: line });

/**
 * `qualify`: name the function in every message (for functions other than the target, which the
 * Context metric reports).
 */
export function compareInterfaces(before: FunctionEntry, after: FunctionEntry, qualify: boolean): Finding[] {
  const findings: Finding[] = [];
  const fn = `\`${before.qualifiedName}\``;
  const of = qualify ? ` of ${fn}` : "";
  const param = (name: string) => `parameter \`${name}\`${of}`;
  const headers = { before: headerSpan(before), after: headerSpan(after) };
  const at = (p: Parameter | null, q: Parameter | null) => ({
    before: p ? lineSpan(p.line) : headers.before,
    after: q ? lineSpan(q.line) : headers.after,
  });

  // Match parameters by name; what is left on both sides pairs up in order as renames.
  const afterByName = new Map(after.parameters.map((q, i) => [q.name, i]));
  const beforeNames = new Set(before.parameters.map((p) => p.name));
  const removed = before.parameters.filter((p) => !afterByName.has(p.name));
  const added = after.parameters.filter((q) => !beforeNames.has(q.name));
  const pairs: [Parameter, Parameter][] = [];
  for (const p of before.parameters) {
    const j = afterByName.get(p.name);
    if (j !== undefined) pairs.push([p, after.parameters[j]!]);
  }
  removed.forEach((p, i) => {
    const q = added[i];
    if (q) {
      findings.push({ element: param(p.name), message: `${param(p.name)} renamed to \`${q.name}\``, ...at(p, q) });
      pairs.push([p, q]);
    } else findings.push({ element: param(p.name), message: `${param(p.name)} removed`, ...at(p, null) });
  });
  for (const q of added.slice(removed.length)) {
    findings.push({ element: param(q.name), message: `${param(q.name)} added`, ...at(null, q) });
  }

  const indexBefore = (p: Parameter) => before.parameters.indexOf(p);
  const indexAfter = (q: Parameter) => after.parameters.indexOf(q);
  const ordered = [...pairs].sort((x, y) => indexBefore(x[0]) - indexBefore(y[0]));
  const afterOrder = ordered.map(([, q]) => indexAfter(q));
  if (afterOrder.some((v, i) => i > 0 && v < afterOrder[i - 1]!)) {
    const names = (list: readonly Parameter[]) => list.map((p) => p.name).join(", ");
    const matchedAfter = after.parameters.filter((q) => pairs.some(([, r]) => r === q));
    findings.push({
      element: `parameters${of}`,
      message: `parameters${of} reordered: (${names(ordered.map(([p]) => p))}) → (${names(matchedAfter)})`,
      ...headers,
    });
  }

  for (const [p, q] of ordered) {
    const spans = at(p, q);
    const name = `\`${q.name}\``;
    if (p.kind !== q.kind) {
      findings.push({
        element: param(q.name),
        message: `${param(q.name)} changed from ${KIND_LABEL[p.kind]} to ${KIND_LABEL[q.kind]}`,
        ...spans,
      });
    }
    findings.push(...changeOf("default", `${name}${of}`, param(q.name), p.default, q.default, spans));
    findings.push(...changeOf("annotation", `${name}${of}`, param(q.name), p.annotation, q.annotation, spans));
  }

  findings.push(
    ...changeOf(
      "return annotation",
      fn,
      `return annotation of ${fn}`,
      before.returnAnnotation,
      after.returnAnnotation,
      headers,
    ),
  );
  if (before.isAsync !== after.isAsync) {
    findings.push({
      element: `\`async\` of ${fn}`,
      message: before.isAsync ? `\`async\` removed from ${fn}` : `\`async\` added to ${fn}`,
      ...headers,
    });
  }
  findings.push(...compareDecorators(before.decorators, after.decorators, fn, headers));
  return findings;
}

/** "default of `x` changed from `1` to `2`", "default `1` of `x` removed", "default `1` added to `x`". */
function changeOf(
  what: string,
  owner: string,
  element: string,
  was: string | null,
  now: string | null,
  spans: { before: Span; after: Span },
): Finding[] {
  if (was === now) return [];
  let message: string;
  if (was === null) message = `${what} \`${short(now ?? "")}\` added to ${owner}`;
  else if (now === null) message = `${what} \`${short(was)}\` of ${owner} removed`;
  else message = `${what} of ${owner} changed from \`${short(was)}\` to \`${short(now)}\``;
  return [{ element, message, ...spans }];
}

export function compareDecorators(
  before: readonly string[],
  after: readonly string[],
  fn: string,
  spans: { before: Span; after: Span },
): Finding[] {
  const findings: Finding[] = [];
  const remaining = [...after];
  for (const decorator of before) {
    const i = remaining.indexOf(decorator);
    if (i >= 0) remaining.splice(i, 1);
    else {
      findings.push({
        element: `decorator \`${short(decorator)}\``,
        message: `decorator \`${short(decorator)}\` removed from ${fn}`,
        ...spans,
      });
    }
  }
  for (const decorator of remaining) {
    findings.push({
      element: `decorator \`${short(decorator)}\``,
      message: `decorator \`${short(decorator)}\` added to ${fn}`,
      ...spans,
    });
  }
  const common = before.filter((d) => after.includes(d));
  const commonAfter = after.filter((d) => before.includes(d));
  if (findings.length === 0 && common.join("\n") !== commonAfter.join("\n")) {
    findings.push({ element: `decorators of ${fn}`, message: `decorators of ${fn} reordered`, ...spans });
  }
  return findings;
}
