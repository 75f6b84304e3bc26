"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getAppDb } from "@/db/app-db";
import { enqueueJob, requestCancel } from "@/db/queries/jobs";
import { runAction, type ActionResult } from "@/lib/errors/action-result";
import { agentFileProblem, jobParamsFromForm } from "@/lib/jobs/form";
import { isAgentFilePath } from "@/lib/jobs/schema";
import { loadEnv } from "@/lib/config/env";
import { availableJudges, findJudge } from "@/lib/judge/llm/judge-definitions";
import { authorize } from "../session";

/**
 * Server actions are public endpoints: admins only (a job runs agents and commands on this
 * machine), and the form is validated like any other input (lib/jobs/form.ts).
 */
export async function enqueueJobAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  return runAction("job action", async () => {
    await authorize(["admin"]);
    const parsed = jobParamsFromForm(form);
    if (!parsed.ok) return parsed;
    const { params } = parsed;
    if ((params.kind === "run-agents" || params.kind === "ablation") && isAgentFilePath(params.agent)) {
      // The worker runs in the project folder, as this server does.
      const problem = await agentFileProblem(process.cwd(), params.agent);
      if (problem) return { ok: false, error: problem };
    }
    if (params.kind === "evaluate" && params.judge !== "rule") {
      // The worker reads the same environment and judges file as this server.
      const env = loadEnv();
      findJudge(availableJudges({ file: env.STUDIO_JUDGES, geminiModel: env.STUDIO_JUDGE_MODEL }), params.judge);
    }
    const id = enqueueJob(getAppDb(), params);
    revalidatePath("/jobs");
    return { ok: true, message: `job ${id} queued` };
  });
}

/** Admins only; anyone else gets an error (the page shows them no Cancel button). */
export async function cancelJobAction(form: FormData): Promise<void> {
  await authorize(["admin"]);
  const id = z.coerce.number().int().positive().safeParse(form.get("id"));
  if (!id.success) return;
  requestCancel(getAppDb(), id.data);
  revalidatePath("/jobs");
}
