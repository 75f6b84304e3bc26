/**
 * What the programs an agent runs from a shell do with files, as the file-action reading
 * (shell-actions.ts) needs it: the programs that show a file's content and which of their words
 * name files (flags, option values and a leading pattern left out), whether a command's output
 * reaches the agent at all, and which workspace files a `find` lists.
 */
import type { ActionReader } from "./action-reader";
import type { Cwd } from "./shell-session";
import type { SimpleCommand } from "./shell-parse";
import { filesUnder } from "./workspace-paths";

/** Programs that show the agent a file's content. `wc`, `file`, `stat`, `ls`, `cp` do not. */
export const READERS = new Set([
  "cat",
  "tac",
  "head",
  "tail",
  "less",
  "more",
  "nl",
  "bat",
  "batcat",
  "view",
  "sed",
  "awk",
  "gawk",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "ag",
  "diff",
  "cut",
  "sort",
  "uniq",
  "od",
  "xxd",
  "hexdump",
  "strings",
  "column",
  "jq",
]);
export const SHELLS = new Set(["bash", "sh", "zsh", "dash"]);
/** Readers whose first operand is a script or pattern (unless given with -e or -f). */
const PATTERN_FIRST = new Set(["sed", "awk", "gawk", "grep", "egrep", "fgrep", "rg", "ag", "jq"]);
export const PYTHONS = /^(?:python[\d.]*|pytest|py\.test|ipython)$/;
/** Options of the readers that take a value (`head -n 20`, `grep -A 3`, `cut -d , -f 1`). */
const VALUE_OPTIONS: Record<string, readonly string[]> = {
  head: ["-n", "-c", "--lines", "--bytes"],
  tail: ["-n", "-c", "--lines", "--bytes"],
  grep: ["-A", "-B", "-C", "-m", "-e", "-f", "--include", "--exclude"],
  egrep: ["-A", "-B", "-C", "-m", "-e", "-f"],
  fgrep: ["-A", "-B", "-C", "-m", "-e", "-f"],
  rg: ["-A", "-B", "-C", "-m", "-e", "-f", "-g", "-t", "--glob", "--type"],
  ag: ["-A", "-B", "-C", "-m", "-G"],
  cut: ["-d", "-f", "-c", "-b"],
  sort: ["-k", "-t", "-o"],
  awk: ["-F", "-v", "-f"],
  gawk: ["-F", "-v", "-f"],
  sed: ["-e", "-f"],
  jq: ["--arg", "--argjson"],
  od: ["-t", "-N", "-j", "-A"],
  xxd: ["-l", "-s", "-c"],
};

export const looksLikePath = (word: string) => !word.startsWith("-") && !/^\d+(,\d+)?p?$/.test(word);

/** Whether the command's standard output goes to a file or /dev/null rather than to the agent. */
export const outputHidden = (command: SimpleCommand) =>
  command.redirects.some(
    (r) =>
      (r.fd === undefined || r.fd === 1) &&
      ([">", ">>", ">|", "&>"].includes(r.op) || (r.op === ">&" && !/^\d$/.test(r.target))),
  );

/** The operands of a reader: its words that name files (flags, their values and its pattern left out). */
export function readerOperands(name: string, args: string[]): string[] {
  const explicitPattern = args.some((a) => a === "-e" || a === "-f" || a === "--regexp" || a.startsWith("--regexp="));
  let patternPending = PATTERN_FIRST.has(name) && !explicitPattern;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") continue;
    if (a.startsWith("-")) {
      if (VALUE_OPTIONS[name]?.includes(a)) i++;
      continue;
    }
    if (patternPending) {
      patternPending = false;
      continue;
    }
    if (looksLikePath(a)) operands.push(a);
  }
  return operands;
}

/** `find ROOTS... PREDICATES`: the workspace files it lists (name, path and type tests understood). */
export function findMatches(args: string[], cwd: Cwd, reader: ActionReader): string[] {
  const firstTest = args.findIndex((a) => a.startsWith("-") || a === "(" || a === "!");
  const roots = (firstTest < 0 ? args : args.slice(0, firstTest)).filter((a) => a !== "");
  const tests = firstTest < 0 ? [] : args.slice(firstTest);
  const checks: ((file: string) => boolean)[] = [];
  for (let i = 0; i < tests.length; i++) {
    const test = tests[i]!;
    const value = tests[i + 1] ?? "";
    if (test === "-exec" || test === "-execdir" || test === "-ok") break;
    if (test === "-name" || test === "-iname") {
      const pattern = nameGlob(value, test === "-iname");
      checks.push((f) => pattern.test(f.split("/").at(-1) ?? f));
    } else if (test === "-path" || test === "-wholename") {
      const pattern = nameGlob(value.replace(/^\.\//, ""), false);
      checks.push((f) => pattern.test(f));
    } else if (test === "-type" && value !== "f") checks.push(() => false);
  }
  const files: string[] = [];
  for (const root of roots.length > 0 ? roots : ["."]) {
    const folder = reader.resolve(root, cwd).file;
    if (folder === null) continue;
    for (const f of filesUnder(folder, reader.files)) if (checks.every((check) => check(f))) files.push(f);
  }
  return [...new Set(files)];
}

/** A find(1) pattern (`*.py`; in -path, `*` also crosses `/`) as a regular expression. */
function nameGlob(glob: string, ignoreCase: boolean): RegExp {
  const source = glob
    .replace(/[.+^$()|\\{}]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${source}$`, ignoreCase ? "i" : "");
}
