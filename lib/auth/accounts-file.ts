/**
 * The file where the demo writes the random passwords of the accounts it creates
 * (data/demo-admin.txt), for the person who ran it only (mode 600). One line per account:
 *
 *     username: annotator1  role: annotator  password: <24 characters>
 *
 * A file from before the demo made more than its admin holds that admin on two lines
 * (`username: admin`, then `password: ...`); it is read too, so that password survives a rewrite.
 */
import { RoleSchema, type Role } from "./schema";

export interface AccountLine {
  username: string;
  role: Role;
  password: string;
}

const HEADER =
  "# Accounts the demo created, with their random passwords (sign in at /login). Keep this file to yourself.";

const LINE = /^username: (\S+)\s+role: (\S+)\s+password: (\S+)$/;
const LEGACY_USERNAME = /^username: (\S+)$/;
const LEGACY_PASSWORD = /^password: (\S+)$/;

/** The accounts of a file's text, in file order; a username written twice keeps its last line. Other lines are ignored. */
export function parseAccountsFile(text: string): AccountLine[] {
  const accounts = new Map<string, AccountLine>();
  let legacyUsername: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const full = LINE.exec(line);
    const role = full ? RoleSchema.safeParse(full[2]) : null;
    if (full && role?.success) {
      accounts.delete(full[1]!);
      accounts.set(full[1]!, { username: full[1]!, role: role.data, password: full[3]! });
    }
    const password = LEGACY_PASSWORD.exec(line);
    // The two-line form only ever held the demo's admin.
    if (password && legacyUsername !== null) {
      accounts.delete(legacyUsername);
      accounts.set(legacyUsername, { username: legacyUsername, role: "admin", password: password[1]! });
    }
    legacyUsername = LEGACY_USERNAME.exec(line)?.[1] ?? null;
  }
  return [...accounts.values()];
}

export function formatAccountsFile(accounts: readonly AccountLine[]): string {
  const width = Math.max(0, ...accounts.map((a) => a.username.length));
  const roleWidth = Math.max(0, ...accounts.map((a) => a.role.length));
  const lines = accounts.map(
    (a) => `username: ${a.username.padEnd(width)}  role: ${a.role.padEnd(roleWidth)}  password: ${a.password}`,
  );
  return `${[HEADER, ...lines].join("\n")}\n`;
}
