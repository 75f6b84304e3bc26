/**
 * Who is signed in, for pages, server actions and route handlers (server-only; not a route).
 *
 * - Pages: `await requireUser(["admin"], "/admin/users")`: signed out, or signed in with another
 *   role, redirects to /login?next=... (the login page says which role the page needs).
 * - Server actions and route handlers: `await authorize(["admin"])`: throws AppError
 *   UNAUTHORIZED when signed out, FORBIDDEN for another role; translate it once at the boundary.
 *
 * The session cookie `studio_session` holds a random token (the database keeps its sha256):
 * httpOnly, SameSite=Strict, path /, Secure when the request came over https.
 */
import "server-only";
import { randomBytes } from "node:crypto";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getAppDb } from "@/db/app-db";
import {
  countUsersWithRole,
  createSession,
  deleteExpiredSessions,
  deleteSession,
  findUserForLogin,
  userForSessionToken,
  type SessionUser,
} from "@/db/queries/users";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { loginThrottle, requestClientAddress } from "./login-throttle";
import { mayRead, readersOf, type ReadArea } from "@/lib/auth/access";
import { SESSION_COOKIE, type Role } from "@/lib/auth/schema";
import { AppError } from "@/lib/errors/app-error";

export type { SessionUser } from "@/db/queries/users";

/** The signed-in account, or null. Read once per request. */
export const currentUser = cache(async (): Promise<SessionUser | null> => {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  return token ? userForSessionToken(getAppDb(), token) : null;
});

const loginPath = (nextPath: string, reason?: "role") =>
  `/login?next=${encodeURIComponent(nextPath)}${reason ? `&reason=${reason}` : ""}`;

/** For pages: the signed-in account when it has one of `roles`; else a redirect to the sign-in page. */
export async function requireUser(roles: readonly Role[], nextPath: string): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) redirect(loginPath(nextPath));
  if (!roles.includes(user.role)) redirect(loginPath(nextPath, "role"));
  return user;
}

/** For server actions and route handlers: the signed-in account when it has one of `roles`; else throws. */
export async function authorize(roles: readonly Role[]): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) throw new AppError("UNAUTHORIZED", "Sign in first.");
  if (!roles.includes(user.role)) throw new AppError("FORBIDDEN", `This needs ${describeRoles(roles)} account.`);
  return user;
}

// ---------------------------------------------------------------- the dashboard and blind labeling

/**
 * Whether a study is active: from the first annotator account on, reading needs an account
 * with the right role (lib/auth/access.ts has the rule), so that annotators stay blind to the
 * judges: their session cannot read a verdict, and neither can anyone signed out.
 */
export function annotationStudyActive(): boolean {
  return countUsersWithRole(getAppDb(), "annotator") > 0;
}

/** For pages of `area`: null in open mode, else the reader (others are redirected to sign in). */
export async function requireReader(area: ReadArea, nextPath: string): Promise<SessionUser | null> {
  return annotationStudyActive() ? requireUser(readersOf(area), nextPath) : null;
}

/** Whether the signed-in account (or anyone, in open mode) may read `area`. */
export async function canRead(area: ReadArea): Promise<boolean> {
  const studyActive = annotationStudyActive();
  return mayRead(area, { studyActive, role: studyActive ? ((await currentUser())?.role ?? null) : null });
}

/** For routes and actions of `area`: like requireReader, but throws (401/403). */
export async function authorizeReader(area: ReadArea): Promise<SessionUser | null> {
  return annotationStudyActive() ? authorize(readersOf(area)) : null;
}

/** ["admin"] -> "an admin"; ["admin", "annotator"] -> "an admin or an annotator". */
function describeRoles(roles: readonly Role[]): string {
  return roles.map((role) => `${/^[aeiou]/.test(role) ? "an" : "a"} ${role}`).join(" or ");
}

// ---------------------------------------------------------------- signing in and out

/** A hash to check against when the username is unknown: a missing account answers as slowly as a wrong password. */
const dummyHash: Promise<string> = hashPassword(randomBytes(16).toString("hex"));

export type SignInOutcome =
  { ok: true; user: SessionUser } | { ok: false; reason: "invalid" | "throttled"; retryAfterMs?: number };

/**
 * Checks the password, then starts a session and sets its cookie. `username` is already
 * lower-cased. Throttled per account and per client (app/login-throttle.ts).
 */
export async function signInWithPassword(username: string, password: string): Promise<SignInOutcome> {
  const attempt = { account: username, client: await requestClientAddress() };
  const throttle = loginThrottle();
  const decision = throttle.begin(attempt, Date.now());
  if (!decision.allowed) return { ok: false, reason: "throttled", retryAfterMs: decision.retryAfterMs };

  const db = getAppDb();
  const account = findUserForLogin(db, username);
  const valid = await verifyPassword(password, account?.passwordHash ?? (await dummyHash));
  if (!account || !valid) return { ok: false, reason: "invalid" };
  throttle.succeed(attempt);

  deleteExpiredSessions(db);
  const { token, expiresAt } = createSession(db, account.id);
  (await cookies()).set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "strict",
    secure: await isHttps(),
    path: "/",
    expires: new Date(expiresAt),
  });
  const { passwordHash: _passwordHash, createdAt: _createdAt, ...user } = account;
  return { ok: true, user };
}

/** Ends this browser's session (the database row and the cookie). */
export async function signOut(): Promise<void> {
  const jar = await cookies();
  const token = jar.get(SESSION_COOKIE)?.value;
  if (token) deleteSession(getAppDb(), token);
  jar.set(SESSION_COOKIE, "", {
    httpOnly: true,
    sameSite: "strict",
    secure: await isHttps(),
    path: "/",
    maxAge: 0,
  });
}

/** Next sets x-forwarded-proto from the socket unless a proxy in front already did. */
async function isHttps(): Promise<boolean> {
  const proto = (await headers()).get("x-forwarded-proto") ?? "";
  return proto.split(",")[0]?.trim() === "https";
}
