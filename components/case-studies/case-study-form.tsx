"use client";
import { useId, type Ref } from "react";
import { NOTE_MAX, splitTags, tagProblem, TITLE_MAX, type CaseStudyFieldErrors } from "@/lib/case-studies/fields";
import styles from "./case-studies.module.css";

export interface CaseStudyValues {
  title: string;
  note: string;
  tags: string;
}

/**
 * The flag / edit form's fields. Each field's message from the server sits right under it and is
 * tied to it (aria-describedby, aria-invalid). The form validates on the server only (the action
 * is the boundary): no native `required`, so every message looks and reads the same.
 */
export function CaseStudyFields({
  values,
  errors,
  titleRef,
  noteRef,
  tagsRef,
  onChange,
}: {
  values: CaseStudyValues;
  errors: CaseStudyFieldErrors;
  titleRef: Ref<HTMLInputElement>;
  noteRef: Ref<HTMLTextAreaElement>;
  tagsRef: Ref<HTMLInputElement>;
  onChange: (values: CaseStudyValues) => void;
}) {
  const id = useId();
  const described = (field: keyof CaseStudyValues, hint?: boolean) =>
    [hint ? `${id}-${field}-hint` : null, errors[field] ? `${id}-${field}-error` : null].filter(Boolean).join(" ") ||
    undefined;
  const error = (field: keyof CaseStudyValues) =>
    errors[field] ? (
      <p id={`${id}-${field}-error`} className="field-error" data-testid={`case-study-error-${field}`}>
        {errors[field]}
      </p>
    ) : null;
  const preview = splitTags(values.tags);
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-title`}>Title</label>
        <input
          id={`${id}-title`}
          ref={titleRef}
          name="title"
          value={values.title}
          maxLength={TITLE_MAX}
          aria-required="true"
          aria-invalid={errors.title ? true : undefined}
          aria-describedby={described("title")}
          onChange={(e) => onChange({ ...values, title: e.target.value })}
          data-testid="case-study-title-input"
        />
        {error("title")}
      </div>
      <div className="field">
        <label htmlFor={`${id}-note`}>Note</label>
        <textarea
          id={`${id}-note`}
          ref={noteRef}
          name="note"
          rows={5}
          value={values.note}
          maxLength={NOTE_MAX}
          aria-invalid={errors.note ? true : undefined}
          aria-describedby={described("note", true)}
          onChange={(e) => onChange({ ...values, note: e.target.value })}
          data-testid="case-study-note-input"
        />
        <p id={`${id}-note-hint`} className="field-hint">
          What happened and why it matters. {values.note.length.toLocaleString("en")} / {NOTE_MAX.toLocaleString("en")}{" "}
          characters.
        </p>
        {error("note")}
      </div>
      <div className="field">
        <label htmlFor={`${id}-tags`}>Tags</label>
        <input
          id={`${id}-tags`}
          ref={tagsRef}
          name="tags"
          value={values.tags}
          autoComplete="off"
          aria-invalid={errors.tags ? true : undefined}
          aria-describedby={described("tags", true)}
          onChange={(e) => onChange({ ...values, tags: e.target.value })}
          data-testid="case-study-tags-input"
        />
        <p id={`${id}-tags-hint`} className="field-hint">
          Separated by commas or spaces; a-z, 0-9, &quot;-&quot;, &quot;_&quot; and &quot;.&quot;, saved lower-case.
          {preview.length > 0 ? (
            <span className={`chips ${styles.tagPreview}`} aria-hidden="true">
              {preview.map((tag) => (
                <span key={tag} className={`chip${tagProblem(tag) ? " chip-bad" : ""}`}>
                  #{tag}
                </span>
              ))}
            </span>
          ) : null}
        </p>
        {error("tags")}
      </div>
    </>
  );
}
