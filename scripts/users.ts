/**
 * npm run users: accounts from a shell: the first admin, and a way back in for an admin who lost
 * the password. Passwords never go on the command line (shell history, `ps`): from an environment
 * variable or stdin.
 */
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { createDb, databasePathFromEnv, type Db } from "@/db/client";
import {
  countUsersWithRole,
  createUser,
  findUserForLogin,
  listUsers,
  setPassword,
  type NewUserRecord,
} from "@/db/queries/users";
import { formatAccountsFile, parseAccountsFile } from "@/lib/auth/accounts-file";
import { hashPassword } from "@/lib/auth/password";
import { DisplayNameSchema, PasswordSchema, ROLES, UsernameSchema, type Role } from "@/lib/auth/schema";
import { requestUnlock, unlockRequestsPath } from "@/lib/auth/unlock-requests";
import { choiceOption, cliCommand, dispatchCli, Option, schemaOption, textOption } from "@/lib/cli/args";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";
import { firstIssue } from "@/lib/errors/zod-issues";

/** The CLI's io plus stdin, for --password-stdin (tests pass a stream). */
export type UsersIo = CliIo & { stdin?: NodeJS.ReadableStream };

type Work = (io: UsersIo) => Promise<number>;

const username = () =>
  schemaOption("--username <name>", "the account's username", UsernameSchema).makeOptionMandatory();
const passwordEnv = () =>
  textOption("--password-env <var>", "read the password from this environment variable", {
    pattern: /^[A-Za-z_][A-Za-z0-9_]*$/,
    expected: "the name of an environment variable",
  });
const passwordStdin = () =>
  new Option("--password-stdin", "read the password from stdin (one trailing newline dropped)");

/** The commands; each action hands back the work it chose, run by main once parsing succeeded. */
export function cli(choose: (work: Work) => void = () => {}) {
  const program = cliCommand("npm run users --", "Manages accounts from a shell (there is no sign-up).");
  program
    .command("create")
    .description("create an account")
    .addOption(username())
    .addOption(choiceOption("--role <role>", "what the account may do", ROLES).makeOptionMandatory())
    .addOption(schemaOption("--display-name <name>", "the name shown (default: the username)", DisplayNameSchema))
    .addOption(passwordEnv())
    .addOption(passwordStdin())
    .action((options) => choose((io) => create(options, io)));
  program
    .command("set-password")
    .description("set an account's password and end its sessions")
    .addOption(username())
    .addOption(passwordEnv())
    .addOption(passwordStdin())
    .action((options) => choose((io) => changePassword(options, io)));
  program
    .command("unlock")
    .description("make the running server forget the account's failed sign-ins")
    .addOption(username())
    .action((options) => choose((io) => unlock(options.username, io)));
  program
    .command("list")
    .description("list the accounts")
    .option("--json", "print them as JSON")
    .action((options) => choose((io) => list(options.json === true, io)));
  return program;
}

export async function main(argv: string[], io: UsersIo): Promise<number> {
  let work: Work | null = null;
  const ran = await dispatchCli(
    cli((chosen) => (work = chosen)),
    argv,
    io,
  );
  return ran && work ? (work as Work)(io) : 0;
}

interface PasswordSource {
  passwordEnv?: string;
  passwordStdin?: true;
}

const say = (io: CliIo, line: string) => io.stdout.write(`${line}\n`);

async function list(json: boolean, io: UsersIo): Promise<number> {
  return withDb(io, (db) => {
    const users = listUsers(db);
    if (json) say(io, JSON.stringify(users));
    else if (users.length === 0) say(io, "no accounts yet: npm run users -- create --username U --role admin ...");
    else for (const u of users) say(io, `${u.id}\t${u.username}\t${u.role}\t${u.displayName}\t${u.createdAt}`);
    return 0;
  });
}

async function create(
  options: PasswordSource & { username: string; role: (typeof ROLES)[number]; displayName?: string },
  io: UsersIo,
): Promise<number> {
  const password = await readPassword(options, io);
  const account = await newAccount(
    { username: options.username, displayName: options.displayName ?? options.username, role: options.role },
    password,
  );
  return withDb(io, (db) => {
    const user = createUser(db, account);
    say(io, `created ${user.role} account ${user.username} (id ${user.id})`);
    return 0;
  });
}

async function unlock(name: string, io: UsersIo): Promise<number> {
  const databasePath = databasePathFromEnv(io.env);
  const file = unlockRequestsPath(databasePath);
  if (file === null)
    throw new AppError("INVALID_INPUT", "unlock: STUDIO_DB is an in-memory database, no server shares it");
  return withDb(io, (db) => {
    const user = findUserForLogin(db, name);
    if (!user) throw new AppError("NOT_FOUND", `--username: no account ${name}`);
    requestUnlock(file, user.username, Date.now());
    say(
      io,
      `unlock of ${user.username} requested: the running web server forgets its failed sign-ins at its next sign-in`,
    );
    return 0;
  });
}

async function changePassword(options: PasswordSource & { username: string }, io: UsersIo): Promise<number> {
  const password = await readPassword(options, io);
  const passwordHash = await hashPassword(password);
  return withDb(io, (db) => {
    const user = findUserForLogin(db, options.username);
    if (!user) throw new AppError("NOT_FOUND", `--username: no account ${options.username}`);
    const { endedSessions } = setPassword(db, user.id, passwordHash);
    say(io, `password of ${user.username} set; ${endedSessions} session(s) ended`);
    return 0;
  });
}

function withDb(io: CliIo, work: (db: Db) => number): number {
  const db = createDb(databasePathFromEnv(io.env));
  try {
    return work(db);
  } finally {
    db.$client.close();
  }
}

async function readPassword(source: PasswordSource, io: UsersIo): Promise<string> {
  const env = source.passwordEnv;
  if ((env === undefined) === !source.passwordStdin)
    throw new AppError("INVALID_INPUT", "--password-env or --password-stdin: give exactly one");
  const flag = env !== undefined ? "--password-env" : "--password-stdin";
  let password: string;
  if (env !== undefined) {
    const value = io.env[env];
    if (value === undefined) throw new AppError("INVALID_INPUT", `--password-env: ${env} is not set`);
    password = value;
  } else {
    // One trailing newline is the end of the line typed or echoed, not part of the password.
    password = (await readAll(io.stdin ?? process.stdin)).replace(/\r?\n$/, "");
  }
  const checked = PasswordSchema.safeParse(password);
  if (!checked.success) throw new AppError("INVALID_INPUT", firstIssue(checked.error, flag));
  return checked.data;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

// ---------------------------------------------------------------- new accounts: create's and the demo's

/** An account to make (the username already valid and lower-case). */
export interface AccountSpec {
  username: string;
  displayName: string;
  role: Role;
}

/** An account ready to store, its password hashed: how both `create` and the demo's accounts make one. */
async function newAccount(account: AccountSpec, password: string): Promise<NewUserRecord> {
  return { ...account, passwordHash: await hashPassword(password) };
}

/**
 * Makes sure each account exists. A missing one is created with a random password, written to
 * `passwordFile` (mode 600, one line per account, lib/auth/accounts-file.ts). Existing accounts and
 * their lines are left alone; a line left from an account that no longer exists is replaced. A
 * username taken by an account of another role is a CONFLICT.
 */
export async function ensureAccounts(
  db: Db,
  accounts: readonly AccountSpec[],
  passwordFile: string,
): Promise<{ created: AccountSpec[]; existing: AccountSpec[] }> {
  const missing: AccountSpec[] = [];
  const existing: AccountSpec[] = [];
  for (const account of accounts) {
    const user = findUserForLogin(db, account.username);
    if (!user) missing.push(account);
    else if (user.role === account.role) existing.push(account);
    else
      throw new AppError(
        "CONFLICT",
        `the username ${account.username} is taken by an account with the role ${user.role}`,
      );
  }
  if (missing.length === 0) return { created: [], existing };
  const made = await Promise.all(
    missing.map(async (account) => {
      const password = randomBytes(18).toString("base64url");
      return {
        line: { username: account.username, role: account.role, password },
        record: await newAccount(account, password),
      };
    }),
  );
  const kept = fs.existsSync(passwordFile)
    ? parseAccountsFile(fs.readFileSync(passwordFile, "utf8")).filter(
        (line) => !missing.some((m) => m.username === line.username),
      )
    : [];
  fs.mkdirSync(path.dirname(passwordFile), { recursive: true });
  // Written before the accounts exist: an account whose password was never written down is a lock-out.
  fs.writeFileSync(passwordFile, formatAccountsFile([...kept, ...made.map((m) => m.line)]), { mode: 0o600 });
  fs.chmodSync(passwordFile, 0o600); // an older file keeps its mode on rewrite
  for (const { record } of made) createUser(db, record);
  return { created: missing, existing };
}

/**
 * Makes sure the database has an admin: when it has none, creates `username` with a random
 * password written to `passwordFile` (ensureAccounts). An existing admin is left alone.
 */
export async function ensureAdmin(
  db: Db,
  { username, passwordFile }: { username: string; passwordFile: string },
): Promise<{ created: false } | { created: true; username: string; passwordFile: string }> {
  if (countUsersWithRole(db, "admin") > 0) return { created: false };
  if (findUserForLogin(db, username))
    throw new AppError("CONFLICT", `there is no admin, and the username ${username} is taken by a non-admin account`);
  await ensureAccounts(db, [{ username, displayName: "Admin", role: "admin" }], passwordFile);
  return { created: true, username, passwordFile };
}

if (isEntryPoint(import.meta.url)) await runMain(main);
