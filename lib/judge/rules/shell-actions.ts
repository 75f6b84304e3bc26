/**
 * What shell commands do to files (after shell parsing, shell-parse.ts): `cat`, `head`, `sed -n`,
 * `grep FILE`, `find -exec cat`, `xargs cat`, `git show HEAD:path`, redirections, `rm`, `mv`,
 * here-documents, `for` loops, `bash -c`, `apply_patch`, and the Python a `python` command runs
 * (python-effects.ts), including a script the agent wrote whole and then ran. `cd` moves the
 * shell's directory for what follows (shell-session.ts); which programs read what is in
 * shell-programs.ts. Not reads: `wc`, `stat`, `file`, `ls`, `cp`, and any command whose output
 * goes to a file or `/dev/null` (the agent never sees the content).
 */
import { shellCommandTool } from "@/lib/tool-registry";
import type { ActionReader, FileAction } from "./action-reader";
import { patchFiles } from "./patch-files";
import { pythonEffects } from "./python-effects";
import { quoteWords, simpleCommands, unwrap, type SimpleCommand } from "./shell-parse";
import { changeDirectory, type Cwd } from "./shell-session";
import { findMatches, looksLikePath, outputHidden, PYTHONS, READERS, readerOperands, SHELLS } from "./shell-programs";
import { resolvePath } from "./workspace-paths";

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

/** The actions of a shell step or call (run in `workdir`, or where the session is), the session's directory carried on. */
export function shellStepActions(
  reader: ActionReader,
  stepId: string,
  command: string,
  workdir: string | null,
): FileAction[] {
  // SWE-agent's `edit 10:12` (and `insert`) take the lines up to `end_of_edit` as text, not commands.
  const typed = shellCommandTool(reader.framework, "edit")
    ? command.replace(/^(edit|insert|append)\b([^\n]*)\n[\s\S]*?^end_of_\1[ \t]*$/gm, "$1$2")
    : command;
  const { actions, cwd } = shellScriptActions(reader, stepId, typed, reader.session.start(workdir));
  reader.session.end(cwd);
  return actions;
}

/** The actions of a shell script started in `cwd`, and where its top-level shell ends. */
export function shellScriptActions(
  reader: ActionReader,
  stepId: string,
  script: string,
  start: Cwd,
): { actions: FileAction[]; cwd: Cwd } {
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
    const result = simpleCommand(reader, stepId, command, cwd, piped);
    actions.push(...result.actions);
    listing = result.listing;
    if (result.cwd) stack[stack.length - 1] = result.cwd;
  }
  return { actions, cwd: stack[0]! };
}

function simpleCommand(
  reader: ActionReader,
  stepId: string,
  command: SimpleCommand,
  cwd: Cwd,
  piped: string[] | null,
): { actions: FileAction[]; listing: string[] | null; cwd?: Cwd } {
  const actions: FileAction[] = [];
  const [first = ""] = unwrap(command.words);
  const target = command.redirects.find((r) => (r.op === ">" || r.op === ">|") && (r.fd === undefined || r.fd === 1));
  if (command.stdin !== null && target && (first === "cat" || first === "tee"))
    reader.keepScript(target.target, cwd, command.stdin);
  for (const r of command.redirects) {
    if (r.target.startsWith("/dev/") || (r.op === ">&" && /^\d$/.test(r.target))) continue;
    actions.push(...reader.on(stepId, r.op === "<" ? "read" : "write", r.target, cwd));
  }
  const [program = "", ...args] = unwrap(command.words);
  const name = program.split("/").at(-1) ?? program;
  const globs = new Set(command.globs);
  const on = (kind: FileAction["kind"], written: string) =>
    reader.on(stepId, kind, written, cwd, { glob: globs.has(written) });
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
  const swe = shellCommandTool(reader.framework, name);
  if (swe && program === name) {
    const named: Record<string, unknown> = {};
    swe.positional!.forEach((key, i) => {
      if (args[i] !== undefined) named[key] = args[i];
    });
    return done(reader.described(stepId, swe, named));
  }
  if (SHELLS.has(name)) {
    const scriptIndex = args.findIndex((a) => /^-\w*c$/.test(a));
    if (scriptIndex >= 0) return done(shellScriptActions(reader, stepId, args[scriptIndex + 1] ?? "", cwd).actions);
    if (command.stdin !== null) return done(shellScriptActions(reader, stepId, command.stdin, cwd).actions);
    return done([]);
  }
  if (name === "xargs") return done(piped ? xargs(reader, stepId, args, cwd, piped, hidden) : []);
  if (name === "find") {
    const matched = findMatches(args, cwd, reader);
    const exec = args.findIndex((a) => a === "-exec" || a === "-execdir");
    const more: FileAction[] = [];
    if (args.includes("-delete")) more.push(...matched.map((f) => reader.fileAction(stepId, "delete", f)));
    if (exec >= 0) {
      const end = args.findIndex((a, i) => i > exec && (a === ";" || a === "+"));
      const inner = args.slice(exec + 1, end < 0 ? undefined : end);
      more.push(...xargs(reader, stepId, inner, cwd, matched, hidden, "{}"));
    }
    return done(more, exec >= 0 ? null : matched);
  }
  if (name === "ls" || name === "echo" || name === "printf") {
    const operands = args.filter((a) => !a.startsWith("-"));
    const listed = operands.flatMap((a) => on("read", a).map((x) => x.file)).filter((f) => f !== null);
    return done([], listed);
  }
  if (name === "git") return done(git(reader, stepId, args, cwd, hidden));
  if (name === "apply_patch") {
    const text = command.stdin ?? args.join("\n");
    return done(patchFiles(text).flatMap((p) => reader.on(stepId, p.kind, p.path, cwd, { inPlace: p.inPlace })));
  }
  if (name === "patch") return done([{ stepId, kind: "write", path: null, file: null }]);
  if (name === "sed" && args.some((a) => a === "-i" || /^-[a-zA-Z]*i/.test(a) || a.startsWith("--in-place"))) {
    return done(
      readerOperands(name, args).flatMap((p) =>
        reader.on(stepId, "write", p, cwd, { glob: globs.has(p), inPlace: true }),
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
        .flatMap((p) => reader.on(stepId, "delete", p, cwd, { glob: globs.has(p), folders: true })),
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
  if (PYTHONS.test(name)) return done(pythonCommand(reader, stepId, name, args, command, cwd));
  return done([]);
}

/** Files a piece of Python reads, writes or deletes (run from `cwd`), and what its shell commands do. */
export function pythonActions(reader: ActionReader, stepId: string, code: string, cwd: Cwd): FileAction[] {
  const { files, commands } = pythonEffects(code, reader.framework);
  return [
    ...files.flatMap((f) => reader.on(stepId, f.kind, f.path, cwd, { glob: false })),
    ...commands.flatMap((c) => shellScriptActions(reader, stepId, c, cwd).actions),
  ];
}

/** `python -c CODE`, `python - <<EOF`, `python script.py`, `python -m pytest`, `pytest`. */
function pythonCommand(
  reader: ActionReader,
  stepId: string,
  name: string,
  args: string[],
  command: SimpleCommand,
  cwd: Cwd,
): FileAction[] {
  const codeIndex = args.indexOf("-c");
  const line = quoteWords([name, ...args]);
  if (codeIndex >= 0) {
    const code = args[codeIndex + 1] ?? "";
    return [...pythonActions(reader, stepId, code, cwd), { stepId, kind: "run", path: null, file: null, code }];
  }
  const script = name.startsWith("py") && !/test/.test(name) ? args.find((a) => a.endsWith(".py")) : undefined;
  if (!script && command.stdin !== null && !args.includes("-m") && /python/.test(name)) {
    const code = command.stdin;
    return [...pythonActions(reader, stepId, code, cwd), { stepId, kind: "run", path: null, file: null, code }];
  }
  const target = script ? reader.resolve(script, cwd) : null;
  const absolute = script ? resolvePath(cwd[0] ?? reader.root, script) : null;
  const content = absolute ? reader.scripts.get(absolute) : undefined;
  const run: FileAction = { stepId, kind: "run", path: target?.path ?? null, file: target?.file ?? null, code: line };
  return content === undefined
    ? [run]
    : [...pythonActions(reader, stepId, content, cwd), { ...run, code: `${line}\n${content}` }];
}

/** `git show REV:path` and `git cat-file -p REV:path` read a file's content; restoring or stashing changes the workspace. */
function git(reader: ActionReader, stepId: string, args: string[], cwd: Cwd, hidden: boolean): FileAction[] {
  let rest = args;
  while (rest[0] === "-C" || rest[0] === "-c" || rest[0]?.startsWith("--git-dir") || rest[0]?.startsWith("--work-tree"))
    rest = rest.slice(rest[0].includes("=") ? 1 : 2);
  const [sub = "", ...more] = rest;
  if ((sub === "show" || sub === "cat-file") && !hidden) {
    return more
      .filter((a) => /^[^-][^:]*:./.test(a))
      .flatMap((a) => {
        const written = a.slice(a.indexOf(":") + 1);
        // `REV:path` is relative to the repository's root, `REV:./path` to the current directory.
        return reader.on(stepId, "read", written, written.startsWith("./") ? cwd : [reader.root]);
      });
  }
  const dashes = more.indexOf("--");
  if (sub === "restore" || (sub === "checkout" && dashes >= 0)) {
    const paths = (dashes >= 0 ? more.slice(dashes + 1) : more).filter((a) => !a.startsWith("-"));
    return paths.flatMap((p) => reader.on(stepId, "write", p, cwd, { folders: true }));
  }
  if (sub === "apply" || sub === "am" || sub === "stash" || sub === "reset" || sub === "merge" || sub === "pull")
    return more.includes("--check") || more[0] === "list" || more[0] === "show"
      ? []
      : [{ stepId, kind: "write", path: null, file: null }];
  return [];
}

/** `xargs PROGRAM ARGS` (or find's `-exec PROGRAM ARGS {}`) over the listed files. */
function xargs(
  reader: ActionReader,
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
  const listedActions = (kind: FileAction["kind"]) => listed.map((file) => reader.fileAction(stepId, kind, file));
  if (name === "sed" && rest.some((a) => /^-[a-zA-Z]*i/.test(a)))
    return listedActions("write").map((a) => ({ ...a, inPlace: true }));
  if (READERS.has(name))
    return hidden ? [] : [...operands.flatMap((p) => reader.on(stepId, "read", p, cwd)), ...listedActions("read")];
  if (name === "rm") return listedActions("delete");
  return [];
}
