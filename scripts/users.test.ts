import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createDb } from "@/db/client";
import { createUser, findUserForLogin, listUsers } from "@/db/queries/users";
import { LoginThrottle } from "@/lib/auth/login-throttle";
import { parseAccountsFile } from "@/lib/auth/accounts-file";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { UnlockInbox, unlockRequestsPath } from "@/lib/auth/unlock-requests";
import { runCaptured } from "@/lib/cli/cli-io.fixture";
import { ensureAdmin, main } from "./users";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "users-cli-"));
let dbPath = "";
let counter = 0;

beforeEach(() => {
  counter += 1;
  dbPath = path.join(root, `case-${counter}`, "studio.db");
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** main() as runMain would run it: an AppError becomes its line and exit code. */
const users = (argv: string[], options: { env?: Record<string, string>; stdin?: string } = {}) =>
  runCaptured(
    main,
    argv,
    { NODE_ENV: "test", STUDIO_DB: dbPath, ...options.env },
    options.stdin === undefined ? undefined : Readable.from([Buffer.from(options.stdin)]),
  );

const passwordOf = async (username: string, password: string) => {
  const db = createDb(dbPath);
  try {
    const user = findUserForLogin(db, username);
    return user !== null && (await verifyPassword(password, user.passwordHash));
  } finally {
    db.$client.close();
  }
};

const PW = "a long enough password";

describe("npm run users", () => {
  it("creates an admin with the password from an environment variable, then lists it", async () => {
    const created = await users(["create", "--username", "Root", "--role", "admin", "--password-env", "PW"], {
      env: { PW },
    });
    expect(created).toEqual({ code: 0, stdout: "created admin account root (id 1)\n", stderr: "" });
    expect(await passwordOf("root", PW)).toBe(true);

    const listed = await users(["list"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^1\troot\tadmin\troot\t\d{4}-\d\d-\d\dT[\d:.]+Z\n$/);
    const json = await users(["list", "--json"]);
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({ id: 1, username: "root", role: "admin", displayName: "root", activeSessions: 0 }),
    ]);
    expect(json.stdout).not.toContain("scrypt");
  });

  it("reads the password from stdin (one trailing newline dropped), with a display name", async () => {
    const run = await users(
      ["create", "--username", "ann1", "--role", "annotator", "--display-name", "Ann One", "--password-stdin"],
      { stdin: `${PW}\n` },
    );
    expect(run.code).toBe(0);
    expect(await passwordOf("ann1", PW)).toBe(true);
    const db = createDb(dbPath);
    expect(listUsers(db)[0]).toMatchObject({ username: "ann1", displayName: "Ann One", role: "annotator" });
    db.$client.close();
  });

  it("sets a password", async () => {
    await users(["create", "--username", "ann2", "--role", "annotator", "--password-env", "PW"], { env: { PW } });
    const run = await users(["set-password", "--username", "ann2", "--password-stdin"], {
      stdin: "another long password\r\n",
    });
    expect(run).toEqual({ code: 0, stdout: "password of ann2 set; 0 session(s) ended\n", stderr: "" });
    expect(await passwordOf("ann2", "another long password")).toBe(true);
    expect(await passwordOf("ann2", PW)).toBe(false);
    const missing = await users(["set-password", "--username", "nobody", "--password-env", "PW"], { env: { PW } });
    expect(missing).toMatchObject({ code: 1, stderr: "error: --username: no account nobody\n" });
  });

  it("unlocks an account's sign-in in the running server's throttle, through the file beside the database", async () => {
    await users(["create", "--username", "Boss", "--role", "admin", "--password-env", "PW"], { env: { PW } });
    // The server's side, as app/login-throttle.ts holds it: five failures, then a backoff.
    const throttle = new LoginThrottle();
    const inbox = new UnlockInbox(unlockRequestsPath(dbPath), Date.now() - 1);
    const attempt = { account: "boss", client: null };
    for (let t = 0; t < 5; t++) throttle.begin(attempt, t);
    expect(throttle.begin(attempt, 10).allowed).toBe(false);

    const run = await users(["unlock", "--username", "BOSS"]);
    expect(run).toEqual({
      code: 0,
      stdout: "unlock of boss requested: the running web server forgets its failed sign-ins at its next sign-in\n",
      stderr: "",
    });
    inbox.poll((username) => throttle.unlock(username));
    expect(throttle.begin(attempt, 11)).toEqual({ allowed: true });

    const missing = await users(["unlock", "--username", "nobody"]);
    expect(missing).toMatchObject({ code: 1, stderr: "error: --username: no account nobody\n" });
    expect((await users(["unlock"])).code).toBe(2);
  });

  it("refuses a taken username (exit 1, named)", async () => {
    const argv = ["create", "--username", "dup", "--role", "viewer", "--password-env", "PW"];
    expect((await users(argv, { env: { PW } })).code).toBe(0);
    const again = await users(argv, { env: { PW } });
    expect(again).toMatchObject({ code: 1, stdout: "", stderr: "error: username dup is already taken\n" });
  });

  it("names the flag of every bad argument (exit 2) and creates nothing", async () => {
    const cases: [string[], Record<string, string>, string | undefined, RegExp][] = [
      [[], {}, undefined, /^error: no command given \(one of create, set-password, unlock, list\); see --help\n$/],
      [["remove"], {}, undefined, /^error: unknown command 'remove'; see --help\n$/],
      [
        ["create", "--role", "admin", "--password-env", "PW"],
        { PW },
        undefined,
        /^error: required option '--username <name>' not specified; see --help\n$/,
      ],
      [
        ["create", "--username", "ab", "--role", "admin", "--password-env", "PW"],
        { PW },
        undefined,
        /^error: --username: expected at least 3 characters, got "ab"\n$/,
      ],
      [
        ["create", "--username", "a b c", "--role", "admin", "--password-env", "PW"],
        { PW },
        undefined,
        /^error: --username: expected only a-z/,
      ],
      [
        ["create", "--username", "abc", "--role", "root", "--password-env", "PW"],
        { PW },
        undefined,
        /^error: --role: expected one of admin, annotator, viewer, got "root"\n$/,
      ],
      [
        ["create", "--username", "abc", "--role", "admin"],
        {},
        undefined,
        /^error: --password-env or --password-stdin: give exactly one\n/,
      ],
      [
        ["create", "--username", "abc", "--role", "admin", "--password-env", "PW", "--password-stdin"],
        { PW },
        "x",
        /^error: --password-env or --password-stdin: give exactly one\n/,
      ],
      [
        ["create", "--username", "abc", "--role", "admin", "--password-env", "NOPE"],
        {},
        undefined,
        /^error: --password-env: NOPE is not set\n$/,
      ],
      [
        ["create", "--username", "abc", "--role", "admin", "--password-env", "PW"],
        { PW: "short" },
        undefined,
        /^error: --password-env: at least 12 characters\n$/,
      ],
      [
        ["create", "--username", "abc", "--role", "admin", "--password-stdin"],
        {},
        "short\n",
        /^error: --password-stdin: at least 12 characters\n$/,
      ],
      [
        ["create", "--username", "abc", "--role", "admin", "--password-env", "1X"],
        {},
        undefined,
        /^error: --password-env: expected the name of an environment variable, got "1X"\n$/,
      ],
      [["list", "--username", "abc"], {}, undefined, /^error: unknown option '--username'; see --help\n$/],
      [
        ["create", "--username", "abc", "--role", "admin", "--password", "hunter2hunter2"],
        {},
        undefined,
        /^error: unknown option '--password'; see --help\n$/,
      ],
    ];
    for (const [argv, env, stdin, expected] of cases) {
      const run = await users(argv, { env, stdin });
      expect(run.code, argv.join(" ")).toBe(2);
      expect(run.stderr, argv.join(" ")).toMatch(expected);
    }
    expect(fs.existsSync(dbPath)).toBe(false);
  });

  it("lists an empty database with a hint", async () => {
    expect((await users(["list"])).stdout).toBe(
      "no accounts yet: npm run users -- create --username U --role admin ...\n",
    );
  });
});

describe("ensureAdmin (the demo's first run)", () => {
  it("creates an admin with a random password in a mode-600 file, then leaves it alone", async () => {
    const db = createDb(":memory:");
    const passwordFile = path.join(root, `demo-${counter}`, "demo-admin.txt");
    expect(await ensureAdmin(db, { username: "admin", passwordFile })).toEqual({
      created: true,
      username: "admin",
      passwordFile,
    });
    expect(fs.statSync(passwordFile).mode & 0o777).toBe(0o600);
    const text = fs.readFileSync(passwordFile, "utf8");
    expect(text).toMatch(/^# .*\nusername: admin  role: admin  password: \S{24}\n$/);
    const [line] = parseAccountsFile(text);
    const password = line?.password;
    expect(password).toBeDefined();
    const admin = findUserForLogin(db, "admin");
    expect(admin?.role).toBe("admin");
    expect(await verifyPassword(password!, admin!.passwordHash)).toBe(true);

    expect(await ensureAdmin(db, { username: "admin", passwordFile })).toEqual({ created: false });
    expect(fs.readFileSync(passwordFile, "utf8")).toBe(text);
    expect(listUsers(db)).toHaveLength(1);
  });

  it("counts any admin, whatever its name; refuses when its username is taken by a non-admin", async () => {
    const db = createDb(":memory:");
    const passwordFile = path.join(root, `ensure-${counter}`, "demo-admin.txt");
    const passwordHash = await hashPassword(PW, { N: 2 ** 10, r: 8, p: 1 });
    createUser(db, { username: "admin", displayName: "Not an admin", role: "annotator", passwordHash });
    await expect(ensureAdmin(db, { username: "admin", passwordFile })).rejects.toThrow(
      "there is no admin, and the username admin is taken by a non-admin account",
    );
    createUser(db, { username: "boss", displayName: "Boss", role: "admin", passwordHash });
    expect(await ensureAdmin(db, { username: "admin", passwordFile })).toEqual({ created: false });
    expect(fs.existsSync(passwordFile)).toBe(false);
  });
});
