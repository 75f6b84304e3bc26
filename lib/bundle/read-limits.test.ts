import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InflateBudget, RATIO_FLOOR_BYTES, type ReadStats } from "./budget";
import { BundleError } from "./errors";
import { tarGzDeclaring, tarGzWithTrailingZeros, zipOfZeros } from "./hostile-archives.fixture";
import { parseBundle } from "./parse";
import { DEFAULT_READ_LIMITS, readArchiveBuffer, readArchiveFile } from "./read";
import { rejectionOf, generatedBundle, tarBuffer, tarEntriesOf } from "./test-support";

const MiB = 1024 * 1024;
const BASE = generatedBundle({ index: 4, seed: 21 });
const BASE_DIGEST = parseBundle(BASE, "base").digest;
const LIMITS = DEFAULT_READ_LIMITS;

let root = "";

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "bundle-limits-"));
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const newStats = (): ReadStats => ({ archiveBytes: 0, inflatedBytes: 0 });

const rejection = (promise: Promise<unknown>) => rejectionOf(promise, BundleError);

describe("zeros after the end of a tar archive", () => {
  it("are ignored: reading stops at the end blocks instead of inflating 32 MiB", async () => {
    const archive = await tarGzWithTrailingZeros(BASE, 32 * MiB);
    const stats = newStats();

    const files = await readArchiveBuffer(archive, "tar", "zeros.tgz", LIMITS, stats);

    expect(parseBundle(files, "zeros.tgz").digest).toBe(BASE_DIGEST);
    expect(stats.archiveBytes).toBe(archive.length);
    // The bundle's tar is 61 KB; one 64 KiB chunk past it at most is inflated.
    expect(stats.inflatedBytes).toBeGreaterThan(tarBuffer(tarEntriesOf(BASE)).length - 1024);
    expect(stats.inflatedBytes).toBeLessThan(256 * 1024);
  });

  it("are ignored when the archive is read from a file (the CLI)", async () => {
    const file = path.join(root, "zeros.tar.gz");
    await fs.writeFile(file, await tarGzWithTrailingZeros(BASE, 32 * MiB));
    const stats = newStats();

    const files = await readArchiveFile(file, "zeros.tar.gz", LIMITS, stats);

    expect(parseBundle(files, "zeros.tar.gz").digest).toBe(BASE_DIGEST);
    expect(stats.archiveBytes).toBe((await fs.stat(file)).size);
    expect(stats.inflatedBytes).toBeGreaterThan(tarBuffer(tarEntriesOf(BASE)).length - 1024);
    expect(stats.inflatedBytes).toBeLessThan(256 * 1024);
  });

  it("are ignored after an uncompressed tar too", async () => {
    const tar = Buffer.concat([tarBuffer(tarEntriesOf(BASE)), Buffer.alloc(8 * MiB)]);
    const stats = newStats();

    const files = await readArchiveBuffer(tar, "tar", "zeros.tar", LIMITS, stats);

    expect(parseBundle(files, "zeros.tar").digest).toBe(BASE_DIGEST);
    expect(stats.inflatedBytes).toBeGreaterThan(tar.length - 8 * MiB - 1024);
    expect(stats.inflatedBytes).toBeLessThan(256 * 1024);
  });
});

describe("decompression bombs", () => {
  it("refuses a member whose header declares 1 GiB before inflating it", async () => {
    const archive = await tarGzDeclaring("native/huge.log", 1024 * MiB, 16 * MiB);
    const stats = newStats();

    const error = await rejection(readArchiveBuffer(archive, "tar", "huge.tgz", LIMITS, stats));

    expect(error.code).toBe("TOO_LARGE");
    expect(error.location.member).toBe("native/huge.log");
    expect(error.message).toContain("member is 1073741824 bytes, over the limit of 67108864");
    expect(stats.inflatedBytes).toBeGreaterThan(0);
    expect(stats.inflatedBytes).toBeLessThanOrEqual(64 * 1024);
  });

  it("refuses JSON members whose headers declare more than the JSON budget before reading them", async () => {
    // Under the ratio floor (16 MiB), so only the JSON budget can refuse it.
    const archive = await tarGzDeclaring("run-1/manifest.json", 12 * MiB, 12 * MiB);
    const stats = newStats();
    const limits = { ...LIMITS, maxJsonBytes: 8 * MiB };

    const error = await rejection(readArchiveBuffer(archive, "tar", "json.tgz", limits, stats));

    expect(error.code).toBe("TOO_LARGE");
    expect(error.location.member).toBe("run-1/manifest.json");
    expect(error.message).toContain("JSON members reach 12582912 bytes with this one, over the limit of 8388608");
    expect(stats.inflatedBytes).toBeLessThanOrEqual(64 * 1024);
  });

  it("refuses a gzip bomb past the ratio limit: a 24 MiB member of zeros in a 25 KB archive", async () => {
    const files = new Map(BASE).set("native/zeros.log", Buffer.alloc(24 * MiB));
    const archive = zlib.gzipSync(tarBuffer(tarEntriesOf(files)), { level: 9 });
    const stats = newStats();

    const error = await rejection(readArchiveBuffer(archive, "tar", "bomb.tgz", LIMITS, stats));

    expect(error.code).toBe("TOO_LARGE");
    expect(error.location.member).toBe("native/zeros.log");
    expect(error.message).toMatch(/members declare \d+ bytes from an archive of \d+: over 32 times its size/);
    expect(stats.inflatedBytes).toBeLessThan(256 * 1024);
  });

  it("refuses a zip bomb at the member that takes it past the ratio, inflating at most the floor", async () => {
    const archive = await zipOfZeros(4, 6 * MiB);
    expect(archive.length).toBeLessThan(100 * 1024);
    const stats = newStats();

    const error = await rejection(readArchiveBuffer(archive, "zip", "bomb.zip", LIMITS, stats));

    expect(error.code).toBe("TOO_LARGE");
    expect(error.location.member).toBe("native/zeros-2.bin");
    expect(error.message).toContain("over 32 times its size (STUDIO_BUNDLE_MAX_RATIO)");
    expect(stats.inflatedBytes).toBeLessThanOrEqual(RATIO_FLOOR_BYTES);
  });

  it("refuses an archive gzipped twice instead of letting the tar parser inflate the inner one", async () => {
    const inner = zlib.gzipSync(tarBuffer(tarEntriesOf(BASE)));

    const error = await rejection(readArchiveBuffer(zlib.gzipSync(inner), "tar", "twice.tgz", LIMITS));

    expect(error.message).toBe("twice.tgz: unreadable tar archive: compressed twice");
  });

  it("stops the stream at its cap: the bundle limit plus the tar blocks' overhead", () => {
    const limits = { maxMemberBytes: 1000, maxBundleBytes: 4000, maxMembers: 2, maxRatio: 1000 };
    const budget = new InflateBudget("b.tgz", limits, 1000);
    expect(budget.streamCap).toBe(4000 + 2 * 1536 + MiB);

    budget.add(budget.streamCap);
    expect(() => budget.add(1)).toThrow(
      `b.tgz: archive inflates past ${budget.streamCap} bytes (STUDIO_BUNDLE_MAX_BYTES)`,
    );
    expect(budget.stats.inflatedBytes).toBe(budget.streamCap + 1);
  });

  it("holds a large archive to its ratio, and lets any archive inflate to the floor", () => {
    const limits = { ...LIMITS, maxRatio: 10 };
    expect(new InflateBudget("a", limits, 1000).declaredCap).toBe(RATIO_FLOOR_BYTES);
    const big = new InflateBudget("a", limits, 10 * MiB);
    expect(big.declaredCap).toBe(100 * MiB);
    expect(() => big.checkDeclared(100 * MiB, "m")).not.toThrow();
    expect(() => big.checkDeclared(100 * MiB + 1, "m")).toThrow(/over 10 times its size/);
  });
});
