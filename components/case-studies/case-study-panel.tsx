"use client";
import Link from "next/link";
import { useRef } from "react";
import { formatStamp, galleryHref } from "@/lib/case-studies/gallery";
import type { CaseStudy } from "@/lib/case-studies/types";
import styles from "./case-studies.module.css";
import { CaseStudyFields } from "./case-study-form";
import { TagChips } from "./tag-chips";
import { useCaseStudyPanel, type CaseStudyAction, type FocusRefs } from "./use-case-study-panel";

type Panel = ReturnType<typeof useCaseStudyPanel>;
type ActionRefs = { openerRef: FocusRefs["opener"]; confirmRef: FocusRefs["confirm"] };

function EditForm(props: { runId: string; caseStudy: CaseStudy | null; panel: Panel; refs: FocusRefs }) {
  const { runId, caseStudy, panel } = props;
  const { pending } = panel;
  return (
    <form className={styles.form} noValidate onSubmit={panel.onSave} onKeyDown={panel.onEscape}>
      <input type="hidden" name="runId" value={runId} />
      <CaseStudyFields
        values={panel.values}
        errors={panel.errors}
        titleRef={props.refs.title}
        noteRef={props.refs.note}
        tagsRef={props.refs.tags}
        onChange={panel.setValues}
      />
      <div className="form-actions">
        <button type="submit" disabled={pending} data-testid="case-study-save">
          {panel.saving ? "Saving…" : caseStudy ? "Save changes" : "Flag as case study"}
        </button>
        <button type="button" onClick={panel.close} disabled={pending}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Edit and Unflag, or the confirmation that unflagging deletes the note. */
function FlaggedActions({ runId, panel, openerRef, confirmRef }: { runId: string; panel: Panel } & ActionRefs) {
  const { pending } = panel;
  if (panel.mode !== "confirm")
    return (
      <div className="form-actions">
        <button ref={openerRef} type="button" onClick={panel.open} data-testid="case-study-edit">
          Edit
        </button>
        <button type="button" onClick={panel.askToRemove} data-testid="case-study-unflag">
          Unflag
        </button>
      </div>
    );
  return (
    <form className="form-actions confirm" onSubmit={panel.onRemove} onKeyDown={panel.onEscape}>
      <input type="hidden" name="runId" value={runId} />
      <span>Unflag this run? Its title, note and tags are deleted.</span>
      <button
        ref={confirmRef}
        type="submit"
        className="danger"
        disabled={pending}
        data-testid="case-study-confirm-unflag"
      >
        {panel.removing ? "Unflagging…" : "Yes, unflag"}
      </button>
      <button type="button" onClick={panel.close} disabled={pending}>
        Keep it
      </button>
    </form>
  );
}

function FlaggedView({ caseStudy, ...actions }: { runId: string; caseStudy: CaseStudy; panel: Panel } & ActionRefs) {
  return (
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
      <FlaggedActions {...actions} />
    </div>
  );
}

function NotFlagged({ panel, openerRef }: { panel: Panel; openerRef: ActionRefs["openerRef"] }) {
  return (
    <div className="case-study-view">
      <p className="muted">
        Not a case study. Flag this run to keep it in the <Link href={galleryHref()}>gallery</Link> with a title, a note
        and tags.
      </p>
      <button ref={openerRef} type="button" onClick={panel.open} data-testid="case-study-flag">
        Flag as case study
      </button>
    </div>
  );
}

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
  const titleRef = useRef<HTMLInputElement>(null);
  const noteRef = useRef<HTMLTextAreaElement>(null);
  const tagsRef = useRef<HTMLInputElement>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const openerRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const refs = {
    title: titleRef,
    note: noteRef,
    tags: tagsRef,
    notice: noticeRef,
    opener: openerRef,
    confirm: confirmRef,
  };
  const panel = useCaseStudyPanel(caseStudy, saveAction, removeAction, refs);
  const { notice, mode } = panel;
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
        <EditForm runId={runId} caseStudy={caseStudy} panel={panel} refs={refs} />
      ) : caseStudy ? (
        <FlaggedView runId={runId} caseStudy={caseStudy} panel={panel} openerRef={openerRef} confirmRef={confirmRef} />
      ) : (
        <NotFlagged panel={panel} openerRef={openerRef} />
      )}
    </div>
  );
}
