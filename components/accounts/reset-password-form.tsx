"use client";
import { useRef, useState } from "react";
import { PASSWORD_MAX, PASSWORD_MIN, type PasswordResetField } from "@/lib/auth/schema";
import type { ActionResult } from "@/lib/errors/action-result";
import styles from "./accounts.module.css";
import { Field, FormMessage, useAccountForm, useFocusAfterSubmit } from "./field";

type Result = ActionResult<PasswordResetField>;
export type ResetPasswordAction = (previous: Result | null, form: FormData) => Promise<Result>;

const FIELDS: PasswordResetField[] = ["userId", "password"];

/** A new password for an account; its sessions end, so it has to sign in again. */
export function ResetPasswordForm({
  action,
  users,
}: {
  action: ResetPasswordAction;
  users: { id: number; username: string; displayName: string }[];
}) {
  const [userId, setUserId] = useState("");
  const [password, setPassword] = useState("");
  // The account stays chosen (a typo can be fixed); the password is never kept on screen.
  const { state, dispatch, pending, onSubmit } = useAccountForm(action, () => setPassword(""));
  const form = useRef<HTMLFormElement>(null);
  const message = useFocusAfterSubmit(state, form, FIELDS);
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};
  return (
    <form
      ref={form}
      action={dispatch}
      onSubmit={onSubmit}
      className={styles.form}
      data-testid="reset-password-form"
      noValidate
    >
      <Field id="reset-user" label="Account" error={errors.userId}>
        {(aria) => (
          <select
            {...aria}
            name="userId"
            value={userId}
            onChange={(e) => setUserId(e.target.value)}
            data-testid="reset-user"
          >
            <option value="">choose an account…</option>
            {users.map((user) => (
              <option key={user.id} value={user.id}>
                {user.username}
                {user.displayName !== user.username ? ` (${user.displayName})` : ""}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        id="reset-password"
        label="New password"
        error={errors.password}
        hint={`${PASSWORD_MIN} to ${PASSWORD_MAX} characters. Every session of the account ends.`}
      >
        {(aria) => (
          <input
            {...aria}
            name="password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            data-testid="reset-password"
          />
        )}
      </Field>
      <button type="submit" className={styles.submit} disabled={pending} data-testid="reset-password-submit">
        {pending ? "Resetting…" : "Reset password"}
      </button>
      <FormMessage state={state} testId="reset-password" messageRef={message} />
    </form>
  );
}
