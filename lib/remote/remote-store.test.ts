import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { snapshotDigest } from "@/lib/benchmark/workspace-files";
import { readZipBuffer } from "@/lib/bundle/read-zip";
import { DEFAULT_READ_LIMITS } from "@/lib/bundle/read";
import { zipBuffer } from "@/lib/bundle/write";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { AppError } from "@/lib/errors/app-error";
import { remoteBatchStore } from "./remote-store";
import type { StudioClient } from "./studio-client";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

/** A studio in memory: one instance on a two-file snapshot, with a setup file; every request recorded. */
function fakeStudio(options: { lie?: boolean; pushError?: AppError } = {}) {
  const files = { "pkg/a.py": "A = 1\n", "pkg/b.py": "B = 2\n", "setup.py": "print('setup')\n" };
  const contents = new Map(Object.values(files).map((text) => [sha(text), Buffer.from(text)]));
  const entries = [
    { path: "pkg/a.py", sha256: sha(files["pkg/a.py"]), mode: 0o100644 },
    { path: "pkg/b.py", sha256: sha(files["pkg/b.py"]), mode: 0o100755 },
  ];
  const digest = snapshotDigest(entries);
  const instance = generatedRunRecord({ index: 0, seed: 1 }).instance!;
  const requests: string[] = [];
  const pushed: Buffer[] = [];
  const client: StudioClient = {
    url: "http://studio",
    async getJson(pathAndQuery, schema) {
      requests.push(`GET ${pathAndQuery}`);
      const answer = pathAndQuery.startsWith("/api/workers/instance")
        ? {
            instance,
            snapshot: digest,
            setup: [
              { path: "setup.py", sha256: sha(files["setup.py"]) },
              { path: "pkg/b.py", delete: true },
            ],
          }
        : { digest, files: entries };
      return schema.parse(answer);
    },
    async post(pathAndQuery, body) {
      requests.push(`POST ${pathAndQuery}`);
      if (pathAndQuery.startsWith("/api/runs/import")) {
        if (options.pushError) throw options.pushError;
        pushed.push(Buffer.from(body as Buffer));
        return { status: 201, data: Buffer.from("{}") };
      }
      const { hashes } = JSON.parse(String(body)) as { hashes: string[] };
      const answer = new Map(hashes.map((h) => [h, options.lie ? Buffer.from("not it") : contents.get(h)!]));
      return { status: 200, data: await zipBuffer(answer) };
    },
  };
  return { client, requests, pushed, instance, digest };
}

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "remote-store-"));

describe("remote batch store", () => {
  it("builds the workspace from the studio once, then from its checked cache", async () => {
    const studio = fakeStudio();
    const cacheDir = tmp();
    const store = remoteBatchStore(studio.client, { cacheDir, unpushedDir: tmp() });
    expect(await store.instance(studio.instance.id)).toEqual(studio.instance);
    const source = await store.workspaceSource(studio.instance.id);
    expect(source.key).toBe(studio.digest);
    expect([...source.base].map(([p, f]) => [p, f.data.toString(), f.mode])).toEqual([
      ["pkg/a.py", "A = 1\n", 0o100644],
      ["pkg/b.py", "B = 2\n", 0o100755],
    ]);
    expect(source.overlay.get("setup.py")?.data.toString()).toBe("print('setup')\n");
    expect(source.overlay.get("pkg/b.py")).toBeNull();
    expect(studio.requests.filter((r) => r.startsWith("POST")).length).toBe(2);

    // A new process on the same cache: no contents fetched; a cached file that lies is fetched again.
    fs.writeFileSync(path.join(cacheDir, "remote", "contents", sha("A = 1\n")), "tampered");
    const again = fakeStudio();
    const fresh = remoteBatchStore(again.client, { cacheDir, unpushedDir: tmp() });
    const source2 = await fresh.workspaceSource(again.instance.id);
    expect(source2.base.get("pkg/a.py")?.data.toString()).toBe("A = 1\n");
    expect(again.requests.filter((r) => r.startsWith("POST"))).toEqual(["POST /api/workers/contents"]);
    expect(again.requests.some((r) => r.startsWith("GET /api/workers/snapshot"))).toBe(false);
  });

  it("refuses contents that do not hash to their names", async () => {
    const studio = fakeStudio({ lie: true });
    const store = remoteBatchStore(studio.client, { cacheDir: tmp(), unpushedDir: tmp() });
    await expect(store.workspaceSource(studio.instance.id)).rejects.toThrow(/does not hash to its name/);
  });

  it("pushes each bundle; keeps it whole when the studio cannot be reached; a 409 means another worker's copy is there", async () => {
    const run = generatedRunRecord({ index: 3, seed: 1 });
    const files = new Map([["manifest.json", Buffer.from("{}")]]);
    const bundle = { manifest: run.manifest } as Parameters<ReturnType<typeof remoteBatchStore>["importBundle"]>[0];

    const ok = fakeStudio();
    await remoteBatchStore(ok.client, { cacheDir: tmp(), unpushedDir: tmp() }).importBundle(bundle, files);
    expect([...(await readZipBuffer(ok.pushed[0]!, "pushed", DEFAULT_READ_LIMITS)).keys()]).toEqual(["manifest.json"]);

    const unpushedDir = tmp();
    const down = fakeStudio({
      pushError: new AppError("UNAVAILABLE", "POST /api/runs/import: the studio did not answer"),
    });
    await expect(
      remoteBatchStore(down.client, { cacheDir: tmp(), unpushedDir }).importBundle(bundle, files),
    ).rejects.toThrow(`the bundle is kept at ${path.join(unpushedDir, `${run.manifest.runId}.zip`)}`);
    expect(fs.existsSync(path.join(unpushedDir, `${run.manifest.runId}.zip`))).toBe(true);

    const raced = fakeStudio({ pushError: new AppError("CONFLICT", "409 already imported") });
    await expect(
      remoteBatchStore(raced.client, { cacheDir: tmp(), unpushedDir: tmp() }).importBundle(bundle, files),
    ).resolves.toBeUndefined();
  });
});
