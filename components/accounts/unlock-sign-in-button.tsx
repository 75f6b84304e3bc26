"use client";
import { useActionState } from "react";
import type { ActionResult } from "@/lib/errors/action-result";
import styles from "./accounts.module.css";

export type UnlockSignInAction = (
  previous: ActionResult<string> | null,
  form: FormData,
) => Promise<ActionResult<string>>;

/** An admin forgets an account's failed sign-ins: its backoff ends at once. */
export function UnlockSignInButton({ action, userId }: { action: UnlockSignInAction; userId: number }) {
  const [state, dispatch, pending] = useActionState(action, null);
  return (
    <form action={dispatch} className={styles.inlineForm}>
      <input type="hidden" name="userId" value={userId} />
      <button type="submit" className="link-button" disabled={pending} data-testid="unlock-sign-in">
        {pending ? "Unlocking…" : "Unlock"}
      </button>
      {state && !state.ok ? (
        <span role="alert" className={styles.messageError} data-testid="unlock-sign-in-error">
          {state.error}
        </span>
      ) : null}
    </form>
  );
}
