/**
 * npm run users -- create --username U --role admin|annotator|viewer [--display-name N] (--password-env VAR | --password-stdin)
 * npm run users -- set-password --username U (--password-env VAR | --password-stdin)
 * npm run users -- unlock --username U
 * npm run users -- list [--json]
 * Accounts from a shell: the first admin, and a way back in for an admin who lost the password.
 * Passwords never go on the command line (shell history, `ps`): from an environment variable or stdin.
 */
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { createDb, databasePathFromEnv, type Db } from "@/db/client";
import { countUsersWithRole, createUser, findUserForLogin, listUsers, setPassword } from "@/db/queries/users";
import { hashPassword } from "@/lib/auth/password";
import { DisplayNameSchema, PasswordSchema, RoleSchema, UsernameSchema } from "@/lib/auth/schema";
import { requestUnlock, unlockRequestsPath } from "@/lib/auth/unlock-requests";
import { parseCliArgs } from "@/lib/cli/args";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";

const USAGE = [
  "usage: npm run users -- create --username U --role admin|annotator|viewer [--display-name N] (--password-env VAR | --password-stdin)",
  "       npm run users -- set-password --username U (--password-env VAR | --password-stdin)",
  "       npm run users -- unlock --username U",
  "       npm run users -- list [--json]",
].join("\n");

/** The CLI's io plus stdin, for --password-stdin (tests pass a stream). */
export type UsersIo = CliIo & { stdin?: NodeJS.ReadableStream };

const PASSWORD_OPTIONS = { "password-env": { type: "string" }, "password-stdin": { type: "boolean" } } as const;
const PasswordSourceSchema = {
  "password-env": z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "the name of an environment variable")
    .optional(),
  "password-stdin": z.boolean().default(false),
};

const COMMANDS = {
  create: {
    options: {
      username: { type: "string" },
      role: { type: "string" },
      "display-name": { type: "string" },
      ...PASSWORD_OPTIONS,
    },
    schema: z.object({
      username: UsernameSchema,
      role: RoleSchema,
      "display-name": DisplayNameSchema.optional(),
      ...PasswordSourceSchema,
    }),
  },
  "set-password": {
    options: { username: { type: "string" }, ...PASSWORD_OPTIONS },
    schema: z.object({ username: UsernameSchema, ...PasswordSourceSchema }),
  },
  unlock: { options: { username: { type: "string" } }, schema: z.object({ username: UsernameSchema }) },
  list: { options: { json: { type: "boolean" } }, schema: z.object({ json: z.boolean().default(false) }) },
} as const;

const ALL_OPTIONS = Object.assign({}, ...Object.values(COMMANDS).map((c) => c.options));

export async function main(argv: string[], io: UsersIo): Promise<number> {
  // First find the command (options of any command are accepted here), then check its own options.
  const { positionals } = parseCliArgs(argv, ALL_OPTIONS, z.looseObject({}), USAGE);
  const [command, ...extra] = positionals;
  if (!command || !(command in COMMANDS))
    throw new AppError("INVALID_INPUT", `${command ? `unknown command ${command}` : "no command given"}\n${USAGE}`);
  if (extra.length > 0) throw new AppError("INVALID_INPUT", `unexpected argument ${extra[0]}\n${USAGE}`);
  const say = (line: string) => io.stdout.write(`${line}\n`);

  if (command === "list") {
    const { values } = parseCliArgs(argv, COMMANDS.list.options, COMMANDS.list.schema, USAGE);
    return withDb(io, (db) => {
      const users = listUsers(db);
      if (values.json) say(JSON.stringify(users));
      else if (users.length === 0) say("no accounts yet: npm run users -- create --username U --role admin ...");
      else for (const u of users) say(`${u.id}\t${u.username}\t${u.role}\t${u.displayName}\t${u.createdAt}`);
      return 0;
    });
  }

  if (command === "create") {
    const { values } = parseCliArgs(argv, COMMANDS.create.options, COMMANDS.create.schema, USAGE);
    const password = await readPassword(values, io);
    const passwordHash = await hashPassword(password);
    return withDb(io, (db) => {
      const user = createUser(db, {
        username: values.username,
        displayName: values["display-name"] ?? values.username,
        role: values.role,
        passwordHash,
      });
      say(`created ${user.role} account ${user.username} (id ${user.id})`);
      return 0;
    });
  }

  if (command === "unlock") {
    const { values } = parseCliArgs(argv, COMMANDS.unlock.options, COMMANDS.unlock.schema, USAGE);
    const databasePath = databasePathFromEnv(io.env);
    const file = unlockRequestsPath(databasePath);
    if (file === null)
      throw new AppError("INVALID_INPUT", "unlock: STUDIO_DB is an in-memory database, no server shares it");
    return withDb(io, (db) => {
      const user = findUserForLogin(db, values.username);
      if (!user) throw new AppError("NOT_FOUND", `--username: no account ${values.username}`);
      requestUnlock(file, user.username, Date.now());
      say(
        `unlock of ${user.username} requested: the running web server forgets its failed sign-ins at its next sign-in`,
      );
      return 0;
    });
  }

  const { values } = parseCliArgs(argv, COMMANDS["set-password"].options, COMMANDS["set-password"].schema, USAGE);
  const password = await readPassword(values, io);
  const passwordHash = await hashPassword(password);
  return withDb(io, (db) => {
    const user = findUserForLogin(db, values.username);
    if (!user) throw new AppError("NOT_FOUND", `--username: no account ${values.username}`);
    const { endedSessions } = setPassword(db, user.id, passwordHash);
    say(`password of ${user.username} set; ${endedSessions} session(s) ended`);
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

async function readPassword(
  source: { "password-env"?: string; "password-stdin": boolean },
  io: UsersIo,
): Promise<string> {
  const env = source["password-env"];
  if ((env === undefined) === !source["password-stdin"])
    throw new AppError("INVALID_INPUT", `--password-env or --password-stdin: give exactly one\n${USAGE}`);
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
  if (!checked.success) throw new AppError("INVALID_INPUT", `${flag}: ${checked.error.issues[0]?.message}`);
  return checked.data;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

// ---------------------------------------------------------------- the demo's admin

/**
 * Makes sure the database has an admin: when it has none, creates `username` with a random
 * password written to `passwordFile` (mode 600). An existing admin is left alone.
 */
export async function ensureAdmin(
  db: Db,
  { username, passwordFile }: { username: string; passwordFile: string },
): Promise<{ created: false } | { created: true; username: string; passwordFile: string }> {
  if (countUsersWithRole(db, "admin") > 0) return { created: false };
  if (findUserForLogin(db, username))
    throw new AppError("CONFLICT", `there is no admin, and the username ${username} is taken by a non-admin account`);
  const password = randomBytes(18).toString("base64url");
  const passwordHash = await hashPassword(password);
  fs.mkdirSync(path.dirname(passwordFile), { recursive: true });
  // Written before the account exists: an account whose password was never written down is a lock-out.
  fs.writeFileSync(passwordFile, `username: ${username}\npassword: ${password}\n`, { mode: 0o600 });
  fs.chmodSync(passwordFile, 0o600); // an older file keeps its mode on rewrite
  createUser(db, { username, displayName: "Admin", role: "admin", passwordHash });
  return { created: true, username, passwordFile };
}

if (isEntryPoint(import.meta.url)) await runMain(main);
