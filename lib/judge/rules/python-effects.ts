/**
 * What a piece of Python does to files, as far as its text tells: `open()` (and `io.open`,
 * `codecs.open`) with its mode, pathlib's `read_text` / `write_text` / `unlink` / `open`, `shutil`
 * copies and moves, `os.remove` / `os.rename`, the framework's file tools called as functions
 * (smolagents' `read_file("x.py")`, from lib/tool-registry), and the shell commands it runs
 * (`subprocess.run`, `os.system`). Paths are evaluated from string literals, `+`, `/` (pathlib),
 * `os.path.join`, `Path(...)` and simple variables (`p = Path("pkg") / "a.py"`); anything else
 * (f-strings with fields, function results) is unknown and not guessed. Used by file-actions.ts.
 */
import { fileActionOf, pythonFunctionEffect, pythonFunctionNames } from "@/lib/tool-registry";
import { argvCommand } from "./shell-parse";
type PyValue = string | string[] | null;

const STRING_AT = /^(?:[rRbBuU]{0,2})(?:'''([\s\S]*?)'''|"""([\s\S]*?)"""|'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)")/;

/** A tiny evaluator of path expressions: literals, `+`, `/` (pathlib), os.path.join, Path(), lists, variables. */
class PythonPaths {
  private readonly vars = new Map<string, PyValue>();

  constructor(private readonly code: string) {
    for (const match of code.matchAll(/^[ \t]*([A-Za-z_]\w*)[ \t]*=(?!=)[ \t]*/gm)) {
      const { value } = this.expression(match.index + match[0].length);
      this.vars.set(match[1]!, value);
    }
  }

  variable(name: string): PyValue {
    return this.vars.get(name) ?? null;
  }

  private skipSpaces(at: number): number {
    while (at < this.code.length && /[ \t]/.test(this.code[at]!)) at++;
    return at;
  }

  /** The expression starting at `at`: its value (null when not a known path) and where it ends. */
  expression(at: number): { value: PyValue; end: number } {
    let { value, end } = this.atom(this.skipSpaces(at));
    for (;;) {
      const next = this.skipSpaces(end);
      const op = this.code[next];
      if (op !== "/" && op !== "+") return { value, end };
      const right = this.atom(this.skipSpaces(next + 1));
      value =
        typeof value === "string" && typeof right.value === "string"
          ? op === "/"
            ? `${value.replace(/\/$/, "")}/${right.value}`
            : value + right.value
          : null;
      end = right.end;
    }
  }

  /** Comma-separated expressions up to the closing bracket; keyword arguments by name. */
  arguments(at: number, close = ")"): { positional: PyValue[]; named: Map<string, PyValue>; end: number } {
    const positional: PyValue[] = [];
    const named = new Map<string, PyValue>();
    let i = this.skipSpaces(at);
    while (i < this.code.length && this.code[i] !== close) {
      const keyword = /^([A-Za-z_]\w*)\s*=(?!=)/.exec(this.code.slice(i, i + 60));
      const start = keyword ? i + keyword[0].length : i;
      const { value, end } = this.expression(start);
      if (keyword) named.set(keyword[1]!, value);
      else positional.push(value);
      i = this.skipBalanced(end, close);
      if (this.code[i] === ",") i = this.skipSpaces(i + 1);
    }
    return { positional, named, end: i + 1 };
  }

  /** Skips what remains of an argument (calls, attributes) up to the next `,` or the closing bracket. */
  private skipBalanced(at: number, close: string): number {
    let depth = 0;
    let i = at;
    for (; i < this.code.length; i++) {
      const c = this.code[i]!;
      const string = c === "'" || c === '"' ? STRING_AT.exec(this.code.slice(i, i + 4000)) : null;
      if (string) i += string[0].length - 1;
      else if ("([{".includes(c)) depth++;
      else if (")]}".includes(c)) {
        if (depth === 0 && c === close) return i;
        depth--;
      } else if (c === "," && depth === 0) return i;
    }
    return i;
  }

  private atom(at: number): { value: PyValue; end: number } {
    const rest = this.code.slice(at, at + 4000);
    const string = STRING_AT.exec(rest);
    if (string) {
      const prefix = /^[a-zA-Z]*/.exec(rest)![0];
      const text = string[1] ?? string[2] ?? string[3] ?? string[4] ?? "";
      const formatted = /f/i.test(prefix) && text.includes("{");
      return { value: formatted ? null : text, end: at + string[0].length };
    }
    const join = /^(?:os\.path\.join|posixpath\.join|path\.join)\s*\(/.exec(rest);
    if (join) {
      const args = this.arguments(at + join[0].length);
      const parts = args.positional;
      const value = parts.every((p): p is string => typeof p === "string")
        ? parts.join("/").replace(/\/+/g, "/")
        : null;
      return { value, end: args.end };
    }
    const pathCall = /^(?:pathlib\.)?(?:Pure)?(?:Posix)?Path\s*\(/.exec(rest);
    if (pathCall) {
      const args = this.arguments(at + pathCall[0].length);
      const parts = args.positional;
      const value =
        parts.length === 0 ? "." : parts.every((p): p is string => typeof p === "string") ? parts.join("/") : null;
      return { value, end: args.end };
    }
    if (rest.startsWith("[") || rest.startsWith("(")) {
      const args = this.arguments(at + 1, rest[0] === "[" ? "]" : ")");
      const items = args.positional;
      if (rest[0] === "(" && items.length === 1) return { value: items[0] ?? null, end: args.end };
      const value = items.every((p): p is string => typeof p === "string") ? items : null;
      return { value, end: args.end };
    }
    const name = /^[A-Za-z_]\w*/.exec(rest);
    if (name) {
      // `p` is the path p holds; `p.read_text()` or `f(p)` is something else.
      const used = /^\s*[.([]/.test(rest.slice(name[0].length));
      return { value: used ? null : this.variable(name[0]), end: at + name[0].length };
    }
    return { value: null, end: at + 1 };
  }
}

/** How much of one piece of Python is looked at (an agent's scripts are far shorter). */
export const MAX_CODE_CHARS = 200_000;

export interface PythonFileUse {
  path: string;
  kind: "read" | "write" | "delete";
}

const PYTHON_CALLS: { pattern: RegExp; uses: (args: ReturnType<PythonPaths["arguments"]>) => PythonFileUse[] }[] = [
  {
    pattern: /\b(?:io\.|codecs\.)?open\s*\(/g,
    uses: ({ positional, named }) => {
      const file = positional[0] ?? named.get("file") ?? null;
      const mode = positional[1] ?? named.get("mode") ?? "r";
      if (typeof file !== "string") return [];
      return [{ path: file, kind: typeof mode === "string" && /[wax+]/.test(mode) ? "write" : "read" }];
    },
  },
  {
    pattern: /\bshutil\.(?:copy|copy2|copyfile|move)\s*\(/g,
    uses: ({ positional }) => (typeof positional[1] === "string" ? [{ path: positional[1], kind: "write" }] : []),
  },
  {
    pattern: /\bos\.(?:remove|unlink)\s*\(/g,
    uses: ({ positional }) => (typeof positional[0] === "string" ? [{ path: positional[0], kind: "delete" }] : []),
  },
  {
    pattern: /\bos\.(?:rename|replace)\s*\(/g,
    uses: ({ positional: [from, to] }) => [
      ...(typeof from === "string" ? [{ path: from, kind: "delete" as const }] : []),
      ...(typeof to === "string" ? [{ path: to, kind: "write" as const }] : []),
    ],
  },
];

const PATHLIB_METHODS: Record<string, PythonFileUse["kind"]> = {
  read_text: "read",
  read_bytes: "read",
  write_text: "write",
  write_bytes: "write",
  unlink: "delete",
  open: "read",
};

/** Files a piece of Python reads, writes or deletes, and the shell commands it runs (subprocess, os.system). */
export function pythonEffects(
  code: string,
  framework: string | null = null,
): { files: PythonFileUse[]; commands: string[] } {
  // Bounded work per step: a code action longer than this is read up to here.
  code = code.slice(0, MAX_CODE_CHARS);
  const paths = new PythonPaths(code);
  const found: { at: number; use: PythonFileUse }[] = [];
  for (const { pattern, uses } of PYTHON_CALLS) {
    for (const match of code.matchAll(pattern)) {
      if (/\.\s*$/.test(code.slice(Math.max(0, match.index - 1), match.index)) && !match[0].includes(".")) continue;
      for (const u of uses(paths.arguments(match.index + match[0].length))) found.push({ at: match.index, use: u });
    }
  }
  // pathlib: Path(...).read_text(), p.read_text() where p = Path(...).
  for (const match of code.matchAll(/\.(read_text|read_bytes|write_text|write_bytes|unlink|open)\s*\(/g)) {
    const before = code.slice(0, match.index);
    const receiver =
      /((?:pathlib\.)?Path\s*\((?:[^()]|\([^()]*\))*\)(?:\s*\/\s*(?:'[^']*'|"[^"]*"))*|[A-Za-z_]\w*)$/.exec(before);
    if (!receiver) continue;
    const value = /^[A-Za-z_]\w*$/.test(receiver[0])
      ? paths.variable(receiver[0])
      : paths.expression(match.index - receiver[0].length).value;
    if (typeof value !== "string") continue;
    let kind = PATHLIB_METHODS[match[1]!]!;
    if (match[1] === "open") {
      const mode = paths.arguments(match.index + match[0].length).positional[0];
      if (typeof mode === "string" && /[wax+]/.test(mode)) kind = "write";
    }
    found.push({ at: match.index, use: { path: value, kind } });
  }
  // The framework's file tools called as Python functions (smolagents' read_file(...)).
  for (const name of pythonFunctionNames(framework)) {
    const description = pythonFunctionEffect(framework, name);
    const kind = description ? fileActionOf(description.effect) : null;
    if (!description || !kind) continue;
    for (const match of code.matchAll(new RegExp(`(?<![\\w.])${name}\\s*\\(`, "g"))) {
      const args = paths.arguments(match.index + match[0].length);
      const named = description.pathArgs.map((k) => args.named.get(k)).find((v) => typeof v === "string");
      const value = named ?? args.positional[0];
      if (typeof value === "string") found.push({ at: match.index, use: { path: value, kind } });
    }
  }
  const commands: string[] = [];
  const shellCalls =
    /\b(?:os\.system|os\.popen|subprocess\.(?:run|call|check_call|check_output|Popen|getoutput))\s*\(/g;
  for (const match of code.matchAll(shellCalls)) {
    const first = paths.arguments(match.index + match[0].length).positional[0];
    if (typeof first === "string") commands.push(first);
    else if (Array.isArray(first)) commands.push(argvCommand(first));
  }
  found.sort((a, b) => a.at - b.at);
  return { files: found.map((f) => f.use), commands };
}

/** Paths that `open(...)` and pathlib read or write in a piece of Python (kept for its callers). */
export function pythonOpens(code: string): { path: string; write: boolean }[] {
  return pythonEffects(code)
    .files.filter((f) => f.kind !== "delete")
    .map((f) => ({ path: f.path, write: f.kind === "write" }));
}
