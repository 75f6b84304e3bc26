/**
 * Fast folder copies and removals for run workspaces (the goal: harness overhead under 1 s for a
 * 5,000-file repository, `npm run bench:runner`). Node's `fs.cp` and `fs.rm` pay one promise
 * round trip per call and took 4.7 s and 0.6 s on such a repository where GNU `cp -a` and
 * `rm -rf` take 0.2 s and 0.1 s; these use the GNU tools and fall back to Node where they are
 * missing.
 */
import { execFile } from "node:child_process";
import fsSync from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

/** Files handled between two yields to the event loop in synchronous walks (gateways share the loop). */
export const FILES_PER_YIELD = 256;

export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function run(file: string, args: string[]): Promise<Error | null> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 10 * 60_000, maxBuffer: 1024 * 1024 }, (error) => resolve(error));
  });
}

async function isCopyable(src: string): Promise<boolean> {
  const stat = await fs.lstat(src);
  return stat.isFile() || stat.isDirectory() || stat.isSymbolicLink();
}

/**
 * Removes what a workspace must not hold and `cp -a` recreates (FIFOs, sockets, device nodes): a
 * FIFO can block a reader, a device node could reach the host's disks. Returns their paths.
 */
async function removeSpecialFiles(dir: string): Promise<string[]> {
  const removed: string[] = [];
  let sinceYield = 0;
  const walk = async (abs: string): Promise<void> => {
    for (const entry of fsSync.readdirSync(abs, { withFileTypes: true })) {
      const full = path.join(abs, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (!entry.isFile() && !entry.isSymbolicLink()) {
        fsSync.unlinkSync(full);
        removed.push(full);
      }
      if (++sinceYield >= FILES_PER_YIELD) {
        sinceYield = 0;
        await yieldToEventLoop();
      }
    }
  };
  await walk(dir);
  return removed;
}

/**
 * Copies the contents of `from` into the existing folder `to`: modes and times kept, symlinks as
 * links with their target verbatim, copy-on-write clones where the file system has them
 * (`--reflink=auto`), FIFOs, sockets and devices left out. No hard links to `from` are made, so
 * nothing written in `to` reaches `from`.
 */
export async function copyInto(from: string, to: string): Promise<void> {
  // `from/.` copies the folder's contents, hidden files included, into `to` (GNU and BSD cp alike).
  const failed = await run("cp", ["-a", "--reflink=auto", "--", `${from}/.`, to]);
  if (failed) {
    // No GNU cp (or it failed midway): start over with Node's copy, which skips special files itself.
    await clearFolder(to);
    await fs.cp(from, to, {
      recursive: true,
      verbatimSymlinks: true,
      errorOnExist: true,
      force: false,
      filter: isCopyable,
    });
    return;
  }
  await removeSpecialFiles(to);
}

async function clearFolder(dir: string): Promise<void> {
  for (const name of await fs.readdir(dir)) await removeTree(path.join(dir, name));
}

/** Removes a folder and everything in it (symlinks are removed, never followed); missing is fine. */
export async function removeTree(dir: string): Promise<void> {
  const failed = await run("rm", ["-rf", "--", dir]);
  if (failed) await fs.rm(dir, { recursive: true, force: true });
}
