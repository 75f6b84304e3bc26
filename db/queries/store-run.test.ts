/**
 * Storing a finished run (lib/runner/store-run.ts) through this database's run batch store, on a
 * real database and disk: a run the importer refuses is stored as a failed summary saying why; a
 * run that cannot be stored at all leaves nothing in its folder once discarded.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { workspaceBaseOf } from "@/lib/bundle/workspace-delta";
import { discardRun, storeRun } from "@/lib/runner/store-run";
import { createDb, type Db } from "../client";
import { runBatchStore } from "./run-plan";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "run-record-"));
const dbPath = path.join(work, "studio.db");
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const runOf = (runId: string) => {
  const db = createDb(dbPath);
  try {
    return db.$client
      .prepare<[string], { status: string; exit_reason: string; error: string | null; step_count: number }>(
        "SELECT status, exit_reason, error, step_count FROM runs WHERE id = ?",
      )
      .get(runId);
  } finally {
    db.$client.close();
  }
};
const importer = (db: Db) => runBatchStore(db).importBundle;

describe("storeRun", () => {
  it("stores a run whole, its bundle under the run folder", async () => {
    const db = createDb(dbPath);
    const record = generatedRunRecord({ index: 1, seed: 3 });
    const runDir = path.join(work, "runs", "whole");
    expect(await storeRun(importer(db), record, runDir)).toEqual({ status: record.manifest.status, kept: "whole" });
    db.$client.close();
    expect(runOf(record.manifest.runId)).toMatchObject({ step_count: record.steps.length });
    expect(fs.existsSync(path.join(runDir, "bundle", "manifest.json"))).toBe(true);
  });

  it("stores a run whose base the studio does not hold with full manifests instead", async () => {
    const db = createDb(dbPath);
    const record = generatedRunRecord({ index: 4, seed: 3 });
    // A base this database has no instance for (the instance comes from the bundle's instance.json).
    const base = workspaceBaseOf([{ path: "README.md", size: 1, mode: 0o100644, sha256: "a".repeat(64) }]);
    const runDir = path.join(work, "runs", "full");
    expect(await storeRun(importer(db), { ...record, base }, runDir)).toEqual({
      status: record.manifest.status,
      kept: "whole",
    });
    db.$client.close();
    expect(runOf(record.manifest.runId)).toMatchObject({ step_count: record.steps.length });
    const manifest = JSON.parse(fs.readFileSync(path.join(runDir, "bundle", "manifest.json"), "utf8"));
    expect(manifest.version).toBe(1);
  });

  it("stores a run the importer refuses (an agent's 30,000-character error) as a failed summary saying why", async () => {
    const db = createDb(dbPath);
    const record = generatedRunRecord({ index: 2, seed: 3 });
    record.manifest.error = "x".repeat(30_000);
    const runDir = path.join(work, "runs", "summary");
    expect(await storeRun(importer(db), record, runDir)).toEqual({ status: "failed", kept: "summary" });
    db.$client.close();
    const run = runOf(record.manifest.runId)!;
    expect(run).toMatchObject({ status: "failed", exit_reason: "error", step_count: 0 });
    expect(run.error).toMatch(
      /^the run could not be stored whole \(.*manifest\.json, field "error".*\); only this summary/,
    );
    expect(run.error!.length).toBe(20_000);
  });

  it("throws when not even the summary can be stored, and discardRun then leaves nothing behind", async () => {
    const db = createDb(dbPath);
    // An instance the database does not know, and no instance.json: every import is refused.
    const record = { ...generatedRunRecord({ index: 3, seed: 3 }), instance: null };
    const runDir = path.join(work, "runs", "lost");
    fs.mkdirSync(path.join(runDir, "workspace"), { recursive: true });
    fs.writeFileSync(path.join(runDir, "workspace", "big.bin"), Buffer.alloc(1024));
    await expect(storeRun(importer(db), record, runDir)).rejects.toThrow(
      /is not in the database and the bundle has no instance\.json/,
    );
    db.$client.close();
    const released: string[] = [];
    await discardRun(runDir, async (dir) => void released.push(dir));
    expect(released).toEqual([path.join(runDir, "workspace")]);
    expect(fs.existsSync(runDir)).toBe(false);
    expect(runOf(record.manifest.runId)).toBeUndefined();
  });
});
