/**
 * The system packages the project needs beyond Node and npm, each with how to tell it is there
 * and why it is needed. The demo checks them before any work, `npm test` before the browser tests
 * (scripts/setup.ts); as root (or with passwordless sudo) the missing ones are installed with
 * apt-get, as `playwright install --with-deps` does, otherwise one message names the command.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";

export type SetupPurpose = "demo" | "test";

/** The environment variables read here (PATH, CHROMIUM_PATH): any process.env-like record. */
export type Env = Readonly<Record<string, string | undefined>>;

export type Presence =
  { kind: "command"; name: string } | { kind: "python-module"; module: string } | { kind: "file"; path: string };

export interface SystemPackage {
  /** The Debian/Ubuntu package that provides it. */
  apt: string;
  why: string;
  presence: Presence;
  neededFor: SetupPurpose[];
}

export const CHROMIUM_DEFAULT_PATH = "/usr/bin/chromium";

/**
 * How the tests and bench:pages start Chromium: headless as root, and none of its background
 * connections, which this machine's closed network refuses many at a time.
 */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function systemPackages(env: Env): SystemPackage[] {
  return [
    {
      apt: "bubblewrap",
      why: "the agent sandbox (no network, the host hidden, limits)",
      presence: { kind: "command", name: "bwrap" },
      neededFor: ["demo", "test"],
    },
    {
      apt: "procps",
      why: "ps, to find the processes an agent leaves behind",
      presence: { kind: "command", name: "ps" },
      neededFor: ["demo", "test"],
    },
    {
      apt: "git",
      why: "the git state of workspaces (HEAD, branch, index, stash) and agents' git commands",
      presence: { kind: "command", name: "git" },
      neededFor: ["demo", "test"],
    },
    {
      apt: "python3",
      why: "the interpreter the benchmark's Python repositories and the agents' commands run on",
      presence: { kind: "command", name: "python3" },
      neededFor: ["demo", "test"],
    },
    {
      apt: "python3-pip",
      why: "pip, to list installed packages for the environment snapshots",
      presence: { kind: "python-module", module: "pip" },
      neededFor: ["demo", "test"],
    },
    {
      apt: "python3-pytest",
      why: "pytest, which runs the samples' own tests when task completion is checked (evaluate --task-checks)",
      presence: { kind: "python-module", module: "pytest" },
      neededFor: ["demo", "test"],
    },
    {
      apt: "redis-server",
      why: "the queue of a distributed study (BullMQ); the end-to-end test of workers on several machines starts one",
      presence: { kind: "command", name: "redis-server" },
      neededFor: ["test"],
    },
    {
      apt: "chromium",
      why: "the browser the end-to-end tests drive (Playwright never downloads one)",
      presence: { kind: "file", path: env.CHROMIUM_PATH || CHROMIUM_DEFAULT_PATH },
      neededFor: ["test"],
    },
  ];
}

function succeeds(file: string, args: string[], env: Env): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(file, args, { env: env as NodeJS.ProcessEnv, timeout: 20_000 }, (error) => resolve(!error));
  });
}

function onPath(name: string, env: Env): boolean {
  for (const dir of (env.PATH ?? "").split(":")) {
    if (!dir) continue;
    try {
      fs.accessSync(`${dir}/${name}`, fs.constants.X_OK);
      return true;
    } catch {
      // not in this folder
    }
  }
  return false;
}

export async function isPresent(presence: Presence, env: Env): Promise<boolean> {
  switch (presence.kind) {
    case "command":
      return onPath(presence.name, env);
    case "file":
      return fs.existsSync(presence.path);
    case "python-module":
      return onPath("python3", env) && (await succeeds("python3", ["-c", `import ${presence.module}`], env));
  }
}

/** The packages needed for `purpose` that are not on this machine. */
export async function missingPackages(purpose: SetupPurpose, env: Env): Promise<SystemPackage[]> {
  const needed = systemPackages(env).filter((p) => p.neededFor.includes(purpose));
  const present = await Promise.all(needed.map((p) => isPresent(p.presence, env)));
  return needed.filter((_, i) => !present[i]);
}

/** The one command that installs `packages` on Debian or Ubuntu. */
export function installCommand(packages: SystemPackage[], asRoot: boolean): string {
  const names = packages.map((p) => p.apt).join(" ");
  const prefix = asRoot ? "" : "sudo ";
  return `${prefix}apt-get update && ${prefix}apt-get install -y --no-install-recommends ${names}`;
}

/** One line per package: what it is for. */
export function describeMissing(packages: SystemPackage[]): string {
  return packages.map((p) => `  ${p.apt}: ${p.why}`).join("\n");
}

/**
 * Why agents cannot be sandboxed here, with the command that fixes it, or null when bubblewrap
 * works. Checked once before any run, so a missing sandbox is one error, not one per run.
 */
export async function sandboxUnavailableReason(
  bubblewrapWorks: () => Promise<boolean>,
  env: Env,
): Promise<string | null> {
  if (await bubblewrapWorks()) return null;
  const bwrap = systemPackages(env).find((p) => p.apt === "bubblewrap")!;
  if (!(await isPresent(bwrap.presence, env))) {
    return (
      `bubblewrap is not installed (${bwrap.why}): run \`npm run setup\` as root, or ` +
      `\`${installCommand([bwrap], false)}\`; or pass --allow-unsandboxed to run agents without isolation`
    );
  }
  // Seen in a plain chroot: even root gets EPERM from unshare there ("Failed to make / slave").
  const who =
    process.getuid?.() === 0
      ? "even as root (a chroot, or a container started without the privilege to create namespaces): run on a machine, a VM or a privileged container"
      : "(user namespaces disabled): allow them (sysctl kernel.unprivileged_userns_clone=1) or run as root";
  return `bwrap is installed but cannot create its namespaces here ${who}; or pass --allow-unsandboxed to run agents without isolation`;
}
