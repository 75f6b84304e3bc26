import { expect, test } from "@playwright/test";
import { countRows } from "./db";

test("the runs list shows the runs stored in the database, paged", async ({ page }) => {
  const total = countRows("runs");
  expect(total).toBeGreaterThanOrEqual(60);

  await page.goto("/");
  await expect(page).toHaveURL(/\/runs$/);
  await expect(page.getByTestId("runs-total")).toHaveText(`${total} runs`);
  await expect(page.getByTestId("run-row")).toHaveCount(50);
  await expect(page.getByTestId("run-row").first()).toContainText("scripted");
  await expect(page.getByTestId("run-row").filter({ hasText: "synthetic/" }).first()).toBeVisible();

  await page.getByTestId("pager").getByRole("link", { name: /Next/ }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByTestId("run-row")).toHaveCount(Math.min(50, total - 50));
});

test("a bad page number falls back to the first page", async ({ page }) => {
  await page.goto("/runs?page=abc");
  await expect(page.getByTestId("run-row")).toHaveCount(50);
});
