import { expect, test } from "@playwright/test";
import { signIn } from "./auth";
import { queryAll } from "./db";

// The e2e database has annotator accounts, so benchmarks and instances (ground truth) need an
// admin or viewer (lib/auth/access.ts): a viewer reads them.
test.beforeEach(async ({ page }) => {
  await signIn(page, "viewer");
});

test("the benchmark page shows each subtask's instances and split as stored", async ({ page }) => {
  const counts = queryAll<{ subtask: string; n: number; split: number }>(
    "SELECT subtask_id AS subtask, count(*) AS n, sum(in_eval_split) AS split FROM instances WHERE benchmark_id = 'sample' GROUP BY subtask_id",
  );
  expect(counts.length).toBe(9);

  await page.goto("/benchmarks");
  await page.getByTestId("benchmark-row").filter({ hasText: "sample" }).getByRole("link").click();
  await expect(page).toHaveURL(/\/benchmarks\/sample$/);
  for (const { subtask, n } of counts) {
    await expect(page.locator(`[data-subtask="${subtask}"] [data-testid="subtask-count"]`)).toHaveText(String(n));
  }
});

test("an instance page shows prompt, contract and the target highlighted in Monaco, all served locally", async ({
  page,
  baseURL,
}) => {
  const foreign: string[] = [];
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(baseURL!) && !url.startsWith("data:") && !url.startsWith("blob:")) foreign.push(url);
  });
  const [instance] = queryAll<{ id: string; prompt: string }>(
    "SELECT id, prompt FROM instances WHERE subtask_id = 'codegen_file' ORDER BY id LIMIT 1",
  );

  await page.goto("/benchmarks/sample/instances?subtask=codegen_file");
  await page.getByTestId("instance-row").first().getByRole("link").click();
  await expect(page.getByTestId("instance-id")).toHaveText(instance!.id);
  await expect(page.getByTestId("instance-prompt")).toHaveText(instance!.prompt);
  await expect(page.getByTestId("contract-mayChange")).toContainText(".py");
  await expect(page.locator(".monaco-editor").first()).toBeVisible();
  await expect(page.locator(".code-highlight").first()).toBeAttached();
  expect(foreign).toEqual([]);
});
