"use client";
import {
  useActionState,
  useEffect,
  useRef,
  useState,
  startTransition,
  type FormEvent,
  type KeyboardEvent,
  type RefObject,
} from "react";
import { CASE_STUDY_FIELDS, type CaseStudyField, type CaseStudyFieldErrors } from "@/lib/case-studies/fields";
import type { CaseStudy } from "@/lib/case-studies/types";
import type { ActionResult } from "@/lib/errors/action-result";
import type { CaseStudyValues } from "./case-study-form";

export type CaseStudyActionResult = ActionResult<CaseStudyField>;
export type CaseStudyAction = (
  previous: CaseStudyActionResult | null,
  form: FormData,
) => Promise<CaseStudyActionResult>;

type Mode = "view" | "edit" | "confirm";

const valuesOf = (c: CaseStudy | null): CaseStudyValues => ({
  title: c?.title ?? "",
  note: c?.note ?? "",
  tags: c?.tags.join(", ") ?? "",
});

/** The elements focus may move to, by name. */
export type FocusRefs = {
  title: RefObject<HTMLInputElement | null>;
  note: RefObject<HTMLTextAreaElement | null>;
  tags: RefObject<HTMLInputElement | null>;
  notice: RefObject<HTMLParagraphElement | null>;
  opener: RefObject<HTMLButtonElement | null>;
  confirm: RefObject<HTMLButtonElement | null>;
};

/** Focus moves once the next render is on screen (the element may not exist before it). */
function usePendingFocus(refs: FocusRefs): (target: keyof FocusRefs) => void {
  const focusNext = useRef<keyof FocusRefs | null>(null);
  useEffect(() => {
    const target = focusNext.current;
    if (target === null) return;
    focusNext.current = null;
    refs[target].current?.focus();
  });
  return (target) => {
    focusNext.current = target;
  };
}

/** The panel's mode (view, edit, confirm unflag), form values, field errors, outcome and focus. */
export function useCaseStudyPanel(
  caseStudy: CaseStudy | null,
  saveAction: CaseStudyAction,
  removeAction: CaseStudyAction,
  refs: FocusRefs,
) {
  const [mode, setMode] = useState<Mode>("view");
  const [values, setValues] = useState<CaseStudyValues>(() => valuesOf(caseStudy));
  const [errors, setErrors] = useState<CaseStudyFieldErrors>({});
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const focusAfterRender = usePendingFocus(refs);

  // Updates after the server answers are part of the same transition, so the panel switches
  // together with the refreshed page (revalidatePath), never showing the old case study first.
  const after = (result: CaseStudyActionResult) =>
    startTransition(() => {
      setNotice(result.ok ? { ok: true, text: result.message } : { ok: false, text: result.error });
      if (result.ok) {
        setErrors({});
        setMode("view");
        focusAfterRender("notice");
      } else {
        const fieldErrors = result.fieldErrors ?? {};
        setErrors(fieldErrors);
        focusAfterRender(CASE_STUDY_FIELDS.find((f) => fieldErrors[f]) ?? "notice");
      }
    });
  const [, save, saving] = useActionState<CaseStudyActionResult | null, FormData>(async (previous, form) => {
    const result = await saveAction(previous, form);
    after(result);
    return result;
  }, null);
  const [, remove, removing] = useActionState<CaseStudyActionResult | null, FormData>(async (previous, form) => {
    const result = await removeAction(previous, form);
    after(result);
    return result;
  }, null);
  const pending = saving || removing;

  // Submitted by hand rather than through <form action>: React would reset the form after the
  // action, and a refused form must keep what was typed.
  const submitWith = (action: (form: FormData) => void) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    startTransition(() => action(form));
  };
  const open = () => {
    setValues(valuesOf(caseStudy));
    setErrors({});
    setNotice(null);
    setMode("edit");
    focusAfterRender("title");
  };
  const close = () => {
    setErrors({});
    setMode("view");
    focusAfterRender("opener");
  };
  const askToRemove = () => {
    setNotice(null);
    setMode("confirm");
    focusAfterRender("confirm");
  };
  const onEscape = (event: KeyboardEvent) => {
    if (event.key === "Escape" && !pending) close();
  };
  const onSave = submitWith(save);
  const onRemove = submitWith(remove);
  return {
    ...{ mode, values, setValues, errors, notice, saving, removing, pending },
    ...{ open, close, askToRemove, onEscape, onSave, onRemove },
  };
}
