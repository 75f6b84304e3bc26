import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "@/db/client";
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
  });

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

  it("refuses a configuration it cannot run", async () => {
    for (const argv of [["--judge", "gemini"], ["--mock"], ["--judge", "claude"], ["--concurrency", "0"]]) {
      await expect(evaluate(argv), argv.join(" ")).rejects.toSatisfy(
        (e: unknown) => e instanceof AppError && e.code === "INVALID_INPUT",
      );
    }
  });
});
