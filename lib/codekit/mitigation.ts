/**
 * What a run records of the mitigation arm it got (./arms.ts names the arms): the plan, the
 * selector's choice, the guard's record, and the zod schemas that check them.
 * This file has no dependencies beyond zod, the arms and the catalog: the bundle schema and pages
 * import it.
 */
import { z } from "zod";
import { MetricIdSchema } from "@/lib/metrics/schema";
import { MITIGATIONS, type Mitigation } from "./arms";

export const MitigationSchema = z.enum(MITIGATIONS);

/** The five tools, read side first (lib/codekit/index.ts implements them under these names). */
export const CODEKIT_TOOL_NAMES = [
  "trace_references",
  "analyze_dependencies",
  "extract_snippet",
  "modify_function",
  "remove_function",
] as const;
export type CodekitToolName = (typeof CODEKIT_TOOL_NAMES)[number];
export const CodekitToolNameSchema = z.enum(CODEKIT_TOOL_NAMES);

/** The MCP server's name in the CLIs' configuration: their tool names carry it (`mcp__codekit__extract_snippet`). */
export const CODEKIT_MCP_SERVER = "codekit";

/** How the selector chose, and what its call cost. */
export const SelectorRecordSchema = z.strictObject({
  /** model: the LLM answered (or its cached answer); fallback: the rule by subtask (no model, or its answer was unusable). */
  source: z.enum(["model", "fallback"]),
  promptVersion: z.string().min(1).max(100),
  provider: z.string().max(100).nullable(),
  model: z.string().max(200).nullable(),
  /** Answered from the response cache: no tokens spent for this run. */
  cached: z.boolean(),
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
  costUsd: z.number().min(0).nullable(),
  /** Why the model's answer was not used (the fallback then decided). */
  error: z.string().max(2000).nullable(),
  /** The selector's one-line reason. */
  reason: z.string().max(2000).nullable(),
});
export type SelectorRecord = z.infer<typeof SelectorRecordSchema>;

/** What a run was given: the arm, the rules (with versions) and tools offered, and the selector's record. */
export const MitigationPlanSchema = z.strictObject({
  arm: MitigationSchema,
  rules: z.array(z.strictObject({ metric: MetricIdSchema, version: z.number().int().positive() })).max(11),
  tools: z.array(CodekitToolNameSchema).max(CODEKIT_TOOL_NAMES.length),
  guard: z.boolean(),
  selector: SelectorRecordSchema.nullable(),
});
export type MitigationPlan = z.infer<typeof MitigationPlanSchema>;

/** The arm of a configuration: `options.mitigation`, `none` when absent. */
export function mitigationOf(options: Record<string, unknown> | null | undefined): Mitigation {
  const parsed = MitigationSchema.safeParse(options?.mitigation);
  return parsed.success ? parsed.data : "none";
}

/**
 * The name a tool call of a Code-KIT tool carries in a trajectory, or offered to a model, whichever
 * agent made it: a built-in agent calls `extract_snippet`; Claude Code `mcp__codekit__extract_snippet`;
 * Codex offers `extract_snippet` in its `mcp__codekit` namespace, calls it `mcp__codekit__extract_snippet`
 * in its trajectory (`codekit.extract_snippet` in earlier readings of its exec stream); Gemini CLI
 * `mcp_codekit_extract_snippet` (`extract_snippet` in versions before server-prefixed names).
 */
export function codekitToolOfCall(tool: string): CodekitToolName | null {
  const bare = tool.replace(/^mcp__?codekit_?_/, "").replace(/^codekit[.:_]+/, "");
  return (CODEKIT_TOOL_NAMES as readonly string[]).includes(bare) ? (bare as CodekitToolName) : null;
}

const GuardLine = z.string().max(10_000);

/**
 * The guard arm's record of a run (in its `native/sandbox.json`, lib/runner/sandbox-record.ts): what
 * it let be written, what it cannot stop, and what got past it anyway.
 */
export const GuardRecordSchema = z.strictObject({
  /** Workspace folders left writable for expected creations and deletions. */
  writableFolders: z.array(GuardLine).max(100_000),
  /** What the mounts cannot stop, one sentence each (lib/runner/guard-mounts.ts). */
  gaps: z.array(GuardLine).max(100_000),
  /** Every change the contract does not allow, as `<path> <created|updated|deleted>`. */
  breaches: z.array(GuardLine).max(100_000),
});
export type GuardRecord = z.infer<typeof GuardRecordSchema>;
