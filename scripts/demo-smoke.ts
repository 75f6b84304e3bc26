/**
 * `npm run demo -- --smoke`: the served pages answer with the imported data. Once the demo's
 * annotators exist every page wants an account (lib/auth/access.ts), so the check reads as the
 * admin and as annotator1, with sessions made in the database as a sign-in makes them and ended
 * afterwards; the sign-in page itself is read signed out.
 */
import { createDb } from "@/db/client";
import { createSession, deleteSession, findUserForLogin, listUsers } from "@/db/queries/users";
import { SESSION_COOKIE } from "@/lib/auth/schema";
import { AppError } from "@/lib/errors/app-error";
import { DEMO_ANNOTATORS, DEMO_SET_NAME } from "./demo-study";

export async function smokeCheck(url: string, dbFile: string, say: (line: string) => void): Promise<void> {
  const db = createDb(dbFile);
  const tokens: string[] = [];
  const sessionOf = (userId: number | undefined, who: string) => {
    if (userId === undefined) throw new AppError("INTERNAL", `smoke check: the database has no ${who} account`);
    const { token } = createSession(db, userId);
    tokens.push(token);
    return token;
  };
  const page = async (path: string, token: string | null, testId: string, what: string, timeoutMs = 10_000) => {
    const body = await waitForPage(`${url}${path}`, timeoutMs, token);
    if (!body.includes(`data-testid="${testId}`)) throw new AppError("INTERNAL", `${path} answered without ${what}`);
    return body;
  };
  const annotatorName = DEMO_ANNOTATORS[0]!.username;
  try {
    const admin = sessionOf(listUsers(db).find((u) => u.role === "admin")?.id, "admin");
    const annotator = sessionOf(findUserForLogin(db, annotatorName)?.id, annotatorName);
    await page("/runs", admin, "runs-table", "the runs table", 60_000);
    await page("/benchmarks/sample", admin, "subtasks-table", "the subtask table");
    await page("/overview", admin, "overview-table-", "its tables");
    await page("/ablation?benchmark=sample", admin, "ablation-table", "the ablation table");
    const queue = await page("/annotate", annotator, "resume", `${annotatorName}'s queue`);
    if (!queue.includes(DEMO_SET_NAME)) throw new AppError("INTERNAL", `/annotate does not list "${DEMO_SET_NAME}"`);
    await page("/login", null, "login-form", "its form");
  } finally {
    for (const token of tokens) deleteSession(db, token);
    db.$client.close();
  }
  say(
    `smoke check: ${url}/overview, ${url}/ablation, ${url}/runs and ${url}/benchmarks/sample answer the admin with their tables, ${url}/annotate shows ${annotatorName} the "${DEMO_SET_NAME}" set, ${url}/login has its form`,
  );
}

async function waitForPage(url: string, timeoutMs: number, sessionToken: string | null): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const headers: Record<string, string> = sessionToken ? { cookie: `${SESSION_COOKIE}=${sessionToken}` } : {};
  let lastError = "";
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { headers });
      if (response.ok) return await response.text();
      lastError = `HTTP ${response.status}`;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new AppError("UNAVAILABLE", `${url} did not answer within ${timeoutMs / 1000}s (${lastError})`);
}
