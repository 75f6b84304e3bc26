/**
 * LLM judge definitions: which provider and model judge, with which prompt version and
 * temperature. Three are built in (one per provider, on its default model); more live in a JSON
 * file (`--judges FILE` or STUDIO_JUDGES), e.g. the study's Gemini, Claude and DeepSeek judges in
 * examples/judges.json. `evaluate --judge <id>` and the Jobs page choose one by id.
 */
import fs from "node:fs";
import { z } from "zod";
import { AppError } from "@/lib/errors/app-error";
import { firstIssue } from "@/lib/errors/zod-issues";
import { DEFAULT_MODELS, PROVIDER_IDS } from "@/lib/llm/chat";

export const JudgeIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, "must be lower-case letters, digits, '.', '_' or '-' (at most 64)");

export const JudgeDefinitionSchema = z
  .object({
    id: JudgeIdSchema,
    provider: z.enum(PROVIDER_IDS),
    model: z.string().min(1).max(200),
    /** The endpoint, for OpenAI-compatible servers (DeepSeek, OpenRouter, vLLM, Ollama) or a proxy. */
    baseUrl: z.url().optional(),
    /** The variable holding the key, when not the provider's usual one. */
    apiKeyEnv: z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]*$/, "must be an environment variable name")
      .optional(),
    /** The prompt version of every metric (`3` = `<metric>.v3`); absent = the current version. */
    promptVersion: z.number().int().min(1).optional(),
    temperature: z.number().min(0).max(2).default(0),
    /** OpenAI-compatible servers: `object` where only `json_object` is known (DeepSeek). */
    jsonMode: z.enum(["schema", "object"]).optional(),
    /** Shown on the Jobs page. */
    label: z.string().max(200).optional(),
  })
  .strict();
export type JudgeDefinition = z.infer<typeof JudgeDefinitionSchema>;

const JudgesFileSchema = z.object({ judges: z.array(JudgeDefinitionSchema).max(100) }).strict();

/** One judge per provider on its default model (Gemini's from STUDIO_JUDGE_MODEL). */
export function builtinJudges(geminiModel: string = DEFAULT_MODELS.gemini): JudgeDefinition[] {
  return PROVIDER_IDS.map((provider) => ({
    id: provider,
    provider,
    model: provider === "gemini" ? geminiModel : DEFAULT_MODELS[provider],
    temperature: 0,
    label: `${provider} (built in)`,
  }));
}

const MAX_FILE_BYTES = 256 * 1024;

/** Reads a judges file; errors name the file and the field. Ids must not repeat nor be `rule`. */
export function readJudgesFile(file: string): JudgeDefinition[] {
  let text: string;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) throw new AppError("INVALID_INPUT", `${file}: not a regular file`);
    if (stat.size > MAX_FILE_BYTES) throw new AppError("INVALID_INPUT", `${file}: larger than ${MAX_FILE_BYTES} bytes`);
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError("INVALID_INPUT", `${file}: cannot read the judges file (${(error as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new AppError("INVALID_INPUT", `${file}: not JSON (${(error as Error).message})`);
  }
  const parsed = JudgesFileSchema.safeParse(json);
  if (!parsed.success) throw new AppError("INVALID_INPUT", `${file}: ${firstIssue(parsed.error)}`);
  const seen = new Set<string>(["rule"]);
  for (const [i, judge] of parsed.data.judges.entries()) {
    if (seen.has(judge.id)) throw new AppError("INVALID_INPUT", `${file}: judges[${i}].id: "${judge.id}" is taken`);
    seen.add(judge.id);
  }
  return parsed.data.judges;
}

/** The judges one can choose: the built-in ones, then the file's (a file's id may replace a built-in one). */
export function availableJudges(options: { file?: string | null; geminiModel?: string }): JudgeDefinition[] {
  const fromFile = options.file ? readJudgesFile(options.file) : [];
  const overridden = new Set(fromFile.map((j) => j.id));
  return [...builtinJudges(options.geminiModel).filter((j) => !overridden.has(j.id)), ...fromFile];
}

export function findJudge(judges: readonly JudgeDefinition[], id: string): JudgeDefinition {
  const judge = judges.find((j) => j.id === id);
  if (!judge) {
    throw new AppError(
      "INVALID_INPUT",
      `unknown judge "${id}": choose rule or one of ${judges.map((j) => j.id).join(", ")}`,
    );
  }
  return judge;
}
