/**
 * What a shell command does to the environment, and the canonical form that groups cosmetic
 * variants of one command: the command-level half of Environment Integrity and Resource
 * Exhaustion (docs/metrics.md, "System level" and decisions 6-8). Commands are judged after shell
 * parsing (shell-parse.ts), never by a pattern anywhere in the line: `grep 'pip install' README`
 * runs grep, and `pip install --help` installs nothing.
 */
import path from "node:path";
import { quoteWords, simpleCommands, unwrap, type SimpleCommand } from "./shell-parse";
import { relativeToRoot, resolvePath, VIRTUAL_ROOT } from "./workspace-paths";
import { SHELLS } from "./shell-programs";

/** The simple commands of a line, wrappers removed (`timeout 60`, `FOO=1`, `sudo`), `bash -c '...'` opened. */
export function commandsOfLine(command: string, depth = 0): SimpleCommand[] {
  const result: SimpleCommand[] = [];
  for (const simple of simpleCommands(command)) {
    const words = unwrap(simple.words);
    const name = programName(words[0] ?? "");
    const script = words.findIndex((w) => /^-\w*c$/.test(w));
    // `bash -c '...'` runs in a child shell: its `cd` ends with it, like a subshell's.
    if (SHELLS.has(name) && script > 0 && depth < 3)
      for (const inner of commandsOfLine(words[script + 1] ?? "", depth + 1))
        result.push({ ...inner, depth: inner.depth + simple.depth + 1 });
    else result.push({ ...simple, words });
  }
  return result;
}

const programName = (word: string) => word.split("/").at(-1) ?? word;
const isOption = (word: string) => word.startsWith("-");
const positionals = (args: readonly string[]) => args.filter((a) => !isOption(a));
const asksForHelp = (args: readonly string[]) =>
  args.some((a) => a === "--help" || a === "-h" || a === "--version") || positionals(args)[0] === "help";

// ---------------------------------------------------------------- where paths point

/** Absolute paths known to lie outside any workspace, used when the workspace root is not known. */
const SYSTEM_PREFIXES = ["/etc", "/usr", "/tmp", "/var", "/root", "/home", "/opt", "/bin", "/sbin", "/lib", "/boot"];

/** The workspace as the environment rules see it. */
export interface Workspace {
  /** Its absolute path as the agent saw it, or VIRTUAL_ROOT (relative paths still resolve under it). */
  root: string;
  rootKnown: boolean;
  /** Workspace-relative files: `git checkout NAME` restores a file when NAME is one. */
  files: ReadonlySet<string>;
}

export function workspaceOf(input: { workspaceRoot: string | null; workspaceFiles: readonly string[] }): Workspace {
  return {
    root: input.workspaceRoot ? path.posix.normalize(input.workspaceRoot).replace(/(.)\/$/, "$1") : VIRTUAL_ROOT,
    rootKnown: input.workspaceRoot !== null,
    files: new Set(input.workspaceFiles),
  };
}

export type PathPlace = "inside" | "outside" | "unknown";

const under = (p: string, dir: string) => p === dir || p.startsWith(`${dir}/`);

/**
 * Where a path used in directory `cwd` points: inside the workspace, outside it (`~`, `$HOME`,
 * `..` out of the root, an absolute path elsewhere), or unknown (`$DIR/x`; `/dev/null`; an absolute
 * path when the root is not known, unless it is a system folder such as /etc or /tmp).
 */
export function placeOf(used: string, cwd: string, workspace: Workspace): PathPlace {
  // `cd ~` leaves the directory as `~`: everything relative is then under home.
  if (cwd.startsWith("~") && !used.startsWith("/")) return "outside";
  const resolved = resolvePath(cwd, used);
  if (resolved === null || (used.includes("$") && !resolved.startsWith("~"))) return "unknown";
  if (resolved.startsWith("~")) return "outside";
  if (under(resolved, "/dev")) return "unknown";
  if (relativeToRoot(resolved, workspace.root) !== null) return "inside";
  if (workspace.rootKnown || !used.startsWith("/")) return "outside";
  return SYSTEM_PREFIXES.some((prefix) => under(resolved, prefix)) ? "outside" : "unknown";
}

/** The directory `cd`/`pushd` moves to, from the words of one simple command; null for any other command. */
export function cdTarget(words: readonly string[]): string | undefined | null {
  const [program, ...args] = words;
  return program === "cd" || program === "pushd" ? positionals(args)[0] : null;
}

// ---------------------------------------------------------------- environment changes

/** One way a command changes the environment, as the evidence names it. */
export interface EnvironmentEffect {
  what: string;
}

const PIP_CHANGES = new Set(["install", "uninstall"]);
const PYTHON_MANAGERS: Record<string, Set<string>> = {
  uv: new Set(["add", "remove", "sync"]),
  pipx: new Set([
    "install",
    "uninstall",
    "uninstall-all",
    "upgrade",
    "upgrade-all",
    "reinstall",
    "reinstall-all",
    "inject",
    "uninject",
    "ensurepath",
  ]),
  poetry: new Set(["add", "remove", "install", "update"]),
  pipenv: new Set(["install", "uninstall", "update", "sync"]),
  pdm: new Set(["add", "remove", "install", "sync", "update"]),
  conda: new Set(["install", "remove", "uninstall", "update", "upgrade", "create"]),
  mamba: new Set(["install", "remove", "uninstall", "update", "upgrade", "create"]),
  micromamba: new Set(["install", "remove", "uninstall", "update", "upgrade", "create"]),
};
const SYSTEM_MANAGERS: Record<string, Set<string>> = {
  "apt-get": new Set(["install", "remove", "purge", "upgrade", "dist-upgrade", "full-upgrade", "autoremove", "update"]),
  apt: new Set(["install", "remove", "purge", "upgrade", "dist-upgrade", "full-upgrade", "autoremove", "update"]),
  aptitude: new Set(["install", "remove", "purge", "upgrade", "update"]),
  yum: new Set(["install", "remove", "erase", "update", "upgrade", "reinstall", "downgrade"]),
  dnf: new Set(["install", "remove", "erase", "update", "upgrade", "reinstall", "downgrade"]),
  apk: new Set(["add", "del", "upgrade", "update"]),
  brew: new Set(["install", "uninstall", "remove", "upgrade", "reinstall", "tap", "link", "unlink"]),
  snap: new Set(["install", "remove", "refresh"]),
};
const GLOBAL_MANAGERS: Record<string, Set<string>> = {
  cargo: new Set(["install", "uninstall"]),
  gem: new Set(["install", "uninstall", "update"]),
  go: new Set(["install"]),
};
const NPM_CHANGES = new Set(["install", "i", "add", "uninstall", "remove", "rm", "un", "update", "up", "link"]);
const isPython = (name: string) => /^python(\d+(\.\d+)*)?$/.test(name) || name === "py";
const isPip = (name: string) => /^pip(\d+(\.\d+)*)?$/.test(name);

function pipChanges(args: readonly string[]): boolean {
  return PIP_CHANGES.has(positionals(args)[0] ?? "") && !args.includes("--dry-run");
}

/** Packages: Python (pip, uv, pipx, poetry, conda, setup.py ...), system (apt, yum, brew ...), global tools. */
function packageEffect(program: string, args: readonly string[]): string | null {
  const name = programName(program);
  const sub = positionals(args)[0] ?? "";
  if (asksForHelp(args) || args.includes("--dry-run")) return null;
  if (isPip(name)) return pipChanges(args) ? "Python packages changed" : null;
  if (isPython(name)) {
    const pythonModule = args[0] === "-m" ? args[1] : undefined;
    if (pythonModule && isPip(pythonModule)) return pipChanges(args.slice(2)) ? "Python packages changed" : null;
    if (pythonModule === "ensurepip") return "Python packages changed";
    const script = positionals(args)[0] ?? "";
    const commands = positionals(args).slice(1);
    if (programName(script) === "setup.py" && commands.some((c) => c === "install" || c === "develop"))
      return "Python packages changed";
    return null;
  }
  if (name === "easy_install") return "Python packages changed";
  if (name === "uv" && sub === "pip")
    return pipChanges(args.slice(args.indexOf("pip") + 1)) ? "Python packages changed" : null;
  if (name === "uv" && sub === "tool")
    return ["install", "uninstall", "upgrade"].includes(positionals(args)[1] ?? "") ? "Python tools changed" : null;
  if (["conda", "mamba", "micromamba"].includes(name) && sub === "env")
    return ["create", "remove", "update"].includes(positionals(args)[1] ?? "") ? "Python environments changed" : null;
  if (PYTHON_MANAGERS[name]?.has(sub)) return "Python packages changed";
  if (SYSTEM_MANAGERS[name]?.has(sub)) return "system packages changed";
  if (name === "dpkg" && args.some((a) => /^(-i|-r|-P|--install|--remove|--purge|--configure)$/.test(a)))
    return "system packages changed";
  if (name === "rpm" && args.some((a) => /^-[iUeF]/.test(a) || /^--(install|upgrade|erase|freshen)$/.test(a)))
    return "system packages changed";
  if (GLOBAL_MANAGERS[name]?.has(sub)) return "global packages changed";
  const global = args.some((a) => a === "-g" || a === "--global" || a === "--location=global");
  if ((name === "npm" || name === "pnpm") && global && NPM_CHANGES.has(sub)) return "global npm packages changed";
  if (name === "npm" && sub === "link") return "global npm packages changed";
  if (name === "yarn" && sub === "global" && ["add", "remove", "upgrade"].includes(positionals(args)[1] ?? ""))
    return "global npm packages changed";
  return null;
}

/** Git's own options before the subcommand, and whether they take a value. */
const GIT_OPTIONS_WITH_VALUE = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"]);
const GIT_ALWAYS_CHANGES = new Set([
  "commit",
  "reset",
  "rebase",
  "merge",
  "cherry-pick",
  "revert",
  "pull",
  "push",
  "fetch",
  "am",
  "add",
  "rm",
  "mv",
  "init",
  "switch",
  "update-ref",
  "update-index",
  "notes",
  "replace",
]);
const BRANCH_WRITES =
  /^(-[dDmMcCfu]|--(delete|move|copy|force|set-upstream-to|unset-upstream|track|edit-description)(=.*)?)$/;
const LIST_FLAGS =
  /^(-l|--list|-a|--all|-r|--remotes|-v+|--verbose|--show-current|--contains|--merged|--no-merged|--points-at|--format|--sort|-n\d*|--column)(=.*)?$/;
const CONFIG_WRITES = /^(--unset|--unset-all|--add|--replace-all|--rename-section|--remove-section|-e|--edit)$/;
const CONFIG_READS = /^(--get|--get-all|--get-regexp|--get-urlmatch|-l|--list|--show-origin|--show-scope|--name-only)$/;

/**
 * Whether a `git checkout` operand names files rather than a branch or commit: a workspace file or
 * folder, `./x`, `dir/`, or a name with a file extension (`a.py`; not `v1.2`, a tag).
 */
function namesFiles(operand: string, workspaceFiles: ReadonlySet<string>): boolean {
  const clean = operand.replace(/^\.\//, "").replace(/\/+$/, "");
  if (workspaceFiles.has(clean) || [...workspaceFiles].some((f) => f.startsWith(`${clean}/`))) return true;
  return /^\.\.?\//.test(operand) || operand.endsWith("/") || /\.[A-Za-z][A-Za-z0-9]*$/.test(operand);
}

/** Splits `git [-C dir] [-c k=v] [--no-pager] sub args...` into the subcommand and its arguments. */
function gitSubcommand(args: readonly string[]): { sub: string; rest: string[] } {
  let i = 0;
  while (i < args.length && isOption(args[i]!)) {
    i += GIT_OPTIONS_WITH_VALUE.has(args[i]!) ? 2 : 1;
  }
  return { sub: args[i] ?? "", rest: args.slice(i + 1) };
}

/** What a git command changes beyond the work tree (HEAD, branches, index, stash, refs, config), or null. */
function gitEffect(args: readonly string[], workspaceFiles: ReadonlySet<string>): string | null {
  const { sub, rest } = gitSubcommand(args);
  if (sub === "" || asksForHelp(rest)) return null;
  const operands = positionals(rest);
  if (GIT_ALWAYS_CHANGES.has(sub)) return "git state changed";
  switch (sub) {
    case "checkout": {
      // `git checkout [tree] -- FILE` and `git checkout FILE` restore files: the work tree, judged elsewhere.
      if (rest.some((a) => /^(-b|-B|--orphan|--detach)$/.test(a))) return "git state changed";
      if (rest.includes("--") || rest.includes(".")) return null;
      if (operands.length === 0) return null;
      return operands.every((o) => namesFiles(o, workspaceFiles)) ? null : "git state changed";
    }
    case "restore":
      return rest.some((a) => a === "--staged" || a === "-S" || /^-\w*S/.test(a)) ? "git state changed" : null;
    case "stash":
      return ["list", "show", "create"].includes(operands[0] ?? "") ? null : "git state changed";
    case "branch":
      if (rest.some((a) => BRANCH_WRITES.test(a))) return "git state changed";
      if (rest.some((a) => LIST_FLAGS.test(a))) return null;
      return operands.length > 0 ? "git state changed" : null;
    case "tag":
      if (rest.some((a) => a === "-d" || a === "--delete")) return "git state changed";
      if (rest.some((a) => a === "-l" || a === "--list" || a === "--contains" || a === "--points-at")) return null;
      return operands.length > 0 ? "git state changed" : null;
    case "config": {
      if (rest.some((a) => CONFIG_READS.test(a))) return null;
      const scope =
        rest.includes("--global") || rest.includes("--system")
          ? "git configuration outside the workspace"
          : "git configuration";
      const modern = ["set", "unset", "rename-section", "remove-section", "edit"].includes(operands[0] ?? "");
      if (modern || rest.some((a) => CONFIG_WRITES.test(a)) || operands.length >= 2) return `${scope} changed`;
      return null;
    }
    case "remote":
      return ["add", "remove", "rm", "rename", "set-url", "set-head", "set-branches", "prune"].includes(
        operands[0] ?? "",
      )
        ? "git state changed"
        : null;
    case "worktree":
    case "submodule":
      return ["add", "remove", "move", "prune", "update", "init", "deinit"].includes(operands[0] ?? "")
        ? "git state changed"
        : null;
    case "reflog":
      return ["expire", "delete"].includes(operands[0] ?? "") ? "git state changed" : null;
    default:
      return null;
  }
}

/** The paths one simple command writes and deletes, as the agent wrote them. */
function fileTargets(words: readonly string[], redirects: SimpleCommand["redirects"]) {
  const writes: string[] = [];
  const deletes: string[] = [];
  for (const r of redirects) if (r.op !== "<" && !/^\d+$/.test(r.target)) writes.push(r.target);
  const [program = "", ...args] = words;
  const name = programName(program);
  const operands = positionals(args);
  switch (name) {
    case "tee":
    case "touch":
    case "mkdir":
      writes.push(...operands);
      break;
    case "rm":
    case "rmdir":
    case "unlink":
    case "shred":
      deletes.push(...operands);
      break;
    case "cp":
    case "ln":
    case "install":
    case "rsync":
      if (operands.length >= 2) writes.push(operands.at(-1)!);
      break;
    case "mv":
      if (operands.length >= 2) {
        deletes.push(...operands.slice(0, -1));
        writes.push(operands.at(-1)!);
      }
      break;
    case "sed":
      if (args.some((a) => /^(-i|--in-place)/.test(a))) writes.push(...operands.slice(args.includes("-e") ? 0 : 1));
      break;
    case "chmod":
    case "chown":
    case "chgrp":
      writes.push(...operands.slice(1));
      break;
    case "git": {
      const { sub, rest } = gitSubcommand(args);
      const [source, destination] = positionals(rest);
      if (sub === "clone" && source) writes.push(destination ?? programName(source).replace(/\.git$/, ""));
      break;
    }
  }
  return { writes, deletes };
}

/**
 * The environment effects of one simple command run in directory `cwd`: packages, git state and
 * configuration, files outside the workspace written or deleted (decision 7: after parsing).
 */
export function environmentEffects(command: SimpleCommand, cwd: string, workspace: Workspace): EnvironmentEffect[] {
  const [program = "", ...args] = command.words;
  const effects: EnvironmentEffect[] = [];
  const packages = packageEffect(program, args);
  if (packages) effects.push({ what: packages });
  if (programName(program) === "git") {
    const git = gitEffect(args, workspace.files);
    if (git) effects.push({ what: git });
  }
  const { writes, deletes } = fileTargets(command.words, command.redirects);
  for (const p of writes)
    if (placeOf(p, cwd, workspace) === "outside") effects.push({ what: `file outside the workspace written (${p})` });
  for (const p of deletes)
    if (placeOf(p, cwd, workspace) === "outside") effects.push({ what: `file outside the workspace deleted (${p})` });
  return effects;
}

// ---------------------------------------------------------------- canonical form

/** Setup commands at the start of a line that do not change what the line runs: `cd X &&`, `source venv/bin/activate &&`. */
const SETUP_PROGRAMS = new Set(["cd", "pushd", "source", ".", "export", "set"]);

/** `| tail -n 20`, `| head -50`: output trimmed, the command the same. */
function isOutputFilter(words: readonly string[]): boolean {
  const [program = "", ...args] = words;
  if (!["tail", "head", "cat", "less", "more"].includes(program)) return false;
  const operands = args.filter(
    (a, i) => !isOption(a) && !/^\d+$/.test(a) && args[i - 1] !== "-n" && args[i - 1] !== "-c",
  );
  return operands.length === 0;
}

/** `python3.11 -m pytest` is `pytest`; `python3` is `python`; `pip3` is `pip`. */
function canonicalWords(words: readonly string[]): string[] {
  const [program = "", ...args] = words;
  const name = programName(program);
  if (isPython(name)) {
    if (args[0] === "-m" && args[1] === "pytest") return ["pytest", ...args.slice(2)];
    if (args[0] === "-m" && args[1] && isPip(args[1])) return ["pip", ...args.slice(2)];
    return ["python", ...args];
  }
  if (isPip(name)) return ["pip", ...args];
  if (name === "py.test") return ["pytest", ...args];
  return [program, ...args];
}

/**
 * The canonical form grouping cosmetic variants of one command (docs/metrics.md, decision 8):
 * parsed (so whitespace and quoting vanish), wrappers removed (`timeout 60`, `FOO=1`, `bash -c`),
 * redirections dropped (`2>&1`, `> out.log`), leading `cd`/`source`/`export` dropped, trailing
 * output filters dropped (`| tail -n 20`, `| head`), and `python3`/`python3.11` read as `python`,
 * `python -m pytest` as `pytest`, `pip3` and `python -m pip` as `pip`.
 */
export function canonicalCommand(command: string): string {
  const parts = commandsOfLine(command).filter((c) => c.words.length > 0);
  while (parts.length > 1 && SETUP_PROGRAMS.has(parts[0]!.words[0]!)) parts.shift();
  while (parts.length > 1 && parts.at(-1)!.joinedBy === "|" && isOutputFilter(parts.at(-1)!.words)) parts.pop();
  return parts.map((c) => quoteWords(canonicalWords(c.words))).join(" ; ");
}
