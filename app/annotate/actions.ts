"use server";
import { z } from "zod";
import { getAppDb } from "@/db/app-db";
import { saveLabel, submitItem } from "@/db/queries/agreement-labels";
import { authorize } from "@/app/session";
import { HumanLabelSchema, RATIONALE_MAX } from "@/lib/agreement/study-schema";
import { parseInput } from "@/lib/agreement/validate";
import { runAction } from "@/lib/errors/action-result";
import { MetricIdSchema } from "@/lib/metrics/schema";
import type { LabelActionResult } from "@/lib/agreement/study-types";

const ItemSchema = z.strictObject({
  setId: z.number().int().positive(),
  runId: z.string().min(1).max(300),
});
const SaveSchema = ItemSchema.extend({
  metric: MetricIdSchema,
  value: HumanLabelSchema,
  note: z.string().max(RATIONALE_MAX),
});

/**
 * The labeling workspace's two actions. Server actions are public endpoints: each checks the
 * signed-in account, validates its input, and the queries refuse items not assigned to the caller.
 */
async function labelAction(run: (userId: number) => LabelActionResult): Promise<LabelActionResult> {
  return runAction("label action", async () => run((await authorize(["annotator", "admin"])).id));
}

/** Autosave of one metric's label and rationale. */
export async function saveLabelAction(input: unknown): Promise<LabelActionResult> {
  return labelAction((userId) => {
    const parsed = parseInput(SaveSchema, input, "label");
    saveLabel(
      getAppDb(),
      { setId: parsed.setId, runId: parsed.runId, userId },
      {
        metric: parsed.metric,
        value: parsed.value,
        note: parsed.note,
      },
    );
    return { ok: true };
  });
}

/** Submits the item: its labels become final and, if the set allows, the judges are revealed. */
export async function submitItemAction(input: unknown): Promise<LabelActionResult> {
  return labelAction((userId) => {
    const parsed = parseInput(ItemSchema, input, "submit");
    const result = submitItem(getAppDb(), { ...parsed, userId });
    return { ok: true, nextRunId: result.nextRunId };
  });
}
