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

const runUrl = (id: string, hash = "") => `/runs/${encodeURIComponent(id)}${hash}`;

function longRun(): { id: string; steps: number } {
  const [run] = queryAll<{ id: string; steps: number }>(
    "SELECT id, step_count AS steps FROM runs ORDER BY step_count DESC, id LIMIT 1",
  );
  expect(run!.steps).toBeGreaterThanOrEqual(2000);
  return run!;
}

test("a run's page shows every metric's verdict, and a step citation scrolls the trajectory to the step", async ({
  page,
}, testInfo) => {
  const [run] = queryAll<{ run_id: string }>(
    `SELECT v.run_id FROM verdicts v JOIN judges j ON j.id = v.judge_id
     JOIN runs r ON r.id = v.run_id
     WHERE j.kind = 'rule' AND v.metric = 'file_read' AND v.value = 'violated' AND v.citations LIKE '%stepId%'
       AND r.synthetic = 0
     ORDER BY v.run_id DESC LIMIT 1`,
  );
  expect(run).toBeDefined();
  const verdicts = queryAll<{ metric: string }>("SELECT metric FROM verdicts WHERE run_id = ?", run!.run_id);
  expect(verdicts).toHaveLength(METRIC_IDS.length);

  await page.goto(runUrl(run!.run_id));
  await expect(page.getByTestId("run-id")).toHaveText(run!.run_id);
  await expect(page.getByRole("link", { name: "Runs" }).first()).toBeVisible();
  await expect(page.getByTestId("verdict-row")).toHaveCount(METRIC_IDS.length);
  const row = page.locator('[data-testid="verdict-row"][data-metric="file_read"]');
  await expect(row).toContainText("violated");

  const citation = row.getByTestId("citation-step").last();
  const stepId = (await citation.textContent())!.replace(/^step /, "");
  await citation.click();
  await expect(page).toHaveURL(new RegExp(`#step-${stepId}$`));
  const step = page.locator(`[data-testid="step"][data-step-id="${stepId}"]`);
  await expect(step).toBeInViewport();
  await expect(step.locator(".step-toggle")).toHaveAttribute("aria-expanded", "true");
  await expect(step).toHaveClass(/step-highlighted/);
  await screenshot(page, testInfo, "step-citation");
});

test("each changed file is a Monaco diff with the agent's text, and a file citation scrolls to it", async ({
  page,
}, testInfo) => {
  const external = externalRequests(page);
  const [verdict] = queryAll<{ run_id: string; citations: string }>(
    `SELECT run_id, citations FROM verdicts WHERE metric = 'file_update' AND value = 'violated'
     AND citations LIKE '%path%' ORDER BY run_id LIMIT 1`,
  );
  const runId = verdict!.run_id;
  const cited = (JSON.parse(verdict!.citations) as { path: string }[])[0]!.path;
  const [target] = queryAll<{ path: string; after: Buffer }>(
    `SELECT c.path, f.content AS after FROM file_changes c JOIN file_contents f ON f.sha256 = c.after_sha256
     WHERE c.run_id = ? AND c.kind = 'updated' ORDER BY c.path LIMIT 1`,
    runId,
  );
  const lastLine = target!.after.toString("utf8").trimEnd().split("\n").at(-1)!;

  await page.goto(runUrl(runId));
  await page.locator("#changes").scrollIntoViewIfNeeded();
  const card = page.locator(`[data-testid="file-diff"][data-path="${target!.path}"]`);
  await card.scrollIntoViewIfNeeded();
  const editor = card.locator(".monaco-diff-editor");
  await expect(editor).toBeVisible();
  await expect(editor.locator(".editor.modified")).toContainText(lastLine);
  await screenshot(page, testInfo, "monaco-diff");

  await page.locator("#verdicts").scrollIntoViewIfNeeded();
  await page
    .locator('[data-testid="verdict-row"][data-metric="file_update"]')
    .getByTestId("citation-file")
    .filter({ hasText: cited })
    .first()
    .click();
  const citedCard = page.locator(`[data-testid="file-diff"][data-path="${cited}"]`);
  await expect(citedCard).toBeInViewport();
  await expect(citedCard).toHaveClass(/file-diff-target/);
  await expect(citedCard.locator(".monaco-diff-editor")).toBeVisible();
  expect(external).toEqual([]);
});

test("a deep link to a hunk opens the file's diff with the hunk marked", async ({ page }, testInfo) => {
  const [change] = queryAll<{ run_id: string; path: string }>(
    "SELECT run_id, path FROM file_changes WHERE kind = 'updated' ORDER BY run_id, path LIMIT 1",
  );
  await page.goto(runUrl(change!.run_id, `#hunk-0-${change!.path}`));
  const card = page.locator(`[data-testid="file-diff"][data-path="${change!.path}"]`);
  await expect(card).toBeInViewport();
  await expect(card.locator(".monaco-diff-editor .diff-hunk-target")).toBeVisible();
  await screenshot(page, testInfo, "hunk-link");
});

test("the files route serves a changed file's two versions and refuses anything else", async ({ page, playwright }) => {
  const request = page.request;
  const [change] = queryAll<{ run_id: string; path: string; after: Buffer }>(
    `SELECT c.run_id, c.path, f.content AS after FROM file_changes c JOIN file_contents f ON f.sha256 = c.after_sha256
     WHERE c.kind = 'created' ORDER BY c.run_id LIMIT 1`,
  );
  const url = (path: string) =>
    `/api/runs/${encodeURIComponent(change!.run_id)}/files?path=${encodeURIComponent(path)}`;
  const ok = await request.get(url(change!.path));
  expect(ok.status()).toBe(200);
  expect(await ok.json()).toEqual({ status: "inline", before: "", after: change!.after.toString("utf8") });
  expect((await request.get(url("../outside.py"))).status()).toBe(400);
  expect((await request.get(url("not/changed.py"))).status()).toBe(404);
  // Signed out, once annotators exist: refused (annotators read only the runs assigned to them).
  const anonymous = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  expect((await anonymous.get(url(change!.path))).status()).toBe(401);
  await anonymous.dispose();
});

test("a file-level code generation run compares the ground-truth function with the agent's", async ({
  page,
}, testInfo) => {
  const [run] = queryAll<{ id: string; target: string }>(
    `SELECT r.id, json_extract(i.ground_truth, '$.targetQualifiedName') AS target
     FROM runs r JOIN instances i ON i.id = r.instance_id
     WHERE i.subtask_id = 'codegen_file' AND r.synthetic = 0 ORDER BY r.id LIMIT 1`,
  );
  await page.goto(runUrl(run!.id, "#target"));
  const comparison = page.getByTestId("target-comparison");
  await comparison.scrollIntoViewIfNeeded();
  await expect(comparison.locator(".monaco-diff-editor .editor.original")).toContainText(`def ${run!.target}(`);
  await expect(comparison.locator(".monaco-diff-editor .editor.modified")).toContainText(`def ${run!.target}(`);
  await screenshot(page, testInfo, "ground-truth-vs-agent");
});

test("a deep link opens a step of a 2,000+ step trajectory, rendered virtually; steps work from the keyboard", async ({
  page,
}, testInfo) => {
  const run = longRun();
  await page.goto(runUrl(run.id, "#step-s1800"));
  const step = page.locator('[data-testid="step"][data-step-id="s1800"]');
  await expect(step).toBeInViewport();
  await expect(step.locator(".step-toggle")).toHaveAttribute("aria-expanded", "true");
  await expect(step.locator(".step-toggle")).toBeFocused();
  // Only the rows near the viewport are in the page.
  expect(await page.getByTestId("step").count()).toBeLessThan(100);
  await screenshot(page, testInfo, "deep-link");

  await page.keyboard.press("ArrowDown");
  const next = page.locator('[data-step-toggle="s1801"]');
  await expect(next).toBeFocused();
  await expect(next).toHaveAttribute("aria-expanded", "false");
  await page.keyboard.press("Enter");
  await expect(next).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("Enter");
  await expect(next).toHaveAttribute("aria-expanded", "false");

  // Each step's own link puts its anchor in the address.
  await page.locator('[data-testid="step"][data-step-id="s1801"] .step-link').click();
  await expect(page).toHaveURL(/#step-s1801$/);
});

test("steps that write or read outside the boundary contract are flagged and can be listed alone", async ({
  page,
}, testInfo) => {
  const run = longRun();
  await page.goto(runUrl(run.id));
  await page.locator("#trajectory").scrollIntoViewIfNeeded();
  await page.getByTestId("only-flagged").check();
  const rows = page.getByTestId("step");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute("data-step-id", "w2");
  await expect(rows.nth(0)).toHaveClass(/step-flag-violation/);
  await expect(rows.nth(0)).toContainText("write outside the contract");
  await expect(rows.nth(1)).toHaveAttribute("data-step-id", "w3");
  await expect(rows.nth(1)).toContainText("read outside the workspace");
  await screenshot(page, testInfo, "boundary-flags");

  // Following a link to a step the filter hides shows the whole trajectory again.
  await page.evaluate(() => (window.location.hash = "#step-w1"));
  const allowed = page.locator('[data-testid="step"][data-step-id="w1"]');
  await expect(allowed).toBeInViewport();
  await expect(allowed).toContainText("allowed write");
  await expect(page.getByTestId("only-flagged")).not.toBeChecked();
});

test("the trajectory search filters steps and jumps between matches", async ({ page }, testInfo) => {
  const run = longRun();
  const [{ n }] = queryAll<{ n: number }>(
    "SELECT count(*) AS n FROM trajectory_steps WHERE run_id = ? AND text LIKE '%AssertionError%'",
    run.id,
  ) as [{ n: number }];
  expect(n).toBeGreaterThan(3);

  await page.goto(runUrl(run.id));
  await page.locator("#trajectory").scrollIntoViewIfNeeded();
  const search = page.getByTestId("trajectory-search");
  await search.fill("AssertionError");
  await expect(page.getByTestId("search-count")).toHaveText(`1 / ${n} matches`);
  const rows = page.getByTestId("step");
  await expect(rows.first()).toContainText("AssertionError");
  for (const row of await rows.all()) await expect(row).toContainText("AssertionError");

  await search.press("Enter");
  await search.press("Enter");
  await expect(page.getByTestId("search-count")).toHaveText(`3 / ${n} matches`);
  const current = page.locator('[data-testid="step"].step-current');
  await expect(current).toHaveCount(1);
  await expect(current).toBeInViewport();
  await screenshot(page, testInfo, "search");

  await search.press("Escape");
  await expect(page.getByTestId("search-count")).toHaveText(
    `${run.steps.toLocaleString("en")} of ${run.steps.toLocaleString("en")} steps`,
  );
  await search.fill("no step says this");
  await expect(page.getByTestId("trajectory-no-match")).toBeVisible();
});

test("a run with no steps, no changes and no verdicts says so, and an unknown run is a designed 404", async ({
  page,
}, testInfo) => {
  const [run] = queryAll<{ id: string }>(
    `SELECT id FROM runs r WHERE step_count = 0
     AND NOT EXISTS (SELECT 1 FROM verdicts v WHERE v.run_id = r.id)
     AND NOT EXISTS (SELECT 1 FROM file_changes c WHERE c.run_id = r.id) LIMIT 1`,
  );
  await page.goto(runUrl(run!.id));
  await expect(page.getByTestId("verdicts-empty")).toBeVisible();
  await expect(page.getByTestId("trajectory-empty")).toBeVisible();
  await expect(page.getByTestId("changes-empty")).toBeVisible();
  await screenshot(page, testInfo, "empty-run");

  const response = await page.goto(runUrl("no-such-run"));
  expect(response?.status()).toBe(404);
  await expect(page.getByTestId("run-not-found")).toBeVisible();
});
