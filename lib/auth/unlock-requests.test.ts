import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LoginThrottle } from "./login-throttle";
import { requestUnlock, UnlockInbox, unlockRequestsPath } from "./unlock-requests";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "unlock-requests-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let counter = 0;
const freshFile = () => path.join(root, `case-${++counter}`, "studio.db.login-unlocks.jsonl");

describe("unlock requests", () => {
  it("sits beside the database, and nowhere for an in-memory one", () => {
    expect(unlockRequestsPath("data/studio.db")).toBe("data/studio.db.login-unlocks.jsonl");
    expect(unlockRequestsPath(":memory:")).toBeNull();
  });

  it("a request from another process unlocks the account in the server's throttle, once", () => {
    const file = freshFile();
    fs.mkdirSync(path.dirname(file));
    const throttle = new LoginThrottle();
    const attempt = { account: "admin", client: null };
    for (let t = 0; t < 5; t++) throttle.begin(attempt, t);
    expect(throttle.begin(attempt, 10).allowed).toBe(false);

    const inbox = new UnlockInbox(file, 0);
    const unlocked: string[] = [];
    const unlock = (username: string) => unlocked.push(username) && throttle.unlock(username);
    inbox.poll(unlock); // no file yet
    requestUnlock(file, "admin", 100);
    inbox.poll(unlock);
    inbox.poll(unlock);
    expect(unlocked).toEqual(["admin"]);
    expect(throttle.begin(attempt, 11)).toEqual({ allowed: true });

    requestUnlock(file, "bob", 200);
    inbox.poll(unlock);
    expect(unlocked).toEqual(["admin", "bob"]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it("ignores requests older than the server, drops those older than an hour, skips torn lines", () => {
    const file = freshFile();
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, '{"username":"old","at":5}\n{"username":\n42\n');
    const unlocked: string[] = [];
    new UnlockInbox(file, 10).poll((u) => unlocked.push(u));
    expect(unlocked).toEqual([]);

    requestUnlock(file, "new", 60 * 60_000 + 6);
    expect(fs.readFileSync(file, "utf8")).toBe(`{"username":"new","at":${60 * 60_000 + 6}}\n`);
    new UnlockInbox(file, 10).poll((u) => unlocked.push(u));
    expect(unlocked).toEqual(["new"]);
  });
});
