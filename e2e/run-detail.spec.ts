import { expect, test } from "@playwright/test";
import { queryAll } from "./db";

test("a run's page shows every metric's verdict with evidence, and citations jump to the step", async ({ page }) => {
  const [run] = queryAll<{ run_id: string }>(
    `SELECT v.run_id FROM verdicts v JOIN judges j ON j.id = v.judge_id
     WHERE j.kind = 'rule' AND v.metric = 'file_read' AND v.value = 'violated' AND v.citations LIKE '%stepId%'
     ORDER BY v.run_id DESC LIMIT 1`,
  );
  expect(run).toBeDefined();
  const verdicts = queryAll<{ metric: string; value: string }>(
    "SELECT metric, value FROM verdicts WHERE run_id = ? ORDER BY metric",
    run!.run_id,
  );
  expect(verdicts).toHaveLength(11);

  await page.goto(`/runs/${encodeURIComponent(run!.run_id)}`);
  await expect(page.getByTestId("run-id")).toHaveText(run!.run_id);
  // The list links to the same page.
  await expect(page.getByRole("link", { name: "Runs" }).first()).toBeVisible();
  await expect(page.getByTestId("verdict-row")).toHaveCount(11);
  const row = page.locator('[data-testid="verdict-row"][data-metric="file_read"]');
  await expect(row).toContainText("violated");
  const citation = row.locator(".citations a").first();
  const target = (await citation.getAttribute("href"))!;
  await citation.click();
  await expect(page).toHaveURL(new RegExp(`${target}$`));
  await expect(page.locator(target)).toBeVisible();
});
