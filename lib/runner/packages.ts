/**
 * Installed Python and system packages for environment snapshots. Listing them is slow (`pip list`
 * takes over a second), so each list is cached per process, and in `cacheFile` across processes
 * (each run-agents job is a process), together with a cheap fingerprint of where packages live
 * (the mtimes of the interpreter's sys.path folders; the dpkg status file). An install or removal
 * changes the fingerprint, so a cached list is never stale; `refresh` re-reads regardless.
 * Packages a run installs for its own user (under the run's HOME) are listed every time.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { EnvironmentSnapshot } from "@/lib/bundle/schema";
import { readUntrusted } from "@/lib/util/untrusted-files";
import { execText } from "./exec-text";

type PackageList = { name: string; version: string }[];

const PipListSchema = z.array(z.object({ name: z.string(), version: z.string() }).loose());
const InterpreterSchema = z.object({ exe: z.string(), path: z.array(z.string()) });

const PIP_TIMEOUT_MS = 60_000;
const DPKG_STATUS = "/var/lib/dpkg/status";

const CachedSchema = z.object({
  fingerprint: z.string(),
  list: z.array(z.object({ name: z.string(), version: z.string() })).nullable(),
});
type Cached = z.infer<typeof CachedSchema>;
const CacheFileSchema = z.object({
  version: z.literal(1),
  python: z.record(z.string(), CachedSchema),
  system: CachedSchema.nullable(),
});
type CacheFile = z.infer<typeof CacheFileSchema>;
const interpreters = new Map<string, Promise<z.infer<typeof InterpreterSchema> | null>>();
const pythonCache = new Map<string, Cached>();
let systemCache: Cached | null = null;

/** Only our own variables: the host's PYTHONUSERBASE must not decide where user packages are. */
function pythonEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1", PIP_NO_CACHE_DIR: "1" };
  delete env.PYTHONUSERBASE;
  delete env.PYTHONNOUSERSITE;
  return { ...env, ...extra };
}

/** The interpreter behind `python` and its sys.path without the user site (resolved once per process). */
function interpreterOf(python: string) {
  let found = interpreters.get(python);
  if (!found) {
    const code = "import json, sys; print(json.dumps({'exe': sys.executable, 'path': [p for p in sys.path if p]}))";
    found = execText(python, ["-I", "-c", code], {
      cwd: "/",
      env: pythonEnv({ PYTHONNOUSERSITE: "1" }),
      timeoutMs: 20_000,
    }).then((out) => {
      const parsed = out === null ? null : InterpreterSchema.safeParse(JSON.parse(out));
      return parsed?.success ? parsed.data : null;
    });
    interpreters.set(python, found);
  }
  return found;
}

async function fingerprintOf(files: string[]): Promise<string> {
  const parts = await Promise.all(
    files.map(async (file) => {
      try {
        const stat = await fs.stat(file);
        return `${file}:${stat.mtimeMs}:${stat.size}`;
      } catch {
        return `${file}:-`;
      }
    }),
  );
  return parts.join("\n");
}

async function readCacheFile(file: string | undefined): Promise<CacheFile | null> {
  if (!file) return null;
  try {
    const parsed = CacheFileSchema.safeParse(JSON.parse(await fs.readFile(file, "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null; // missing or damaged: listed afresh and rewritten
  }
}

/** Updates of the cache file, one at a time within this process (the Python and system lists race). */
let updates: Promise<void> = Promise.resolve();

/** Read, change, write to a scratch name and rename: a reader never sees half a file. */
function updateCacheFile(file: string | undefined, change: (data: CacheFile) => void): Promise<void> {
  if (!file) return Promise.resolve();
  updates = updates.then(() => writeCacheFile(file, change));
  return updates;
}

async function writeCacheFile(file: string, change: (data: CacheFile) => void): Promise<void> {
  const data = (await readCacheFile(file)) ?? { version: 1, python: {}, system: null };
  change(data);
  const scratch = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(scratch, `${JSON.stringify(data)}\n`);
    await fs.rename(scratch, file);
  } catch {
    await fs.rm(scratch, { force: true });
    // Not kept across processes this time; the lists themselves are right.
  }
}

async function pipList(python: string, env: NodeJS.ProcessEnv) {
  // `-I`: no current folder on sys.path, no user site, no PYTHON* variables; and a neutral working
  // folder (pyenv shims read .python-version from it): nothing the agent wrote can run on the host.
  const out = await execText(python, ["-I", "-m", "pip", "list", "--format=json"], {
    cwd: "/",
    env,
    timeoutMs: PIP_TIMEOUT_MS,
  });
  if (out === null) return null;
  try {
    const parsed = PipListSchema.safeParse(JSON.parse(out));
    return parsed.success ? parsed.data.map((p) => ({ name: p.name, version: p.version })) : null;
  } catch {
    return null;
  }
}

/**
 * `~/.local/lib/python*\/site-packages` under the run's HOME: where an unprivileged `pip install`
 * lands. The agent made these folders: one reached through a link (to a folder the sandbox hides)
 * is not listed.
 */
async function userSites(home: string): Promise<string[]> {
  const lib = path.join(home, ".local", "lib");
  const plainFolder = async (dir: string) => (await fs.lstat(dir).catch(() => null))?.isDirectory() === true;
  if (!(await plainFolder(path.join(home, ".local"))) || !(await plainFolder(lib))) return [];
  const names = (await fs.readdir(lib).catch(() => [] as string[])).filter((n) => n.startsWith("python")).sort();
  const sites: string[] = [];
  for (const name of names) {
    const site = path.join(lib, name, "site-packages");
    if ((await plainFolder(path.join(lib, name))) && (await plainFolder(site))) sites.push(site);
  }
  return sites;
}

export interface PackageOptions {
  python: string;
  home: string;
  cwd: string;
  refresh: boolean;
  /** A JSON file keeping the lists across processes; none by default. */
  cacheFile?: string;
}

export async function pythonPackages(options: PackageOptions): Promise<PackageList | null> {
  const interpreter = await interpreterOf(options.python);
  if (!interpreter) return null;
  const fingerprint = `${interpreter.exe}\n${await fingerprintOf(interpreter.path)}`;
  let cached = pythonCache.get(options.python);
  if (!options.refresh && cached?.fingerprint !== fingerprint)
    cached = (await readCacheFile(options.cacheFile))?.python[options.python];
  if (options.refresh || !cached || cached.fingerprint !== fingerprint) {
    const fresh = { fingerprint, list: await pipList(options.python, pythonEnv({ PYTHONNOUSERSITE: "1" })) };
    if (fresh.list) await updateCacheFile(options.cacheFile, (data) => void (data.python[options.python] = fresh));
    cached = fresh;
  }
  pythonCache.set(options.python, cached);
  if (!cached.list) return null;
  const sites = await userSites(options.home);
  if (sites.length === 0) return cached.list;
  // Packages the run installed for its own user: listed after the global ones so they win in a diff.
  // Read from their metadata files here, never by `pip list --path`: pip follows the links and
  // opens the FIFOs an agent can leave in a `*.dist-info` folder.
  const user: PackageList = [];
  for (const site of sites) user.push(...(await userSitePackages(site)));
  return [...cached.list, ...user];
}

/** The most metadata read per package: the headers come first, the description after them. */
const METADATA_MAX_BYTES = 256 * 1024;

/**
 * `Name` and `Version` of every `*.dist-info/METADATA` and `*.egg-info/PKG-INFO` in one user
 * site-packages folder, each read without following a link, only if it is a regular file.
 */
async function userSitePackages(site: string): Promise<PackageList> {
  const entries = await fs.readdir(site, { withFileTypes: true }).catch(() => []);
  const found: PackageList = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const metadata = entry.name.endsWith(".dist-info")
      ? "METADATA"
      : entry.name.endsWith(".egg-info")
        ? "PKG-INFO"
        : null;
    if (!metadata || !entry.isDirectory()) continue;
    const read = await readUntrusted(site, `${entry.name}/${metadata}`, {
      maxBytes: METADATA_MAX_BYTES,
      timeoutMs: 5_000,
    });
    if (!read.ok) continue;
    const headers = read.data.toString("utf8").split(/\r?\n\r?\n/, 1)[0] ?? "";
    const name = /^Name:[ \t]*(\S.*?)\s*$/m.exec(headers)?.[1];
    const version = /^Version:[ \t]*(\S.*?)\s*$/m.exec(headers)?.[1];
    if (name && version) found.push({ name: name.slice(0, 200), version: version.slice(0, 100) });
  }
  return found;
}

/** Installed Debian packages (status "installed", so a removal that keeps config files still counts). */
export async function systemPackages(refresh: boolean, cacheFile?: string): Promise<PackageList | null> {
  const fingerprint = await fingerprintOf([DPKG_STATUS]);
  if (!refresh && systemCache?.fingerprint !== fingerprint)
    systemCache = (await readCacheFile(cacheFile))?.system ?? null;
  if (!refresh && systemCache && systemCache.fingerprint === fingerprint) return systemCache.list;
  const out = await execText("dpkg-query", ["-W", "-f", "${db:Status-Abbrev}\\t${binary:Package}\\t${Version}\\n"], {
    timeoutMs: 30_000,
  });
  let list: PackageList | null = null;
  if (out !== null) {
    list = [];
    for (const line of out.split("\n")) {
      const [status, name, version] = line.split("\t");
      if (status?.[1] === "i" && name && version !== undefined) list.push({ name, version });
    }
  }
  const fresh = { fingerprint, list };
  systemCache = fresh;
  if (list) await updateCacheFile(cacheFile, (data) => void (data.system = fresh));
  return list;
}

export async function capturePackages(options: PackageOptions): Promise<EnvironmentSnapshot["packages"]> {
  const [python, system] = await Promise.all([
    pythonPackages(options),
    systemPackages(options.refresh, options.cacheFile),
  ]);
  return { python, system };
}
