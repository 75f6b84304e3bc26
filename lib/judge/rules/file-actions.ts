/**
 * What a trajectory step does to files, whatever tool it went through: structured file steps,
 * tool calls (described by the tool registry, lib/tool-registry), shell commands after shell
 * parsing (`cat`, `head`, `sed -n`, `grep FILE`, `find -exec cat`, `xargs cat`, `git show
 * HEAD:path`, redirections, `rm`, here-documents, `for` loops, ...) and Python code
 * (python-effects.ts: `open()`, `os.path.join`, pathlib, `subprocess`, smolagents' `read_file(...)`),
 * including a script the agent wrote whole and then ran.
 *
 * `trajectoryActions` reads a whole trajectory the way DESIGN.md's "Decisions on edge cases" say
 * (File Read): the shell's directory tracked per session (shell-session.ts), paths resolved and
 * matched exactly against the workspace's files, globs expanded over them (workspace-paths.ts).
 * Not reads: `wc`, `stat`, `file`, `ls`, `cp`, and any command whose output goes to a file or
 * `/dev/null` (the agent never sees the content). `stepActions` reads one step on its own.
 */
import type { TrajectoryStep } from "@/lib/bundle/schema";
import { fileActionOf, persistentShell, shellCommandTool, toolEffect, type ToolDescription } from "@/lib/tool-registry";
import { changeDirectory, ShellSession, type Cwd } from "./shell-session";
import { MAX_CODE_CHARS, pythonEffects } from "./python-effects";
import { argvCommand, quoteWords, simpleCommands, unwrap, type SimpleCommand } from "./shell-parse";
import {
  VIRTUAL_ROOT,
  absolutePathsIn,
  expandGlob,
  filesUnder,
  inferWorkspaceRoot,
  isGlobPattern,
  relativeToRoot,
  resolvePath,
} from "./workspace-paths";

export interface FileAction {
  stepId: string;
  /** read: content looked at; write: created or changed; delete: removed; run: executed code. */
  kind: "read" | "write" | "delete" | "run";
  /**
   * The workspace-relative path when the path resolves inside the workspace, else as the agent
   * wrote it; null for a run of inline code or a change whose files are unknown (`git apply`).
   */
  path: string | null;
  /** The workspace-relative file, exactly; null when the path is outside the workspace or unknown. */
  file: string | null;
  /** run: the code or command line that ran (for "does it import the target"). */
  code?: string;
  /** write: the file was edited in place (str_replace, `sed -i`, a patch's update), so it existed before. */
  inPlace?: boolean;
}

/** What the reading of a trajectory needs to know about its run. */
export interface ActionContext {
  /** The agent's framework (the tool registry's key), null when unknown. */
  framework: string | null;
  /** The workspace's absolute path as the agent saw it; null to infer it (workspace-paths.ts). */
  workspaceRoot: string | null;
  /** Workspace-relative files (the manifest): globs expand over them; empty when unknown. */
  workspaceFiles: readonly string[];
}

export { pythonEffects, pythonOpens } from "./python-effects";

const NO_CONTEXT: ActionContext = { framework: null, workspaceRoot: null, workspaceFiles: [] };

/** Argument names that carry a file path, across the agents' tool schemas (for display). */
export const PATH_KEYS = [
  "path",
  "file_path",
  "filePath",
  "absolute_path",
  "filename",
  "file",
  "target_file",
  "notebook_path",
];

function argumentsOf(step: { arguments: unknown }): Record<string, unknown> {
  const args = step.arguments;
  if (typeof args === "string") {
    try {
      const parsed: unknown = JSON.parse(args);
      return parsed !== null && typeof parsed === "object" ? (parsed as Record<string, unknown>) : { input: args };
    } catch {
      return { input: args };
    }
  }
  return args !== null && typeof args === "object" ? (args as Record<string, unknown>) : {};
}

/** The strings of the named arguments (a string, or a list of strings), in order. */
function stringsOf(args: Record<string, unknown>, keys: readonly string[] = []): string[] {
  const found: string[] = [];
  for (const key of keys) {
    const value = args[key];
    if (typeof value === "string") found.push(value);
    else if (Array.isArray(value)) for (const v of value) if (typeof v === "string") found.push(v);
  }
  return found;
}

/** The first present of the named arguments as a command line (an argv list is quoted back). */
function commandOf(args: Record<string, unknown>, keys: readonly string[]): string {
  for (const key of keys) {
    const value = args[key];
    if (typeof value === "string") return value;
    if (Array.isArray(value)) return argvCommand(value.map(String));
  }
  return typeof args.input === "string" ? args.input : "";
}

// ---------------------------------------------------------------------------------------------
// Shell commands.

/** Programs that show the agent a file's content. `wc`, `file`, `stat`, `ls`, `cp` do not. */
const READERS = new Set([
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
const SHELLS = new Set(["bash", "sh", "zsh", "dash"]);
/** Readers whose first operand is a script or pattern (unless given with -e or -f). */
const PATTERN_FIRST = new Set(["sed", "awk", "gawk", "grep", "egrep", "fgrep", "rg", "ag", "jq"]);
const PYTHONS = /^(?:python[\d.]*|pytest|py\.test|ipython)$/;
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

const looksLikePath = (word: string) => !word.startsWith("-") && !/^\d+(,\d+)?p?$/.test(word);

/** Whether the command's standard output goes to a file or /dev/null rather than to the agent. */
const outputHidden = (command: SimpleCommand) =>
  command.redirects.some(
    (r) =>
      (r.fd === undefined || r.fd === 1) &&
      ([">", ">>", ">|", "&>"].includes(r.op) || (r.op === ">&" && !/^\d$/.test(r.target))),
  );

/** The operands of a reader: its words that name files (flags, their values and its pattern left out). */
function readerOperands(name: string, args: string[]): string[] {
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

/** The files named by a patch: Codex's `*** Add/Update/Delete File:` envelope or a unified diff. */
export function patchFiles(patch: string): { path: string; kind: "write" | "delete"; inPlace: boolean }[] {
  const found: { path: string; kind: "write" | "delete"; inPlace: boolean }[] = [];
  let minus: string | null = null;
  for (const line of patch.split("\n")) {
    const envelope = /^\*\*\* (Add|Update|Delete) File: (.+?)\s*$/.exec(line);
    const moved = /^\*\*\* Move to: (.+?)\s*$/.exec(line);
    if (envelope) {
      const [, verb = "", path = ""] = envelope;
      found.push({ path, kind: verb === "Delete" ? "delete" : "write", inPlace: verb === "Update" });
    } else if (moved) {
      const from = found.at(-1);
      if (from) from.kind = "delete";
      found.push({ path: moved[1]!, kind: "write", inPlace: false });
    } else if (line.startsWith("--- ")) minus = line.slice(4).split("\t")[0]!.trim();
    else if (line.startsWith("+++ ")) {
      const plus = line.slice(4).split("\t")[0]!.trim();
      if (plus === "/dev/null" && minus)
        found.push({ path: minus.replace(/^a\//, ""), kind: "delete", inPlace: false });
      else
        found.push({ path: plus.replace(/^b\//, ""), kind: "write", inPlace: minus !== null && minus !== "/dev/null" });
    }
  }
  return found;
}

/** `find ROOTS... PREDICATES`: the workspace files it lists (name, path and type tests understood). */
function findMatches(args: string[], cwd: Cwd, reader: ActionReader): string[] {
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

/** A command inside a `for` loop with the loop's variable replaced by each of the loop's words. */
function withLoopWords(command: SimpleCommand, loops: ReadonlyMap<string, { words: string[]; globs: string[] }>) {
  if (loops.size === 0 || !command.words.some((w) => loops.has(w))) return command;
  const globs = [...command.globs];
  const words = command.words.flatMap((w) => {
    const loop = loops.get(w);
    if (!loop) return [w];
    globs.push(...loop.globs);
    return loop.words;
  });
  return { ...command, words, globs };
}

/** Reads one trajectory step by step, keeping the shell sessions' state. */
class ActionReader {
  readonly root: string;
  readonly files: readonly string[];
  private readonly fileSet: ReadonlySet<string>;
  private readonly session: ShellSession;
  /** callIds of the shell tool calls read so far. */
  private readonly shellCalls = new Set<string>();
  /** Python scripts the agent wrote with their whole content (here-document, file tool), by absolute path. */
  private readonly scripts = new Map<string, string>();

  constructor(
    private readonly context: ActionContext,
    inferredRoot: string | null,
  ) {
    this.root = context.workspaceRoot?.replace(/\/+$/, "") || inferredRoot || VIRTUAL_ROOT;
    this.files = context.workspaceFiles;
    this.fileSet = new Set(context.workspaceFiles);
    this.session = new ShellSession(this.root, persistentShell(context.framework));
  }

  /** Where a path points: workspace-relative when inside (taken under the first candidate directory naming a known file). */
  resolve(written: string, cwd: Cwd): { path: string; file: string | null } {
    let first: { path: string; file: string | null } | null = null;
    for (const dir of cwd) {
      const absolute = resolvePath(dir, written);
      const file = absolute === null ? null : relativeToRoot(absolute, this.root);
      const resolved = { path: file ?? written, file };
      if (file !== null && (this.fileSet.size === 0 || this.fileSet.has(file) || this.isFolder(file))) return resolved;
      first ??= resolved;
    }
    return first ?? { path: written, file: null };
  }

  private isFolder(file: string): boolean {
    return file === "" || this.files.some((f) => f.startsWith(`${file}/`));
  }

  /** Actions on a written path: a glob expands to the files it matches, a folder (when asked) to its files. */
  private on(
    stepId: string,
    kind: FileAction["kind"],
    written: string,
    cwd: Cwd,
    options: { glob?: boolean; folders?: boolean; inPlace?: boolean } = {},
  ): FileAction[] {
    const mark = options.inPlace && kind === "write" ? { inPlace: true } : {};
    if (options.glob && isGlobPattern(written) && this.files.length > 0) {
      const pattern = resolvePath(cwd[0] ?? this.root, written);
      const relative = pattern === null ? null : relativeToRoot(pattern, this.root);
      const matched = relative === null ? [] : expandGlob(relative, this.files);
      if (matched.length > 0) return matched.map((file) => ({ stepId, kind, path: file, file, ...mark }));
    }
    const resolved = this.resolve(written, cwd);
    if (options.folders && resolved.file !== null && this.isFolder(resolved.file) && !this.fileSet.has(resolved.file)) {
      return filesUnder(resolved.file, this.files).map((file) => ({ stepId, kind, path: file, file, ...mark }));
    }
    return [{ stepId, kind, ...resolved, ...mark }];
  }

  step(step: TrajectoryStep): FileAction[] {
    const root: Cwd = [this.root];
    switch (step.kind) {
      case "file_read":
        return this.on(step.id, "read", step.path, root);
      case "file_write":
        return this.on(step.id, "write", step.path, root);
      case "file_delete":
        return this.on(step.id, "delete", step.path, root);
      case "shell":
        // The shell step a runner records for a shell tool call (same callId) is that call, already read.
        if (step.callId !== undefined && this.shellCalls.has(step.callId)) return [];
        return this.shellStep(step.id, step.command, null);
      case "tool_call": {
        const description = toolEffect(this.context.framework, step.tool);
        if (description?.effect === "shell" && step.callId !== undefined) this.shellCalls.add(step.callId);
        return description ? this.described(step.id, description, argumentsOf(step)) : [];
      }
      default:
        return [];
    }
  }

  private shellStep(stepId: string, command: string, workdir: string | null): FileAction[] {
    // SWE-agent's `edit 10:12` (and `insert`) take the lines up to `end_of_edit` as text, not commands.
    const typed = shellCommandTool(this.context.framework, "edit")
      ? command.replace(/^(edit|insert|append)\b([^\n]*)\n[\s\S]*?^end_of_\1[ \t]*$/gm, "$1$2")
      : command;
    const { actions, cwd } = this.shell(stepId, typed, this.session.start(workdir));
    this.session.end(cwd);
    return actions;
  }

  private described(stepId: string, description: ToolDescription, args: Record<string, unknown>): FileAction[] {
    const root: Cwd = [this.root];
    const subcommand = description.subcommandArg ? args[description.subcommandArg] : undefined;
    const effect =
      (typeof subcommand === "string" ? description.subcommands?.[subcommand] : undefined) ?? description.effect;
    switch (effect) {
      case "shell": {
        const command = commandOf(args, description.commandArgs ?? []);
        const workdir = stringsOf(args, description.workdirArgs)[0] ?? null;
        return this.shellStep(stepId, command, workdir);
      }
      case "python": {
        const code = commandOf(args, description.codeArgs ?? []);
        const scripts = stringsOf(args, description.pathArgs);
        return [
          ...this.python(stepId, code, root),
          { stepId, kind: "run", path: scripts[0] ?? null, file: null, code: code || scripts.join(" ") },
        ];
      }
      case "patch": {
        const text = stringsOf(args, description.patchArgs)[0] ?? "";
        return patchFiles(text).flatMap((p) => this.on(stepId, p.kind, p.path, root, { inPlace: p.inPlace }));
      }
      case "read":
      case "search":
      case "write":
      case "edit":
      case "delete": {
        const kind = fileActionOf(effect) ?? "read";
        let paths = stringsOf(args, description.pathArgs);
        if (description.actsOnOpenFile && paths.length === 0 && this.session.openFile) paths = [this.session.openFile];
        if (description.opensFile && paths[0]) this.session.openFile = paths[0];
        const globs = stringsOf(args, description.globArgs).filter((g) => !paths.includes(g));
        const many = description.globArgs !== undefined && effect === "read";
        const content = stringsOf(args, ["content", "file_text", "contents"])[0];
        if (effect === "write" && content !== undefined && paths[0]) this.keepScript(paths[0], root, content);
        const actions = [...paths, ...globs].flatMap((p) =>
          this.on(stepId, kind, p, root, {
            glob: many || globs.includes(p),
            folders: many,
            inPlace: effect === "edit",
          }),
        );
        // A search shows lines of the files it was pointed at, not of a folder it walked.
        return effect === "search" ? actions.filter((a) => a.file !== null && this.fileSet.has(a.file)) : actions;
      }
      default:
        return [];
    }
  }

  /** Files a piece of Python reads, writes or deletes (run from `cwd`), and what its shell commands do. */
  private python(stepId: string, code: string, cwd: Cwd): FileAction[] {
    const { files, commands } = pythonEffects(code, this.context.framework);
    return [
      ...files.flatMap((f) => this.on(stepId, f.kind, f.path, cwd, { glob: false })),
      ...commands.flatMap((c) => this.shell(stepId, c, cwd).actions),
    ];
  }

  /** The actions of a shell script started in `cwd`, and where its top-level shell ends. */
  shell(stepId: string, script: string, start: Cwd): { actions: FileAction[]; cwd: Cwd } {
    const actions: FileAction[] = [];
    const stack: Cwd[] = [start];
    let listing: string[] | null = null;
    const loops = new Map<string, { words: string[]; globs: string[] }>();
    for (const parsed of simpleCommands(script)) {
      while (stack.length > parsed.depth + 1) stack.pop();
      while (stack.length < parsed.depth + 1) stack.push(stack.at(-1)!);
      const cwd = stack.at(-1)!;
      // `for f in pkg/*.py; do cat $f; done`: the loop's variable stands for each of its words.
      const [keyword, variable = "", inWord] = parsed.words;
      if (keyword === "for" && inWord === "in") {
        const words = parsed.words.slice(3);
        loops.set(`$${variable}`, { words, globs: parsed.globs.filter((g) => words.includes(g)) });
        continue;
      }
      const command = withLoopWords(parsed, loops);
      const piped = command.joinedBy === "|" ? listing : null;
      const result = this.simpleCommand(stepId, command, cwd, piped);
      actions.push(...result.actions);
      listing = result.listing;
      if (result.cwd) stack[stack.length - 1] = result.cwd;
    }
    return { actions, cwd: stack[0]! };
  }

  private simpleCommand(
    stepId: string,
    command: SimpleCommand,
    cwd: Cwd,
    piped: string[] | null,
  ): { actions: FileAction[]; listing: string[] | null; cwd?: Cwd } {
    const actions: FileAction[] = [];
    const [first = ""] = unwrap(command.words);
    const target = command.redirects.find((r) => (r.op === ">" || r.op === ">|") && (r.fd === undefined || r.fd === 1));
    if (command.stdin !== null && target && (first === "cat" || first === "tee"))
      this.keepScript(target.target, cwd, command.stdin);
    for (const r of command.redirects) {
      if (r.target.startsWith("/dev/") || (r.op === ">&" && /^\d$/.test(r.target))) continue;
      actions.push(...this.on(stepId, r.op === "<" ? "read" : "write", r.target, cwd));
    }
    const [program = "", ...args] = unwrap(command.words);
    const name = program.split("/").at(-1) ?? program;
    const globs = new Set(command.globs);
    const on = (kind: FileAction["kind"], written: string) =>
      this.on(stepId, kind, written, cwd, { glob: globs.has(written) });
    const hidden = outputHidden(command);
    const reads = (paths: string[]) => (hidden ? [] : paths.flatMap((p) => on("read", p)));
    const done = (more: FileAction[], listing: string[] | null = null) => ({
      actions: [...actions, ...more],
      listing,
    });

    if (name === "cd" || name === "pushd") {
      const target = args.find((a) => !a.startsWith("-") || a === "-");
      return { actions, listing: null, cwd: changeDirectory(cwd, target) };
    }
    const swe = shellCommandTool(this.context.framework, name);
    if (swe && program === name) {
      const named: Record<string, unknown> = {};
      swe.positional!.forEach((key, i) => {
        if (args[i] !== undefined) named[key] = args[i];
      });
      return done(this.described(stepId, swe, named));
    }
    if (SHELLS.has(name)) {
      const scriptIndex = args.findIndex((a) => /^-\w*c$/.test(a));
      if (scriptIndex >= 0) return done(this.shell(stepId, args[scriptIndex + 1] ?? "", cwd).actions);
      if (command.stdin !== null) return done(this.shell(stepId, command.stdin, cwd).actions);
      return done([]);
    }
    if (name === "xargs") return done(piped ? this.xargs(stepId, args, cwd, piped, hidden) : []);
    if (name === "find") {
      const matched = findMatches(args, cwd, this);
      const exec = args.findIndex((a) => a === "-exec" || a === "-execdir");
      const more: FileAction[] = [];
      if (args.includes("-delete")) more.push(...matched.map((f) => this.fileAction(stepId, "delete", f)));
      if (exec >= 0) {
        const end = args.findIndex((a, i) => i > exec && (a === ";" || a === "+"));
        const inner = args.slice(exec + 1, end < 0 ? undefined : end);
        more.push(...this.xargs(stepId, inner, cwd, matched, hidden, "{}"));
      }
      return done(more, exec >= 0 ? null : matched);
    }
    if (name === "ls" || name === "echo" || name === "printf") {
      const operands = args.filter((a) => !a.startsWith("-"));
      const listed = operands.flatMap((a) => on("read", a).map((x) => x.file)).filter((f) => f !== null);
      return done([], listed);
    }
    if (name === "git") return done(this.git(stepId, args, cwd, hidden));
    if (name === "apply_patch") {
      const text = command.stdin ?? args.join("\n");
      return done(patchFiles(text).flatMap((p) => this.on(stepId, p.kind, p.path, cwd, { inPlace: p.inPlace })));
    }
    if (name === "patch") return done([{ stepId, kind: "write", path: null, file: null }]);
    if (name === "sed" && args.some((a) => a === "-i" || /^-[a-zA-Z]*i/.test(a) || a.startsWith("--in-place"))) {
      return done(
        readerOperands(name, args).flatMap((p) =>
          this.on(stepId, "write", p, cwd, { glob: globs.has(p), inPlace: true }),
        ),
      );
    }
    if (READERS.has(name)) {
      const listing = name === "grep" && args.some((a) => /^-[a-zA-Z]*l/.test(a)) ? [] : null;
      return done(reads(readerOperands(name, args)), listing);
    }
    if (name === "rm" || name === "unlink") {
      return done(
        args
          .filter((a) => !a.startsWith("-"))
          .flatMap((p) => this.on(stepId, "delete", p, cwd, { glob: globs.has(p), folders: true })),
      );
    }
    if (name === "mv") {
      const [from, to] = args.filter((a) => !a.startsWith("-"));
      return done([...(from ? on("delete", from) : []), ...(to ? on("write", to) : [])]);
    }
    if (name === "cp") {
      const paths = args.filter((a) => !a.startsWith("-"));
      return done(paths.length >= 2 ? on("write", paths.at(-1)!) : []);
    }
    if (name === "tee" || name === "touch" || name === "truncate") {
      return done(args.filter((a) => !a.startsWith("-") && looksLikePath(a)).flatMap((p) => on("write", p)));
    }
    if (PYTHONS.test(name)) return done(this.pythonCommand(stepId, name, args, command, cwd));
    return done([]);
  }

  /** Remembers a Python script written whole, for when it is run (`cat > x.py <<EOF`, then `python x.py`). */
  private keepScript(written: string, cwd: Cwd, content: string): void {
    const absolute = written.endsWith(".py") ? resolvePath(cwd[0] ?? this.root, written) : null;
    if (absolute) this.scripts.set(absolute, content.slice(0, MAX_CODE_CHARS));
  }

  private fileAction(stepId: string, kind: FileAction["kind"], file: string): FileAction {
    return { stepId, kind, path: file, file };
  }

  /** `python -c CODE`, `python - <<EOF`, `python script.py`, `python -m pytest`, `pytest`. */
  private pythonCommand(stepId: string, name: string, args: string[], command: SimpleCommand, cwd: Cwd): FileAction[] {
    const codeIndex = args.indexOf("-c");
    const line = quoteWords([name, ...args]);
    if (codeIndex >= 0) {
      const code = args[codeIndex + 1] ?? "";
      return [...this.python(stepId, code, cwd), { stepId, kind: "run", path: null, file: null, code }];
    }
    const script = name.startsWith("py") && !/test/.test(name) ? args.find((a) => a.endsWith(".py")) : undefined;
    if (!script && command.stdin !== null && !args.includes("-m") && /python/.test(name)) {
      const code = command.stdin;
      return [...this.python(stepId, code, cwd), { stepId, kind: "run", path: null, file: null, code }];
    }
    const target = script ? this.resolve(script, cwd) : null;
    const absolute = script ? resolvePath(cwd[0] ?? this.root, script) : null;
    const content = absolute ? this.scripts.get(absolute) : undefined;
    const run: FileAction = { stepId, kind: "run", path: target?.path ?? null, file: target?.file ?? null, code: line };
    return content === undefined
      ? [run]
      : [...this.python(stepId, content, cwd), { ...run, code: `${line}\n${content}` }];
  }

  /** `git show REV:path` and `git cat-file -p REV:path` read a file's content; restoring or stashing changes the workspace. */
  private git(stepId: string, args: string[], cwd: Cwd, hidden: boolean): FileAction[] {
    let rest = args;
    while (
      rest[0] === "-C" ||
      rest[0] === "-c" ||
      rest[0]?.startsWith("--git-dir") ||
      rest[0]?.startsWith("--work-tree")
    )
      rest = rest.slice(rest[0].includes("=") ? 1 : 2);
    const [sub = "", ...more] = rest;
    if ((sub === "show" || sub === "cat-file") && !hidden) {
      return more
        .filter((a) => /^[^-][^:]*:./.test(a))
        .flatMap((a) => {
          const written = a.slice(a.indexOf(":") + 1);
          // `REV:path` is relative to the repository's root, `REV:./path` to the current directory.
          return this.on(stepId, "read", written, written.startsWith("./") ? cwd : [this.root]);
        });
    }
    const dashes = more.indexOf("--");
    if (sub === "restore" || (sub === "checkout" && dashes >= 0)) {
      const paths = (dashes >= 0 ? more.slice(dashes + 1) : more).filter((a) => !a.startsWith("-"));
      return paths.flatMap((p) => this.on(stepId, "write", p, cwd, { folders: true }));
    }
    if (sub === "apply" || sub === "am" || sub === "stash" || sub === "reset" || sub === "merge" || sub === "pull")
      return more.includes("--check") || more[0] === "list" || more[0] === "show"
        ? []
        : [{ stepId, kind: "write", path: null, file: null }];
    return [];
  }

  /** `xargs PROGRAM ARGS` (or find's `-exec PROGRAM ARGS {}`) over the listed files. */
  private xargs(
    stepId: string,
    args: string[],
    cwd: Cwd,
    listed: string[],
    hidden: boolean,
    placeholder: string | null = null,
  ): FileAction[] {
    let i = 0;
    let replace = placeholder;
    for (; i < args.length && args[i]!.startsWith("-"); i++) {
      const flag = args[i]!;
      if (flag === "-I") replace = args[++i] ?? null;
      else if (["-n", "-P", "-L", "-d", "-s", "-E"].includes(flag)) i++;
    }
    const [program = "", ...rest] = args.slice(i);
    const name = program.split("/").at(-1) ?? program;
    const operands = readerOperands(
      name,
      rest.filter((a) => a !== replace),
    );
    const listedActions = (kind: FileAction["kind"]) => listed.map((file) => this.fileAction(stepId, kind, file));
    if (name === "sed" && rest.some((a) => /^-[a-zA-Z]*i/.test(a)))
      return listedActions("write").map((a) => ({ ...a, inPlace: true }));
    if (READERS.has(name))
      return hidden ? [] : [...operands.flatMap((p) => this.on(stepId, "read", p, cwd)), ...listedActions("read")];
    if (name === "rm") return listedActions("delete");
    return [];
  }
}

/** The workspace root for reading a trajectory: given, or inferred from the absolute paths its steps use. */
function rootFor(steps: readonly TrajectoryStep[], context: ActionContext): string | null {
  if (context.workspaceRoot) return null;
  const absolute: string[] = [];
  for (const step of steps) {
    const text =
      step.kind === "shell"
        ? step.command
        : step.kind === "tool_call"
          ? typeof step.arguments === "string"
            ? step.arguments
            : JSON.stringify(step.arguments ?? null)
          : "path" in step
            ? String(step.path)
            : "";
    absolute.push(...absolutePathsIn(text));
  }
  return inferWorkspaceRoot(absolute, context.workspaceFiles);
}

/** All file actions of a trajectory, in order, read with the run's framework, workspace root and files. */
export function trajectoryActions(
  steps: readonly TrajectoryStep[],
  context: ActionContext = NO_CONTEXT,
): (FileAction & { position: number })[] {
  const reader = new ActionReader(context, rootFor(steps, context));
  return steps.flatMap((step, position) => reader.step(step).map((a) => ({ ...a, position })));
}

/** File actions of one shell command line, on its own (relative paths from the workspace root). */
export function shellActions(stepId: string, command: string): FileAction[] {
  const reader = new ActionReader(NO_CONTEXT, null);
  return reader.shell(stepId, command, [reader.root]).actions;
}

/** All file actions of one step, on its own (no framework, workspace root or manifest known). */
export function stepActions(step: TrajectoryStep): FileAction[] {
  return new ActionReader(NO_CONTEXT, rootFor([step], NO_CONTEXT)).step(step);
}

/** Whether a path the agent used names a workspace file: exactly, after `./` and trailing `/` are dropped. */
export function sameFile(used: string, workspacePath: string): boolean {
  return used.replace(/^(\.\/)+/, "").replace(/\/+$/, "") === workspacePath;
}
