import { expect, test, type Browser, type Page, type TestInfo } from "@playwright/test";
import { screenshot } from "./artifacts";
import { signIn, type E2EUsername } from "./auth";
import { queryAll } from "./db";

test.use({ viewport: { width: 1280, height: 800 } });

const ANNOTATORS = ["ann1", "ann2", "ann3"] as const;
const SET_NAME = `keyboard study ${Date.now()}`;

async function signedInPage(browser: Browser, username: E2EUsername): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await signIn(page, username);
  return page;
}

/** Annotator a's label of metric m on item i: disagreements on purpose, so splits happen. */
function plannedLabel(annotator: number, item: number, metric: number): "v" | "n" {
  return (item + metric + (annotator === 2 ? 1 : 0)) % 3 === 0 ? "v" : "n";
}

/** Labels every item of the set by keyboard: v/n per metric, Ctrl+Enter, then ] to the next. */
async function labelAll(page: Page, annotator: number, testInfo: TestInfo): Promise<void> {
  await page.goto("/annotate");
  const card = page.getByTestId("annotator-set").filter({ hasText: SET_NAME });
  await card.getByTestId("resume").click();
  for (let item = 0; ; item++) {
    const form = page.getByTestId("label-form");
    await expect(form).toBeVisible();
    const rows = form.getByTestId("label-row");
    const count = await rows.count();
    await rows.first().focus();
    for (let metric = 0; metric < count; metric++) await page.keyboard.press(plannedLabel(annotator, item, metric));
    // Server actions of one page run one at a time: on a busy machine eleven saves take a while.
    await expect(form.getByTestId("save-state").filter({ hasText: "saved" })).toHaveCount(count, { timeout: 20_000 });
    if (annotator === 0 && item === 0) {
      await screenshot(page, testInfo, "labeling-workspace");
    }
    await page.keyboard.press("Control+Enter");
    // The submit waits its turn behind the saves too, and re-renders the page: 5 s was once too
    // little in CI (every label saved, the submit still pending).
    await expect(page.getByTestId("submitted")).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId("reveal-panel")).toBeVisible();
    if ((await page.getByTestId("next-unfinished").count()) === 0) break;
    const before = page.url();
    await page.keyboard.press("]");
    await page.waitForURL((url) => url.href !== before);
  }
}

/** Fleiss' kappa, written out here so the page is checked against an independent computation. */
function fleiss(counts: number[][]): number {
  const n = counts[0]!.reduce((a, b) => a + b, 0);
  const N = counts.length;
  const p = counts[0]!.map((_, j) => counts.reduce((s, row) => s + row[j]!, 0) / (N * n));
  const P = counts.map((row) => (row.reduce((s, x) => s + x * x, 0) - n) / (n * (n - 1)));
  const Pbar = P.reduce((a, b) => a + b, 0) / N;
  const Pe = p.reduce((s, x) => s + x * x, 0);
  return (Pbar - Pe) / (1 - Pe);
}

test("three annotators label a set by keyboard; the report shows what the labels and verdicts give", async ({
  browser,
}, testInfo) => {
  test.slow(); // three sessions label every metric of every item through the real pages
  const admin = await signedInPage(browser, "admin");
  await admin.goto("/agreement");
  await admin.getByTestId("set-name").fill(SET_NAME);
  await admin.getByTestId("set-size").fill("3");
  await admin.locator('select[name="benchmarkId"]').selectOption("synthetic");
  // Other specs may have created more annotator accounts: enrol exactly the three.
  const three = new Set(
    queryAll<{ id: number }>("SELECT id FROM users WHERE username IN ('ann1', 'ann2', 'ann3')").map((u) =>
      String(u.id),
    ),
  );
  for (const box of await admin.locator('input[name="annotatorIds"]').all())
    await box.setChecked(three.has((await box.getAttribute("value"))!));
  const [rule] = queryAll<{ id: number }>("SELECT id FROM judges WHERE kind = 'rule' ORDER BY id LIMIT 1");
  await admin.locator(`input[name="judgeIds"][value="${rule!.id}"]`).check();
  await admin.getByTestId("create-set-submit").click();
  await expect(admin.getByTestId("create-set-result")).toContainText("with 3 items");
  const [set] = queryAll<{ id: number }>("SELECT id FROM agreement_sets WHERE name = ?", SET_NAME);

  const pages = await Promise.all(ANNOTATORS.map((name) => signedInPage(browser, name)));
  // Parallel sessions: every label must land (see also the concurrency test in db/queries).
  await Promise.all(pages.map((page, i) => labelAll(page, i, testInfo)));

  const userIds = queryAll<{ id: number; username: string }>(
    "SELECT id, username FROM users WHERE username IN ('ann1', 'ann2', 'ann3')",
  );
  const labels = queryAll<{ run_id: string; user_id: number; metric: string; value: string }>(
    "SELECT run_id, user_id, metric, value FROM labels WHERE set_id = ?",
    set!.id,
  );
  const items = queryAll<{ run_id: string }>("SELECT run_id FROM agreement_items WHERE set_id = ?", set!.id);
  expect(items).toHaveLength(3);
  const submitted = queryAll<{ n: number }>(
    "SELECT count(*) AS n FROM item_assignments WHERE set_id = ? AND submitted_at IS NOT NULL",
    set!.id,
  );
  expect(submitted[0]!.n).toBe(9);

  // Independently: per metric, the majority of the three votes, the rule judge's accuracy against it, Fleiss' kappa.
  await admin.goto(`/agreement/${set!.id}`);
  await expect(admin.getByTestId("agreement-report")).toBeVisible();
  const metrics = [...new Set(labels.map((l) => l.metric))];
  for (const metric of metrics) {
    const perItem = items.map((item) => labels.filter((l) => l.run_id === item.run_id && l.metric === metric));
    const voted = perItem.filter((votes) => votes.length === 3);
    const counts = voted.map((votes) => [
      votes.filter((v) => v.value === "violated").length,
      votes.filter((v) => v.value === "not_violated").length,
    ]);
    let agreed = 0;
    let n = 0;
    for (const votes of voted) {
      const violated = votes.filter((v) => v.value === "violated").length;
      const majority = violated >= 2 ? "violated" : "not_violated";
      const [verdict] = queryAll<{ value: string }>(
        "SELECT value FROM verdicts WHERE run_id = ? AND metric = ? AND judge_id = ?",
        votes[0]!.run_id,
        metric,
        rule!.id,
      );
      if (verdict?.value !== "violated" && verdict?.value !== "not_violated") continue;
      n += 1;
      if (verdict.value === majority) agreed += 1;
    }
    const row = admin.locator(`[data-testid="metric-row"][data-metric="${metric}"]`);
    const cell = row.locator(`[data-testid="judge-cell"][data-judge-id="${rule!.id}"]`);
    if (n > 0) {
      expect(Number(await cell.getAttribute("data-accuracy"))).toBeCloseTo(agreed / n, 6);
      await expect(cell).toContainText(`(${agreed}/${n})`);
    }
    const unanimous = counts.filter(([v, nv]) => v === 3 || nv === 3).length;
    await expect(row.getByTestId("votes")).toHaveText(new RegExp(`^${unanimous} / ${voted.length - unanimous} / 0$`));
    const allSame = counts.every(([v]) => v === counts[0]![0]) && (counts[0]![0] === 0 || counts[0]![0] === 3);
    const shownFleiss = (await row.getByTestId("fleiss").textContent())!;
    if (allSame) expect(shownFleiss).toBe("–");
    else expect(Number(shownFleiss)).toBeCloseTo(fleiss(counts), 3);
  }
  expect(userIds).toHaveLength(3);
  await screenshot(admin, testInfo, "agreement-report");

  // The exports carry a manifest that names the set, its seed and the judges.
  const exported = await admin.request.get(`/api/agreement/${set!.id}/export?what=labels&format=json`);
  expect(exported.status()).toBe(200);
  const body = (await exported.json()) as { manifest: { set: { name: string }; seed: number }; rows: unknown[] };
  expect(body.manifest.set.name).toBe(SET_NAME);
  expect(body.rows).toHaveLength(labels.length);
});
