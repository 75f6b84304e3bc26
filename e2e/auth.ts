/**
 * The seeded accounts (e2e/seed.ts creates them) and signing in as one of them. Specs for pages
 * that need an account call `signIn(page, "admin")` (or "ann1".."ann3", "viewer") first; each browser
 * context is its own session.
 */
import type { Page, Route } from "@playwright/test";

export const E2E_ACCOUNTS = {
  admin: { displayName: "E2E Admin", role: "admin", password: "e2e-admin-password-0001" },
  ann1: { displayName: "Annotator One", role: "annotator", password: "e2e-ann1-password-0001" },
  ann2: { displayName: "Annotator Two", role: "annotator", password: "e2e-ann2-password-0001" },
  ann3: { displayName: "Annotator Three", role: "annotator", password: "e2e-ann3-password-0001" },
  viewer: { displayName: "E2E Viewer", role: "viewer", password: "e2e-viewer-password-0001" },
} as const;
export type E2EUsername = keyof typeof E2E_ACCOUNTS;

/**
 * The demo's accounts file of the e2e database: e2e/seed.ts makes the demo's study
 * (scripts/demo-study.ts), whose accounts get random passwords written here.
 */
export const E2E_DEMO_ACCOUNTS_FILE = "data/e2e/demo-admin.txt";

/** Signs in through the login form and waits until the top bar shows the account; then goes to `next`. */
export async function signIn(page: Page, username: E2EUsername, next = "/"): Promise<void> {
  await signInWith(page, { username, ...E2E_ACCOUNTS[username] }, next);
}

/** `signIn` for any account: its username, password and the name the top bar shows. */
export async function signInWith(
  page: Page,
  { username, password, displayName }: { username: string; password: string; displayName: string },
  next = "/",
): Promise<void> {
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await page.getByTestId("login-username").fill(username);
  await page.getByTestId("login-password").fill(password);
  await page.getByTestId("login-submit").click();
  const signedIn = page.getByTestId("current-user").filter({ hasText: displayName });
  const refused = page.getByTestId("login-error");
  await signedIn.or(refused).first().waitFor({ state: "visible" });
  if (await refused.isVisible()) throw new Error(`signing in as ${username} failed: ${await refused.textContent()}`);
  await page.waitForURL((url) => url.pathname !== "/login");
}

const ACTION_WAIT_MS = 10_000;

/** A server action's request as the browser sent it, to replay from another session. */
export interface CapturedAction {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Runs `submit` (which makes the page call a server action) and captures that request without
 * letting it reach the server. Replaying it with `replayAction` from another browser context
 * (another session, or none) shows what the action does for someone the page never offered it to.
 */
export async function captureAction(page: Page, submit: () => Promise<void>): Promise<CapturedAction> {
  let resolve: (action: CapturedAction) => void = () => {};
  const captured = new Promise<CapturedAction>((r) => (resolve = r));
  const handler = async (route: Route) => {
    const request = route.request();
    const headers = await request.allHeaders();
    if (request.method() !== "POST" || !headers["next-action"]) return route.fallback();
    resolve({ url: request.url(), headers, body: request.postDataBuffer() ?? Buffer.alloc(0) });
    await route.abort();
  };
  await page.route("**/*", handler);
  await submit();
  // Bounded, so that a press the page never turned into a server action fails here, saying so,
  // instead of running into the test's timeout with nothing to show where it stopped.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const noAction = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no server action was posted by ${page.url()} within ${ACTION_WAIT_MS} ms`)),
      ACTION_WAIT_MS,
    );
  });
  try {
    return await Promise.race([captured, noAction]);
  } finally {
    clearTimeout(timer);
    await page.unroute("**/*", handler);
  }
}

/** The header set that makes a POST a server action call; cookies come from the replaying context. */
export function actionHeaders(action: CapturedAction): Record<string, string> {
  const keep = ["next-action", "next-router-state-tree", "content-type", "accept", "origin"];
  return Object.fromEntries(Object.entries(action.headers).filter(([name]) => keep.includes(name)));
}
