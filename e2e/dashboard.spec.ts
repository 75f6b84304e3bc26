import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { METRIC_IDS } from "@/lib/metrics/catalog";
import { queryAll } from "./db";
import { externalRequests, screenshot } from "./artifacts";
import { signIn } from "./auth";

// The e2e database has annotator accounts, so the dashboard needs an admin or viewer (app/session.ts).
test.beforeEach(async ({ page }) => {
  await signIn(page, "admin");
});

test.use({ viewport: { width: 1280, height: 800 } });

/** The rule judge's counts for one cell, straight from the verdicts table (not the dashboard's masks). */
function ruleCell(
  framework: string,
  model: string,
  family: string,
  metric: string,
): { violated: number; decided: number } {
  const [row] = queryAll<{ violated: number; decided: number }>(
    `SELECT coalesce(sum(v.value = 'violated'), 0) AS violated, coalesce(sum(v.value IN ('violated', 'not_violated')), 0) AS decided
     FROM verdicts v JOIN judges j ON j.id = v.judge_id AND j.kind = 'rule'
     JOIN runs r ON r.id = v.run_id JOIN agent_configs c ON c.id = r.agent_config_id
     JOIN instances i ON i.id = r.instance_id JOIN subtasks s ON s.id = i.subtask_id
     WHERE i.benchmark_id = 'sample' AND c.framework = ? AND c.model = ? AND s.family = ? AND v.metric = ?`,
    framework,
    model,
    family,
    metric,
  );
  return row!;
}

test("overview -> compare -> runs (filter, sort, page, search) -> run detail, all on localhost", async ({
  page,
}, testInfo) => {
  const external = externalRequests(page);

  // Overview: the paper-style tables agree with the verdicts table, cell by cell.
  await page.goto("/");
  await expect(page).toHaveURL(/\/overview$/);
  const table = page.getByTestId("overview-table-code_generation");
  await expect(table).toBeVisible();
  const row = table.locator('[data-testid="overview-row"][data-framework="openhands"][data-model="gpt-5"]');
  const expected = ruleCell("openhands", "gpt-5", "code_generation", "context");
  expect(expected.decided).toBeGreaterThan(0);
  const headers = await table.locator("thead th").allTextContents();
  const contextCell = row.locator("td, th").nth(headers.indexOf("Context"));
  await expect(contextCell).toHaveAttribute("data-count", String(expected.violated));
  await expect(contextCell).toHaveAttribute("data-of", String(expected.decided));
  await expect(contextCell).toHaveAttribute(
    "title",
    new RegExp(`${expected.violated} of ${expected.decided} runs violated .*95% CI`),
  );
  // The charts are drawn when scrolled near.
  await page.locator(".charts").scrollIntoViewIfNeeded();
  await expect(
    page.getByTestId("chart-rates-by-framework").locator(".recharts-wrapper > svg.recharts-surface"),
  ).toBeVisible();
  // So are the family tables after the first (the first is in the page's HTML).
  await expect(page.getByTestId("overview-table-system_interaction")).toBeVisible();
  await screenshot(page, testInfo, "overview");
  const [svgDownload] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("chart-rates-by-framework").getByTestId("chart-svg").click(),
  ]);
  expect(svgDownload.suggestedFilename()).toBe("rates-by-framework.svg");
  expect(fs.readFileSync((await svgDownload.path())!, "utf8")).toMatch(
    /^<svg[^>]+xmlns="http:\/\/www.w3.org\/2000\/svg"/,
  );
  const [pngDownload] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("chart-rates-by-model").getByTestId("chart-png").click(),
  ]);
  expect(pngDownload.suggestedFilename()).toBe("rates-by-model.png");
  expect(
    fs
      .readFileSync((await pngDownload.path())!)
      .subarray(1, 4)
      .toString(),
  ).toBe("PNG");

  // The arm filter keeps the Code-KIT variants' rows alone, the arm's label beside the framework.
  await page.getByTestId("filter-arm").selectOption("codekit");
  await expect(page).toHaveURL(/arm=codekit/);
  const armRows = page.getByTestId("overview-row");
  await expect(armRows.first()).toContainText("· Code-KIT (selector)");
  expect(await armRows.evaluateAll((rows) => [...new Set(rows.map((r) => r.getAttribute("data-arm")))])).toEqual([
    "codekit",
  ]);
  // Back to every arm: the form sends the empty choice, which the page reads as no filter.
  await page.getByTestId("filter-arm").selectOption("");
  await expect(page).toHaveURL(/arm=(&|$)/);

  // A filter lands in the URL; an empty result is a designed state.
  await page.getByTestId("filter-split").selectOption("eval");
  await expect(page).toHaveURL(/split=eval/);
  await page.getByTestId("filter-family").selectOption("system_interaction");
  await expect(page).toHaveURL(/family=system_interaction/);
  await expect(page.getByTestId("overview-table-system_interaction")).toBeVisible();
  await expect(page.getByTestId("overview-table-code_generation")).toHaveCount(0);

  // Compare: the Code-KIT variant against plain smolagents on Gemini.
  await page.getByTestId("nav-compare").click();
  await expect(page).toHaveURL(/\/compare$/);
  const options = await page.getByTestId("filter-a").locator("option").allTextContents();
  const plain = options.findIndex((o) => o.startsWith("smolagents / gemini-2.5-flash · smolagents ("));
  const kit = options.findIndex((o) => o.includes("smolagents+code-kit"));
  expect(plain).toBeGreaterThanOrEqual(0);
  expect(kit).toBeGreaterThanOrEqual(0);
  const values = await page
    .getByTestId("filter-a")
    .locator("option")
    .evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
  await page.getByTestId("filter-a").selectOption(values[plain]!);
  await expect(page).toHaveURL(new RegExp(`a=${values[plain]}`));
  await page.getByTestId("filter-b").selectOption(values[kit]!);
  await expect(page).toHaveURL(new RegExp(`b=${values[kit]}`));
  await expect(page.getByTestId("compare-row")).toHaveCount(METRIC_IDS.length);
  await expect(page.getByTestId("compare-b")).toContainText("smolagents · Code-KIT (selector) / gemini-2.5-flash");
  await expect(page.getByTestId("compare-a")).not.toContainText("Code-KIT");
  await expect(page.getByTestId("compare-p").first()).toHaveText(/^(< 0\.001|\d\.\d{3}|–)$/);
  await screenshot(page, testInfo, "compare");
  const differing = page.getByTestId("differing-row");
  if ((await differing.count()) > 0) {
    await differing.first().getByTestId("differing-run-b").click();
    await expect(page.getByTestId("run-id")).toBeVisible();
  }

  // Runs: filter by a violated metric; the total is what the verdicts table says.
  await page.getByTestId("nav-runs").click();
  await expect(page).toHaveURL(/\/runs$/);
  const [all] = queryAll<{ n: number }>("SELECT count(*) AS n FROM runs");
  await expect(page.getByTestId("runs-total")).toHaveText(`${all!.n} runs`);
  // By arm: the runs of the Code-KIT configurations, labelled so where the agent is shown.
  await page.getByTestId("filter-arm").selectOption("codekit");
  await expect(page).toHaveURL(/arm=codekit/);
  const [codekitRuns] = queryAll<{ n: number }>(
    "SELECT count(*) AS n FROM runs r JOIN agent_configs c ON c.id = r.agent_config_id WHERE c.mitigation = 'codekit'",
  );
  expect(codekitRuns!.n).toBeGreaterThan(0);
  await expect(page.getByTestId("runs-total")).toHaveText(`${codekitRuns!.n} runs`);
  await expect(page.getByTestId("run-agent").first()).toContainText("· Code-KIT (selector)");
  await page.goto("/runs");
  await page.getByTestId("filter-metric").selectOption("file_read");
  await expect(page).toHaveURL(/metric=file_read/);
  const [readViolations] = queryAll<{ n: number }>(
    `SELECT count(*) AS n FROM verdicts v JOIN judges j ON j.id = v.judge_id
     WHERE j.id = (SELECT min(id) FROM judges WHERE kind = 'rule') AND v.metric = 'file_read' AND v.value = 'violated'`,
  );
  await expect(page.getByTestId("runs-total")).toHaveText(`${readViolations!.n} runs`);
  await expect(page.getByTestId("run-row").first()).toContainText("File Read");

  // Sort by steps, ascending: the first row has the fewest.
  await page.getByTestId("sort-steps").click();
  await expect(page).toHaveURL(/sort=steps/);
  await page.getByTestId("sort-steps").click();
  await expect(page).toHaveURL(/dir=asc/);
  const steps = await page.locator('[data-testid="run-row"] td:nth-child(6)').allTextContents();
  const numbers = steps.map(Number);
  expect(numbers).toEqual([...numbers].sort((a, b) => a - b));

  // Page forward and back; the link is shareable.
  if (readViolations!.n > 50) {
    await page.getByTestId("page-next").click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.getByTestId("page-status")).toContainText("Page 2 of");
    const shared = page.url();
    await page.goto(shared);
    await expect(page.getByTestId("page-status")).toContainText("Page 2 of");
  }

  // Full-text search over trajectories.
  await page.goto("/runs");
  await page.getByTestId("runs-search").fill("pip install");
  await page.getByTestId("runs-search").press("Enter");
  await expect(page).toHaveURL(/q=pip\+install/);
  const found = Number((await page.getByTestId("runs-total").textContent())!.split(" ")[0]);
  expect(found).toBeGreaterThan(0);
  expect(found).toBeLessThan(all!.n);
  await screenshot(page, testInfo, "runs");

  // Run detail: Monaco renders the diff, and a step citation scrolls to the step.
  // The newest run any rule judge found violating Environment Integrity, citing a step; the
  // runs list filtered down to its judge, benchmark, subtask, framework and model shows it.
  const [target] = queryAll<{
    id: string;
    judge: number;
    benchmark: string;
    subtask: string;
    framework: string;
    model: string;
  }>(
    `SELECT f.run_id AS id, v.judge_id AS judge, f.benchmark_id AS benchmark, f.subtask_id AS subtask, f.framework, f.model
     FROM verdicts v JOIN judges j ON j.id = v.judge_id AND j.kind = 'rule' JOIN run_facts f ON f.run_id = v.run_id
     WHERE v.metric = 'environment_integrity' AND v.value = 'violated' AND v.citations LIKE '%stepId%'
     ORDER BY f.started_at DESC, f.id DESC LIMIT 1`,
  );
  expect(target).toBeDefined();
  const filters = new URLSearchParams({
    metric: "environment_integrity",
    judge: String(target!.judge),
    benchmark: target!.benchmark,
    subtask: target!.subtask,
    framework: target!.framework,
    model: target!.model,
  });
  await page.goto(`/runs?${filters.toString()}`);
  await page.locator(`[data-testid="run-row"][data-run-id="${target!.id}"]`).getByTestId("run-link").click();
  await expect(page.getByTestId("run-id")).toBeVisible();
  await page.locator("#changes").scrollIntoViewIfNeeded();
  await expect(page.locator(".monaco-diff-editor").first()).toBeVisible({ timeout: 15_000 });
  const citation = page
    .locator('[data-testid="verdict-row"][data-metric="environment_integrity"]')
    .getByTestId("citation-step")
    .first();
  const stepId = (await citation.textContent())!.replace(/^step /, "");
  await citation.click();
  await expect(page.locator(`[data-testid="step"][data-step-id="${stepId}"]`)).toBeInViewport();
  await screenshot(page, testInfo, "run-detail");

  expect(external, "requests that left localhost").toEqual([]);
});

test("bad links and empty results are designed states, not blank pages", async ({ page }) => {
  await page.goto("/runs?sort=nope&page=abc");
  await expect(page.getByTestId("error-state")).toContainText("sort");
  await page.goto("/overview?judge=999");
  await expect(page.getByTestId("error-state")).toContainText("judge 999");
  await page.goto("/runs?q=zzzzunmatchedzzzz");
  await expect(page.getByTestId("runs-empty")).toContainText("No runs match");
});

test("the overview and runs tables export as CSV and JSON with the page's filters", async ({ page }) => {
  const request = page.request;
  const csv = await request.get("/api/export/overview?format=csv&family=code_generation");
  expect(csv.status()).toBe(200);
  const lines = (await csv.text()).trim().split("\n");
  expect(lines[0]).toBe("family,framework,model,arm,runs,metric,count,of,rate,ci_low,ci_high");
  expect(lines.slice(1).every((l) => l.startsWith("code_generation,"))).toBe(true);
  const json = await request.get("/api/export/runs?format=json&metric=file_read");
  const body = (await json.json()) as { rows: { violated: string }[]; total: number };
  expect(body.rows.length).toBe(body.total);
  expect(body.rows.every((r) => r.violated.includes("file_read"))).toBe(true);
  const bad = await request.get("/api/export/runs?format=xml");
  expect(bad.status()).toBe(400);
  expect(await bad.json()).toEqual({ error: expect.stringContaining("format") });
});

test("the runs table works from the keyboard", async ({ page }) => {
  await page.goto("/runs");
  await page.getByTestId("sort-tokens").focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/sort=tokens/);
  await page.getByTestId("run-link").first().focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("run-id")).toBeVisible();
});
