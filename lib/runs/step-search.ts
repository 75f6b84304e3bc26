/**
 * Searching and summarizing trajectory steps for the trajectory viewer: one lower-cased text per
 * step to match against, the matching steps, and a text cut into matching and non-matching pieces.
 */

export interface SearchableStep {
  stepId: string;
  kind: string;
  role: string | null;
  text: string | null;
  toolName: string | null;
  toolArguments: string | null;
  command: string | null;
  exitCode: number | null;
  path: string | null;
}

/** Everything a search may hit in one step, lower-cased once. */
export function stepHaystack(step: SearchableStep): string {
  return [step.stepId, step.kind, step.role, step.toolName, step.command, step.path, step.toolArguments, step.text]
    .filter((part): part is string => typeof part === "string" && part !== "")
    .join("\n")
    .toLowerCase();
}

/** The search as typed, ready to match: null when there is nothing to look for. */
export function normalizeQuery(query: string): string | null {
  const q = query.trim().toLowerCase();
  return q === "" ? null : q;
}

/** Positions (in step order) whose haystack contains the query; every position for no query. */
export function matchingPositions(haystacks: readonly string[], query: string): number[] {
  const q = normalizeQuery(query);
  const found: number[] = [];
  haystacks.forEach((h, i) => {
    if (q === null || h.includes(q)) found.push(i);
  });
  return found;
}

export interface Segment {
  text: string;
  match: boolean;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `text` cut into pieces, the ones equal to the query (any case) marked. */
export function highlightSegments(text: string, query: string): Segment[] {
  const q = query.trim();
  if (q === "" || text === "") return text === "" ? [] : [{ text, match: false }];
  const segments: Segment[] = [];
  let last = 0;
  for (const m of text.matchAll(new RegExp(escape(q), "gi"))) {
    const at = m.index;
    if (at > last) segments.push({ text: text.slice(last, at), match: false });
    segments.push({ text: m[0], match: true });
    last = at + m[0].length;
  }
  if (last < text.length) segments.push({ text: text.slice(last), match: false });
  return segments;
}

/**
 * Where the query occurs in a step, one line of context around it, for a collapsed step whose
 * summary does not show the match (a shell step matching in its output). Null when nothing matches.
 */
export function matchSnippet(step: SearchableStep, query: string, radius = 50): string | null {
  const q = normalizeQuery(query);
  if (q === null) return null;
  for (const field of [step.text, step.toolArguments, step.command, step.path]) {
    if (!field) continue;
    const at = field.toLowerCase().indexOf(q);
    if (at < 0) continue;
    const start = Math.max(0, at - radius);
    const end = Math.min(field.length, at + q.length + radius);
    const piece = field.slice(start, end).replace(/\s+/g, " ");
    return `${start > 0 ? "…" : ""}${piece}${end < field.length ? "…" : ""}`;
  }
  return null;
}

const oneLine = (s: string, max: number) => {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** The one line a collapsed step shows. */
export function stepSummary(step: SearchableStep, max = 160): string {
  switch (step.kind) {
    case "message":
      return oneLine(`${step.role ?? "message"}: ${step.text ?? ""}`, max);
    case "tool_call":
      return oneLine(`${step.toolName ?? "tool"}(${step.toolArguments ?? ""})`, max);
    case "observation":
      return oneLine(`→ ${step.text ?? ""}`, max);
    case "shell":
      return oneLine(`$ ${step.command ?? ""}`, max);
    case "file_read":
    case "file_write":
    case "file_delete":
      return oneLine(`${step.kind.slice(5)} ${step.path ?? ""}`, max);
    default:
      return oneLine(step.text ?? step.kind, max);
  }
}
