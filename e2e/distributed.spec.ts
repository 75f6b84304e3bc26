import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { E2E_INGEST_TOKEN, E2E_PORT } from "../playwright.config";
import { DISTRIBUTED_BENCHMARK, queryAll } from "./db";
import { signIn } from "./auth";

test.beforeEach(async ({ page }) => {
  await signIn(page, "admin");
});

const STUDIO = `http://127.0.0.1:${E2E_PORT}`;

/** One worker machine: its own empty database, run folder and cache; `run-agents --push` to the e2e studio. */
function worker(name: string, args: string[]): Promise<{ code: number | null; out: string; err: string; db: string }> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), `e2e-worker-${name}-`));
  const db = path.join(home, "worker.db");
  const argv = [
    ...["tsx", "scripts/run-agents.ts", "--benchmark", DISTRIBUTED_BENCHMARK, "--agent", "file-tools", "--mock"],
    ...["--push", STUDIO, "--token", E2E_INGEST_TOKEN, "--runs-dir", path.join(home, "runs"), ...args],
  ];
  return new Promise((resolve, reject) => {
    const child = spawn("npx", argv, { env: { ...process.env, STUDIO_DB: db }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out, err, db }));
  });
}

test("three shard workers without a benchmark build run every chosen instance once and push the runs to the studio", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const chosen = queryAll<{ id: string }>(
    "SELECT id FROM instances WHERE benchmark_id = ? AND subtask_id = 'delete_irrelevant_file' ORDER BY id LIMIT 5",
    DISTRIBUTED_BENCHMARK,
  ).map((r) => r.id);
  expect(chosen).toHaveLength(5);
  const only = ["--instances", chosen.join(",")];
  const shards = await Promise.all([1, 2, 3].map((i) => worker(`s${i}`, [...only, "--shard", `${i}/3`])));
  for (const [i, run] of shards.entries()) {
    expect(run.code, `shard ${i + 1}:\n${run.err}`).toBe(0);
    // 5 instances dealt round robin: 2, 2, 1.
    const expected = i < 2 ? 2 : 1;
    expect(run.err).toContain(`${expected} instance(s) match, 0 already run by this configuration (studio ${STUDIO})`);
    expect(run.out).toMatch(new RegExp(`^${expected} run\\(s\\) with file-tools / mock-model: ${expected} completed`));
    // The worker's own database never held the benchmark.
    const local = new Database(run.db, { readonly: true });
    expect(local.prepare("SELECT count(*) AS n FROM instances").get()).toEqual({ n: 0 });
    local.close();
  }

  // In the studio: each chosen instance run exactly once, every run whole.
  const runs = queryAll<{ instance_id: string; status: string; steps: number }>(
    `SELECT r.instance_id, r.status, r.step_count AS steps FROM runs r JOIN instances i ON i.id = r.instance_id
     WHERE i.benchmark_id = ? ORDER BY r.instance_id`,
    DISTRIBUTED_BENCHMARK,
  );
  expect(runs.map((r) => r.instance_id)).toEqual(chosen);
  expect(runs.every((r) => r.status === "completed" && r.steps > 3)).toBe(true);

  // A shard run again finds its runs in the studio and makes none.
  const again = await worker("again", [...only, "--shard", "1/3"]);
  expect(again.code, again.err).toBe(0);
  expect(again.err).toContain("2 instance(s) match, 2 already run by this configuration");

  // A wrong token is refused by name, before any run.
  const refused = await worker("refused", [...only, "--token", "not-the-token-0123456789"]);
  expect(refused.code).not.toBe(0);
  expect(refused.err).toContain("the studio refused GET /api/workers/plan");
  expect(refused.err).toContain("401 invalid token");

  // The pushed runs are on the dashboard like any other.
  const runId = queryAll<{ id: string }>(
    "SELECT r.id FROM runs r JOIN instances i ON i.id = r.instance_id WHERE i.benchmark_id = ? LIMIT 1",
    DISTRIBUTED_BENCHMARK,
  )[0]!.id;
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("run-id")).toHaveText(runId);
  expect(await page.getByTestId("step").count()).toBeGreaterThan(3);
});
