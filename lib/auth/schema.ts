/**
 * Accounts: what crosses the boundary. The sign-in and account forms (server actions, so public
 * endpoints), the users CLI's arguments, the session cookie's token and the `next` parameter of
 * the sign-in page. Messages leave the field out ("at least 12 characters"): a form shows them
 * under the field's label, a CLI after the flag's name (`--password-stdin: at least 12 characters`).
 */
import { z } from "zod";
import { parseForm, type FormParse } from "@/lib/errors/zod-issues";

/** admin: everything, accounts included; annotator: labels the agreement sets given to them; viewer: reads. */
export const ROLES = ["admin", "annotator", "viewer"] as const;
export const RoleSchema = z.enum(ROLES, { error: `one of ${ROLES.join(", ")}` });
export type Role = z.infer<typeof RoleSchema>;

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 40;
export const DISPLAY_NAME_MAX = 80;
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 200;

/** Stored lower-case: "Alice" signs in as, and is created as, "alice". */
export const UsernameSchema = z
  .string({ error: "is required" })
  .trim()
  .toLowerCase()
  .min(USERNAME_MIN, `at least ${USERNAME_MIN} characters`)
  .max(USERNAME_MAX, `at most ${USERNAME_MAX} characters`)
  .regex(/^[a-z0-9._-]+$/, 'only a-z, 0-9, ".", "_" and "-"');

const CONTROL = /[\u0000-\u001f\u007f]/;

export const DisplayNameSchema = z
  .string({ error: "must be text" })
  .trim()
  .min(1, "is required")
  .max(DISPLAY_NAME_MAX, `at most ${DISPLAY_NAME_MAX} characters`)
  .refine((name) => !CONTROL.test(name), "no control characters");

/** Never trimmed: spaces are part of a password. */
export const PasswordSchema = z
  .string({ error: "is required" })
  .min(PASSWORD_MIN, `at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `at most ${PASSWORD_MAX} characters`);

/** The cookie that holds a session token (set by the sign-in, read by every page). */
export const SESSION_COOKIE = "studio_session";

/** 32 random bytes, base64url without padding: what the session cookie holds. */
export const SessionTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/, "not a session token");

// ---------------------------------------------------------------- forms

/** FormData values are strings or files; an absent field is undefined. */
const formText = (value: unknown) => (value === null ? undefined : value);

/**
 * Sign-in takes any username and password of a sane length: the rules for new accounts are not
 * checked here, so a refusal never says more than "wrong username or password".
 */
export const SignInInputSchema = z.object({
  username: z
    .string({ error: "enter your username" })
    .trim()
    .toLowerCase()
    .min(1, "enter your username")
    .max(200, "too long"),
  password: z.string({ error: "enter your password" }).min(1, "enter your password").max(1000, "too long"),
});
export type SignInInput = z.infer<typeof SignInInputSchema>;
export type SignInField = keyof SignInInput;

export function parseSignInForm(input: Record<SignInField, unknown>): FormParse<SignInInput, SignInField> {
  return parseForm(SignInInputSchema, { username: formText(input.username), password: formText(input.password) });
}

export const NewUserSchema = z.object({
  username: UsernameSchema,
  /** Empty: the username. */
  displayName: DisplayNameSchema.optional(),
  role: RoleSchema,
  password: PasswordSchema,
});
export type NewUser = z.infer<typeof NewUserSchema>;
export type NewUserField = keyof NewUser;

export function parseNewUserForm(
  input: Record<NewUserField, unknown>,
): FormParse<NewUser & { displayName: string }, NewUserField> {
  const displayName = formText(input.displayName);
  const parsed = parseForm(NewUserSchema, {
    username: formText(input.username),
    displayName: typeof displayName === "string" && displayName.trim() === "" ? undefined : displayName,
    role: formText(input.role),
    password: formText(input.password),
  });
  if (!parsed.ok) return parsed;
  return { ok: true, value: { ...parsed.value, displayName: parsed.value.displayName ?? parsed.value.username } };
}

const UserIdSchema = z.coerce
  .number({ error: "choose an account" })
  .int("choose an account")
  .positive("choose an account");

export const PasswordResetSchema = z.object({ userId: UserIdSchema, password: PasswordSchema });
export type PasswordReset = z.infer<typeof PasswordResetSchema>;
export type PasswordResetField = keyof PasswordReset;

export function parsePasswordResetForm(
  input: Record<PasswordResetField, unknown>,
): FormParse<PasswordReset, PasswordResetField> {
  const userId = formText(input.userId);
  return parseForm(PasswordResetSchema, {
    userId: userId === "" ? undefined : userId,
    password: formText(input.password),
  });
}

export const UnlockSchema = z.object({ userId: UserIdSchema });
export type UnlockField = keyof z.infer<typeof UnlockSchema>;

export function parseUnlockForm(
  input: Record<UnlockField, unknown>,
): FormParse<z.infer<typeof UnlockSchema>, UnlockField> {
  const userId = formText(input.userId);
  return parseForm(UnlockSchema, { userId: userId === "" ? undefined : userId });
}

// ---------------------------------------------------------------- where to go after signing in

const NEXT_MAX = 2000;
const PROBE_ORIGIN = "http://studio.invalid";

/**
 * The sign-in page's `next` parameter as a path on this site, or `fallback`. Anything that could
 * leave the site (`//host`, `/\host`, `https:`, control characters) or loop back to /login is
 * refused: an open redirect would let a link sign someone in and hand them to another site.
 */
export function safeNextPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || value.length === 0 || value.length > NEXT_MAX) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || value.includes("\\") || CONTROL.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PROBE_ORIGIN) return fallback;
  if (url.pathname === "/login" || url.pathname.startsWith("/login/")) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
