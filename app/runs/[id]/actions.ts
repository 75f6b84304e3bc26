"use server";
import { revalidatePath } from "next/cache";
import { getAppDb } from "@/db/app-db";
import { annotationStudyActive, authorize } from "@/app/session";
import { getCaseStudy, removeCaseStudy, upsertCaseStudy } from "@/db/queries/case-studies";
import type { CaseStudyField } from "@/lib/case-studies/fields";
import { CaseStudyRunIdSchema, parseCaseStudyForm } from "@/lib/case-studies/schema";
import { runAction, type ActionResult } from "@/lib/errors/action-result";
import { AppError } from "@/lib/errors/app-error";
import { firstIssue } from "@/lib/errors/zod-issues";

/**
 * Who may flag, edit and unflag case studies: the one check both actions pass through. Everyone
 * in open mode (no annotator accounts); admins once annotators exist (viewers only read).
 */
async function authorizeCaseStudyChange(): Promise<void> {
  if (annotationStudyActive()) await authorize(["admin"]);
}

/** Server actions are public endpoints: authorize, validate, and translate errors once, here. */
async function caseStudyAction(
  form: FormData,
  change: (runId: string) => ActionResult<CaseStudyField>,
): Promise<ActionResult<CaseStudyField>> {
  return runAction("case study action", async () => {
    await authorizeCaseStudyChange();
    const runId = CaseStudyRunIdSchema.safeParse(form.get("runId"));
    if (!runId.success) throw new AppError("INVALID_INPUT", firstIssue(runId.error, "run"));
    const result = change(runId.data);
    if (result.ok) {
      revalidatePath(`/runs/${encodeURIComponent(runId.data)}`);
      revalidatePath("/case-studies");
    }
    return result;
  });
}

const field = (form: FormData, name: string) => form.get(name) ?? undefined;

/** Flags the run as a case study, or saves the edits to its case study. */
export async function saveCaseStudyAction(
  _previous: ActionResult<CaseStudyField> | null,
  form: FormData,
): Promise<ActionResult<CaseStudyField>> {
  return caseStudyAction(form, (runId) => {
    const parsed = parseCaseStudyForm({
      title: field(form, "title"),
      note: field(form, "note"),
      tags: field(form, "tags"),
    });
    if (!parsed.ok) return { ok: false, error: "Check the highlighted fields.", fieldErrors: parsed.fieldErrors };
    const db = getAppDb();
    const existed = getCaseStudy(db, runId) !== null;
    upsertCaseStudy(db, runId, parsed.value);
    return { ok: true, message: existed ? "Case study saved." : "Flagged as a case study." };
  });
}

/** Unflags the run (its title, note and tags are deleted). */
export async function removeCaseStudyAction(
  _previous: ActionResult<CaseStudyField> | null,
  form: FormData,
): Promise<ActionResult<CaseStudyField>> {
  return caseStudyAction(form, (runId) => {
    // Idempotent: unflagged in another tab meanwhile is still unflagged, and the page refreshes.
    const removed = removeCaseStudy(getAppDb(), runId);
    const message = removed ? "Unflagged: the run is no longer a case study." : "The run was no longer a case study.";
    return { ok: true, message };
  });
}
