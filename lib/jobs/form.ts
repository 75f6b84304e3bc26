/**
 * The Jobs page's forms (components/jobs/job-forms.tsx) into validated job parameters. A server
 * action is a public endpoint: its form is checked like any other input, and an agent file must be
 * a readable file inside the project before a job names it.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { AGENT_FILE_CHOICE } from "./agent-choice";
import { isAgentFilePath, JobParamsSchema, type JobParams } from "./schema";
import { firstIssue } from "@/lib/errors/zod-issues";

export type FormParse = { ok: true; params: JobParams } | { ok: false; error: string };

const checkbox = (form: FormData, name: string) => form.get(name) === "on";
const optional = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
};

export function jobParamsFromForm(form: FormData): FormParse {
  const kind = form.get("kind");
  const agent = optional(form, "agent");
  const raw =
    kind === "ablation"
      ? {
          kind,
          benchmark: optional(form, "benchmark"),
          agent,
          arms: form.getAll("arms").filter((arm) => typeof arm === "string"),
          provider: optional(form, "provider"),
          mock: checkbox(form, "mock"),
          split: optional(form, "split"),
          subtask: optional(form, "subtask"),
          perSubtask: optional(form, "perSubtask"),
          limit: optional(form, "limit"),
        }
      : kind === "run-agents"
        ? {
            kind,
            benchmark: optional(form, "benchmark"),
            agent: agent === AGENT_FILE_CHOICE ? optional(form, "agentFile") : agent,
            provider: optional(form, "provider"),
            mitigation: optional(form, "mitigation"),
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
  if (parsed.success) return { ok: true, params: parsed.data };
  return { ok: false, error: firstIssue(parsed.error, "form") };
}

/** Why the agent file cannot be used (null when it can): missing, not a file, or a link out of the project. */
export async function agentFileProblem(projectRoot: string, file: string): Promise<string | null> {
  if (!isAgentFilePath(file)) return `agent: ${file} is not an agent file inside the project`;
  const root = await fs.realpath(projectRoot);
  const real = await fs.realpath(path.join(root, file)).catch(() => null);
  if (!real) return `agent: ${file} does not exist`;
  if (!real.startsWith(`${root}${path.sep}`)) return `agent: ${file} leads out of the project`;
  const stat = await fs.stat(real);
  return stat.isFile() ? null : `agent: ${file} is not a file`;
}
