import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { sourceImportPool, sourceSpawn } from "@/lib/bundle/import-pool.fixture";
import { rejectionOf } from "@/lib/bundle/test-support";
import { AppError, httpStatusOf } from "@/lib/errors/app-error";
import { foreignBundles, type ForeignOutcome } from "./import";
import { foreignBundlesInWorker, type ForeignJob } from "./import-in-worker";

const PREDS = fs.readFileSync(new URL("./formats/fixtures/swe-bench-predictions/preds.jsonl", import.meta.url));
const spawn = sourceSpawn<ForeignJob>(new URL("./import-worker.ts", import.meta.url));
const pool = () => sourceImportPool({ maxConcurrent: 2, workerMemoryMb: 256, timeoutMs: 60_000 });

function job(data: Buffer, overrides: Partial<ForeignJob> = {}): ForeignJob {
  return {
    data: new Uint8Array(data),
    label: "preds.jsonl",
    format: null,
    benchmark: null,
    ourInstances: [],
    ...overrides,
  };
}

const bundles = (outcomes: ForeignOutcome[]) => outcomes.flatMap((o) => (o.ok ? [o.bundle] : []));

describe("reading a foreign log in a worker thread", () => {
  it("gives the same runs as reading it in this thread, with Buffers for the members", async () => {
    const here = await foreignBundles([{ name: "preds.jsonl", data: PREDS }], { benchmark: "swe-bench-lite" });

    const there = await foreignBundlesInWorker(pool(), job(PREDS, { benchmark: "swe-bench-lite" }), spawn);

    expect(there.map((o) => [o.label, o.ok])).toEqual(here.map((o) => [o.label, o.ok]));
    expect(bundles(there).map((b) => b.digest)).toEqual(bundles(here).map((b) => b.digest));
    expect(bundles(there).every((b) => b.members.every((m) => Buffer.isBuffer(m.data)))).toBe(true);
    expect(there.flatMap((o) => (o.ok ? [o.format] : []))).toEqual([
      "swe-bench-predictions",
      "swe-bench-predictions",
      "swe-bench-predictions",
    ]);
  });

  it("attaches a run to one of our instances when the log names it", async () => {
    const ours = { id: "django__django-16255", benchmark: "sample" };

    const outcomes = await foreignBundlesInWorker(pool(), job(PREDS, { ourInstances: [ours] }), spawn);

    const first = bundles(outcomes)[0]!;
    expect(first.instance).toBeNull();
    expect(first.manifest).toMatchObject({ benchmark: "sample", instanceId: "django__django-16255" });
    expect(bundles(outcomes)[1]!.manifest.instanceId).not.toBe("django__django-16255");
  });

  it("refuses a body no format detects (HTTP 400), and reports a forced format's refusal per run", async () => {
    const error = await rejectionOf(
      foreignBundlesInWorker(pool(), job(Buffer.from('{"hello": 1}'), { label: "notes.json" }), spawn),
      AppError,
    );
    expect(error.message).toMatch(/^the body is neither a run bundle archive .* nor a log of a known agent/);
    expect(httpStatusOf(error)).toBe(400);

    const forced = await foreignBundlesInWorker(pool(), job(PREDS, { format: "codex-exec" }), spawn);
    expect(forced).toHaveLength(1);
    expect(forced[0]).toMatchObject({ ok: false, label: "preds.jsonl" });
    expect(forced[0]!.ok ? "" : forced[0]!.error).toMatch(/^preds\.jsonl/);
  });

  it("stops a log that fills the worker's heap at its cap (HTTP 413), and the pool keeps reading logs", async () => {
    // 300,000 predictions of ten empty objects each: 25 MB of JSON Lines that parse into over three
    // million objects, far more than a 64 MB heap holds.
    const record = '{"instance_id": "i", "model_patch": "", "x": [{},{},{},{},{},{},{},{},{},{}]}\n';
    const hostile = Buffer.from(record.repeat(300_000));
    const imports = sourceImportPool({ maxConcurrent: 1, workerMemoryMb: 64, timeoutMs: 60_000 });

    const error = await rejectionOf(
      foreignBundlesInWorker(imports, job(hostile, { label: "heap.jsonl" }), spawn),
      AppError,
    );

    expect(error.message).toBe("heap.jsonl: the log needs more than 64 MB to parse (STUDIO_IMPORT_WORKER_MEMORY_MB)");
    expect(httpStatusOf(error)).toBe(413);
    const next = await foreignBundlesInWorker(imports, job(PREDS), spawn);
    expect(bundles(next)).toHaveLength(3);
  }, 60_000);

  it("terminates a worker past its deadline (HTTP 413)", async () => {
    const slow = sourceImportPool({ maxConcurrent: 1, workerMemoryMb: 256, timeoutMs: 1 });

    const error = await rejectionOf(foreignBundlesInWorker(slow, job(PREDS, { label: "slow.jsonl" }), spawn), AppError);

    expect(error.message).toBe("slow.jsonl: reading the log took over 0.001 s");
    expect(httpStatusOf(error)).toBe(413);
  });
});
