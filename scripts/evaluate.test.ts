import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "@/db/client";
import { agreementReport } from "@/db/queries/agreement-report";
import { createAgreementSet } from "@/db/queries/agreement-sets";
import * as t from "@/db/schema";
import { importParsedBundle } from "@/db/queries/run-import";
import { parseBundle } from "@/lib/bundle/parse";
import { AstReportFileSchema } from "@/lib/bundle/schema";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { bundleFilesOf } from "@/lib/bundle/write";
import { AppError } from "@/lib/errors/app-error";
import { METRIC_IDS } from "@/lib/metrics/catalog";
import { main } from "./evaluate";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "evaluate-"));
const dbPath = path.join(work, "studio.db");

beforeAll(() => {
  const db = createDb(dbPath);
  for (let i = 0; i < 6; i++)
    importParsedBundle(db, parseBundle(bundleFilesOf(generatedRunRecord({ index: i, seed: 3 })), `b${i}`), {
      via: "cli",
    });
  db.$client.close();
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

async function evaluate(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on("data", (c: Buffer) => out.push(c.toString()));
  stderr.resume();
  const code = await main(argv, {
    stdout,
    stderr: stderr as unknown as NodeJS.WriteStream,
    env: { NODE_ENV: "test", STUDIO_DB: dbPath, ...env },
  });
  return { code, out: out.join("") };
}

const verdictCounts = () => {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db
      .prepare(
        "SELECT j.kind AS kind, j.model AS model, count(*) AS n FROM verdicts v JOIN judges j ON j.id = v.judge_id GROUP BY j.kind, j.model ORDER BY j.kind",
      )
      .all() as { kind: string; model: string; n: number }[];
  } finally {
    db.close();
  }
};

describe("evaluate CLI", () => {
  it("scores every run on every metric with the rule judge, then has nothing left to do", async () => {
    const first = await evaluate(["--json"]);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.out)).toMatchObject({ evaluated: 6, failed: 0 });
    expect(verdictCounts()).toEqual([{ kind: "rule", model: "", n: 6 * METRIC_IDS.length }]);
    // The static analysis is kept as each run's AST report, in the bundle format.
    const db = new Database(dbPath, { readonly: true });
    const reports = db
      .prepare(
        "SELECT c.content FROM run_artifacts a JOIN file_contents c ON c.sha256 = a.sha256 WHERE a.path = 'reports/ast.json'",
      )
      .all() as { content: Buffer }[];
    db.close();
    expect(reports).toHaveLength(6);
    const report = AstReportFileSchema.parse(JSON.parse(reports[0]!.content.toString("utf8")));
    expect(Object.keys(report.files).length).toBeGreaterThan(0);
    expect(Object.values(report.files).every((f) => f.parses)).toBe(true);
    expect(JSON.parse((await evaluate(["--json"])).out)).toMatchObject({ evaluated: 0 });
    // The first test starts the grammar and the CPython helper: over 5 s on a loaded machine.
  }, 30_000);

  it("asks the LLM judge through the Gemini protocol (local scripted model) and reuses cached answers", async () => {
    const first = await evaluate(["--judge", "gemini", "--mock", "--json"]);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.out)).toMatchObject({
      evaluated: 6,
      failed: 0,
      usage: expect.stringMatching(/^24 model call\(s\), 0 answered from the cache/),
    });
    expect(verdictCounts()).toContainEqual({ kind: "llm", model: "mock-gemini", n: 24 });
    const again = JSON.parse((await evaluate(["--judge", "gemini", "--mock", "--force", "--json"])).out);
    expect(again.usage).toMatch(/^0 model call\(s\), 24 answered from the cache/);
  });

  it("stores Anthropic and OpenAI judges (scripted, each on its own protocol) apart, and the agreement report shows three LLM judges side by side", async () => {
    for (const judge of ["anthropic", "openai"]) {
      const result = await evaluate(["--judge", judge, "--mock", "--json"]);
      expect(result.code, judge).toBe(0);
      expect(JSON.parse(result.out)).toMatchObject({ evaluated: 6, failed: 0, judge: `llm-${judge} (mock-${judge})` });
    }
    const counts = verdictCounts();
    for (const model of ["mock-gemini", "mock-anthropic", "mock-openai"])
      expect(counts).toContainEqual({ kind: "llm", model, n: 24 });

    const db = createDb(dbPath);
    try {
      const annotatorIds = ["ann", "bob", "cat"].map(
        (username) =>
          db
            .insert(t.users)
            .values({ username, displayName: username, role: "annotator", passwordHash: "not-a-hash" })
            .returning({ id: t.users.id })
            .get().id,
      );
      const judgeIds = db
        .select()
        .from(t.judges)
        .all()
        .filter((j) => j.kind === "llm")
        .map((j) => j.id);
      const set = createAgreementSet(db, {
        name: "three judges",
        seed: 1,
        size: 6,
        annotatorIds,
        judgeIds,
        includeSynthetic: true,
      });
      const report = agreementReport(db, set.id);
      const providers = [
        ...new Set(report.judges.filter((j) => j.kind === "llm").map((j) => `${j.provider}/${j.model}`)),
      ];
      expect(providers.sort()).toEqual(["anthropic/mock-anthropic", "gemini/mock-gemini", "openai/mock-openai"]);
      expect(report.metrics.find((m) => m.metric === "file_read")?.judges.length).toBeGreaterThanOrEqual(3);
    } finally {
      db.$client.close();
    }
  });

  it("takes judge definitions from a file, with --model and --base-url over them", async () => {
    const file = path.join(work, "judges.json");
    fs.writeFileSync(
      file,
      JSON.stringify({
        judges: [
          {
            id: "deepseek-v3.2",
            provider: "openai",
            model: "deepseek-chat",
            baseUrl: "https://api.deepseek.com",
            apiKeyEnv: "DEEPSEEK_API_KEY",
            jsonMode: "object",
            promptVersion: 1,
          },
        ],
      }),
    );
    const result = await evaluate([
      "--judges",
      file,
      "--judge",
      "deepseek-v3.2",
      "--mock",
      "--json",
      "--runs",
      "*000001*",
    ]);
    expect(result.code).toBe(0);
    const db = new Database(dbPath, { readonly: true });
    const versions = db
      .prepare(
        "SELECT DISTINCT prompt_version AS v FROM judges WHERE provider = 'openai' AND name = 'llm-openai' ORDER BY v",
      )
      .all() as { v: string }[];
    db.close();
    expect(versions.map((r) => r.v)).toContain("file_read.v1");
    // Without --mock the definition's key variable is required, and named.
    await expect(evaluate(["--judges", file, "--judge", "deepseek-v3.2"])).rejects.toThrow(/DEEPSEEK_API_KEY/);
    fs.writeFileSync(file, JSON.stringify({ judges: [{ id: "x", provider: "mistral", model: "m" }] }));
    await expect(evaluate(["--judges", file, "--judge", "x"])).rejects.toThrow(/judges\.json: .*provider/);
  });

  it("refuses a configuration it cannot run", async () => {
    for (const argv of [["--judge", "gemini"], ["--mock"], ["--judge", "claude"], ["--concurrency", "0"]]) {
      await expect(evaluate(argv), argv.join(" ")).rejects.toSatisfy(
        (e: unknown) => e instanceof AppError && e.code === "INVALID_INPUT",
      );
    }
  });

  it("keeps task checks on this machine and refuses a queue that is not Redis", async () => {
    await expect(evaluate(["--task-checks", "--queue", "redis://127.0.0.1:1"])).rejects.toThrow(
      /--task-checks run on this machine/,
    );
    await expect(evaluate(["--queue", "http://127.0.0.1:1"])).rejects.toThrow(/redis:\/\/ or rediss:\/\/ URL/);
  });
});
