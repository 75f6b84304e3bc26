import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_DB, E2E_INGEST_TOKEN, E2E_PORT } from "../playwright.config";
import { DISTRIBUTED_BENCHMARK, queryAll } from "./db";
import { signIn } from "./auth";
import { freePort } from "@/lib/util/free-port";

const hasRedis = spawnSync("sh", ["-c", "command -v redis-server"]).status === 0;
const RUNS = 30;

interface Started {
  child: ChildProcess;
  output: () => string;
}

/** A process of its own group (so a kill takes its sandboxes too), its output collected. */
function start(command: string, args: string[], env: Record<string, string>): Started {
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  return { child, output: () => output };
}

const killGroup = (started: Started, signal: NodeJS.Signals) => {
  try {
    if (started.child.pid) process.kill(-started.child.pid, signal);
  } catch {
    // already gone
  }
};

test("a distributed batch: 30 queued runs on two worker machines, one killed mid-run, all 30 in the studio exactly once, with progress on the Jobs page", async ({
  page,
}) => {
  test.skip(!hasRedis, "redis-server is not installed (Debian: apt-get install redis-server; .ci/run installs it)");
  test.setTimeout(600_000);
  const port = await freePort();
  const queueUrl = `redis://127.0.0.1:${port}`;
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-queue-"));
  const redis = start(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", home],
    {},
  );
  const workers: Started[] = [];
  let jobWorker: Started | null = null;
  try {
    await expect.poll(() => redis.output(), { timeout: 10_000 }).toContain("Ready to accept connections");
    // Two worker machines: each its own database (never holding the benchmark), runs and cache.
    for (const name of ["a", "b"]) {
      workers.push(
        start(
          process.execPath,
          [
            ...["--import", "tsx", "scripts/worker.ts", "--queue", queueUrl],
            ...["--studio", `http://127.0.0.1:${E2E_PORT}`, "--token", E2E_INGEST_TOKEN, "--lock-ms", "4000"],
            ...["--runs-dir", path.join(home, name, "runs")],
          ],
          { STUDIO_DB: path.join(home, `${name}.db`) },
        ),
      );
    }

    // The studio's admin queues the batch from the Jobs page.
    await signIn(page, "admin", "/jobs");
    const form = page.getByTestId("run-agents-form");
    await form.locator('select[name="benchmark"]').selectOption(DISTRIBUTED_BENCHMARK);
    await form.locator('select[name="subtask"]').selectOption("codegen_repository");
    await form.locator('input[name="perSubtask"]').fill(String(RUNS));
    await page.getByTestId("run-agents-submit").click();
    await expect(page.getByTestId("action-ok")).toHaveText(/job \d+ queued/);
    const queued = queryAll<{ id: number }>("SELECT id FROM jobs WHERE status = 'queued' ORDER BY id");
    expect(queued, "only this job is queued, so the studio's worker takes it").toHaveLength(1);
    const jobId = queued[0]!.id;

    // The studio's own worker, with STUDIO_QUEUE_URL, turns the job into queue jobs and follows them.
    jobWorker = start(process.execPath, ["--import", "tsx", "scripts/worker.ts", "--once"], {
      STUDIO_DB: E2E_DB,
      STUDIO_QUEUE_URL: queueUrl,
    });

    // Worker a is killed (its whole process group, sandboxes included) in the middle of its second run.
    const [a, b] = workers as [Started, Started];
    await expect
      .poll(() => (a.output().match(/: taken /g) ?? []).length, { timeout: 240_000 })
      .toBeGreaterThanOrEqual(2);
    killGroup(a, "SIGKILL");

    // Meanwhile the Jobs page shows the batch's progress.
    await page.reload();
    const card = page.locator(`[data-job-id="${jobId}"]`);
    await expect(card.getByTestId("job-status")).toHaveText("running");
    await expect(card.getByTestId("job-progress")).toHaveText(new RegExp(`^\\d+/${RUNS}$`));

    await expect
      .poll(() => jobWorker!.child.exitCode, {
        timeout: 420_000,
        message: `the studio's worker:\n${jobWorker.output()}`,
      })
      .toBe(0);
    await page.reload();
    await expect(card.getByTestId("job-status")).toHaveText("succeeded");
    await expect(card.getByTestId("job-progress")).toHaveText(`${RUNS}/${RUNS}`);
    const [{ log }] = queryAll<{ log: string }>("SELECT log FROM jobs WHERE id = ?", jobId) as [{ log: string }];
    expect(log).toMatch(new RegExp(`batch \\w+: ${RUNS} run\\(s\\) queued on ${queueUrl}, 0 already on the queue`));
    // A run the killed worker had pushed before it died is found in the studio by the next one,
    // not made again: "already in the studio".
    const summary = new RegExp(
      `${RUNS} queued run\\(s\\) with file-tools / mock-model: (\\d+) completed, 0 failed \\(limits, model errors\\), (\\d+) already in the studio, 0 could not be recorded, 0 cancelled`,
    ).exec(log);
    expect(summary, log.slice(-2000)).not.toBeNull();
    expect(Number(summary![1]) + Number(summary![2])).toBe(RUNS);

    // Exactly once each, all whole; worker b took over what a left.
    const runs = queryAll<{ instance_id: string; status: string }>(
      `SELECT r.instance_id, r.status FROM runs r JOIN instances i ON i.id = r.instance_id
       WHERE i.benchmark_id = ? AND i.subtask_id = 'codegen_repository'`,
      DISTRIBUTED_BENCHMARK,
    );
    expect(runs).toHaveLength(RUNS);
    expect(new Set(runs.map((r) => r.instance_id)).size).toBe(RUNS);
    expect(runs.every((r) => r.status === "completed")).toBe(true);
    expect(b.output()).toMatch(/: completed in /);
  } catch (error) {
    for (const [i, started] of [...workers, ...(jobWorker ? [jobWorker] : [])].entries())
      console.log(`--- process ${i} ---\n${started.output().slice(-3000)}`);
    throw error;
  } finally {
    for (const started of [...workers, ...(jobWorker ? [jobWorker] : [])]) killGroup(started, "SIGTERM");
    killGroup(redis, "SIGTERM");
  }
});
