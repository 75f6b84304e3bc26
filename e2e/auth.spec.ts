import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { actionHeaders, captureAction, E2E_ACCOUNTS, signIn, type CapturedAction } from "./auth";
import { queryAll } from "./db";

const userNamed = (username: string) =>
  queryAll<{ username: string; role: string }>("SELECT username, role FROM users WHERE username = ?", username);

/** A fresh browser context, signed in as `username` (or signed out). */
async function contextFor(browser: Browser, username?: keyof typeof E2E_ACCOUNTS): Promise<BrowserContext> {
  const context = await browser.newContext();
  if (username) await signIn(await context.newPage(), username);
  return context;
}

/** The captured action POSTed again with `context`'s cookies; the response text (React's action reply). */
async function replay(context: BrowserContext, action: CapturedAction): Promise<string> {
  const response = await context.request.post(action.url, { headers: actionHeaders(action), data: action.body });
  return response.text();
}

test("signing in and out from the keyboard; the top bar shows who is signed in", async ({ page, context }) => {
  // Annotators exist, so every page but the sign-in page sends a signed-out visitor there.
  await page.goto("/benchmarks");
  await expect(page).toHaveURL(/\/login\?next=%2Fbenchmarks$/);
  await expect(page.getByTestId("sign-in-link")).toBeVisible();
  await page.goto("/login");

  // The username field has focus; Tab to the password, Enter submits.
  await expect(page.getByTestId("login-username")).toBeFocused();
  await page.keyboard.type("ann1");
  await page.keyboard.press("Tab");
  await expect(page.getByTestId("login-password")).toBeFocused();
  await page.keyboard.type(E2E_ACCOUNTS.ann1.password);
  await page.keyboard.press("Enter");

  await expect(page).toHaveURL(/\/annotate/);
  await expect(page.getByTestId("current-user")).toHaveText("Annotator One");
  await expect(page.getByTestId("current-role")).toHaveText("annotator");
  await expect(page.getByTestId("sign-in-link")).toHaveCount(0);
  await expect(page.getByTestId("nav-accounts")).toHaveCount(0);
  const cookie = (await context.cookies()).find((c) => c.name === "studio_session");
  expect(cookie).toBeDefined();

  await page.getByTestId("sign-out").focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/login\?signed_out=1$/);
  await expect(page.getByTestId("signed-out-notice")).toBeVisible();
  await expect(page.getByTestId("sign-in-link")).toBeVisible();
  expect((await context.cookies()).find((c) => c.name === "studio_session")).toBeUndefined();

  // The old token is dead on the server too, not only forgotten by this browser.
  await context.addCookies([cookie!]);
  await page.goto("/benchmarks");
  await expect(page).toHaveURL(/\/login\?next=%2Fbenchmarks$/);
  await expect(page.getByTestId("sign-in-link")).toBeVisible();
});

test("the session cookie is httpOnly, SameSite=Strict, path /, for 7 days", async ({ page, context }) => {
  await signIn(page, "ann2");
  const cookie = (await context.cookies()).find((c) => c.name === "studio_session");
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/", secure: false });
  expect(cookie!.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const days = (cookie!.expires * 1000 - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(6.99);
  expect(days).toBeLessThanOrEqual(7);
  // Scripts on the page cannot read it.
  expect(await page.evaluate(() => document.cookie)).not.toContain("studio_session");
  // Only its hash is stored.
  expect(queryAll("SELECT 1 FROM sessions WHERE token_hash = ?", cookie!.value)).toHaveLength(0);
});

/** Submits the sign-in form and waits for the answer (the form clears the password when it comes). */
async function submitLogin(page: Page, username: string, password: string): Promise<void> {
  await page.getByTestId("login-username").fill(username);
  await page.getByTestId("login-password").fill(password);
  await page.getByTestId("login-submit").click();
  await expect(page.getByTestId("login-password")).toHaveValue("");
}

test("a wrong password and an unknown username get the same message; the username is kept", async ({ page }) => {
  await page.goto("/login");
  await submitLogin(page, "ann1", "not the password at all");
  await expect(page.getByTestId("login-error")).toHaveText("Wrong username or password.");
  await expect(page.getByTestId("login-username")).toHaveValue("ann1");
  await expect(page.getByTestId("login-password")).toHaveValue("");
  await expect(page.getByTestId("login-password")).toBeFocused();

  await submitLogin(page, "nobody-here", "not the password at all");
  await expect(page.getByTestId("login-error")).toHaveText("Wrong username or password.");
  await expect(page.getByTestId("login-username")).toHaveValue("nobody-here");

  // Empty fields are named inline.
  await page.getByTestId("login-username").fill("");
  await page.getByTestId("login-submit").click();
  await expect(page.getByTestId("login-username-error")).toHaveText("Enter your username");
  await expect(page.getByTestId("login-username")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("login-username")).toBeFocused();
});

test("the sign-in page returns to `next`, but only on this site", async ({ page }) => {
  await page.goto("/admin/users");
  await expect(page).toHaveURL(/\/login\?next=%2Fadmin%2Fusers$/);
  await page.getByTestId("login-username").fill("admin");
  await page.getByTestId("login-password").fill(E2E_ACCOUNTS.admin.password);
  await page.getByTestId("login-submit").click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByTestId("users-table")).toBeVisible();

  for (const next of ["//evil.example/x", "https://evil.example/", "/\\evil.example"]) {
    await page.goto(`/login?next=${encodeURIComponent(next)}`);
    await page.getByTestId("login-username").fill("admin");
    await page.getByTestId("login-password").fill(E2E_ACCOUNTS.admin.password);
    await page.getByTestId("login-submit").click();
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/overview/);
  }
});

test("an annotator cannot open the accounts page", async ({ page }) => {
  await signIn(page, "ann1");
  const response = await page.goto("/admin/users");
  expect(response?.status()).toBe(200); // the sign-in page, after a redirect
  await expect(page).toHaveURL(/\/login\?next=%2Fadmin%2Fusers&reason=role$/);
  await expect(page.getByTestId("role-denied")).toContainText(
    "Annotator One (annotator), which cannot open /admin/users",
  );
  await expect(page.getByTestId("users-table")).toHaveCount(0);
  await expect(page.getByTestId("create-user-form")).toHaveCount(0);
});

test("the create-account action refuses annotators and signed-out callers, even called directly", async ({
  browser,
  page,
}) => {
  await signIn(page, "admin", "/admin/users");
  const username = `replayed-${Date.now()}`;
  // The admin's own request, stopped before it reaches the server.
  const action = await captureAction(page, async () => {
    await page.getByTestId("new-username").fill(username);
    await page.getByTestId("new-role").selectOption("admin");
    await page.getByTestId("new-password").fill("a password for the replay");
    await page.getByTestId("create-user-submit").click();
  });
  expect(userNamed(username)).toEqual([]);

  const annotator = await contextFor(browser, "ann1");
  expect(await replay(annotator, action)).toContain("This needs an admin account.");
  const nobody = await contextFor(browser);
  expect(await replay(nobody, action)).toContain("Sign in first.");
  expect(userNamed(username)).toEqual([]);

  // The same request from an admin's session does create the account: the replay itself is sound.
  const admin = await contextFor(browser, "admin");
  expect(await replay(admin, action)).toContain(`Account ${username} (admin) created.`);
  expect(userNamed(username)).toEqual([{ username, role: "admin" }]);
  await Promise.all([annotator.close(), nobody.close(), admin.close()]);
});

test("an admin creates an account and resets its password, which ends its sessions", async ({ browser, page }) => {
  await signIn(page, "admin", "/admin/users");
  await expect(page.getByTestId("nav-accounts")).toBeVisible();
  const rows = page.getByTestId("user-row");
  await expect(rows.filter({ hasText: "ann3" }).getByTestId("user-role")).toHaveText("annotator");

  // A bad form: every field says what is wrong, next to it.
  await page.getByTestId("new-username").fill("No Spaces");
  await page.getByTestId("new-password").fill("short");
  await page.getByTestId("create-user-submit").click();
  await expect(page.getByTestId("new-username-error")).toHaveText('Only a-z, 0-9, ".", "_" and "-"');
  await expect(page.getByTestId("new-password-error")).toHaveText("At least 12 characters");
  await expect(page.getByTestId("new-username")).toBeFocused();
  await expect(page.getByTestId("new-username")).toHaveValue("No Spaces");
  // What was chosen stays chosen (a form reset would show the first role, "admin").
  await expect(page.getByTestId("new-role")).toHaveValue("annotator");
  await expect(page.getByTestId("new-password")).toHaveValue("");

  // A taken username.
  await page.getByTestId("new-username").fill("ann2");
  await page.getByTestId("new-password").fill("a long enough password");
  await page.getByTestId("create-user-submit").click();
  await expect(page.getByTestId("new-username-error")).toHaveText("Username ann2 is already taken");

  const username = `ann-${Date.now()}`;
  await page.getByTestId("new-username").fill(username);
  await page.getByTestId("new-display-name").fill("New Annotator");
  await page.getByTestId("new-role").selectOption("annotator");
  await page.getByTestId("new-password").fill("first password 123");
  await page.getByTestId("create-user-submit").click();
  await expect(page.getByTestId("create-user-ok")).toHaveText(`Account ${username} (annotator) created.`);
  await expect(page.getByTestId("new-username")).toHaveValue("");
  const row = rows.filter({ hasText: username });
  await expect(row.getByTestId("user-role")).toHaveText("annotator");

  // The new account signs in elsewhere...
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto("/login");
  await otherPage.getByTestId("login-username").fill(username);
  await otherPage.getByTestId("login-password").fill("first password 123");
  await otherPage.getByTestId("login-submit").click();
  await expect(otherPage.getByTestId("current-user")).toHaveText("New Annotator");
  await page.reload();
  await expect(row.getByTestId("user-sessions")).toHaveText("1");

  // ...and a reset ends that session.
  await page.getByTestId("reset-user").selectOption({ label: `${username} (New Annotator)` });
  await page.getByTestId("reset-password").fill("second password 456");
  await page.getByTestId("reset-password-submit").click();
  await expect(page.getByTestId("reset-password-ok")).toHaveText(`Password of ${username} reset; 1 session ended.`);
  await expect(row.getByTestId("user-sessions")).toHaveText("0");
  await otherPage.reload();
  await expect(otherPage.getByTestId("sign-in-link")).toBeVisible();
  await otherPage.goto("/login");
  await otherPage.getByTestId("login-username").fill(username);
  await otherPage.getByTestId("login-password").fill("second password 456");
  await otherPage.getByTestId("login-submit").click();
  await expect(otherPage.getByTestId("current-user")).toHaveText("New Annotator");
  await other.close();
});
