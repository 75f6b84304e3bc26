"use client";
import {
  startTransition,
  useActionState,
  useEffect,
  useRef,
  type FormEvent,
  type ReactNode,
  type RefObject,
} from "react";
import type { ActionResult } from "@/lib/errors/action-result";
import styles from "./accounts.module.css";

/**
 * A labelled input whose server message sits right under it and is tied to it (aria-invalid,
 * aria-describedby). Forms validate on the server (the action is the boundary): no native
 * `required`, so every message looks and reads the same.
 */
export function Field({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  children: (aria: { id: string; "aria-invalid"?: true; "aria-describedby"?: string }) => ReactNode;
}) {
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      {children({ id, "aria-invalid": error ? true : undefined, "aria-describedby": described || undefined })}
      {hint ? (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className={styles.fieldError} data-testid={`${id}-error`}>
          {capitalize(error)}
        </p>
      ) : null}
    </div>
  );
}

/** Messages come without their field ("at least 12 characters"); under a label they start a sentence. */
const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The outcome of the last submit: announced, and focused when it is the only thing to look at. */
export function FormMessage({
  state,
  testId,
  messageRef,
}: {
  state: ActionResult<string> | null;
  testId: string;
  messageRef?: RefObject<HTMLParagraphElement | null>;
}) {
  if (!state) return null;
  return (
    <p
      ref={messageRef}
      tabIndex={-1}
      role={state.ok ? "status" : "alert"}
      className={`${styles.message} ${state.ok ? styles.messageOk : styles.messageError}`}
      data-testid={state.ok ? `${testId}-ok` : `${testId}-error`}
    >
      {state.ok ? state.message : state.error}
    </p>
  );
}

/**
 * After the server answers: focus the first field it refused (or `retryField` when it refused the
 * whole form), else the message. So a keyboard user lands where the problem is.
 */
export function useFocusAfterSubmit(
  state: ActionResult<string> | null,
  form: RefObject<HTMLFormElement | null>,
  fields: readonly string[],
  retryField?: string,
): RefObject<HTMLParagraphElement | null> {
  const message = useRef<HTMLParagraphElement | null>(null);
  useEffect(() => {
    if (!state) return;
    const bad = state.ok ? undefined : (fields.find((f) => state.fieldErrors?.[f]) ?? retryField);
    const element = bad ? form.current?.elements.namedItem(bad) : null;
    if (element instanceof HTMLElement) element.focus();
    else message.current?.focus();
    // Only a new answer moves focus: `fields` is a constant list.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state]);
  return message;
}

/**
 * useActionState for the account forms, submitted from onSubmit rather than by the form's action:
 * React resets a form after its action, and a reset puts a controlled <select> back on its first
 * option on screen while its state keeps the old value (the role shown would not be the role
 * sent). `action` stays on the form for a browser without JavaScript. `onAnswer` runs with each
 * answer, in the same transition (clear the password, empty the form after success).
 */
export function useAccountForm<R extends ActionResult<string>>(
  action: (previous: R | null, form: FormData) => Promise<R>,
  onAnswer: (result: R) => void,
) {
  const [state, dispatch, pending] = useActionState<R | null, FormData>(async (previous, data) => {
    const result = await action(previous, data);
    onAnswer(result);
    return result;
  }, null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    startTransition(() => dispatch(data));
  };
  return { state, dispatch, pending, onSubmit };
}
