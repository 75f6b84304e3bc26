import { execFileSync } from "node:child_process";
import fsSync from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readForeignFile } from "./import";

describe("readForeignFile", () => {
  const folders: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    for (const made of folders.splice(0)) fsSync.rmSync(made, { recursive: true, force: true });
  });

  const folder = () => {
    const made = fsSync.mkdtempSync(path.join(os.tmpdir(), "read-foreign-"));
    folders.push(made);
    return made;
  };

  it("reads a regular file, and refuses one over the limit", async () => {
    const file = path.join(folder(), "run.jsonl");
    fsSync.writeFileSync(file, '{"a": 1}\n');
    expect((await readForeignFile(file)).data.toString()).toBe('{"a": 1}\n');
    await expect(readForeignFile(file, 4)).rejects.toThrow(/run\.jsonl: 9 bytes, over the 4-byte limit/);
  });

  it("refuses what it opened when the file became a FIFO after it was looked at", async () => {
    const file = path.join(folder(), "pipe.jsonl");
    fsSync.writeFileSync(file, "{}\n");
    const regular = await fs.lstat(file);
    fsSync.rmSync(file);
    execFileSync("mkfifo", [file]);
    // The lstat saw the regular file; the open finds the FIFO swapped in since.
    vi.spyOn(fs, "lstat").mockResolvedValueOnce(regular);
    await expect(readForeignFile(file)).rejects.toThrow(/pipe\.jsonl: not a regular file/);
  });
});
