/**
 * A batch of runs on a worker machine that has no benchmark build (RunBatchStore over HTTP): each
 * instance and its workspace come from the studio (app/api/workers/*), and each finished run's
 * bundle is pushed to the studio's import endpoint instead of a local database.
 *
 * The worker's cache (`<cacheDir>/remote/`): snapshot manifests by digest and file contents by
 * sha256, each checked against its name before use and written whole (temp file, then rename), so
 * a repository crosses the network once per worker, and a setup file once.
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Instance } from "@/lib/benchmark/schema";
import { snapshotDigest, type WorkspaceFile, type WorkspaceFiles } from "@/lib/benchmark/workspace-files";
import { DEFAULT_READ_LIMITS, type BundleFiles } from "@/lib/bundle/read";
import { readZipBuffer } from "@/lib/bundle/read-zip";
import { zipBuffer } from "@/lib/bundle/write";
import { AppError } from "@/lib/errors/app-error";
import type { RunBatchStore, RunPlanRequest } from "@/lib/runner/run-batch";
import type { WorkspaceSource } from "@/lib/runner/workspace-cache";
import {
  MAX_CONTENT_HASHES,
  SnapshotManifestSchema,
  WorkerInstanceSchema,
  WorkerPlanSchema,
  type SnapshotManifest,
  type WorkerInstance,
  type WorkerPlan,
} from "./api";
import type { StudioClient } from "./studio-client";

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

/** Largest answer of POST /api/workers/contents: 64 MB of contents plus one content over it. */
const MAX_CONTENTS_ANSWER = 512 * 1024 * 1024;

async function writeWhole(file: string, data: Buffer | string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const scratch = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  await fs.writeFile(scratch, data);
  await fs.rename(scratch, file);
}

/** A cached file, or null when it is not there (or is not a regular file: never followed). */
async function readCached(file: string): Promise<Buffer | null> {
  const stat = await fs.lstat(file).catch(() => null);
  if (!stat?.isFile()) return null;
  return fs.readFile(file);
}

/** The runs a configuration has still to make, planned by the studio (what it has is skipped). */
export function remotePlan(
  client: StudioClient,
  request: Omit<RunPlanRequest, "splitOnly"> & { split: "eval" | "all" },
): Promise<WorkerPlan> {
  const params = new URLSearchParams({
    benchmark: request.benchmarkId,
    config: request.configId,
    split: request.split,
  });
  if (request.subtask) params.set("subtask", request.subtask);
  if (request.perSubtask !== undefined) params.set("perSubtask", String(request.perSubtask));
  if (request.limit !== undefined) params.set("limit", String(request.limit));
  if (request.shard) params.set("shard", `${request.shard.index}/${request.shard.count}`);
  if (request.instanceIds) params.set("instances", request.instanceIds.join(","));
  return client.getJson(`/api/workers/plan?${params}`, WorkerPlanSchema);
}

export interface RemoteStoreOptions {
  /** The worker's cache folder (run-agents --cache-dir). */
  cacheDir: string;
  /**
   * Where a bundle the studio could not be reached for is kept (`<runId>.zip`), so no run is lost:
   * push it later with curl (docs/distributed.md).
   */
  unpushedDir: string;
}

export function remoteBatchStore(client: StudioClient, options: RemoteStoreOptions): RunBatchStore {
  const cache = path.join(path.resolve(options.cacheDir), "remote");
  const instances = new Map<string, Promise<WorkerInstance>>();
  let lastSnapshot: { digest: string; files: WorkspaceFiles } | null = null;

  const instanceOf = (id: string) => {
    let known = instances.get(id);
    if (!known) {
      known = client.getJson(`/api/workers/instance?id=${encodeURIComponent(id)}`, WorkerInstanceSchema);
      known.catch(() => instances.delete(id));
      instances.set(id, known);
    }
    return known;
  };

  async function manifestOf(digest: string): Promise<SnapshotManifest> {
    const file = path.join(cache, "snapshots", `${digest}.json`);
    const cached = await readCached(file);
    if (cached) {
      const parsed = SnapshotManifestSchema.safeParse(JSON.parse(cached.toString("utf8")));
      if (parsed.success && snapshotDigest(parsed.data.files) === digest) return parsed.data;
    }
    const manifest = await client.getJson(`/api/workers/snapshot?digest=${digest}`, SnapshotManifestSchema);
    if (snapshotDigest(manifest.files) !== digest)
      throw new AppError("INVALID_INPUT", `the studio's snapshot ${digest} does not hash to its digest`);
    await writeWhole(file, JSON.stringify(manifest));
    return manifest;
  }

  /** Every content by hash, from the cache or the studio (in batches, until all are here). */
  async function contentsOf(hashes: readonly string[]): Promise<Map<string, Buffer>> {
    const out = new Map<string, Buffer>();
    const missing: string[] = [];
    for (const hash of new Set(hashes)) {
      const cached = await readCached(path.join(cache, "contents", hash));
      if (cached && sha256(cached) === hash) out.set(hash, cached);
      else missing.push(hash);
    }
    while (missing.length > 0) {
      const asked = missing.slice(0, MAX_CONTENT_HASHES);
      const { data } = await client.post(
        "/api/workers/contents",
        JSON.stringify({ hashes: asked }),
        "application/json",
        MAX_CONTENTS_ANSWER,
      );
      const answer: BundleFiles = await readZipBuffer(data, "POST /api/workers/contents", {
        ...DEFAULT_READ_LIMITS,
        maxMemberBytes: MAX_CONTENTS_ANSWER,
        maxBundleBytes: MAX_CONTENTS_ANSWER,
        maxMembers: MAX_CONTENT_HASHES,
      });
      if (answer.size === 0) throw new AppError("INVALID_INPUT", "the studio answered no contents");
      for (const [hash, content] of answer) {
        if (!asked.includes(hash) || sha256(content) !== hash)
          throw new AppError("INVALID_INPUT", `the studio's content ${hash.slice(0, 80)} does not hash to its name`);
        await writeWhole(path.join(cache, "contents", hash), content);
        out.set(hash, content);
      }
      const left = missing.filter((hash) => !out.has(hash));
      missing.length = 0;
      missing.push(...left);
    }
    return out;
  }

  async function snapshotFiles(digest: string): Promise<WorkspaceFiles> {
    if (lastSnapshot?.digest === digest) return lastSnapshot.files;
    const manifest = await manifestOf(digest);
    const contents = await contentsOf(manifest.files.map((f) => f.sha256));
    const files: WorkspaceFiles = new Map(
      manifest.files.map((f) => [f.path, { data: contents.get(f.sha256)!, mode: f.mode }]),
    );
    lastSnapshot = { digest, files };
    return files;
  }

  return {
    instance: async (id): Promise<Instance | null> => (await instanceOf(id)).instance,
    async workspaceSource(id): Promise<WorkspaceSource> {
      const { snapshot, setup } = await instanceOf(id);
      const base = await snapshotFiles(snapshot);
      const contents = await contentsOf(setup.flatMap((c) => ("sha256" in c ? [c.sha256] : [])));
      const overlay = new Map<string, WorkspaceFile | null>();
      for (const change of setup) {
        if ("delete" in change) overlay.set(change.path, null);
        else
          overlay.set(change.path, {
            data: contents.get(change.sha256)!,
            mode: base.get(change.path)?.mode ?? 0o100644,
          });
      }
      return { key: snapshot, base, overlay };
    },
    async importBundle(bundle, files) {
      const runId = bundle.manifest.runId;
      const zip = await zipBuffer(files);
      try {
        await client.post(`/api/runs/import?name=${encodeURIComponent(`${runId}.zip`)}`, zip, "application/zip");
      } catch (error) {
        // Another worker's bundle of this run got there first (a run retried after its worker was
        // thought lost): the studio keeps that one, and this run is not lost.
        if (error instanceof AppError && error.code === "CONFLICT") return;
        if (!(error instanceof AppError) || error.code !== "UNAVAILABLE") throw error;
        // The studio could not be reached: the bundle is kept whole (the first one kept wins, so a
        // failed run's summary never replaces its whole bundle).
        const kept = path.join(path.resolve(options.unpushedDir), `${runId}.zip`);
        const there = await fs.lstat(kept).catch(() => null);
        if (!there) await writeWhole(kept, zip);
        throw new AppError("UNAVAILABLE", `${error.message}; the bundle is kept at ${kept}`, { cause: error });
      }
    },
  };
}
