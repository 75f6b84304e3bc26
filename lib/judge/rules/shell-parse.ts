/**
 * Shell command lines as the rules see them: split into simple commands (words and redirections)
 * after shell parsing (shell-quote), wrappers (`env`, `timeout 60`, `FOO=1`) removed. One home for
 * every rule that reads commands (File Read, Environment Integrity, Resource Exhaustion).
 *
 * Before shell-quote sees a script, `prepareScript` does what it does not: here-documents
 * (`python - <<'EOF' ... EOF`) become the command's `stdin`, comments go, line continuations
 * join, unquoted newlines separate commands, and file-descriptor prefixes (`2>`) stay with their
 * redirection. Variables are kept as written (`$HOME/.bashrc`), never expanded to nothing.
 */
import { parse as parseShell, type ParseEntry } from "shell-quote";

export interface Redirect {
  /** `>`, `>>`, `<`, `>&`, `&>` (`<<<` here-strings become `stdin`). */
  op: string;
  target: string;
  /** The file descriptor written before the operator (`2>`), when one was. */
  fd?: number;
}

export interface SimpleCommand {
  words: string[];
  redirects: Redirect[];
  /** The operator joining it to the command before (`|`, `&&`, `||`, `;`, `&`), null for the first. */
  joinedBy: string | null;
  /** How many subshells (`( ... )`, `<( ... )`) it runs in. */
  depth: number;
  /** Its words that were unquoted glob patterns (`pkg/*.py`), which the shell expands. */
  globs: string[];
  /** What it reads on standard input from the script itself: a here-document or here-string. */
  stdin: string | null;
}

export function quoteWords(words: string[]): string {
  return words.map((w) => (/^[\w./=-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`)).join(" ");
}

/** An argv list as a command line; `["bash", "-lc", script]` is the script itself. */
export function argvCommand(argv: string[]): string {
  const [program = "", flag = "", script] = argv;
  if (/^(ba|z|da)?sh$/.test(program.split("/").at(-1) ?? "") && /^-\w*c$/.test(flag) && script !== undefined)
    return script;
  return quoteWords(argv);
}

/** Words before a command that do not change what it is: wrappers, and the shell's keywords (`do cat x`, `then rm y`). */
const WRAPPERS = new Set([
  "env",
  "nice",
  "time",
  "nohup",
  "command",
  "exec",
  "builtin",
  "if",
  "then",
  "else",
  "elif",
  "while",
  "until",
  "do",
  "!",
  "{",
]);

/** `FOO=1 timeout 60 env X=2 sudo python x.py` runs `python x.py`: drop assignments, wrappers and keywords. */
export function unwrap(words: string[]): string[] {
  let rest = words;
  for (;;) {
    const [first = "", second = ""] = rest;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(first)) rest = rest.slice(1);
    else if (WRAPPERS.has(first)) rest = rest.slice(1);
    else if (first === "sudo") {
      rest = rest.slice(1);
      while (rest[0]?.startsWith("-")) rest = rest.slice(1);
    } else if (first === "timeout") rest = rest.slice(/^\d/.test(second) ? 2 : 1);
    else return rest;
  }
}

const HEREDOC_MARK = "__STUDIO_HEREDOC_";
const FD_MARK = /^__STUDIO_FD(\d)__$/;

/**
 * Whether positions of `line`, asked in increasing order, are outside quotes: one forward pass over
 * the line however many positions are asked (a line of 50 000 `<<` is read once, not 50 000 times).
 */
function quoteScanner(line: string): (at: number) => boolean {
  let quote: string | null = null;
  let i = 0;
  return (at) => {
    for (; i < at; i++) {
      const c = line[i];
      if (quote === null && c === "\\") i++;
      else if (quote === null && (c === "'" || c === '"')) quote = c;
      else if (c === quote) quote = null;
    }
    return quote === null;
  };
}

/** Here-documents out of the script: the script with each `<<EOF` replaced by a marker, and the bodies. */
function extractHeredocs(script: string): { text: string; bodies: string[] } {
  const lines = script.split("\n");
  const out: string[] = [];
  const bodies: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    const pending: { delimiter: string; stripTabs: boolean; index: number }[] = [];
    const unquotedAt = quoteScanner(line);
    line = line.replace(
      /<<(-?)\s*(['"]?)([A-Za-z_][\w.-]*)\2/g,
      (whole, dash: string, _q, delimiter: string, at: number) => {
        if (line[at - 1] === "<" || !unquotedAt(at)) return whole;
        pending.push({ delimiter, stripTabs: dash === "-", index: bodies.length + pending.length });
        return `< ${HEREDOC_MARK}${bodies.length + pending.length - 1}`;
      },
    );
    out.push(line);
    for (const doc of pending) {
      const body: string[] = [];
      while (i + 1 < lines.length) {
        const next = lines[++i]!;
        if ((doc.stripTabs ? next.replace(/^\t+/, "") : next) === doc.delimiter) break;
        body.push(next);
      }
      bodies[doc.index] = body.length > 0 ? `${body.join("\n")}\n` : "";
    }
  }
  return { text: out.join("\n"), bodies };
}

/**
 * The script rewritten for shell-quote: comments dropped, `\`-newlines joined, unquoted newlines
 * made `;`, and a descriptor before a redirection (`2>`) marked so it is not taken for a word.
 */
function normalizeScript(text: string): string {
  let out = "";
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== null) {
      if (c === "\\" && quote === '"') {
        out += c + (text[i + 1] ?? "");
        i++;
      } else {
        if (c === quote) quote = null;
        out += c;
      }
      continue;
    }
    const atWordStart = i === 0 || /[\s;&|()]/.test(text[i - 1]!);
    if (c === "\\") {
      if (text[i + 1] !== "\n") out += c + (text[i + 1] ?? "");
      i++;
    } else if (c === "'" || c === '"') {
      quote = c;
      out += c;
    } else if (c === "#" && atWordStart) {
      while (i + 1 < text.length && text[i + 1] !== "\n") i++;
    } else if (c === "\n") out += " ; ";
    else if (atWordStart && /\d/.test(c) && /[<>]/.test(text[i + 1] ?? "")) out += `__STUDIO_FD${c}__ `;
    else out += c;
  }
  return out;
}

/** The script split into here-document bodies and a text shell-quote can parse. */
export function prepareScript(script: string): { text: string; heredocs: string[] } {
  const { text, bodies } = extractHeredocs(script);
  return { text: normalizeScript(text), heredocs: bodies };
}

const SEPARATORS = new Set(["|", "||", "&&", ";", "&", ";;", "|&"]);
const REDIRECTS = new Set([">", ">>", "<", ">&", "&>", "<<<", ">|", "<<"]);

/** How much of one command line is parsed (bounded work per step; a here-document may be large). */
export const MAX_SCRIPT_CHARS = 200_000;

/** How many parsed command lines are kept: the rules read each step's command several times in a row. */
const PARSED_CACHE_SIZE = 32;
const parsedCache = new Map<string, SimpleCommand[]>();

/**
 * Splits a shell script into simple commands, their redirections, pipes and subshells. The result
 * is shared by every caller that parses the same text (frozen: copy it to change it).
 */
export function simpleCommands(command: string): SimpleCommand[] {
  const cached = parsedCache.get(command);
  if (cached !== undefined) {
    // Most recently used last, so the oldest entry is the first one dropped.
    parsedCache.delete(command);
    parsedCache.set(command, cached);
    return cached;
  }
  const parsed = parseCommands(command);
  for (const simple of parsed) {
    Object.freeze(simple.words);
    Object.freeze(simple.redirects);
    Object.freeze(simple.globs);
    Object.freeze(simple);
  }
  Object.freeze(parsed);
  parsedCache.set(command, parsed);
  if (parsedCache.size > PARSED_CACHE_SIZE) parsedCache.delete(parsedCache.keys().next().value!);
  return parsed;
}

function parseCommands(command: string): SimpleCommand[] {
  const { text, heredocs } = prepareScript(command.slice(0, MAX_SCRIPT_CHARS));
  let tokens: ParseEntry[];
  try {
    tokens = parseShell(text, (key) => `$${key}`);
  } catch {
    tokens = text.split(/\s+/);
  }
  const result: SimpleCommand[] = [];
  let depth = 0;
  const fresh = (joinedBy: string | null): SimpleCommand => ({
    words: [],
    redirects: [],
    joinedBy,
    depth,
    globs: [],
    stdin: null,
  });
  let current = fresh(null);
  let pending: { op: string; fd?: number } | null = null;
  let pendingFd: number | undefined;
  const finish = (joinedBy: string | null) => {
    if (current.words.length > 0 || current.redirects.length > 0 || current.stdin !== null) result.push(current);
    current = fresh(joinedBy ?? current.joinedBy);
  };
  const addWord = (word: string, glob: boolean) => {
    if (pending) {
      const heredoc = word.startsWith(HEREDOC_MARK) ? heredocs[Number(word.slice(HEREDOC_MARK.length))] : undefined;
      if (heredoc !== undefined) current.stdin = heredoc;
      else if (pending.op === "<<<") current.stdin = `${word}\n`;
      else current.redirects.push({ ...pending, target: word });
      pending = null;
      return;
    }
    const fd = FD_MARK.exec(word);
    if (fd) {
      pendingFd = Number(fd[1]);
      return;
    }
    current.words.push(word);
    if (glob) current.globs.push(word);
  };
  for (const token of tokens) {
    if (typeof token === "string") addWord(token, false);
    else if ("comment" in token) continue;
    else if (token.op === "glob") addWord((token as { pattern: string }).pattern, true);
    else if (REDIRECTS.has(token.op)) {
      pending = pendingFd === undefined ? { op: token.op } : { op: token.op, fd: pendingFd };
      pendingFd = undefined;
    } else if (SEPARATORS.has(token.op)) finish(token.op);
    else if (token.op === "(" || token.op === "<(") {
      finish(null);
      depth++;
      current.depth = depth;
    } else if (token.op === ")") {
      finish(null);
      depth = Math.max(0, depth - 1);
      current.depth = depth;
    }
  }
  finish(null);
  return result;
}
