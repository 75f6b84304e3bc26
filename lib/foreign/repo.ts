/**
 * The repository a repo diff applies to (`--repo DIR[@REV]`), read so that a run made elsewhere
 * gets its files' contents before and after (lib/foreign/patch-apply.ts rebuilds the after).
 *
 * - `DIR@REV`: the tree of commit REV in the git repository DIR, read with `git ls-tree` and
 *   `git cat-file` (no shell, bounded output, a timeout); the working tree is not looked at.
 * - `DIR`: the files of the folder as they are, read the way the project reads any folder it does
 *   not control (lib/util/untrusted-files.ts: no link followed, no FIFO read, bounded); `.git/` is
 *   left out, and only regular files are listed.
 * A spec that is itself an existing folder is a folder (even with an `@` in its name); otherwise it
 * splits at the first `@` whose left side is an existing folder, so `repo@HEAD@{1}` works.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { readUntrusted } from "@/lib/util/untrusted-files";
import { walkUntrusted } from "@/lib/util/untrusted-walk";

/** One file of the repository larger than this is refused. */
export const MAX_REPO_FILE_BYTES = 32 * 1024 * 1024;
/** A repository with more files than this is refused (a Linux kernel tree has about 90,000). */
export const MAX_REPO_FILES = 500_000;
/** One git command taking longer than this is stopped. */
export const GIT_TIMEOUT_MS = 30_000;

export interface RepoReader {
  /** Shown in messages: `git repository /src/django at 1a2b3c4d5e6f (v4.2)`, `folder /src/django`. */
  describe: string;
  /** The file's bytes, or null when the repository has no regular file (no blob) at that path. */
  readFile(path: string): Promise<Buffer | null>;
  /** Every file's path, relative and '/'-separated, sorted. */
  listFiles(): string[];
}

/** Opens `DIR` or `DIR@REV`; throws a one-line Error when the folder or the revision is not there. */
export async function openRepo(spec: string): Promise<RepoReader> {
  const { dir, rev } = splitSpec(spec);
  return rev === null ? openFolder(dir) : openGitTree(dir, rev);
}

function isFolder(p: string): boolean {
  return p !== "" && fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() === true;
}

function splitSpec(spec: string): { dir: string; rev: string | null } {
  if (isFolder(spec)) return { dir: path.resolve(spec), rev: null };
  for (let at = spec.indexOf("@"); at !== -1; at = spec.indexOf("@", at + 1)) {
    const dir = spec.slice(0, at);
    const rev = spec.slice(at + 1);
    if (isFolder(dir) && rev !== "") return { dir: path.resolve(dir), rev };
  }
  throw new Error(`--repo ${spec}: no such folder (write DIR or DIR@REV)`);
}

async function openFolder(dir: string): Promise<RepoReader> {
  const files: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === ".git") continue;
    if (entry.isFile()) files.push(entry.name);
    else if (entry.isDirectory()) {
      await walkUntrusted(dir, entry.name, (e) => {
        if (e.kind === "file") files.push(e.rel);
      });
    }
    if (files.length > MAX_REPO_FILES) throw new Error(`folder ${dir} has more than ${MAX_REPO_FILES} files`);
  }
  files.sort();
  const listed = new Set(files);
  const describe = `folder ${dir}`;
  return {
    describe,
    listFiles: () => [...files],
    async readFile(rel) {
      if (!listed.has(rel)) return null;
      const read = await readUntrusted(dir, rel, { maxBytes: MAX_REPO_FILE_BYTES, refuseLarger: true });
      if (read.ok) return read.data;
      if (read.kind === "missing") return null;
      throw new Error(`${describe}: ${read.reason}`);
    },
  };
}

/** A plain revision: no option-like start, no spaces or control characters. */
const REVISION = /^[^-\s\x00-\x1f\x7f][^\s\x00-\x1f\x7f]*$/;

async function openGitTree(dir: string, rev: string): Promise<RepoReader> {
  if (!REVISION.test(rev) || rev.length > 256) throw new Error(`--repo ${dir}@${rev}: "${rev}" is not a revision`);
  const commit = (await git(dir, ["rev-parse", "--verify", "--quiet", `${rev}^{commit}`], 1024))
    .toString("utf8")
    .trim();
  if (!/^[0-9a-f]{40,64}$/.test(commit)) throw new Error(`--repo ${dir}@${rev}: git does not know the commit ${rev}`);
  const blobs = new Map<string, { id: string; size: number }>();
  const listing = await git(dir, ["ls-tree", "-r", "-l", "-z", "--full-tree", commit], 256 * 1024 * 1024);
  for (const record of listing.toString("utf8").split("\0")) {
    // `<mode> SP <type> SP <object> SP+ <size> TAB <path>`; submodules (type commit) have no file.
    const m = /^\d+ blob ([0-9a-f]+) +(\d+)\t(.+)$/s.exec(record);
    if (m) blobs.set(m[3]!, { id: m[1]!, size: Number(m[2]) });
    if (blobs.size > MAX_REPO_FILES) throw new Error(`${dir}@${rev} has more than ${MAX_REPO_FILES} files`);
  }
  const files = [...blobs.keys()].sort();
  const describe = `git repository ${dir} at ${commit.slice(0, 12)}${rev === commit ? "" : ` (${rev})`}`;
  return {
    describe,
    listFiles: () => [...files],
    async readFile(rel) {
      const blob = blobs.get(rel);
      if (blob === undefined) return null;
      if (blob.size > MAX_REPO_FILE_BYTES)
        throw new Error(`${describe}: ${rel} is ${blob.size} bytes, over the limit of ${MAX_REPO_FILE_BYTES}`);
      return git(dir, ["cat-file", "blob", blob.id], blob.size + 1);
    },
  };
}

/** `git -C dir ...args` without a shell; its stdout, or an Error with git's first line of complaint. */
function git(dir: string, args: string[], maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      ["-C", dir, ...args],
      {
        encoding: "buffer",
        maxBuffer: maxBytes,
        timeout: GIT_TIMEOUT_MS,
        env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" },
      },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const said = stderr.toString("utf8").trim().split("\n")[0];
        // rev-parse --quiet says nothing for an unknown revision: the caller words that.
        if (args[0] === "rev-parse" && !said) return resolve(Buffer.alloc(0));
        reject(new Error(`git ${args[0]} in ${dir} failed: ${said || error.message}`));
      },
    );
  });
}
