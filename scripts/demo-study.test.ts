import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { seedStudy } from "@/db/queries/agreement.fixture";
import { listAgreementSets } from "@/db/queries/agreement-sets";
import { findUserForLogin, listUsers } from "@/db/queries/users";
import * as t from "@/db/schema";
import { parseAccountsFile } from "@/lib/auth/accounts-file";
import { verifyPassword } from "@/lib/auth/password";
import { DEMO_SET_NAME, ensureDemoStudy } from "./demo-study";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "demo-study-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const DEMO_USERNAMES = ["annotator1", "annotator2", "annotator3", "viewer"];
const ADMIN_PASSWORD = "Admin-password-from-an-older-demo";

describe("ensureDemoStudy (the demo's accounts and agreement set)", () => {
  it("creates the accounts beside the admin's password and a 30-run set given to all three annotators, once", async () => {
    const { db, ruleJudgeId, llmJudgeId } = seedStudy(36);
    // The fixture has a viewer of its own; the demo makes its own.
    db.delete(t.users).where(eq(t.users.username, "viewer")).run();
    const passwordFile = path.join(root, "data", "demo-admin.txt");
    fs.mkdirSync(path.dirname(passwordFile), { recursive: true });
    // As the demo wrote its admin's password before it made other accounts.
    fs.writeFileSync(passwordFile, `username: admin\npassword: ${ADMIN_PASSWORD}\n`, { mode: 0o644 });
    const judgeIds = [ruleJudgeId, llmJudgeId];

    const first = await ensureDemoStudy(db, { passwordFile, judgeIds });
    expect(first.accounts.created.map((a) => [a.username, a.role])).toEqual([
      ["annotator1", "annotator"],
      ["annotator2", "annotator"],
      ["annotator3", "annotator"],
      ["viewer", "viewer"],
    ]);
    expect(first.setCreated).toBe(true);
    expect(first.set).toMatchObject({ name: DEMO_SET_NAME, size: 30, annotatorsPerItem: 3, completedItems: 0 });
    expect(first.set.design).toMatchObject({ strata: ["subtask", "framework", "model"], population: 36 });
    expect(first.set.design.filters.judgeIds).toEqual(judgeIds);

    // Every item goes to annotator1..3, each of them labels all 30.
    expect(first.set.annotators.map((a) => [a.username, a.assigned, a.submitted])).toEqual([
      ["annotator1", 30, 0],
      ["annotator2", 30, 0],
      ["annotator3", 30, 0],
    ]);
    const assignments = db
      .select({ runId: t.itemAssignments.runId, username: t.users.username })
      .from(t.itemAssignments)
      .innerJoin(t.users, eq(t.users.id, t.itemAssignments.userId))
      .where(eq(t.itemAssignments.setId, first.set.id))
      .all();
    const byItem = new Map<string, string[]>();
    for (const a of assignments) byItem.set(a.runId, [...(byItem.get(a.runId) ?? []), a.username]);
    expect(byItem.size).toBe(30);
    for (const usernames of byItem.values())
      expect(usernames.sort()).toEqual(["annotator1", "annotator2", "annotator3"]);

    // One line per account, the admin's kept, mode 600.
    expect(fs.statSync(passwordFile).mode & 0o777).toBe(0o600);
    const text = fs.readFileSync(passwordFile, "utf8");
    const lines = parseAccountsFile(text);
    expect(lines.map((l) => [l.username, l.role])).toEqual([
      ["admin", "admin"],
      ...first.accounts.created.map((a) => [a.username, a.role]),
    ]);
    expect(lines[0]!.password).toBe(ADMIN_PASSWORD);
    const hashOf = (username: string) => findUserForLogin(db, username)!.passwordHash;
    const demoLines = lines.slice(1);
    for (const line of demoLines) expect(line.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    // One scrypt check is enough here (e2e/demo-study.spec.ts signs annotator1 in with its line).
    expect(await verifyPassword(demoLines[0]!.password, hashOf("annotator1"))).toBe(true);
    const hashes = DEMO_USERNAMES.map(hashOf);

    // A second run changes nothing: no new account, password or set.
    const users = listUsers(db);
    const second = await ensureDemoStudy(db, { passwordFile, judgeIds });
    expect(second.accounts).toEqual({ created: [], existing: first.accounts.created });
    expect(second.setCreated).toBe(false);
    expect(second.set.id).toBe(first.set.id);
    expect(fs.readFileSync(passwordFile, "utf8")).toBe(text);
    expect(listUsers(db)).toEqual(users);
    expect(listAgreementSets(db).map((s) => s.name)).toEqual([DEMO_SET_NAME]);
    expect(DEMO_USERNAMES.map(hashOf)).toEqual(hashes);
  });

  it("keeps an existing account of the right role and refuses a demo username taken by another role", async () => {
    const { db, ruleJudgeId } = seedStudy(12);
    const passwordFile = path.join(root, "conflict", "demo-admin.txt");
    const kept = await ensureDemoStudy(db, { passwordFile, judgeIds: [ruleJudgeId] });
    expect(kept.accounts.existing.map((a) => a.username)).toEqual(["viewer"]);
    expect(parseAccountsFile(fs.readFileSync(passwordFile, "utf8")).map((l) => l.username)).toEqual([
      "annotator1",
      "annotator2",
      "annotator3",
    ]);
    // Fewer matching runs than asked for: the set holds them all.
    expect(kept.set.size).toBe(12);

    const other = seedStudy(4).db;
    other.update(t.users).set({ role: "annotator" }).where(eq(t.users.username, "viewer")).run();
    await expect(
      ensureDemoStudy(other, { passwordFile: path.join(root, "other", "demo-admin.txt"), judgeIds: [] }),
    ).rejects.toThrow("the username viewer is taken by an account with the role annotator");
  });
});
