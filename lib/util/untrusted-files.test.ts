import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashOpened, openUntrustedFile, readUntrusted } from "./untrusted-files";
import { walkUntrusted, type WalkEntry } from "./untrusted-walk";

let root: string;
let base: string;
let secret: string;
let server: net.Server;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "untrusted-"));
  base = path.join(root, "home");
  secret = path.join(root, "secret.txt");
  fs.writeFileSync(secret, "the admin password\n");
  fs.mkdirSync(path.join(base, "logs"), { recursive: true });
  fs.mkdirSync(path.join(root, "elsewhere"));
  fs.writeFileSync(path.join(root, "elsewhere", "inner.txt"), "hidden folder's file\n");
  fs.writeFileSync(path.join(base, "logs", "plain.log"), "line 1\nline 2\nline 3\n");
  fs.symlinkSync(secret, path.join(base, "logs", "stderr.log"));
  fs.symlinkSync(path.join(root, "elsewhere"), path.join(base, "linked-dir"));
  execFileSync("mkfifo", [path.join(base, "logs", "pipe")]);
  server = net.createServer().listen(path.join(base, "logs", "sock"));
  await new Promise((resolve) => server.once("listening", resolve));
});
afterAll(() => {
  server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe("readUntrusted", () => {
  it("reads a regular file within its bounds", async () => {
    const all = await readUntrusted(base, "logs/plain.log", { maxBytes: 100 });
    expect(all).toMatchObject({ ok: true, size: 21, truncated: false });
    expect(all.ok && all.data.toString()).toBe("line 1\nline 2\nline 3\n");
    const head = await readUntrusted(base, "logs/plain.log", { maxBytes: 6 });
    expect(head.ok && [head.data.toString(), head.truncated]).toEqual(["line 1", true]);
    const tail = await readUntrusted(base, "logs/plain.log", { maxBytes: 7, keepTail: true });
    expect(tail.ok && tail.data.toString()).toBe("line 3\n");
    expect(await readUntrusted(base, "logs/plain.log", { maxBytes: 6, refuseLarger: true })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/21 bytes, over the limit of 6/),
    });
  });

  it("never follows a link, as the file or as a folder above it", async () => {
    expect(await readUntrusted(base, "logs/stderr.log", { maxBytes: 100 })).toMatchObject({
      ok: false,
      kind: "symlink",
    });
    expect(await readUntrusted(base, "linked-dir/inner.txt", { maxBytes: 100 })).toMatchObject({
      ok: false,
      kind: "symlink",
      reason: "linked-dir is a symbolic link (not followed)",
    });
  });

  it("reports a FIFO or a socket by kind without blocking on it", async () => {
    expect(await readUntrusted(base, "logs/pipe", { maxBytes: 100 })).toMatchObject({ ok: false, kind: "fifo" });
    expect(await readUntrusted(base, "logs/sock", { maxBytes: 100 })).toMatchObject({ ok: false, kind: "socket" });
    expect(await readUntrusted(base, "logs/none", { maxBytes: 100 })).toMatchObject({ ok: false, kind: "missing" });
    expect(await readUntrusted(base, "../secret.txt", { maxBytes: 100 })).toMatchObject({ ok: false });
  });

  it("hashes a file by streaming it", async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    fs.writeFileSync(path.join(base, "big.bin"), big);
    const opened = openUntrustedFile(base, "big.bin");
    if (!opened.ok) throw new Error(opened.reason);
    try {
      expect(await hashOpened(opened, "big.bin")).toEqual({
        sha256: createHash("sha256").update(big).digest("hex"),
        size: big.length,
      });
    } finally {
      fs.closeSync(opened.fd);
    }
    fs.rmSync(path.join(base, "big.bin"));
  });
});

describe("walkUntrusted", () => {
  it("lists every entry by kind, enters no linked folder and skips names a bundle cannot hold", async () => {
    const odd = Buffer.concat([Buffer.from(`${base}/`), Buffer.from([0x6e, 0xff, 0x6f])]);
    fs.writeFileSync(odd, "latin-1 name");
    const seen: Pick<WalkEntry, "rel" | "kind">[] = [];
    const skipped: string[] = [];
    await walkUntrusted(base, "", (e) => void seen.push({ rel: e.rel, kind: e.kind }), {
      sorted: true,
      onSkip: (rel, reason) => skipped.push(`${rel}: ${reason}`),
    });
    fs.rmSync(odd);
    expect(seen).toEqual([
      { rel: "linked-dir", kind: "symlink" },
      { rel: "logs/pipe", kind: "fifo" },
      { rel: "logs/plain.log", kind: "file" },
      { rel: "logs/sock", kind: "socket" },
      { rel: "logs/stderr.log", kind: "symlink" },
    ]);
    expect(skipped).toEqual([expect.stringMatching(/: its name is not UTF-8$/)]);
  });

  it("refuses a starting folder that is a link, and opens a listed file that became a FIFO without blocking", async () => {
    const skipped: string[] = [];
    await walkUntrusted(base, "linked-dir", () => undefined, { onSkip: (rel) => skipped.push(rel) });
    expect(skipped).toEqual(["linked-dir"]);
    const opened: string[] = [];
    await walkUntrusted(base, "logs", (entry) => {
      if (entry.rel !== "logs/plain.log") return;
      // Swapped between the listing and the open, as a running process could.
      fs.renameSync(path.join(base, "logs", "plain.log"), path.join(root, "plain.log"));
      execFileSync("mkfifo", [path.join(base, "logs", "plain.log")]);
      const result = entry.open();
      opened.push(result.ok ? "opened" : result.kind);
    });
    expect(opened).toEqual(["fifo"]);
  });
});
