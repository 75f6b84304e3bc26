/**
 * Sign-in throttling against the real server with its default configuration (no proxy trusted):
 * the sign-in action is captured once from the login form, then sent by Node from other loopback
 * addresses (127.0.0.2 ...), each a client of its own as the server's socket sees it. Nothing
 * signs in from those addresses in other specs, so the browser's own sign-ins (127.0.0.1) never
 * wait.
 */
import { execFileSync } from "node:child_process";
import http from "node:http";
import { expect, test, type Page } from "@playwright/test";
import { E2E_DB } from "../playwright.config";
import { actionHeaders, captureAction, E2E_ACCOUNTS, signIn, type CapturedAction } from "./auth";

const USERNAME_SLOT = "username-slot";
const PASSWORD_SLOT = "password-slot-0000";
const WRONG = "Wrong username or password.";
const BACKOFF = /Too many failed sign-ins\. Try again in (\d+) seconds?\./;

interface Answer {
  text: string;
  signedIn: boolean;
}

let signInAction: CapturedAction;

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  await page.goto("/login");
  await page.getByTestId("login-username").fill(USERNAME_SLOT);
  await page.getByTestId("login-password").fill(PASSWORD_SLOT);
  signInAction = await captureAction(page, () => page.getByTestId("login-submit").click());
  await page.close();
});

/** The captured sign-in, for `username` and `password`, sent from `localAddress` with `headers` added. */
function signInFrom(
  localAddress: string,
  username: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const body = Buffer.from(
    signInAction.body.toString("utf8").replace(USERNAME_SLOT, username).replace(PASSWORD_SLOT, password),
  );
  const url = new URL(signInAction.url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: "POST",
        localAddress,
        headers: { ...actionHeaders(signInAction), ...headers, "content-length": String(body.length) },
      },
      (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => {
          const cookies = response.headers["set-cookie"] ?? [];
          resolve({ text, signedIn: cookies.some((c) => /^studio_session=[^;]+/.test(c)) });
        });
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/**
 * Wrong passwords for `username` from `localAddress` until the server backs off (at most 12, with
 * a new forged x-forwarded-for and peer header each time: neither may make it a new client).
 */
async function failUntilBackoff(localAddress: string, username: string): Promise<{ failures: number; wait: number }> {
  for (let i = 0; i < 12; i++) {
    const forged = { "x-forwarded-for": `198.51.100.${i + 1}`, "x-studio-peer": `192.0.2.${i + 1}` };
    const answer = await signInFrom(localAddress, username, `wrong password ${i}`, forged);
    const backoff = BACKOFF.exec(answer.text);
    if (backoff) return { failures: i, wait: Number(backoff[1]) };
    expect(answer.text).toContain(WRONG);
  }
  throw new Error(`no backoff after 12 failed sign-ins from ${localAddress}`);
}

const failuresCell = (page: Page, username: string) =>
  page.locator(`[data-testid="user-row"][data-username="${username}"] [data-testid="user-sign-in-failures"]`);

test("a failing client backs off for seconds, whatever it forges; the right password from another client gets in", async () => {
  const { failures, wait } = await failUntilBackoff("127.0.0.2", "admin");
  expect(failures).toBeGreaterThanOrEqual(5);
  expect(wait).toBeGreaterThanOrEqual(1);
  expect(wait).toBeLessThanOrEqual(60);
  // The failing client waits even with the right password...
  const again = await signInFrom("127.0.0.2", "admin", E2E_ACCOUNTS.admin.password);
  expect(again.text).toMatch(BACKOFF);
  expect(again.signedIn).toBe(false);
  // ...while the admin, from a client of their own, is not kept out by a stranger's guesses.
  const owner = await signInFrom("127.0.0.3", "admin", E2E_ACCOUNTS.admin.password);
  expect(owner.text).not.toMatch(BACKOFF);
  expect(owner.signedIn).toBe(true);
});

test("an admin sees an account's failed sign-ins and unlocks it, on the Accounts page or from a shell", async ({
  page,
}) => {
  await failUntilBackoff("127.0.0.4", "ann3");
  await failUntilBackoff("127.0.0.5", "ann2");
  await signIn(page, "admin", "/admin/users");
  await expect(failuresCell(page, "ann3")).toContainText("Unlock");
  await expect(failuresCell(page, "ann2")).toContainText("Unlock");
  await expect(failuresCell(page, "ann1")).toHaveText("none");

  await failuresCell(page, "ann3").getByTestId("unlock-sign-in").click();
  await expect(failuresCell(page, "ann3")).toHaveText("none");

  // The CLI is another process: it leaves the request beside the database for the server.
  const out = execFileSync("npx", ["tsx", "scripts/users.ts", "unlock", "--username", "ann2"], {
    env: { ...process.env, STUDIO_DB: E2E_DB },
    encoding: "utf8",
  });
  expect(out).toContain("unlock of ann2 requested");
  await page.reload();
  await expect(failuresCell(page, "ann2")).toHaveText("none");
});
