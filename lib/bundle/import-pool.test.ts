import { describe, expect, it } from "vitest";
import { AppError, httpStatusOf } from "@/lib/errors/app-error";
import { BundleError } from "./errors";
import { tarGzDeclaring, tarGzWithTrailingZeros, withDeepArguments, withHeapFilling } from "./hostile-archives.fixture";
import { DEFAULT_MAX_JSON_BYTES } from "./json-budget";
import { ImportBusyError } from "./import-pool";
import { sourceImportPool } from "./import-pool.fixture";
import { parseBundle } from "./parse";
import { DEFAULT_READ_LIMITS } from "./read";
import { rejectionOf, generatedBundle, tarBuffer, tarEntriesOf, withMember } from "./test-support";
import { zipBuffer } from "./write";

const BASE = generatedBundle({ index: 6, seed: 4 });
const LIMITS = DEFAULT_READ_LIMITS;
const pool = () => sourceImportPool({ maxConcurrent: 2, workerMemoryMb: 256, timeoutMs: 60_000 });

const failure = (promise: Promise<unknown>) => rejectionOf(promise, AppError);

describe("parsing in a worker thread", () => {
  it("gives the same bundle as parsing in this thread, with Buffers for the members", async () => {
    const data = await zipBuffer(BASE);

    const { bundle } = await pool().parse({ data, kind: "zip", label: "run.zip", limits: LIMITS });

    expect(bundle.digest).toBe(parseBundle(BASE, "run.zip").digest);
    expect(bundle.members.every((m) => Buffer.isBuffer(m.data))).toBe(true);
    expect(bundle.members.map((m) => m.data.toString("base64"))).toEqual(
      parseBundle(BASE, "run.zip").members.map((m) => m.data.toString("base64")),
    );
  });

  it("reads a .tar.gz with 32 MiB of zeros after its end, inflating only the bundle", async () => {
    const data = await tarGzWithTrailingZeros(BASE, 32 * 1024 * 1024);

    const { bundle, stats } = await pool().parse({ data, kind: "tar", label: "zeros.tgz", limits: LIMITS });

    expect(bundle.digest).toBe(parseBundle(BASE, "zeros.tgz").digest);
    expect(stats.inflatedBytes).toBeLessThan(256 * 1024);
  });

  it("hands back a BundleError that names the member and line of too deep a JSON (HTTP 422)", async () => {
    const { files, line } = withDeepArguments(BASE, 10_000);

    const error = await failure(
      pool().parse({ data: await zipBuffer(files), kind: "zip", label: "deep.zip", limits: LIMITS }),
    );

    expect(error).toBeInstanceOf(BundleError);
    expect((error as BundleError).location).toEqual({ bundle: "deep.zip", member: "trajectory.jsonl", line });
    expect(error.message).toMatch(/^deep\.zip: trajectory\.jsonl line \d+: JSON nested deeper than 256 levels/);
    expect(httpStatusOf(error)).toBe(422);
  });

  it("hands back the refusal of a member declaring 1 GiB (HTTP 413)", async () => {
    const data = await tarGzDeclaring("native/huge.log", 1024 * 1024 * 1024, 8 * 1024 * 1024);

    const error = await failure(pool().parse({ data, kind: "tar", label: "huge.tgz", limits: LIMITS }));

    expect(error.message).toContain("huge.tgz: native/huge.log: member is 1073741824 bytes, over the limit");
    expect(httpStatusOf(error)).toBe(413);
  });

  it("holds the JSON a worker parses to what its heap cap can take, whatever the caller's limit (HTTP 413)", async () => {
    // 3 MB of `{},` parse into a million objects, over 40 MB: more than a 32 MB heap can hold. Past
    // its cap a worker may abort the whole process (nodejs/node#47224), so it refuses first; the
    // cap's own message (ERR_WORKER_OUT_OF_MEMORY) is checked on logs, lib/foreign/import-worker.test.ts.
    const manifest = BASE.get("manifest.json")?.toString("utf8") ?? "";
    const huge = manifest.replace(/\n/, `\n"options": {"a": [${"{},".repeat(1_000_000)}{}]},\n`);
    const data = await zipBuffer(withMember(BASE, "manifest.json", huge));
    const small = sourceImportPool({ maxConcurrent: 1, workerMemoryMb: 32, timeoutMs: 60_000 });

    const error = await failure(small.parse({ data, kind: "zip", label: "big.zip", limits: LIMITS }));

    expect(error.message).toBe(
      "big.zip: manifest.json: JSON members reach 3000829 bytes with this one, over the limit of 1006632 (what a 32 MB import worker can parse)",
    );
    expect(httpStatusOf(error)).toBe(413);
  });

  it("refuses JSON built to fill the worker's heap before parsing it (413), and keeps serving", async () => {
    // 60 MiB of `{},` parse into about 1.5 GB of objects, and 8 MiB of newlines once split into a
    // 64 MB array: one allocation past the 16 MB leeway at the heap cap aborts the whole process.
    // A plain tar, so no ratio limit applies (less compressible JSON, random keys, does the same).
    const files = withHeapFilling(BASE, 60 * 1024 * 1024, 8 * 1024 * 1024);
    const imports = sourceImportPool({ maxConcurrent: 2, workerMemoryMb: 1024, timeoutMs: 60_000 });
    const data = tarBuffer(tarEntriesOf(files));

    const error = await failure(imports.parse({ data, kind: "tar", label: "heap.tar", limits: LIMITS }));

    expect(error).toBeInstanceOf(BundleError);
    expect(error.message).toBe(
      `heap.tar: manifest.json: JSON members reach ${files.get("manifest.json")!.length} bytes with this one, over the limit of ${DEFAULT_MAX_JSON_BYTES} (STUDIO_BUNDLE_MAX_JSON_BYTES)`,
    );
    expect(httpStatusOf(error)).toBe(413);
    const next = await imports.parse({ data: await zipBuffer(BASE), kind: "zip", label: "next.zip", limits: LIMITS });
    expect(next.bundle.digest).toBe(parseBundle(BASE, "next.zip").digest);
  }, 30_000);

  it("terminates a worker past its deadline", async () => {
    const slow = sourceImportPool({ maxConcurrent: 1, workerMemoryMb: 256, timeoutMs: 1 });

    const error = await failure(
      slow.parse({ data: await zipBuffer(BASE), kind: "zip", label: "slow.zip", limits: LIMITS }),
    );

    expect(error.message).toBe("slow.zip: reading the bundle took over 0.001 s");
    expect(error.code).toBe("TOO_LARGE");
  });
});

describe("the cap on imports at once", () => {
  it("refuses a third import while two hold their slots (HTTP 503, Retry-After), and frees a slot on release", () => {
    const imports = pool();
    const first = imports.acquire();
    const second = imports.acquire();

    let busy: unknown = null;
    try {
      imports.acquire();
    } catch (error) {
      busy = error;
    }

    expect(busy).toBeInstanceOf(ImportBusyError);
    expect((busy as ImportBusyError).retryAfterSeconds).toBe(5);
    expect(httpStatusOf(busy)).toBe(503);
    expect((busy as ImportBusyError).message).toBe("2 imports are already running: retry in 5 s");

    first();
    first();
    expect(imports.active).toBe(1);
    const third = imports.acquire();
    expect(imports.active).toBe(2);
    second();
    third();
    expect(imports.active).toBe(0);
  });
});
