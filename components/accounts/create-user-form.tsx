"use client";
import { useRef, useState } from "react";
import {
  DISPLAY_NAME_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  ROLES,
  USERNAME_MAX,
  type NewUserField,
  type Role,
} from "@/lib/auth/schema";
import type { ActionResult } from "@/lib/errors/action-result";
import styles from "./accounts.module.css";
import { Field, FormMessage, useAccountForm, useFocusAfterSubmit } from "./field";

type Result = ActionResult<NewUserField>;
export type CreateUserAction = (previous: Result | null, form: FormData) => Promise<Result>;

const FIELDS: NewUserField[] = ["username", "displayName", "role", "password"];
const EMPTY = { username: "", displayName: "", role: "annotator" as Role, password: "" };

/** New account: username, display name, role, initial password (the admin passes it on). */
export function CreateUserForm({ action }: { action: CreateUserAction }) {
  const [values, setValues] = useState(EMPTY);
  // A created account empties the form for the next one; a refused one keeps what was typed but the password.
  const { state, dispatch, pending, onSubmit } = useAccountForm(action, (result) =>
    setValues((current) => (result.ok ? EMPTY : { ...current, password: "" })),
  );
  const form = useRef<HTMLFormElement>(null);
  const message = useFocusAfterSubmit(state, form, FIELDS);
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};
  return (
    <form
      ref={form}
      action={dispatch}
      onSubmit={onSubmit}
      className={styles.form}
      data-testid="create-user-form"
      noValidate
    >
      <Field
        id="new-username"
        label="Username"
        error={errors.username}
        hint={`3 to ${USERNAME_MAX} of a-z, 0-9, ".", "_", "-"`}
      >
        {(aria) => (
          <input
            {...aria}
            name="username"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={USERNAME_MAX + 20}
            value={values.username}
            onChange={(e) => setValues({ ...values, username: e.target.value })}
            data-testid="new-username"
          />
        )}
      </Field>
      <Field id="new-display-name" label="Display name" error={errors.displayName} hint="Empty: the username">
        {(aria) => (
          <input
            {...aria}
            name="displayName"
            autoComplete="off"
            maxLength={DISPLAY_NAME_MAX + 20}
            value={values.displayName}
            onChange={(e) => setValues({ ...values, displayName: e.target.value })}
            data-testid="new-display-name"
          />
        )}
      </Field>
      <Field id="new-role" label="Role" error={errors.role}>
        {(aria) => (
          <select
            {...aria}
            name="role"
            value={values.role}
            onChange={(e) => setValues({ ...values, role: e.target.value as Role })}
            data-testid="new-role"
          >
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        id="new-password"
        label="Initial password"
        error={errors.password}
        hint={`${PASSWORD_MIN} to ${PASSWORD_MAX} characters; pass it on privately`}
      >
        {(aria) => (
          <input
            {...aria}
            name="password"
            type="password"
            autoComplete="new-password"
            value={values.password}
            onChange={(e) => setValues({ ...values, password: e.target.value })}
            data-testid="new-password"
          />
        )}
      </Field>
      <button type="submit" className={styles.submit} disabled={pending} data-testid="create-user-submit">
        {pending ? "Creating…" : "Create account"}
      </button>
      <FormMessage state={state} testId="create-user" messageRef={message} />
    </form>
  );
}
