import { parseArgs, type ParseArgsConfig } from "node:util";
import { z } from "zod";
import { formatIssuePath } from "@/lib/errors/issue-path";
import { AppError } from "@/lib/errors/app-error";

/** node:util parseArgs + a zod schema over the values: one clear line for any bad argument. */
export function parseCliArgs<S extends z.ZodType>(
  argv: string[],
  options: NonNullable<ParseArgsConfig["options"]>,
  schema: S,
  usage: string,
): { values: z.infer<S>; positionals: string[] } {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new AppError("INVALID_INPUT", `${error instanceof Error ? error.message : String(error)}\n${usage}`);
  }
  const result = schema.safeParse(parsed.values);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new AppError("INVALID_INPUT", `--${formatIssuePath(issue?.path ?? [])}: ${issue?.message}\n${usage}`);
  }
  return { values: result.data, positionals: parsed.positionals };
}
