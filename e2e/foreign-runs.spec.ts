import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { E2E_INGEST_TOKEN } from "../playwright.config";
import { METRIC_IDS } from "@/lib/metrics/catalog";
import { queryAll } from "./db";
import { signIn } from "./auth";

// Runs made elsewhere (e2e/seed.ts FOREIGN_LOGS): a mini-swe-agent trajectory and a git format-patch.
test.beforeEach(async ({ page }) => {
  await signIn(page, "admin");
});

test.use({ viewport: { width: 1280, height: 800 } });

const auth = { Authorization: `Bearer ${E2E_INGEST_TOKEN}` };

interface ForeignRow {
  id: string;
  format: string;
  steps: number;
  instance: string;
}

function foreignRuns(): ForeignRow[] {
  return queryAll<ForeignRow>(
    `SELECT id, json_extract(source, '$.format') AS format, step_count AS steps, instance_id AS instance
     FROM runs WHERE source IS NOT NULL ORDER BY id`,
  );
}

test("a run read from a mini-swe-agent log shows where it came from, its steps, its diff and reasoned verdicts", async ({
  page,
}) => {
  const run = foreignRuns().find((r) => r.format === "mini-swe-agent-traj");
  expect(run).toBeDefined();
  expect(run!.steps).toBeGreaterThan(0);
  expect(run!.instance).toBe("swe-bench/django__django-16255");

  await page.goto(`/runs/${encodeURIComponent(run!.id)}`);
  await expect(page.getByTestId("run-id")).toHaveText(run!.id);
  await expect(page.getByTestId("provenance-format")).toContainText("mini-swe-agent-traj");
  await expect(page.getByTestId("provenance")).toContainText("/testbed");
  await expect(page.getByTestId("contract-origin")).toContainText("No contract");
  await expect(page.getByTestId("step")).not.toHaveCount(0);

  // The diff comes from the log's patch: the file is named, its contents were never captured.
  await expect(page.locator("#changes")).toContainText("django/contrib/sitemaps/__init__.py");
  await expect(page.locator("#changes")).toContainText("Not captured");
  await page.getByTestId("repo-diff").locator("summary").click();
  await expect(page.getByTestId("repo-diff")).toContainText("diff --git a/django/contrib/sitemaps/__init__.py");

  // Every metric has a verdict with a reason; those needing a contract or a target say why not.
  await expect(page.getByTestId("verdict-row")).toHaveCount(METRIC_IDS.length);
  await expect(page.locator('[data-testid="verdict-row"][data-metric="file_update"]')).toContainText(
    "no contract says which files may change",
  );
  await expect(page.locator('[data-testid="verdict-row"][data-metric="file_read"]')).toContainText(
    "no contract: read each of the 1 file(s) it changed before changing it",
  );
});

test("a run read from a repo diff alone has no trajectory, and its trajectory metrics say so", async ({ page }) => {
  const run = foreignRuns().find((r) => r.format === "unified-diff");
  expect(run).toBeDefined();
  expect(run!.steps).toBe(0);

  await page.goto(`/runs/${encodeURIComponent(run!.id)}`);
  await expect(page.getByTestId("provenance")).toContainText("not recorded: a repo diff alone");
  await expect(page.locator("#changes")).toContainText("calc/stats.py");
  await expect(page.locator('[data-testid="verdict-row"][data-metric="file_read"]')).toContainText(
    "no trajectory was recorded",
  );
  await expect(page.locator('[data-testid="verdict-row"][data-metric="file_create"]')).toContainText("docs/usage.md");
});

test("runs made elsewhere are listed under their own family in the runs browser", async ({ page }) => {
  await page.goto("/runs?subtask=external");
  for (const run of foreignRuns()) await expect(page.getByRole("link", { name: run.id })).toBeVisible();
});

test("POST /api/runs/import takes a native log as its body, once, and names a file no format knows", async ({
  request,
}) => {
  const body = fs.readFileSync("lib/foreign/formats/fixtures/swe-bench-predictions/preds.jsonl");
  const url = "/api/runs/import?name=preds.jsonl&benchmark=swe-bench-lite";
  const first = await request.post(url, { data: body, headers: auth });
  expect(first.status()).toBe(201);
  const { runs } = (await first.json()) as { runs: { label: string; outcome?: string; format?: string }[] };
  expect(runs).toHaveLength(3);
  expect(runs.every((r) => r.outcome === "imported" && r.format === "swe-bench-predictions")).toBe(true);

  const again = await request.post(url, { data: body, headers: auth });
  expect(again.status()).toBe(200);

  const forced = await request.post("/api/runs/import?name=preds.jsonl&format=codex-exec", {
    data: body,
    headers: auth,
  });
  expect(forced.status()).toBe(422);
  expect(((await forced.json()) as { runs: { error: string }[] }).runs[0]!.error).toMatch(/^preds\.jsonl/);

  const badFormat = await request.post("/api/runs/import?format=nope", { data: body, headers: auth });
  expect(badFormat.status()).toBe(400);
  expect(((await badFormat.json()) as { error: string }).error).toMatch(/^format: unknown format "nope"/);

  const unknown = await request.post("/api/runs/import?name=notes.json", { data: '{"hello": 1}', headers: auth });
  expect(unknown.status()).toBe(400);
  expect(((await unknown.json()) as { error: string }).error).toMatch(/nor a log of a known agent/);
});

test("an external benchmark has its own overview: one table, its framework and model from the log", async ({
  page,
}) => {
  await page.goto("/overview?benchmark=swe-bench");
  const table = page.getByTestId("overview-table-external");
  await expect(table).toBeVisible();
  await expect(
    table.locator(
      '[data-testid="overview-row"][data-framework="mini-swe-agent"][data-model="google/gemini-3-pro-preview"]',
    ),
  ).toBeVisible();
  // Our benchmark stays the default.
  await page.goto("/overview");
  await expect(page.getByTestId("overview-table-code_generation")).toBeVisible();
});
