import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { isAppError } from "@/lib/errors/app-error";
import { createDb } from "../client";
import {
  countUsersWithRole,
  createSession,
  createUser,
  deleteExpiredSessions,
  deleteSession,
  findUserForLogin,
  getUser,
  listUsers,
  SESSION_TTL_MS,
  setPassword,
  userForSessionToken,
} from "./users";

/** Cheap scrypt parameters: these tests are about the queries, not the hash. */
const FAST = { N: 2 ** 10, r: 8, p: 1 };
const T0 = new Date("2026-03-01T10:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);

async function withUsers() {
  const db = createDb(":memory:");
  const passwordHash = await hashPassword("initial password", FAST);
  const admin = createUser(db, { username: "admin", displayName: "The Admin", role: "admin", passwordHash });
  const ann = createUser(db, { username: "ann1", displayName: "Ann One", role: "annotator", passwordHash });
  return { db, admin, ann };
}

const sessionRows = (db: ReturnType<typeof createDb>) =>
  db.$client.prepare("SELECT token_hash, user_id, expires_at FROM sessions ORDER BY created_at").all() as {
    token_hash: string;
    user_id: number;
    expires_at: string;
  }[];

describe("users", () => {
  it("creates accounts and lists them by username, never with a hash", async () => {
    const { db, admin } = await withUsers();
    expect(admin).toEqual({
      id: admin.id,
      username: "admin",
      displayName: "The Admin",
      role: "admin",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const listed = listUsers(db);
    expect(listed.map((u) => u.username)).toEqual(["admin", "ann1"]);
    for (const user of listed) {
      expect(Object.keys(user).sort()).toEqual([
        "activeSessions",
        "createdAt",
        "displayName",
        "id",
        "role",
        "username",
      ]);
      expect(JSON.stringify(user)).not.toContain("scrypt");
    }
    expect(getUser(db, admin.id)).toEqual(admin);
    expect(getUser(db, 999)).toBeNull();
    expect(countUsersWithRole(db, "admin")).toBe(1);
    expect(countUsersWithRole(db, "annotator")).toBe(1);
    expect(countUsersWithRole(db, "viewer")).toBe(0);
  });

  it("refuses a taken username with a CONFLICT that names it", async () => {
    const { db } = await withUsers();
    const passwordHash = await hashPassword("another password", FAST);
    let caught: unknown;
    try {
      createUser(db, { username: "ann1", displayName: "Imposter", role: "admin", passwordHash });
    } catch (error) {
      caught = error;
    }
    expect(isAppError(caught, "CONFLICT")).toBe(true);
    expect((caught as Error).message).toBe("username ann1 is already taken");
    expect(listUsers(db)).toHaveLength(2);
  });

  it("finds the account for sign-in with its hash", async () => {
    const { db, ann } = await withUsers();
    const found = findUserForLogin(db, "ann1");
    expect(found?.id).toBe(ann.id);
    expect(await verifyPassword("initial password", found!.passwordHash)).toBe(true);
    expect(findUserForLogin(db, "nobody")).toBeNull();
  });

  it("sets a password and ends that account's sessions only", async () => {
    const { db, admin, ann } = await withUsers();
    const a1 = createSession(db, ann.id, T0);
    createSession(db, ann.id, T0);
    const adminSession = createSession(db, admin.id, T0);
    expect(listUsers(db, T0).map((u) => u.activeSessions)).toEqual([1, 2]);

    const result = setPassword(db, ann.id, await hashPassword("a brand new password", FAST));
    expect(result).toEqual({ endedSessions: 2 });
    expect(await verifyPassword("a brand new password", findUserForLogin(db, "ann1")!.passwordHash)).toBe(true);
    expect(await verifyPassword("initial password", findUserForLogin(db, "ann1")!.passwordHash)).toBe(false);
    expect(userForSessionToken(db, a1.token, T0)).toBeNull();
    expect(userForSessionToken(db, adminSession.token, T0)?.username).toBe("admin");

    let caught: unknown;
    try {
      setPassword(db, 999, await hashPassword("whatever password", FAST));
    } catch (error) {
      caught = error;
    }
    expect(isAppError(caught, "NOT_FOUND")).toBe(true);
  });
});

describe("sessions", () => {
  it("issues a 32-byte base64url token, stores only its sha256, expires in 7 days", async () => {
    const { db, ann } = await withUsers();
    const { token, expiresAt } = createSession(db, ann.id, T0);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    expect(expiresAt).toBe(at(SESSION_TTL_MS).toISOString());
    expect(SESSION_TTL_MS).toBe(7 * 24 * 3600 * 1000);
    const [row] = sessionRows(db);
    expect(row).toEqual({
      token_hash: createHash("sha256").update(token).digest("hex"),
      user_id: ann.id,
      expires_at: expiresAt,
    });
    expect(JSON.stringify(db.$client.prepare("SELECT * FROM sessions").all())).not.toContain(token);
    expect(createSession(db, ann.id, T0).token).not.toBe(token);
  });

  it("resolves a token to its account until it expires; the expired session is deleted", async () => {
    const { db, ann } = await withUsers();
    const { token } = createSession(db, ann.id, T0);
    const expected = { id: ann.id, username: "ann1", displayName: "Ann One", role: "annotator" };
    expect(userForSessionToken(db, token, T0)).toEqual(expected);
    expect(userForSessionToken(db, token, at(SESSION_TTL_MS - 1))).toEqual(expected);
    expect(userForSessionToken(db, token, at(SESSION_TTL_MS))).toBeNull();
    expect(sessionRows(db)).toHaveLength(0);
    // and it stays gone, whatever the clock says
    expect(userForSessionToken(db, token, T0)).toBeNull();
  });

  it("refuses unknown and malformed tokens", async () => {
    const { db, ann } = await withUsers();
    const { token } = createSession(db, ann.id, T0);
    const [row] = sessionRows(db);
    // "A" x 43 is well-formed but was never issued
    for (const bad of ["", "x", `${token}x`, `${token.slice(0, 42)}=`, "A".repeat(43)])
      expect(userForSessionToken(db, bad, T0), bad).toBeNull();
    // the stored hash is not a token
    expect(userForSessionToken(db, row!.token_hash, T0)).toBeNull();
    expect(sessionRows(db)).toHaveLength(1);
  });

  it("deletes one session or the expired ones", async () => {
    const { db, admin, ann } = await withUsers();
    const one = createSession(db, ann.id, T0);
    const two = createSession(db, ann.id, at(1000));
    const adminOld = createSession(db, admin.id, at(-SESSION_TTL_MS));
    deleteSession(db, one.token);
    deleteSession(db, "not-a-token");
    expect(userForSessionToken(db, one.token, T0)).toBeNull();
    expect(userForSessionToken(db, two.token, T0)?.id).toBe(ann.id);

    expect(deleteExpiredSessions(db, T0)).toBe(1);
    expect(userForSessionToken(db, adminOld.token, at(-SESSION_TTL_MS))).toBeNull();
    deleteSession(db, two.token);
    expect(sessionRows(db)).toHaveLength(0);
  });

  it("counts only unexpired sessions in the listing", async () => {
    const { db, ann } = await withUsers();
    createSession(db, ann.id, T0);
    createSession(db, ann.id, at(-SESSION_TTL_MS));
    expect(listUsers(db, T0).find((u) => u.id === ann.id)?.activeSessions).toBe(1);
  });
});
