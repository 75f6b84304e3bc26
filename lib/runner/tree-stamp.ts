/**
 * Stamps for folders the runner keeps between runs (the workspace cache and its pool of reset
 * workspaces): when the folder was last written and how many files it holds. A folder is untouched
 * since its stamp when no entry's ctime is later (a process can set mtimes back, never ctimes) and
 * the file count still matches, so a stamp check costs one lstat per entry and no reads.
 */
import fsSync from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { FILES_PER_YIELD, yieldToEventLoop } from "./copy-tree";

export const TreeStampSchema = z.object({ writtenAtMs: z.number(), files: z.number().int().min(0) });
export type TreeStamp = z.infer<typeof TreeStampSchema>;

/** A stamp for a folder whose last write is done: +1 because Date.now() drops the fraction of a millisecond ctimes keep. */
export const stampNow = (files: number): TreeStamp => ({ writtenAtMs: Date.now() + 1, files });

export async function writeStamp(file: string, stamp: TreeStamp): Promise<void> {
  await fs.writeFile(file, `${JSON.stringify(stamp)}\n`);
}

export async function readStamp(file: string): Promise<TreeStamp | null> {
  try {
    const parsed = TreeStampSchema.safeParse(JSON.parse(await fs.readFile(file, "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Whether the folder's contents are as they were at the stamp: no entry changed after it, same file count. */
export async function untouchedSince(dir: string, stamp: TreeStamp): Promise<boolean> {
  let count = 0;
  let seen = 0;
  const walk = async (abs: string): Promise<boolean> => {
    for (const entry of fsSync.readdirSync(abs, { withFileTypes: true })) {
      const full = path.join(abs, entry.name);
      if (fsSync.lstatSync(full).ctimeMs > stamp.writtenAtMs) return false;
      if (entry.isDirectory()) {
        if (!(await walk(full))) return false;
      } else count += 1;
      if (++seen % FILES_PER_YIELD === 0) await yieldToEventLoop();
    }
    return true;
  };
  try {
    return (await walk(dir)) && count === stamp.files;
  } catch {
    return false; // vanished or unreadable: not the folder we stamped
  }
}
