"use server";
import { redirect } from "next/navigation";
import { parseSignInForm, safeNextPath, type SignInField } from "@/lib/auth/schema";
import { actionFailure, type ActionResult } from "@/lib/errors/action-result";
import { signInWithPassword, signOut } from "../session";

/** The one refusal for an unknown username and a wrong password alike: it tells an attacker nothing. */
const WRONG = "Wrong username or password.";

/** Signs in and goes to `next` (a path on this site; anything else goes home). */
export async function signInAction(
  _previous: ActionResult<SignInField> | null,
  form: FormData,
): Promise<ActionResult<SignInField>> {
  const parsed = parseSignInForm({ username: form.get("username"), password: form.get("password") });
  if (!parsed.ok) return { ok: false, error: "Enter your username and password.", fieldErrors: parsed.fieldErrors };
  let outcome: Awaited<ReturnType<typeof signInWithPassword>>;
  try {
    outcome = await signInWithPassword(parsed.value.username, parsed.value.password);
  } catch (error) {
    return actionFailure("sign-in", error);
  }
  if (!outcome.ok) {
    if (outcome.reason === "throttled") {
      // The backoff is seconds long (1 s doubling to 60 s), never a lock-out: say how many.
      const seconds = Math.max(1, Math.ceil((outcome.retryAfterMs ?? 0) / 1000));
      return {
        ok: false,
        error: `Too many failed sign-ins. Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`,
      };
    }
    return { ok: false, error: WRONG };
  }
  // Outside the try: redirect() works by throwing.
  redirect(safeNextPath(form.get("next")));
}

export async function signOutAction(): Promise<void> {
  await signOut();
  redirect("/login?signed_out=1");
}
