import { spawnSync } from "node:child_process";
import { expect, test } from "@playwright/test";
import { E2E_DB } from "../playwright.config";
import { actionHeaders, captureAction, signIn } from "./auth";
import { countRows, queryAll } from "./db";

/** The worker as the demo starts it, taking one job. */
function runWorkerOnce() {
  const worker = spawnSync("npx", ["tsx", "scripts/worker.ts", "--once"], {
    env: { ...process.env, STUDIO_DB: E2E_DB },
    encoding: "utf8",
  });
  expect(worker.status, worker.stderr).toBe(0);
}

test("an agent run queued from the Jobs page is executed by the worker, with progress and log", async ({ page }) => {
  // The worker starts a CLI that makes a sandboxed run: about 15 s on a quiet machine, twice that under load.
  test.setTimeout(120_000);
  await signIn(page, "admin", "/jobs");
  const form = page.getByTestId("run-agents-form");
  await form.locator('select[name="subtask"]').selectOption("delete_file");
  await form.locator('input[name="perSubtask"]').fill("1");
  await page.getByTestId("run-agents-submit").click();
  await expect(page.getByTestId("action-ok")).toHaveText(/job \d+ queued/);
  const [job] = queryAll<{ id: number; status: string }>("SELECT id, status FROM jobs ORDER BY id DESC LIMIT 1");
  expect(job?.status).toBe("queued");
  await expect(page.locator(`[data-job-id="${job!.id}"] [data-testid="job-status"]`)).toHaveText("queued");

  // The worker, as the demo starts it, takes the job once.
  runWorkerOnce();

  await page.reload();
  const card = page.locator(`[data-job-id="${job!.id}"]`);
  await expect(card.getByTestId("job-status")).toHaveText("succeeded");
  await expect(card.getByTestId("job-progress")).toHaveText("1/1");
  const runs = queryAll<{ n: number }>(
    "SELECT count(*) AS n FROM runs r JOIN instances i ON i.id = r.instance_id WHERE i.benchmark_id = 'sample' AND i.subtask_id = 'delete_file' AND r.synthetic = 0",
  );
  expect(runs[0]!.n).toBe(1);
});

test("an ablation queued from the Jobs page runs each chosen arm, judges it, and links to its table", async ({
  page,
}) => {
  // Two arms' runs, task checks and rule judge in the worker's CLI: about 20 s on a quiet machine.
  test.setTimeout(180_000);
  await signIn(page, "admin", "/jobs");
  const form = page.getByTestId("ablation-form");
  for (const arm of ["tools", "codekit"]) await form.locator(`input[name="arms"][value="${arm}"]`).uncheck();
  await form.locator('select[name="subtask"]').selectOption("delete_file");
  await form.locator('input[name="perSubtask"]').fill("1");
  await page.getByTestId("ablation-submit").click();
  await expect(form.getByTestId("action-ok")).toHaveText(/job \d+ queued/);
  const [job] = queryAll<{ id: number; params: string }>("SELECT id, params FROM jobs ORDER BY id DESC LIMIT 1");
  expect(JSON.parse(job!.params)).toMatchObject({ kind: "ablation", arms: ["none", "rules"], perSubtask: 1 });

  runWorkerOnce();

  await page.reload();
  const card = page.locator(`[data-job-id="${job!.id}"]`);
  await expect(card.getByTestId("job-status")).toHaveText("succeeded");
  await card.getByTestId("job-ablation-link").click();
  await expect(page).toHaveURL(/\/ablation\?benchmark=sample/);
  await expect(page.getByTestId("ablation-row")).toHaveCount(2);
  await expect(page.locator('[data-testid="ablation-row"][data-arm="rules"]')).toBeVisible();
});

test("a bad job form is refused with the field named", async ({ page }) => {
  await signIn(page, "admin", "/jobs");
  const form = page.getByTestId("run-agents-form");
  // The browser lets 500 through; the server's schema (1-200) refuses it.
  await form.locator('input[name="perSubtask"]').fill("500");
  await page.getByTestId("run-agents-submit").click();
  await expect(page.getByTestId("action-error")).toContainText("perSubtask");
});

test("signed out or as an annotator: no jobs page, and the queue action refuses direct calls", async ({
  browser,
  page,
}) => {
  // Annotators exist, so the queue and its logs are for admins and viewers (lib/auth/access.ts).
  await page.goto("/jobs");
  await expect(page).toHaveURL(/\/login\?next=%2Fjobs$/);
  await expect(page.getByTestId("job")).toHaveCount(0);

  await signIn(page, "ann1");
  await page.goto("/jobs");
  await expect(page).toHaveURL(/\/login\?next=%2Fjobs&reason=role$/);
  await expect(page.getByTestId("role-denied")).toBeVisible();

  await signIn(page, "viewer", "/jobs");
  await expect(page.getByTestId("jobs-sign-in")).toContainText("Only admins can queue jobs");
  await expect(page.getByTestId("run-agents-form")).toHaveCount(0);
  await expect(page.getByTestId("job-cancel")).toHaveCount(0);

  // An admin's queue request, stopped on its way, then sent again without a session and as the viewer.
  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  await signIn(adminPage, "admin", "/jobs");
  const action = await captureAction(adminPage, () => adminPage.getByTestId("run-agents-submit").click());
  const jobs = countRows("jobs");
  const signedOut = await browser.newContext();
  for (const [context, refusal] of [
    [signedOut, "Sign in first."],
    [page.context(), "This needs an admin account."],
  ] as const) {
    const response = await context.request.post(action.url, { headers: actionHeaders(action), data: action.body });
    expect(await response.text()).toContain(refusal);
  }
  expect(countRows("jobs")).toBe(jobs);
  await Promise.all([admin.close(), signedOut.close()]);
});
