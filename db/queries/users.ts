/**
 * Accounts and sessions. Passwords arrive hashed (`PasswordHash`, lib/auth/password.ts) and never
 * leave except through `findUserForLogin`; session tokens are stored only as their sha256, so a
 * copy of the database cannot be used to sign in.
 */
import { createHash, randomBytes } from "node:crypto";
import { asc, eq, lte, sql } from "drizzle-orm";
import type { PasswordHash } from "@/lib/auth/password";
import { SessionTokenSchema, type Role } from "@/lib/auth/schema";
import { AppError } from "@/lib/errors/app-error";
import type { Db } from "../client";
import * as t from "../schema";

export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** An account as anyone but the login check sees it: never the password hash. */
export interface User {
  id: number;
  username: string;
  displayName: string;
  role: Role;
  createdAt: string;
}

/** Who a session belongs to. */
export type SessionUser = Omit<User, "createdAt">;

export interface NewUserRecord {
  /** Already validated and lower-cased (UsernameSchema). */
  username: string;
  displayName: string;
  role: Role;
  passwordHash: PasswordHash;
}

const userColumns = {
  id: t.users.id,
  username: t.users.username,
  displayName: t.users.displayName,
  role: t.users.role,
  createdAt: t.users.createdAt,
};

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** Creates an account; a taken username is a CONFLICT that names it. */
export function createUser(db: Db, user: NewUserRecord): User {
  try {
    return db.insert(t.users).values(user).returning(userColumns).get() as User;
  } catch (error) {
    // The unique index decides, so two processes creating the same name cannot both succeed.
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", `username ${user.username} is already taken`);
    throw error;
  }
}

const isUniqueViolation = (error: unknown) =>
  error instanceof Error && "code" in error && error.code === "SQLITE_CONSTRAINT_UNIQUE";

/** An account in the accounts list: with how many sessions are open (signed in on how many browsers). */
export interface UserListing extends User {
  activeSessions: number;
}

/** Every account, by username. */
export function listUsers(db: Db, now = new Date()): UserListing[] {
  const activeSessions = sql<number>`(SELECT count(*) FROM ${t.sessions} WHERE ${t.sessions.userId} = ${t.users.id} AND ${t.sessions.expiresAt} > ${now.toISOString()})`;
  return db
    .select({ ...userColumns, activeSessions })
    .from(t.users)
    .orderBy(asc(t.users.username))
    .all() as UserListing[];
}

export function getUser(db: Db, id: number): User | null {
  return (db.select(userColumns).from(t.users).where(eq(t.users.id, id)).get() as User | undefined) ?? null;
}

export function countUsersWithRole(db: Db, role: Role): number {
  return (
    db
      .select({ n: sql<number>`count(*)` })
      .from(t.users)
      .where(eq(t.users.role, role))
      .get()?.n ?? 0
  );
}

/** The account and its password hash, for the sign-in check only. */
export function findUserForLogin(db: Db, username: string): (User & { passwordHash: string }) | null {
  const row = db
    .select({ ...userColumns, passwordHash: t.users.passwordHash })
    .from(t.users)
    .where(eq(t.users.username, username))
    .get();
  return (row as (User & { passwordHash: string }) | undefined) ?? null;
}

/**
 * Replaces the password and ends every session of the account, in one transaction: whoever knew
 * the old password (or held a session made with it) is out. NOT_FOUND for an unknown account.
 */
export function setPassword(db: Db, userId: number, passwordHash: PasswordHash): { endedSessions: number } {
  return db.transaction((tx) => {
    const updated = tx.update(t.users).set({ passwordHash }).where(eq(t.users.id, userId)).run();
    if (updated.changes === 0) throw new AppError("NOT_FOUND", `no account with id ${userId}`);
    const ended = tx.delete(t.sessions).where(eq(t.sessions.userId, userId)).run();
    return { endedSessions: ended.changes };
  });
}

/** A new session: 32 random bytes as base64url. Only its sha256 is stored; the token goes in the cookie. */
export function createSession(db: Db, userId: number, now = new Date()): { token: string; expiresAt: string } {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS).toISOString();
  db.insert(t.sessions)
    .values({ tokenHash: hashToken(token), userId, expiresAt, createdAt: now.toISOString() })
    .run();
  return { token, expiresAt };
}

/** The account a session token belongs to; null for an unknown, malformed or expired one (an expired one is deleted). */
export function userForSessionToken(db: Db, token: string, now = new Date()): SessionUser | null {
  if (!SessionTokenSchema.safeParse(token).success) return null;
  const tokenHash = hashToken(token);
  const row = db
    .select({
      id: t.users.id,
      username: t.users.username,
      displayName: t.users.displayName,
      role: t.users.role,
      expiresAt: t.sessions.expiresAt,
    })
    .from(t.sessions)
    .innerJoin(t.users, eq(t.users.id, t.sessions.userId))
    .where(eq(t.sessions.tokenHash, tokenHash))
    .get();
  if (!row) return null;
  if (row.expiresAt <= now.toISOString()) {
    db.delete(t.sessions).where(eq(t.sessions.tokenHash, tokenHash)).run();
    return null;
  }
  const { expiresAt: _expiresAt, ...user } = row;
  return user as SessionUser;
}

/** Ends one session (signing out); unknown tokens are ignored. */
export function deleteSession(db: Db, token: string): void {
  db.delete(t.sessions)
    .where(eq(t.sessions.tokenHash, hashToken(token)))
    .run();
}

/** Drops sessions that expired (a housekeeping step on sign-in); returns how many. */
export function deleteExpiredSessions(db: Db, now = new Date()): number {
  return db.delete(t.sessions).where(lte(t.sessions.expiresAt, now.toISOString())).run().changes;
}
