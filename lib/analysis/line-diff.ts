/**
 * Line diffs for evidence: Myers' O(ND) algorithm over the lines two files do not share at their
 * ends, grouped into unified-diff hunks, of which an evidence item shows the ones touching its lines.
 */

export interface DiffOp {
  kind: "equal" | "delete" | "insert";
  /** 0-based line in the first file (for an insert: the line it is inserted before). */
  a: number;
  /** 0-based line in the second file (for a delete: the line it would be before). */
  b: number;
}

/** Beyond this many differences the middle is shown as replaced wholesale (bounded memory: D^2). */
const MAX_EDIT_DISTANCE = 1000;

export function diffLines(a: readonly string[], b: readonly string[]): DiffOp[] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  )
    suffix++;
  const ops: DiffOp[] = [];
  for (let i = 0; i < prefix; i++) ops.push({ kind: "equal", a: i, b: i });
  const middle = myers(a.slice(prefix, a.length - suffix), b.slice(prefix, b.length - suffix));
  for (const op of middle) ops.push({ kind: op.kind, a: op.a + prefix, b: op.b + prefix });
  for (let i = suffix; i > 0; i--) ops.push({ kind: "equal", a: a.length - i, b: b.length - i });
  return ops;
}

function myers(a: readonly string[], b: readonly string[]): DiffOp[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  if (max === 0) return [];
  const v = new Map<number, number>([[1, 0]]);
  const trace: Map<number, number>[] = [];
  let found = false;
  for (let d = 0; d <= Math.min(max, MAX_EDIT_DISTANCE) && !found; d++) {
    trace.push(new Map(v));
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v.get(k - 1) ?? -1) < (v.get(k + 1) ?? -1));
      let x = down ? (v.get(k + 1) ?? 0) : (v.get(k - 1) ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v.set(k, x);
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  if (!found) return replaceAll(n, m);
  const ops: DiffOp[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && (vd.get(k - 1) ?? -1) < (vd.get(k + 1) ?? -1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = vd.get(prevK) ?? 0;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      ops.push({ kind: "equal", a: x, b: y });
    }
    if (d > 0) {
      if (down) ops.push({ kind: "insert", a: x, b: prevY });
      else ops.push({ kind: "delete", a: prevX, b: y });
    }
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

function replaceAll(n: number, m: number): DiffOp[] {
  const ops: DiffOp[] = [];
  for (let i = 0; i < n; i++) ops.push({ kind: "delete", a: i, b: 0 });
  for (let j = 0; j < m; j++) ops.push({ kind: "insert", a: n, b: j });
  return ops;
}

export interface Hunk {
  ops: DiffOp[];
}

export interface Span {
  startLine: number;
  endLine: number;
}

export function renderHunks(hunks: readonly Hunk[], a: readonly string[], b: readonly string[], maxLines = 40): string {
  const out: string[] = [];
  let budget = maxLines;
  for (const hunk of hunks) {
    if (budget <= 1) break;
    const ops = hunk.ops.slice(0, budget - 1);
    out.push(header(ops), ...ops.map((op) => line(op, a, b)));
    budget -= ops.length + 1;
  }
  return out.join("\n");
}

function header(ops: readonly DiffOp[]): string {
  const first = ops[0];
  if (!first) return "@@ -0,0 +0,0 @@";
  const aLen = ops.filter((op) => op.kind !== "insert").length;
  const bLen = ops.filter((op) => op.kind !== "delete").length;
  // Unified diff: an empty side names the line before the change.
  const aStart = aLen === 0 ? first.a : first.a + 1;
  const bStart = bLen === 0 ? first.b : first.b + 1;
  return `@@ -${aStart},${aLen} +${bStart},${bLen} @@`;
}

function line(op: DiffOp, a: readonly string[], b: readonly string[]): string {
  if (op.kind === "delete") return `-${a[op.a] ?? ""}`;
  if (op.kind === "insert") return `+${b[op.b] ?? ""}`;
  return ` ${a[op.a] ?? ""}`;
}

const CONTEXT = 2;
const MAX_HUNK_LINES = 40;

/** The diff of two files, from which each evidence item cites the few lines about its element. */
export class FileDiff {
  private readonly a: string[];
  private readonly b: string[];
  private cached: DiffOp[] | null = null;

  constructor(before: string, after: string) {
    this.a = splitLines(before);
    this.b = splitLines(after);
  }

  private get ops(): DiffOp[] {
    this.cached ??= diffLines(this.a, this.b);
    return this.cached;
  }

  /**
   * The element's lines (`before` in the first file, `after` in the second, 1-based) as one
   * hunk: narrowed to the changed lines among them, with two lines of context.
   */
  hunkFor(before: Span | null, after: Span | null): string {
    const within = (line: number, span: Span | null) =>
      span !== null && line + 1 >= span.startLine && line + 1 <= span.endLine;
    const ops = this.ops;
    const inElement = (op: DiffOp) =>
      (op.kind !== "insert" && within(op.a, before)) || (op.kind !== "delete" && within(op.b, after));
    let lo = ops.findIndex(inElement);
    if (lo < 0) return this.spanHunk(before, after);
    let hi = ops.findLastIndex(inElement);
    const firstChange = ops.findIndex((op, i) => i >= lo && i <= hi && op.kind !== "equal");
    if (firstChange >= 0) {
      const lastChange = ops.findLastIndex((op, i) => i >= lo && i <= hi && op.kind !== "equal");
      lo = firstChange;
      hi = lastChange;
      // Whole blocks of changed lines: a `+` line is not shown without the `-` lines it replaces.
      while (lo > 0 && ops[lo - 1]!.kind !== "equal") lo--;
      while (hi < ops.length - 1 && ops[hi + 1]!.kind !== "equal") hi++;
      if (hi - lo + 1 + 2 * CONTEXT > MAX_HUNK_LINES) return this.spanHunk(before, after);
    }
    return this.window(lo, hi);
  }

  /** The hunk around line `line` of the second file. */
  around(line: number): string {
    const at = this.ops.findIndex((op) => op.kind !== "delete" && op.b === line - 1);
    return at < 0 ? "" : this.window(at, at);
  }

  /** Ops lo..hi with up to two unchanged lines either side (not a piece of a neighbouring change). */
  private window(lo: number, hi: number): string {
    const ops = this.ops;
    let from = lo;
    let to = hi;
    for (let k = 0; k < CONTEXT && from > 0 && ops[from - 1]!.kind === "equal"; k++) from--;
    for (let k = 0; k < CONTEXT && to < ops.length - 1 && ops[to + 1]!.kind === "equal"; k++) to++;
    to = Math.min(to, from + MAX_HUNK_LINES - 1);
    return renderHunks([{ ops: ops.slice(from, to + 1) }], this.a, this.b, MAX_HUNK_LINES + 1);
  }

  /** Fallback: the two spans diffed against each other (the element moved, or its lines are not in the diff). */
  spanHunk(before: Span | null, after: Span | null): string {
    const slice = (lines: string[], span: Span | null) => (span ? lines.slice(span.startLine - 1, span.endLine) : []);
    const aPart = slice(this.a, before);
    const bPart = slice(this.b, after);
    if (aPart.length === 0 && bPart.length === 0) return "";
    const aOffset = before ? before.startLine - 1 : 0;
    const bOffset = after ? after.startLine - 1 : 0;
    const ops = diffLines(aPart, bPart).map((op) => ({ ...op, a: op.a + aOffset, b: op.b + bOffset }));
    return renderHunks([{ ops }], this.a, this.b, MAX_HUNK_LINES + 1);
  }
}

export function splitLines(text: string): string[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  return lines;
}
