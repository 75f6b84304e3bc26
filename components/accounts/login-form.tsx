"use client";
import { useRef, useState } from "react";
import type { SignInField } from "@/lib/auth/schema";
import type { ActionResult } from "@/lib/errors/action-result";
import styles from "./accounts.module.css";
import { Field, FormMessage, useAccountForm, useFocusAfterSubmit } from "./field";

type Result = ActionResult<SignInField>;
export type SignInAction = (previous: Result | null, form: FormData) => Promise<Result>;

/** Username and password; on success the action redirects to `next`. A refusal keeps the username. */
export function LoginForm({ action, next }: { action: SignInAction; next: string }) {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const { state, dispatch, pending, onSubmit } = useAccountForm(action, () => setPassword(""));
  const form = useRef<HTMLFormElement>(null);
  const message = useFocusAfterSubmit(state, form, ["username", "password"], "password");
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};
  return (
    <form ref={form} action={dispatch} onSubmit={onSubmit} className={styles.form} data-testid="login-form" noValidate>
      <input type="hidden" name="next" value={next} />
      <FormMessage state={state} testId="login" messageRef={message} />
      <Field id="login-username" label="Username" error={errors.username}>
        {(aria) => (
          <input
            {...aria}
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            autoFocus
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            data-testid="login-username"
          />
        )}
      </Field>
      <Field id="login-password" label="Password" error={errors.password}>
        {(aria) => (
          <input
            {...aria}
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            data-testid="login-password"
          />
        )}
      </Field>
      <button type="submit" className={styles.submit} disabled={pending} data-testid="login-submit">
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
