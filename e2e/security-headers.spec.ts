/**
 * Security headers on pages, routes and static files, and a Content-Security-Policy the app
 * really works under: the pages with Monaco (run diffs, an instance, the labeling workspace) and
 * the charts load with no violation reported by Chromium.
 */
import { expect, test, type APIResponse, type Page } from "@playwright/test";
import { signIn } from "./auth";
import { queryAll } from "./db";

const SET_NAME = `csp check ${Date.now()}`;

/** The headers every response carries. */
function expectCommonHeaders(response: APIResponse | Awaited<ReturnType<Page["goto"]>>, what: string): void {
  const headers = response!.headers();
  expect(headers["x-frame-options"], what).toBe("DENY");
  expect(headers["x-content-type-options"], what).toBe("nosniff");
  expect(headers["referrer-policy"], what).toBe("same-origin");
}

/** A page's policy: this response's nonce on scripts, no framing, nothing from elsewhere. */
function expectPagePolicy(policy: string | undefined, what: string): string {
  expect(policy, what).toBeDefined();
  expect(policy, what).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'(;|$)/);
  expect(policy, what).toContain("frame-ancestors 'none'");
  expect(policy, what).toContain("object-src 'none'");
  expect(policy, what).not.toContain("unsafe-eval");
  expect(policy, what).not.toMatch(/https?:/);
  return /'nonce-([^']+)'/.exec(policy!)![1]!;
}

/** Records CSP violations from the console and from `securitypolicyviolation` events, page after page. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const reported: string[] = [];
  page.on("console", (message) => {
    const text = message.text();
    if (/Refused to|Content Security Policy/i.test(text)) reported.push(`console: ${text}`);
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener("securitypolicyviolation", (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`),
    );
  });
  return async () => [
    ...reported,
    ...(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])),
  ];
}

test("pages, routes and static files carry the security headers; each page its own nonce", async ({ page }) => {
  const login = await page.goto("/login");
  expectCommonHeaders(login, "/login");
  const firstNonce = expectPagePolicy(login!.headers()["content-security-policy"], "/login");
  // The nonce is on the page's scripts, and new for every response.
  expect(await page.locator(`script[nonce]`).count()).toBeGreaterThan(0);
  const again = await page.request.get("/login");
  expect(expectPagePolicy(again.headers()["content-security-policy"], "/login again")).not.toBe(firstNonce);

  await signIn(page, "admin");
  for (const path of ["/overview", "/runs", "/case-studies", "/benchmarks", "/jobs", "/admin/users", "/no-such-page"]) {
    const response = await page.request.get(path);
    expectCommonHeaders(response, path);
    expectPagePolicy(response.headers()["content-security-policy"], path);
  }
  for (const path of ["/api/export/runs?format=json", "/api/runs/import"]) {
    const response = await page.request.get(path);
    expectCommonHeaders(response, path);
    expect(response.headers()["content-security-policy"], path).toBe("default-src 'none'; frame-ancestors 'none'");
  }
  const script = await page.locator("script[src^='/_next/static/']").first().getAttribute("src");
  expectCommonHeaders(await page.request.get(script!), script!);
});

test("no CSP violation on the overview, the runs, a run's Monaco diff and an instance", async ({ page }) => {
  const violations = await watchViolations(page);
  await signIn(page, "admin");
  const [change] = queryAll<{ run_id: string; path: string }>(
    "SELECT run_id, path FROM file_changes WHERE kind = 'updated' ORDER BY run_id, path LIMIT 1",
  );
  const [instance] = queryAll<{ id: string }>("SELECT id FROM instances WHERE subtask_id = 'codegen_file' LIMIT 1");

  await page.goto("/overview");
  await page.locator(".charts").scrollIntoViewIfNeeded();
  await expect(page.locator(".recharts-surface").first()).toBeVisible();
  await page.goto("/runs");
  await expect(page.getByTestId("runs-table")).toBeVisible();
  await page.goto(`/runs/${encodeURIComponent(change!.run_id)}#hunk-0-${change!.path}`);
  await expect(page.locator(".monaco-diff-editor").first()).toBeVisible();
  await page.goto(`/instances/${instance!.id.split("/").map(encodeURIComponent).join("/")}`);
  await expect(page.locator(".monaco-editor").first()).toBeVisible();
  expect(await violations()).toEqual([]);
});

test("no CSP violation in the labeling workspace", async ({ browser, page }) => {
  // A small set of its own: two synthetic runs for ann1.
  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  await signIn(adminPage, "admin", "/agreement");
  await adminPage.getByTestId("set-name").fill(SET_NAME);
  await adminPage.getByTestId("set-size").fill("2");
  await adminPage.locator('input[name="annotatorsPerItem"]').fill("1");
  await adminPage.locator('select[name="benchmarkId"]').selectOption("synthetic");
  const [ann1] = queryAll<{ id: number }>("SELECT id FROM users WHERE username = 'ann1'");
  for (const box of await adminPage.locator('input[name="annotatorIds"]').all())
    await box.setChecked((await box.getAttribute("value")) === String(ann1!.id));
  await adminPage.locator('input[name="judgeIds"]').first().check();
  await adminPage.getByTestId("create-set-submit").click();
  await expect(adminPage.getByTestId("create-set-result")).toHaveText(`Created "${SET_NAME}" with 2 items.`);
  await admin.close();
  const [item] = queryAll<{ set_id: number; run_id: string }>(
    `SELECT ia.set_id, ia.run_id FROM item_assignments ia JOIN agreement_sets s ON s.id = ia.set_id
     WHERE s.name = ? ORDER BY ia.run_id LIMIT 1`,
    SET_NAME,
  );

  const violations = await watchViolations(page);
  await signIn(page, "ann1", "/annotate");
  await expect(page.getByText(SET_NAME).first()).toBeVisible();
  await page.goto(`/annotate/${item!.set_id}/${encodeURIComponent(item!.run_id)}`);
  await expect(page.getByTestId("labeling-item")).toBeVisible();
  await expect(page.locator(".monaco-diff-editor, .monaco-editor").first()).toBeVisible();
  expect(await violations()).toEqual([]);
});
