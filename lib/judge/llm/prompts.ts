/**
 * Versioned judge prompts: `prompts/<metric>.v<n>.md`, one file per version, never edited once
 * used (any change is a new version file, and PROMPT_VERSION moves to it; docs/judge-prompts.md).
 * A file is a front-matter header (id, metric, version), a `<!-- system -->` section (the system
 * instruction: definition, rules, output contract) and a `<!-- user -->` section (the template
 * with `{{placeholder}}`s the run is rendered into).
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { AppError } from "@/lib/errors/app-error";
import { LlmJudgedMetricSchema, type LlmJudgedMetric } from "./schema";
import { allIssues } from "@/lib/errors/zod-issues";

/** The prompt version each metric is judged with now. */
export const PROMPT_VERSION: Record<LlmJudgedMetric, string> = {
  file_read: "file_read.v3",
  environment_integrity: "environment_integrity.v3",
  resource_exhaustion: "resource_exhaustion.v3",
  instruction_following: "instruction_following.v3",
};

/** Every placeholder a user template must use (each exactly once): the whole run, rendered. */
export const REQUIRED_PLACEHOLDERS = [
  "subtask",
  "task_prompt",
  "boundary_contract",
  "ground_truth",
  "run_outcome",
  "trajectory",
  "changed_files",
  "environment_diff",
  "final_answer",
] as const;

/**
 * Placeholders a user template may use (each at most once): evidence one metric's prompt needs and
 * the others would only pay for (Instruction Following's since instruction_following.v3).
 */
export const OPTIONAL_PLACEHOLDERS = ["reference_body", "effects_ledger", "rule_checks", "target_diff"] as const;

export const PLACEHOLDERS = [...REQUIRED_PLACEHOLDERS, ...OPTIONAL_PLACEHOLDERS] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

export interface JudgePrompt {
  id: string;
  metric: LlmJudgedMetric;
  version: number;
  /** `<metric>.v<version>`, equal to the file name without `.md`. */
  promptVersion: string;
  system: string;
  /** The user template, with placeholders. */
  user: string;
  /** sha256 of the file's bytes. */
  sha256: string;
}

const HeaderSchema = z
  .object({
    id: z.string().regex(/^judge\.[a-z_]+$/),
    metric: LlmJudgedMetricSchema,
    version: z.coerce.number().int().positive(),
  })
  .strict();

const PLACEHOLDER_PATTERN = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const SYSTEM_MARKER = "<!-- system -->";
const USER_MARKER = "<!-- user -->";

function invalid(fileName: string, message: string): AppError {
  return new AppError("INTERNAL", `judge prompt ${fileName}: ${message}`);
}

/** Parses and checks one prompt file; `fileName` is its base name (`file_read.v1.md`). */
export function parsePromptFile(text: string, fileName: string): JudgePrompt {
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text.replace(/\r\n/g, "\n"));
  if (!match) throw invalid(fileName, "missing the --- header ---");
  const fields: Record<string, string> = {};
  for (const line of (match[1] ?? "").split("\n")) {
    if (line.trim() === "") continue;
    const colon = line.indexOf(":");
    if (colon < 0) throw invalid(fileName, `header line without a colon: ${line}`);
    fields[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  const header = HeaderSchema.safeParse(fields);
  if (!header.success) throw invalid(fileName, `bad header: ${allIssues(header.error)}`);
  const { id, metric, version } = header.data;
  const promptVersion = `${metric}.v${version}`;
  if (fileName !== `${promptVersion}.md`) throw invalid(fileName, `header says ${promptVersion}, file name disagrees`);
  if (id !== `judge.${metric}`) throw invalid(fileName, `id ${id} does not name metric ${metric}`);

  const body = match[2] ?? "";
  const systemAt = body.indexOf(SYSTEM_MARKER);
  const userAt = body.indexOf(USER_MARKER);
  if (
    systemAt < 0 ||
    userAt < systemAt ||
    body.indexOf(SYSTEM_MARKER, systemAt + 1) >= 0 ||
    body.indexOf(USER_MARKER, userAt + 1) >= 0
  ) {
    throw invalid(fileName, `needs one ${SYSTEM_MARKER} section followed by one ${USER_MARKER} section`);
  }
  const system = body.slice(systemAt + SYSTEM_MARKER.length, userAt).trim();
  const user = body.slice(userAt + USER_MARKER.length).trim();
  if ([...system.matchAll(PLACEHOLDER_PATTERN)].length > 0)
    throw invalid(fileName, "the system section takes no placeholders");

  const used = [...user.matchAll(PLACEHOLDER_PATTERN)].map((m) => m[1] ?? "");
  const unknown = used.filter((name) => !(PLACEHOLDERS as readonly string[]).includes(name));
  if (unknown.length > 0) throw invalid(fileName, `unknown placeholder(s): ${unknown.join(", ")}`);
  for (const name of PLACEHOLDERS) {
    const count = used.filter((u) => u === name).length;
    const optional = (OPTIONAL_PLACEHOLDERS as readonly string[]).includes(name);
    if (count > 1 || (count === 0 && !optional))
      throw invalid(
        fileName,
        `placeholder {{${name}}} used ${count} times (expected once${optional ? " at most" : ""})`,
      );
  }
  return {
    id,
    metric,
    version,
    promptVersion,
    system,
    user,
    sha256: createHash("sha256").update(text).digest("hex"),
  };
}

const loaded = new Map<string, Promise<JudgePrompt>>();

/** Loads a prompt version (default: the current one of the metric); read once per process. */
export function loadPrompt(
  metric: LlmJudgedMetric,
  promptVersion: string = PROMPT_VERSION[metric],
): Promise<JudgePrompt> {
  if (!/^[a-z_]+\.v\d+$/.test(promptVersion) || !promptVersion.startsWith(`${metric}.`)) {
    return Promise.reject(new AppError("INVALID_INPUT", `not a prompt version of ${metric}: ${promptVersion}`));
  }
  let promise = loaded.get(promptVersion);
  if (!promise) {
    const fileName = `${promptVersion}.md`;
    // Files beside this module (no bundler string imports): works under tsx, vitest and node.
    promise = readFile(new URL(`./prompts/${fileName}`, import.meta.url), "utf8").then(
      (text) => parsePromptFile(text, fileName),
      (error: unknown) => {
        throw new AppError("NOT_FOUND", `judge prompt ${fileName} not found`, { cause: error });
      },
    );
    promise.catch(() => loaded.delete(promptVersion));
    loaded.set(promptVersion, promise);
  }
  return promise;
}

/** Whether a user template uses a placeholder (the optional ones are rendered only where used). */
export function usesPlaceholder(template: string, name: Placeholder): boolean {
  return [...template.matchAll(PLACEHOLDER_PATTERN)].some((m) => m[1] === name);
}

/** Fills a template in one pass, so placeholder-like text inside the values stays as it is. */
export function renderTemplate(template: string, values: Record<Placeholder, string>): string {
  return template.replace(PLACEHOLDER_PATTERN, (_all, name: string) => values[name as Placeholder] ?? "");
}
