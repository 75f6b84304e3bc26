import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "@/db/client";
import { importParsedBundle } from "@/db/queries/run-import";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { parseBundle } from "@/lib/bundle/parse";
import { bundleFilesOf } from "@/lib/bundle/write";
import { captureIo } from "@/lib/cli/cli-io.fixture";
import { progressOf } from "@/lib/jobs/schema";
import { createMemoryResponseCache } from "@/lib/llm/response-cache.fixture";
import { METRIC_IDS } from "@/lib/metrics/catalog";
import { redisConnection } from "@/lib/remote/run-queue";
import { hasRedisServer, startRedis } from "@/lib/test-support/redis.fixture";
import { main as evaluate } from "@/scripts/evaluate";
import { evaluateQueued } from "@/scripts/evaluate-queue";
import { RULE_JUDGE } from "@/lib/judge/rules/rule-judge";
import { JudgeRowSchema } from "@/lib/remote/evaluation-queue";
import { evaluationWorkers } from "@/scripts/queue-evaluator";
import { serveWorkersApi, workersApiClient } from "./workers-api.fixture";

/** Three rule-judge jobs of 25 runs: enough for both workers to take some. */
const RUNS = 60;

const work = fs.mkdtempSync(path.join(os.tmpdir(), "evaluation-queue-"));
const dbPath = path.join(work, "studio.db");
let redisServer: Awaited<ReturnType<typeof startRedis>> | null = null;
let url = "";
let studio: Db;
const workers: ReturnType<typeof evaluationWorkers>[] = [];
const redises: Redis[] = [];
const said: string[][] = [];

beforeAll(async () => {
  if (!hasRedisServer) return;
  redisServer = await startRedis(work);
  url = redisServer.url;

  studio = createDb(dbPath);
  for (let i = 0; i < RUNS; i++)
    importParsedBundle(studio, parseBundle(bundleFilesOf(generatedRunRecord({ index: i, seed: 11 })), `b${i}`), {
      via: "cli",
    });
  serveWorkersApi(studio);

  // Two worker machines, each its own Redis connection and studio client.
  for (const name of ["w1", "w2"]) {
    const lines: string[] = [];
    said.push(lines);
    const redis = new Redis(url, { maxRetriesPerRequest: null });
    redises.push(redis);
    const started = evaluationWorkers({
      connection: redisConnection(url),
      redis,
      client: workersApiClient(),
      env: {},
      identity: name,
      concurrency: 2,
      lockMs: 10_000,
      providers: ["gemini"],
      cache: createMemoryResponseCache,
      say: (line) => lines.push(line),
    });
    workers.push(started);
    for (const worker of started.workers) void worker.run();
  }
}, 60_000);

afterAll(async () => {
  for (const started of workers) {
    await Promise.all(started.workers.map((worker) => worker.close(true)));
    await started.close();
  }
  for (const redis of redises) redis.disconnect();
  redisServer?.stop();
  studio?.$client.close();
  fs.rmSync(work, { recursive: true, force: true });
});

const count = (sql: string) => (studio.$client.prepare(sql).get() as { n: number }).n;

describe.skipIf(!hasRedisServer)("evaluate --queue with two workers (Redis on a free loopback port)", () => {
  it("judges every run once with the rule judge, with the progress line the Jobs page reads", async () => {
    const cli = captureIo({ NODE_ENV: "test", STUDIO_DB: dbPath });
    const code = await evaluate(["--queue", url, "--json"], cli.io);
    expect(code, cli.err()).toBe(0);
    const summary = JSON.parse(cli.out()) as { evaluated: number; failed: number; queued: Record<string, number> };
    expect(summary).toMatchObject({ evaluated: RUNS, failed: 0, queued: { stored: RUNS, unchanged: 0, already: 0 } });
    expect(cli.err()).toMatch(new RegExp(`batch \\w+: ${RUNS} run\\(s\\) in 3 job\\(s\\) queued on ${url}`));
    const progress = cli
      .err()
      .split(/[\r\n]/)
      .map(progressOf)
      .filter((p) => p !== null);
    expect(progress.at(-1)).toEqual({ done: RUNS, total: RUNS });

    // Each run: the rule judge's verdict on every metric, once, and its AST report.
    expect(
      count(
        "SELECT count(*) AS n FROM verdicts v JOIN judges j ON j.id = v.judge_id WHERE j.kind = 'rule' AND j.name = 'rules'",
      ),
    ).toBe(RUNS * METRIC_IDS.length);
    expect(
      count(
        "SELECT count(DISTINCT v.run_id) AS n FROM verdicts v JOIN judges j ON j.id = v.judge_id WHERE j.name = 'rules'",
      ),
    ).toBe(RUNS);
    expect(count("SELECT count(*) AS n FROM run_artifacts WHERE path = 'reports/ast.json'")).toBe(RUNS);
    const jobsTaken = said.map((lines) => lines.filter((l) => / run\(s\) judged/.test(l)).length);
    expect(jobsTaken.reduce((a, b) => a + b)).toBe(3);

    // Nothing left: a second evaluation queues nothing.
    const again = captureIo({ NODE_ENV: "test", STUDIO_DB: dbPath });
    expect(await evaluate(["--queue", url, "--json"], again.io)).toBe(0);
    expect(JSON.parse(again.out())).toMatchObject({ evaluated: 0, failed: 0 });
  }, 180_000);

  it("judges every run once with an LLM judge (scripted, over Gemini's protocol), one run a job under the provider's rate limit", async () => {
    const cli = captureIo({ NODE_ENV: "test", STUDIO_DB: dbPath, STUDIO_QUEUE_RATE_LIMITS: "gemini=1000/1" });
    const code = await evaluate(["--queue", url, "--judge", "gemini", "--mock", "--json"], cli.io);
    expect(code, `${cli.err()}\n${cli.out()}\n${said.flat().join("\n")}`).toBe(0);
    expect(JSON.parse(cli.out())).toMatchObject({ evaluated: RUNS, failed: 0, queued: { stored: RUNS } });
    expect(cli.err()).toMatch(new RegExp(`${RUNS} run\\(s\\) in ${RUNS} job\\(s\\) queued`));
    expect(
      count("SELECT count(*) AS n FROM verdicts v JOIN judges j ON j.id = v.judge_id WHERE j.model = 'mock-gemini'"),
    ).toBe(RUNS * 4);
  }, 180_000);

  it("cancels: a batch stopped at once has its waiting jobs removed and stores nothing", async () => {
    const runIds = studio.$client
      .prepare("SELECT id FROM runs ORDER BY id")
      .all()
      .map((r) => (r as { id: string }).id);
    const before = studio.$client.prepare("SELECT run_id, metric, judge_id, created_at FROM verdicts").all();
    const stop = new AbortController();
    stop.abort("SIGTERM");
    const outcomes = await evaluateQueued({
      url,
      judge: { kind: "rule" },
      rows: METRIC_IDS.map((metric) => JudgeRowSchema.parse({ metric, identity: RULE_JUDGE })),
      runIds,
      force: true,
      signal: stop.signal,
    });
    // A worker may have taken a job before the cancel key was set; judged again, its verdicts are
    // posted as they are stored ("unchanged"). Nothing is written either way.
    expect(outcomes.cancelled).toBeGreaterThan(0);
    expect(outcomes.cancelled + outcomes.unchanged).toBe(RUNS);
    expect(outcomes.stored).toBe(0);
    expect(studio.$client.prepare("SELECT run_id, metric, judge_id, created_at FROM verdicts").all()).toEqual(before);
  }, 120_000);
});
