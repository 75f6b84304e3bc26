/**
 * What a bubblewrap sandbox shows of the host: an allow-list, not the host minus hidden folders.
 * The root is an empty tmpfs, remounted read-only once everything is in place; on it go the system
 * folders (read-only), the /etc files programs need without a network (no shadow, no sudoers, no
 * SSH configuration), the interpreters the host's PATH resolves when they live outside /usr (a
 * pyenv Python under /root/.pyenv, a Node under a version manager: only their install prefix),
 * fresh /dev and /proc, size-bounded tmpfs on /tmp and /dev/shm, and the run's own folders.
 * Everything else (/root, /home, the project, other runs) does not exist inside.
 * docs/external-agents.md describes the view for agent authors. Shared by the runner's command
 * sandbox (lib/runner/sandbox.ts) and the analyzer's CPython helper (lib/analysis/cpython-check.ts).
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** Shown read-only, or recreated as the same symlink (merged /usr: /bin -> usr/bin). */
const SYSTEM_PATHS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

/**
 * /etc entries shown: users and groups without their password hashes, name resolution from files,
 * time zone and locale, certificates, the dynamic loader's cache, Debian's alternatives (most of
 * /usr/bin/awk, editor, ... are links into it), git's and Python's system configuration.
 * Not /etc/profile: for root it resets PATH and would drop the interpreters chosen below.
 */
const ETC_ENTRIES = [
  "passwd",
  "group",
  "hostname",
  "hosts",
  "host.conf",
  "nsswitch.conf",
  "resolv.conf",
  "services",
  "protocols",
  "localtime",
  "timezone",
  "locale.alias",
  "locale.conf",
  "default/locale",
  "ssl",
  "ca-certificates",
  "ca-certificates.conf",
  "pki",
  "alternatives",
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "os-release",
  "debian_version",
  "mime.types",
  "magic",
  "inputrc",
  "bash.bashrc",
  "terminfo",
  "gitconfig",
  "mtab",
  ...["python3", "python3.11", "python3.12", "python3.13"],
];

/** Where commands look for programs, after the interpreters' own bin folders. */
const SYSTEM_PATH = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"];

/** One bwrap mount (or link) and where it lands: mounts are applied parents first. */
export interface Mount {
  target: string;
  args: string[];
}

export interface HostView {
  /** The read-only part of the view. */
  mounts: Mount[];
  /** PATH inside the sandbox. */
  path: string;
  /** Host folders shown read-only (system folders and interpreter prefixes), for tests and descriptions. */
  shown: string[];
}

function lstat(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch {
    return null;
  }
}

/** `--ro-bind` for a file or folder, `--symlink` for a link (its target may be relative: kept as is). */
function show(file: string): Mount[] {
  const stat = lstat(file);
  if (!stat) return [];
  if (stat.isSymbolicLink()) return [{ target: file, args: ["--symlink", fs.readlinkSync(file), file] }];
  return [{ target: file, args: ["--ro-bind", file, file] }];
}

const underSystem = (dir: string) => SYSTEM_PATHS.some((s) => dir === s || dir.startsWith(`${s}/`));

/** Install prefixes of python3 and node as the host's PATH resolves them (null when absent). */
function interpreterPrefixes(env: NodeJS.ProcessEnv): Promise<string[]> {
  const probe = (file: string, args: string[]) =>
    new Promise<string[]>((resolve) => {
      execFile(file, args, { env, timeout: 10_000, encoding: "utf8" }, (error, stdout) =>
        resolve(error ? [] : stdout.split("\n").filter((line) => path.isAbsolute(line))),
      );
    });
  return Promise.all([
    // A venv's prefix holds only links to its base: both are needed.
    probe("python3", ["-c", "import sys; print(sys.prefix); print(sys.base_prefix)"]),
    probe("node", ["-p", "require('path').dirname(require('path').dirname(process.execPath))"]),
  ]).then((lists) => lists.flat());
}

let viewProbe: Promise<HostView> | null = null;

/** The host part of the view, probed once per process (interpreters do not move during a run). */
export function hostView(): Promise<HostView> {
  viewProbe ??= (async () => {
    const prefixes: string[] = [];
    for (const prefix of await interpreterPrefixes(process.env)) {
      const real = fs.realpathSync(prefix);
      if (!underSystem(real) && !prefixes.includes(real) && lstat(path.join(real, "bin"))?.isDirectory())
        prefixes.push(real);
    }
    const mounts = [
      ...SYSTEM_PATHS.flatMap(show),
      ...ETC_ENTRIES.flatMap((entry) => show(path.join("/etc", entry))),
      ...prefixes.flatMap(show),
    ];
    const shown = [...SYSTEM_PATHS.filter((p) => lstat(p)?.isDirectory()), ...prefixes];
    return { mounts, path: [...prefixes.map((p) => path.join(p, "bin")), ...SYSTEM_PATH].join(":"), shown };
  })();
  return viewProbe;
}

export interface ViewOptions {
  workspaceDir: string;
  homeDir: string;
  tmpDir: string;
  /** Size of the /tmp and of the /dev/shm tmpfs, bytes (each is memory). */
  tmpfsBytes: number;
  hide?: string[];
  readOnlyBinds?: string[];
  binds?: { source: string; target: string }[];
  /** Mounts over the workspace, applied after it (the sandbox guard: lib/runner/guard-mounts.ts). */
  guard?: Mount[];
}

const inside = (dir: string, root: string) => dir === root || dir.startsWith(`${root}/`);

const depth = (target: string) => target.split("/").filter(Boolean).length;

/** The mounts of one sandbox as bwrap arguments. */
export function viewArgs(view: HostView, options: ViewOptions): string[] {
  const writable = [...new Set([options.workspaceDir, options.homeDir, options.tmpDir])];
  const readOnly = options.readOnlyBinds ?? [];
  const extra = options.binds ?? [];
  // A hidden folder only needs covering where it would show through something mounted; elsewhere
  // it does not exist inside. Its cover is a small tmpfs, made read-only once all is mounted.
  const roots = [...view.shown, ...readOnly, ...writable, ...extra.map((b) => b.target)];
  const hidden = (options.hide ?? []).filter((dir) => roots.some((root) => inside(dir, root)));
  const size = String(options.tmpfsBytes);
  const tmpfs = (target: string, bytes: string): Mount => ({ target, args: ["--size", bytes, "--tmpfs", target] });
  const mounts: Mount[] = [
    ...view.mounts,
    { target: "/dev", args: ["--dev", "/dev"] },
    tmpfs("/dev/shm", size),
    { target: "/proc", args: ["--proc", "/proc"] },
    tmpfs("/tmp", size),
    // Before the binds of the same depth: a cover first, then what is shown inside it.
    ...hidden.map((dir) => tmpfs(dir, "65536")),
    ...readOnly.map((dir) => ({ target: dir, args: ["--ro-bind", dir, dir] })),
    ...writable.map((dir) => ({ target: dir, args: ["--bind", dir, dir] })),
    ...extra.map((b) => ({ target: b.target, args: ["--bind", b.source, b.target] })),
    ...(options.guard ?? []),
  ];
  // Parents before what lies inside them (a workspace under /tmp after the /tmp tmpfs, a cover
  // inside the workspace after the workspace); the sort is stable, so equal depths keep this order.
  return [
    ...mounts.sort((a, b) => depth(a.target) - depth(b.target)).flatMap((m) => m.args),
    ...hidden.flatMap((dir) => ["--remount-ro", dir]),
    // The root tmpfs holds only mount points: read-only, nothing can be written to it (it is memory).
    ...["--remount-ro", "/"],
  ];
}
