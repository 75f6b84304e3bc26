"use client";
import Link from "next/link";
import { useActionState, useEffect, useRef, useState, startTransition, type FormEvent } from "react";
import { formatStamp, galleryHref } from "@/lib/case-studies/gallery";
import { CASE_STUDY_FIELDS, type CaseStudyField, type CaseStudyFieldErrors } from "@/lib/case-studies/schema";
import type { CaseStudy } from "@/lib/case-studies/types";
import type { ActionResult } from "@/lib/errors/action-result";

type CaseStudyActionResult = ActionResult<CaseStudyField>;
import { CaseStudyFields, type CaseStudyValues } from "./case-study-form";
import { TagChips } from "./tag-chips";
import styles from "./case-studies.module.css";

export type CaseStudyAction = (
  previous: CaseStudyActionResult | null,
  form: FormData,
) => Promise<CaseStudyActionResult>;

type Mode = "view" | "edit" | "confirm";
type FocusTarget = "title" | "note" | "tags" | "notice" | "opener" | "confirm";

const valuesOf = (c: CaseStudy | null): CaseStudyValues => ({
  title: c?.title ?? "",
  note: c?.note ?? "",
  tags: c?.tags.join(", ") ?? "",
});

/**
 * The run page's case-study panel: flag the run with a title, a note and tags, edit them, or
 * unflag it (after a confirmation: the note goes with it). Everything works from the keyboard:
 * focus moves into the form when it opens, to the first bad field when the server refuses it, and
 * to the outcome message when it succeeds; Escape closes the form.
 */
export function CaseStudyPanel({
  runId,
  caseStudy,
  saveAction,
  removeAction,
}: {
  runId: string;
  caseStudy: CaseStudy | null;
  saveAction: CaseStudyAction;
  removeAction: CaseStudyAction;
}) {
  const [mode, setMode] = useState<Mode>("view");
  const [values, setValues] = useState<CaseStudyValues>(() => valuesOf(caseStudy));
  const [errors, setErrors] = useState<CaseStudyFieldErrors>({});
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const title = useRef<HTMLInputElement>(null);
  const note = useRef<HTMLTextAreaElement>(null);
  const tags = useRef<HTMLInputElement>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  // Where focus goes once the next render is on screen (the element may not exist before it).
  const focusNext = useRef<FocusTarget | null>(null);
  useEffect(() => {
    const target = focusNext.current;
    if (target === null) return;
    focusNext.current = null;
    const elements = { title, note, tags, notice: noticeRef, opener, confirm };
    elements[target].current?.focus();
  });

  // Updates after the server answers are part of the same transition, so the panel switches
  // together with the refreshed page (revalidatePath), never showing the old case study first.
  const after = (result: CaseStudyActionResult) =>
    startTransition(() => {
      setNotice(result.ok ? { ok: true, text: result.message } : { ok: false, text: result.error });
      if (result.ok) {
        setErrors({});
        setMode("view");
        focusNext.current = "notice";
      } else {
        const fieldErrors = result.fieldErrors ?? {};
        setErrors(fieldErrors);
        focusNext.current = CASE_STUDY_FIELDS.find((f) => fieldErrors[f]) ?? "notice";
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
    focusNext.current = "title";
  };
  const close = () => {
    setErrors({});
    setMode("view");
    focusNext.current = "opener";
  };
  const askToRemove = () => {
    setNotice(null);
    setMode("confirm");
    focusNext.current = "confirm";
  };
  const onEscape = (event: React.KeyboardEvent) => {
    if (event.key === "Escape" && !pending) close();
  };

  return (
    <div className={`panel ${styles.panel}`} data-testid="case-study-panel" data-flagged={caseStudy ? "true" : "false"}>
      {notice ? (
        <p
          ref={noticeRef}
          tabIndex={-1}
          className={`${notice.ok ? "ok" : "error"} ${styles.notice}`}
          role={notice.ok ? "status" : "alert"}
          data-testid={notice.ok ? "case-study-ok" : "case-study-failed"}
        >
          {notice.text}
        </p>
      ) : null}

      {mode === "edit" ? (
        <form className={styles.form} noValidate onSubmit={submitWith(save)} onKeyDown={onEscape}>
          <input type="hidden" name="runId" value={runId} />
          <CaseStudyFields
            values={values}
            errors={errors}
            titleRef={title}
            noteRef={note}
            tagsRef={tags}
            onChange={setValues}
          />
          <div className="form-actions">
            <button type="submit" disabled={pending} data-testid="case-study-save">
              {saving ? "Saving…" : caseStudy ? "Save changes" : "Flag as case study"}
            </button>
            <button type="button" onClick={close} disabled={pending}>
              Cancel
            </button>
          </div>
        </form>
      ) : caseStudy ? (
        <div className="case-study-view" data-testid="case-study-view">
          <h3 data-testid="case-study-title">{caseStudy.title}</h3>
          <TagChips tags={caseStudy.tags} />
          {caseStudy.note ? (
            <p className={styles.note} data-testid="case-study-note">
              {caseStudy.note}
            </p>
          ) : (
            <p className="muted">No note.</p>
          )}
          <p className={`muted ${styles.stamp}`}>
            Flagged {formatStamp(caseStudy.createdAt)}
            {caseStudy.updatedAt !== caseStudy.createdAt ? ` · edited ${formatStamp(caseStudy.updatedAt)}` : ""} ·{" "}
            <Link href={galleryHref()}>all case studies</Link>
          </p>
          {mode === "confirm" ? (
            <form className="form-actions confirm" onSubmit={submitWith(remove)} onKeyDown={onEscape}>
              <input type="hidden" name="runId" value={runId} />
              <span>Unflag this run? Its title, note and tags are deleted.</span>
              <button
                ref={confirm}
                type="submit"
                className="danger"
                disabled={pending}
                data-testid="case-study-confirm-unflag"
              >
                {removing ? "Unflagging…" : "Yes, unflag"}
              </button>
              <button type="button" onClick={close} disabled={pending}>
                Keep it
              </button>
            </form>
          ) : (
            <div className="form-actions">
              <button ref={opener} type="button" onClick={open} data-testid="case-study-edit">
                Edit
              </button>
              <button type="button" onClick={askToRemove} data-testid="case-study-unflag">
                Unflag
              </button>
            </div>
          )}
        </div>
      ) : (
        <div className="case-study-view">
          <p className="muted">
            Not a case study. Flag this run to keep it in the <Link href={galleryHref()}>gallery</Link> with a title, a
            note and tags.
          </p>
          <button ref={opener} type="button" onClick={open} data-testid="case-study-flag">
            Flag as case study
          </button>
        </div>
      )}
    </div>
  );
}
