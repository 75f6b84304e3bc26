import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createDb } from "@/db/client";
import { cliIo, queryDb } from "./test-support";
import { main } from "./seed-scale";

describe("seed:scale", () => {
  let dir = "";
  afterEach(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("fills a database with synthetic runs judged twice, marked synthetic, and resumes", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "seed-scale-"));
    const dbPath = path.join(dir, "scale.db");
    const first = cliIo(dbPath);
    expect(await main(["--runs", "40", "--db", dbPath, "--batch", "15"], first.io)).toBe(0);
    expect(first.out()).toContain("40 synthetic run(s) added (0 already there)");
    expect(first.err()).toMatch(/synthetic runs 40\/40 \(100%\)/);
    // From empty the run tables' indexes are deferred, then built: the same indexes as migrated.
    expect(first.err()).toMatch(/16 indexes of the run tables deferred to the end[\s\S]*16 indexes built/);
    const indexes = "SELECT name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name";
    const migrated = createDb(":memory:");
    expect(queryDb(dbPath, indexes)).toEqual(migrated.$client.prepare(indexes).all());
    migrated.$client.close();
    const [runs] = queryDb<{ n: number; synthetic: number }>(
      dbPath,
      "SELECT count(*) AS n, sum(synthetic) AS synthetic FROM runs",
    );
    expect(runs).toEqual({ n: 40, synthetic: 40 });
    const judges = queryDb<{ name: string; runs: number }>(
      dbPath,
      "SELECT j.name, count(*) AS runs FROM run_judge_masks m JOIN judges j ON j.id = m.judge_id GROUP BY j.name ORDER BY j.name",
    );
    expect(judges).toEqual([
      { name: "gemini-judge (synthetic)", runs: 40 },
      { name: "rules (synthetic)", runs: 40 },
    ]);

    const again = cliIo(dbPath);
    expect(await main(["--runs", "50", "--db", dbPath], again.io)).toBe(0);
    expect(again.out()).toContain("10 synthetic run(s) added (40 already there)");
    // Ten runs into forty: the indexes are kept up to date as the runs go in.
    expect(again.err()).not.toContain("deferred");
  });

  it("names a bad argument", async () => {
    const { io } = cliIo(":memory:");
    await expect(main(["--runs", "0"], io)).rejects.toThrow(/--runs/);
  });
});
