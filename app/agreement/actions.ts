"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getAppDb } from "@/db/app-db";
import { createAgreementSet } from "@/db/queries/agreement-sets";
import { removeAdjudication, saveAdjudication } from "@/db/queries/agreement-report";
import { authorize } from "@/app/session";
import { STRATUM_FIELDS } from "@/lib/agreement/study-schema";
import { parseInput } from "@/lib/agreement/validate";
import { runAction, type ActionResult } from "@/lib/errors/action-result";
import { MetricIdSchema } from "@/lib/metrics/schema";

async function adminAction(run: (userId: number) => ActionResult): Promise<ActionResult> {
  return runAction("agreement action", async () => run((await authorize(["admin"])).id));
}

const numberField = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" && value.trim() !== "" ? Number(value) : undefined;
};

/** The "new agreement set" form: the domain schema validates it (messages name the field). */
export async function createSetAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  return adminAction((userId) => {
    const benchmark = form.get("benchmarkId");
    const set = createAgreementSet(
      getAppDb(),
      {
        name: String(form.get("name") ?? ""),
        seed: numberField(form, "seed") ?? Number.NaN,
        size: numberField(form, "size"),
        strata: STRATUM_FIELDS.filter((f) => form.get(`stratum-${f}`) === "on"),
        annotatorsPerItem: numberField(form, "annotatorsPerItem"),
        revealAfterSubmit: form.get("revealAfterSubmit") === "on",
        annotatorIds: form.getAll("annotatorIds").map(Number),
        benchmarkId: typeof benchmark === "string" && benchmark !== "" ? benchmark : undefined,
        judgeIds: form.getAll("judgeIds").map(Number),
        includeSynthetic: form.get("includeSynthetic") === "on",
      },
      userId,
    );
    revalidatePath("/agreement");
    return { ok: true, message: `Created "${set.name}" with ${set.size} items.` };
  });
}

const AdjudicateSchema = z.strictObject({
  setId: z.number().int().positive(),
  runId: z.string().min(1).max(300),
  metric: MetricIdSchema,
  value: z.enum(["violated", "not_violated", "clear"]),
  note: z.string().max(4000).default(""),
});

/** Records (or clears) an admin's final label for an item and metric. */
export async function adjudicateAction(input: unknown): Promise<ActionResult> {
  return adminAction((userId) => {
    const a = parseInput(AdjudicateSchema, input, "adjudication");
    if (a.value === "clear") removeAdjudication(getAppDb(), a.setId, a.runId, a.metric);
    else
      saveAdjudication(
        getAppDb(),
        { setId: a.setId, runId: a.runId, userId },
        { metric: a.metric, value: a.value, note: a.note },
      );
    revalidatePath(`/agreement/${a.setId}`);
    return { ok: true, message: "saved" };
  });
}
