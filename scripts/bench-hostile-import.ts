/**
 * npm run bench:hostile-import: starts the built server (run `npx next build` first) on a fresh database, POSTs hostile archives
 * to /api/runs/import while asking for /login every 50 ms, and prints per archive: upload size,
 * status, answer time, the server's RSS before, at peak and after, and /login's slowest answer
 * meanwhile. Targets: the 256 MiB-of-trailing-zeros upload answered under 2 s with /login
 * answering throughout, and RSS growth under 100 MiB beyond the upload's own size for every hostile archive.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import {
  tarGzDeclaring,
  tarGzWithTrailingZeros,
  tarGzWithZeroMembers,
  withDeepArguments,
  withHeapFilling,
  withNearRatioMembers,
  zipOfZeros,
} from "@/lib/bundle/hostile-archives.fixture";
import { holdUpload, postArchive, type ImportAnswer } from "@/lib/bundle/import-probe.fixture";
import { generatedBundle, tarBuffer, tarEntriesOf } from "@/lib/bundle/test-support";
import { zipBuffer } from "@/lib/bundle/write";
import { cliCommand, integerOption, parseCli } from "@/lib/cli/args";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";
import { spawnGuarded } from "@/lib/process/guarded";

export const cli = () =>
  cliCommand(
    "npm run bench:hostile-import --",
    "POSTs hostile archives to the built server's /api/runs/import (npx next build first) and measures its answers and memory.",
  ).addOption(integerOption("--port <port>", "port the server is started on", { min: 1024, max: 65535 }).default(3190));
const MiB = 1024 * 1024;
const TOKEN = "bench-hostile-import-token-0123";

interface Case {
  name: string;
  build: () => Promise<Buffer> | Buffer;
  expect: number;
  /** Held to the 2 s answer target (the rest only to the memory target). */
  timed?: boolean;
  /** What an accepted bundle inflates to: the server may hold it once, on top of the target. */
  heldBytes?: number;
}

const bundle = (index: number) => generatedBundle({ index, seed: 77 });

const CASES: Case[] = [
  { name: "good bundle (baseline)", build: () => zipBuffer(bundle(1)), expect: 201 },
  {
    name: "256 MiB of zeros after the tar end",
    build: () => tarGzWithTrailingZeros(bundle(2), 256 * MiB),
    expect: 201,
    timed: true,
  },
  { name: "4 GiB of zeros after the tar end", build: () => tarGzWithZeroMembers(bundle(3), 4096), expect: 201 },
  {
    name: "member header declaring 1 GiB",
    build: () => tarGzDeclaring("native/huge.log", 1024 * MiB, 64 * MiB),
    expect: 413,
  },
  {
    name: "gzip bomb: a 60 MiB member of zeros",
    build: () => zlib.gzipSync(tarBuffer(tarEntriesOf(new Map(bundle(4)).set("native/z", Buffer.alloc(60 * MiB))))),
    expect: 413,
  },
  { name: "zip bomb: 16 members of 32 MiB zeros", build: () => zipOfZeros(16, 32 * MiB), expect: 413 },
  {
    name: "JSON nested 10,000 deep",
    build: () => zipBuffer(withDeepArguments(bundle(5), 10_000).files),
    expect: 422,
  },
  {
    // A plain tar, so the ratio limit does not refuse it first: the JSON budget must.
    name: "JSON to fill the worker's heap: 60 MiB of {}, and 8 MiB of newlines",
    build: () => tarBuffer(tarEntriesOf(withHeapFilling(bundle(6), 60 * MiB, 8 * MiB))),
    expect: 413,
  },
  {
    // Refused at the default ratio (32): what a small upload inflating to 480 MiB used to cost.
    name: "native/ members inflating 85x: 8 x 60 MiB",
    build: () => zlib.gzipSync(tarBuffer(tarEntriesOf(withNearRatioMembers(bundle(7), 8, 60 * MiB, 85)))),
    expect: 413,
  },
  {
    // Within every limit (28x, 480 MiB under 512 MiB): accepted. A bundle is held once while it is
    // imported, so its target is growth under its inflated size plus 100 MiB (held twice before).
    name: "native/ members inflating 28x: 8 x 60 MiB (the ceiling within the limits)",
    build: () => zlib.gzipSync(tarBuffer(tarEntriesOf(withNearRatioMembers(bundle(8), 8, 60 * MiB, 28)))),
    expect: 201,
    heldBytes: 480 * MiB,
  },
];

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = await parseCli(cli(), argv, io);
  if (!parsed) return 0;
  const args = parsed.options;
  if (!fs.existsSync(".next/BUILD_ID"))
    throw new AppError("INVALID_INPUT", "no production build: run `npx next build`");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-hostile-"));
  const url = `http://127.0.0.1:${args.port}`;
  const server = spawnGuarded(
    process.execPath,
    ["node_modules/next/dist/bin/next", "start", "-H", "127.0.0.1", "-p", String(args.port)],
    {
      env: {
        ...io.env,
        STUDIO_DB: path.join(work, "studio.db"),
        STUDIO_INGEST_TOKEN: TOKEN,
        NEXT_TELEMETRY_DISABLED: "1",
      },
      output: "ignore",
      graceMs: 5000,
    },
  );
  try {
    await waitForLogin(url);
    const pid = server.process.pid ?? 0;
    io.stdout.write(`server ${url} (pid ${pid}), RSS ${mib(rssOf(pid))} MiB after start\n`);
    let missed = 0;
    for (const testCase of CASES) {
      const body = await testCase.build();
      const rssBefore = rssOf(pid);
      const watch = watchServer(url, pid);
      const answer = await postArchive(url, TOKEN, body, `${testCase.name}.bin`);
      const seen = await watch.stop();
      const rssAfter = rssOf(pid);
      const misses = targetMisses(testCase, answer, seen, rssBefore, body.length);
      missed += misses.length;
      io.stdout.write(
        `${testCase.name}: ${kb(body.length)} KB upload -> ${answer.status} in ${answer.ms.toFixed(0)} ms; ` +
          `RSS ${mib(rssBefore)} -> peak ${mib(seen.peakRss)} -> ${mib(rssAfter)} MiB; ` +
          `/login answered ${seen.answers}x during it, slowest ${seen.slowestMs.toFixed(0)} ms, ${seen.failures} failed` +
          (misses.length ? `  MISSED: ${misses.join("; ")}` : "") +
          `\n${answer.status >= 400 ? `  ${answer.body.error}\n` : ""}`,
      );
    }
    missed += await benchConcurrencyCap(url, io);
    io.stdout.write(missed === 0 ? "all targets met\n" : `${missed} target(s) missed\n`);
    return missed === 0 ? 0 : 1;
  } finally {
    await server.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function targetMisses(
  testCase: Case,
  answer: ImportAnswer,
  seen: Watch,
  rssBefore: number,
  uploadBytes: number,
): string[] {
  const misses: string[] = [];
  if (answer.status !== testCase.expect) misses.push(`expected HTTP ${testCase.expect}`);
  if (testCase.timed && answer.ms >= 2000) misses.push("answer took 2 s or more");
  if (seen.failures > 0 || seen.slowestMs >= 2000) misses.push("/login stopped answering");
  // The upload itself is held once while it is read (up to STUDIO_BUNDLE_MAX_BYTES): what counts is
  // the growth beyond it, which is what an archive inflating or parsing badly would add.
  const held = uploadBytes + (testCase.heldBytes ?? 0);
  if (seen.peakRss - rssBefore - held >= 100 * MiB)
    misses.push(`RSS grew by 100 MiB or more beyond the upload${testCase.heldBytes ? " and its inflated size" : ""}`);
  return misses;
}

/** Two uploads held open take both slots: a third is refused with 503 and Retry-After. */
async function benchConcurrencyCap(url: string, io: CliIo): Promise<number> {
  const held = [await holdUpload(url, TOKEN), await holdUpload(url, TOKEN)];
  let third: ImportAnswer | null = null;
  for (let attempt = 0; attempt < 50 && third?.status !== 503; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    third = await postArchive(url, TOKEN, Buffer.from("probe"), "third");
  }
  for (const upload of held) upload.release();
  const ok = third?.status === 503 && third.retryAfter !== null;
  io.stdout.write(
    `two uploads held open, a third -> ${third?.status} in ${third?.ms.toFixed(0)} ms, Retry-After ${third?.retryAfter}` +
      `${ok ? "" : "  MISSED: expected 503 with Retry-After"}\n`,
  );
  return ok ? 0 : 1;
}

interface Watch {
  answers: number;
  failures: number;
  slowestMs: number;
  peakRss: number;
}

/** Asks for /login every 50 ms and samples the server's RSS, until stopped. */
function watchServer(url: string, pid: number): { stop: () => Promise<Watch> } {
  const seen: Watch = { answers: 0, failures: 0, slowestMs: 0, peakRss: 0 };
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const response = await fetch(`${url}/login`, { signal: AbortSignal.timeout(10_000) });
        await response.arrayBuffer();
        if (response.ok) seen.answers++;
        else seen.failures++;
      } catch {
        seen.failures++;
      }
      seen.slowestMs = Math.max(seen.slowestMs, performance.now() - started);
      seen.peakRss = Math.max(seen.peakRss, rssOf(pid));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return seen;
    },
  };
}

async function waitForLogin(url: string): Promise<void> {
  for (let attempt = 0; attempt < 120; attempt++) {
    const ok = await fetch(`${url}/login`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new AppError("UNAVAILABLE", `${url}/login did not answer within 60 s`);
}

/** Resident memory of `pid` and its descendants (the guard, `next start`, next-server), by ps. */
function rssOf(pid: number): number {
  const table = spawnSync("ps", ["-e", "-o", "pid=,ppid=,rss="], { encoding: "utf8" }).stdout;
  const rows = table
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number));
  const inTree = new Set([pid]);
  let kb = 0;
  for (let grew = true; grew;) {
    grew = false;
    for (const [child, parent] of rows) {
      if (child !== undefined && parent !== undefined && inTree.has(parent) && !inTree.has(child)) {
        inTree.add(child);
        grew = true;
      }
    }
  }
  for (const [child, , rss] of rows) if (child !== undefined && inTree.has(child)) kb += rss ?? 0;
  return kb * 1024;
}
const mib = (bytes: number) => (bytes / MiB).toFixed(0);
const kb = (bytes: number) => (bytes / 1000).toFixed(0);

if (isEntryPoint(import.meta.url)) await runMain(main);
