"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getAppDb } from "@/db/app-db";
import { createUser, getUser, setPassword } from "@/db/queries/users";
import { hashPassword } from "@/lib/auth/password";
import {
  parseNewUserForm,
  parsePasswordResetForm,
  parseUnlockForm,
  type NewUserField,
  type PasswordResetField,
} from "@/lib/auth/schema";
import { runAction, type ActionResult } from "@/lib/errors/action-result";
import { AppError, isAppError } from "@/lib/errors/app-error";
import { loginThrottle } from "../../login-throttle";
import { authorize, type SessionUser } from "../../session";

const CHECK_FIELDS = "Check the highlighted fields.";

/** Server actions are public endpoints: admins only, every field validated, errors translated once, here. */
async function adminAction<F extends string>(
  run: (me: SessionUser) => Promise<ActionResult<F>>,
): Promise<ActionResult<F>> {
  return runAction("accounts action", async () => run(await authorize(["admin"])));
}

/** Creates an account with a role and an initial password (there is no sign-up). */
export async function createUserAction(
  _previous: ActionResult<NewUserField> | null,
  form: FormData,
): Promise<ActionResult<NewUserField>> {
  return adminAction(async () => {
    const parsed = parseNewUserForm({
      username: form.get("username"),
      displayName: form.get("displayName"),
      role: form.get("role"),
      password: form.get("password"),
    });
    if (!parsed.ok) return { ok: false, error: CHECK_FIELDS, fieldErrors: parsed.fieldErrors };
    const { password, ...user } = parsed.value;
    const passwordHash = await hashPassword(password);
    try {
      createUser(getAppDb(), { ...user, passwordHash });
    } catch (error) {
      if (isAppError(error, "CONFLICT"))
        return {
          ok: false,
          error: CHECK_FIELDS,
          fieldErrors: { username: `username ${user.username} is already taken` },
        };
      throw error;
    }
    revalidatePath("/admin/users");
    return { ok: true, message: `Account ${user.username} (${user.role}) created.` };
  });
}

/**
 * Sets a new password and ends every session of that account. Resetting one's own password ends
 * this session too, so it goes to the sign-in page.
 */
export async function resetPasswordAction(
  _previous: ActionResult<PasswordResetField> | null,
  form: FormData,
): Promise<ActionResult<PasswordResetField>> {
  let signedOutSelf = false;
  const result = await adminAction<PasswordResetField>(async (me) => {
    const parsed = parsePasswordResetForm({ userId: form.get("userId"), password: form.get("password") });
    if (!parsed.ok) return { ok: false, error: CHECK_FIELDS, fieldErrors: parsed.fieldErrors };
    const db = getAppDb();
    const user = getUser(db, parsed.value.userId);
    if (!user) throw new AppError("NOT_FOUND", "That account no longer exists.");
    const { endedSessions } = setPassword(db, user.id, await hashPassword(parsed.value.password));
    signedOutSelf = user.id === me.id;
    revalidatePath("/admin/users");
    const ended = endedSessions === 1 ? "1 session" : `${endedSessions} sessions`;
    return { ok: true, message: `Password of ${user.username} reset; ${ended} ended.` };
  });
  // Outside the try: redirect() works by throwing.
  if (signedOutSelf) redirect("/login?next=%2Fadmin%2Fusers");
  return result;
}

/** Forgets an account's failed sign-ins (the throttle is in this server's memory): its backoff ends now. */
export async function unlockSignInAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  return adminAction(async () => {
    const parsed = parseUnlockForm({ userId: form.get("userId") });
    if (!parsed.ok) return { ok: false, error: parsed.fieldErrors.userId ?? CHECK_FIELDS };
    const user = getUser(getAppDb(), parsed.value.userId);
    if (!user) throw new AppError("NOT_FOUND", "That account no longer exists.");
    const unlocked = loginThrottle().unlock(user.username);
    revalidatePath("/admin/users");
    return {
      ok: true,
      message: unlocked ? `Sign-in of ${user.username} unlocked.` : `${user.username} had no failed sign-ins.`,
    };
  });
}
