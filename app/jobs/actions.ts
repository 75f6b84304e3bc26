"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getAppDb } from "@/db/app-db";
import { enqueueJob, requestCancel } from "@/db/queries/jobs";
import type { ActionResult } from "@/components/jobs/job-forms";
import { JobParamsSchema } from "@/lib/jobs/schema";

const checkbox = (form: FormData, name: string) => form.get(name) === "on";
const optional = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
};

/** Server actions are public endpoints: the form is validated like any other input. */
export async function enqueueJobAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const kind = form.get("kind");
  const raw =
    kind === "run-agents"
      ? {
          kind,
          benchmark: optional(form, "benchmark"),
          agent: optional(form, "agent"),
          provider: optional(form, "provider"),
          mock: checkbox(form, "mock"),
          split: optional(form, "split"),
          subtask: optional(form, "subtask"),
          perSubtask: optional(form, "perSubtask"),
          limit: optional(form, "limit"),
        }
      : {
          kind,
          judge: optional(form, "judge"),
          mock: checkbox(form, "mock"),
          runs: optional(form, "runs"),
          force: checkbox(form, "force"),
        };
  const parsed = JobParamsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: `${issue?.path.join(".") || "form"}: ${issue?.message ?? "invalid"}` };
  }
  const id = enqueueJob(getAppDb(), parsed.data);
  revalidatePath("/jobs");
  return { ok: true, message: `job ${id} queued` };
}

export async function cancelJobAction(form: FormData): Promise<void> {
  const id = z.coerce.number().int().positive().safeParse(form.get("id"));
  if (!id.success) return;
  requestCancel(getAppDb(), id.data);
  revalidatePath("/jobs");
}
