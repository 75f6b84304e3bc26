/**
 * Shell command lines as the rules see them: split into simple commands (words and redirections)
 * after shell parsing, wrappers (`env`, `timeout 60`, `FOO=1`) removed. One home for every rule
 * that reads commands (File Read, Environment Integrity, Resource Exhaustion).
 */
import { parse as parseShell, type ParseEntry } from "shell-quote";

export interface SimpleCommand {
  words: string[];
  redirects: { op: string; target: string }[];
}

export function quoteWords(words: string[]): string {
  return words.map((w) => (/^[\w./=-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`)).join(" ");
}

/** `FOO=1 timeout 60 env X=2 python x.py` runs `python x.py`: drop assignments and wrapper commands. */
export function unwrap(words: string[]): string[] {
  let rest = words;
  for (;;) {
    const [first = "", second = ""] = rest;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(first)) rest = rest.slice(1);
    else if (["env", "nice", "time", "nohup", "command"].includes(first)) rest = rest.slice(1);
    else if (first === "timeout") rest = rest.slice(/^\d/.test(second) ? 2 : 1);
    else return rest;
  }
}

/** Splits a shell command into simple commands and their redirection targets. */
export function simpleCommands(command: string): SimpleCommand[] {
  let tokens: ParseEntry[];
  try {
    tokens = parseShell(command);
  } catch {
    tokens = command.split(/\s+/);
  }
  const result: SimpleCommand[] = [];
  let current: SimpleCommand = { words: [], redirects: [] };
  let pendingRedirect: string | null = null;
  for (const token of tokens) {
    if (typeof token === "string") {
      if (pendingRedirect) {
        current.redirects.push({ op: pendingRedirect, target: token });
        pendingRedirect = null;
      } else current.words.push(token);
    } else if ("op" in token) {
      if ([">", ">>", "<", ">&", "<("].includes(token.op)) pendingRedirect = token.op;
      else {
        if (current.words.length > 0 || current.redirects.length > 0) result.push(current);
        current = { words: [], redirects: [] };
      }
    } else if ("comment" in token) break;
  }
  if (current.words.length > 0 || current.redirects.length > 0) result.push(current);
  return result;
}
