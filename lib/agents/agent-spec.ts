/**
 * What `--agent` names: a built-in agent (`file-tools`, `terminal-editor`), an agent CLI
 * (`claude-code`, `codex`, `gemini-cli`), or a JSON file describing any of these or a contract
 * command (docs/external-agents.md). Flags on the command line override the file.
 */
import { z } from "zod";
import { LimitsSchema } from "@/lib/bundle/schema";
import { AppError } from "@/lib/errors/app-error";
import { BUILTIN_FRAMEWORKS, type BuiltinFramework } from "./builtin";
import { EXTERNAL_FRAMEWORKS, externalAdapter, type ExternalFramework } from "./external";
import { fieldIssue } from "@/lib/errors/zod-issues";
import { PROVIDER_IDS, type ProviderId } from "@/lib/llm/chat";
import { MitigationSchema } from "@/lib/codekit/mitigation";

export const AGENT_FRAMEWORKS = [...BUILTIN_FRAMEWORKS, ...EXTERNAL_FRAMEWORKS] as const;
export { PROVIDER_IDS as PROVIDERS, DEFAULT_MODELS } from "@/lib/llm/chat";
export type { ProviderId as ProviderName } from "@/lib/llm/chat";

export const AgentSpecSchema = z
  .object({
    framework: z.enum(AGENT_FRAMEWORKS),
    name: z.string().min(1).max(200).optional(),
    provider: z.enum(PROVIDER_IDS).optional(),
    model: z.string().min(1).max(200).optional(),
    guidelines: z.string().max(200_000).nullable().optional(),
    /** The Code-KIT arm (lib/codekit/arms.ts): none by default. */
    mitigation: MitigationSchema.optional(),
    limits: LimitsSchema.optional(),
    /** The command line of a `command` agent (run with bash -lc in the workspace). */
    command: z.string().min(1).max(10_000).optional(),
    /** The program of an agent CLI, when not the project's node_modules/.bin one. */
    binary: z.string().min(1).max(4096).optional(),
    /** Anything else that defines the configuration (recorded with the runs). */
    options: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
export type AgentSpec = z.infer<typeof AgentSpecSchema>;

export const isBuiltin = (framework: string): framework is BuiltinFramework =>
  (BUILTIN_FRAMEWORKS as readonly string[]).includes(framework);
export const isExternal = (framework: string): framework is ExternalFramework =>
  (EXTERNAL_FRAMEWORKS as readonly string[]).includes(framework);

/** The provider an agent talks to: the CLIs each speak one protocol. */
export function providerFor(spec: AgentSpec): ProviderId {
  if (isExternal(spec.framework) && spec.framework !== "command") {
    const fixed = externalAdapter(spec.framework).protocol;
    if (spec.provider && spec.provider !== fixed)
      throw new AppError(
        "INVALID_INPUT",
        `agent ${spec.framework} speaks the ${fixed} protocol only (got provider "${spec.provider}")`,
      );
    return fixed;
  }
  return spec.provider ?? (spec.framework === "command" ? "openai" : "gemini");
}

/** Parses a JSON agent file; errors name the file and the field. */
export function parseAgentSpecFile(text: string, file: string): AgentSpec {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new AppError("INVALID_INPUT", `${file}: not JSON (${(error as Error).message})`);
  }
  const parsed = AgentSpecSchema.safeParse(json);
  if (!parsed.success) {
    throw new AppError("INVALID_INPUT", `${file}, ${fieldIssue(parsed.error, "(root)")}`);
  }
  if (parsed.data.framework === "command" && !parsed.data.command)
    throw new AppError("INVALID_INPUT", `${file}, field "command": a command agent needs the command line to run`);
  return parsed.data;
}
