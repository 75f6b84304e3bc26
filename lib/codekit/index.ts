/**
 * Code-KIT's five tools: their specs for the providers and one dispatcher. Every model mistake
 * (bad arguments, a refused request, a missing file) comes back as an error result the model can
 * act on; only a fault of our own is thrown.
 */
import type { z } from "zod";
import { isAppError } from "@/lib/errors/app-error";
import { allIssues } from "@/lib/errors/zod-issues";
import type { ToolSpec } from "@/lib/llm/chat";
import { messageOf } from "@/lib/workspace/paths";
import type { GuardRules } from "@/lib/workspace/guard";
import {
  AnalyzeDependenciesArgsSchema,
  ExtractSnippetArgsSchema,
  ModifyFunctionArgsSchema,
  RemoveFunctionArgsSchema,
  TraceReferencesArgsSchema,
  type CodekitResult,
} from "./schema";
import { ANALYZE_DEPENDENCIES, analyzeDependencies } from "./tools/analyze-dependencies";
import { EXTRACT_SNIPPET, extractSnippet } from "./tools/extract-snippet";
import { MODIFY_FUNCTION, modifyFunction } from "./tools/modify-function";
import { REMOVE_FUNCTION, removeFunction } from "./tools/remove-function";
import { TRACE_REFERENCES, traceReferences } from "./tools/trace-references";
import { openWorkspace, type Workspace } from "./workspace";
import { CODEKIT_TOOL_NAMES, type CodekitToolName } from "./mitigation";

interface CodekitTool<S extends z.ZodType> {
  spec: ToolSpec;
  schema: S;
  run(workspace: Workspace, args: z.infer<S>): Promise<string>;
}

const tool = <S extends z.ZodType>(t: CodekitTool<S>) => t as unknown as CodekitTool<z.ZodType>;

const TOOLS = [
  tool({ spec: TRACE_REFERENCES, schema: TraceReferencesArgsSchema, run: traceReferences }),
  tool({ spec: ANALYZE_DEPENDENCIES, schema: AnalyzeDependenciesArgsSchema, run: analyzeDependencies }),
  tool({ spec: EXTRACT_SNIPPET, schema: ExtractSnippetArgsSchema, run: extractSnippet }),
  tool({ spec: MODIFY_FUNCTION, schema: ModifyFunctionArgsSchema, run: modifyFunction }),
  tool({ spec: REMOVE_FUNCTION, schema: RemoveFunctionArgsSchema, run: removeFunction }),
];

export { CODEKIT_TOOL_NAMES };
/** The five tools' specs, read side first. */
export const CODEKIT_TOOLS: readonly ToolSpec[] = TOOLS.map((t) => t.spec);

export function isCodekitTool(name: string): name is CodekitToolName {
  return (CODEKIT_TOOL_NAMES as readonly string[]).includes(name);
}

/** The specs of some of the tools, in the tools' own order. */
export function codekitToolSpecs(names: readonly CodekitToolName[]): ToolSpec[] {
  return CODEKIT_TOOLS.filter((spec) => (names as readonly string[]).includes(spec.name));
}

/**
 * Runs one tool call on the workspace at `root`. With `guard` (the `guard` arm's rules, as the
 * run's sandbox holds them) the write tools refuse files the task may not change.
 */
export async function runCodekitTool(
  root: string,
  name: string,
  args: unknown,
  guard: GuardRules | null = null,
): Promise<CodekitResult> {
  const found = TOOLS.find((t) => t.spec.name === name);
  if (!found)
    return { text: `Unknown tool ${name}; the Code-KIT tools are ${CODEKIT_TOOL_NAMES.join(", ")}.`, isError: true };
  const parsed = found.schema.safeParse(args);
  if (!parsed.success)
    return { text: `Invalid arguments for ${name}: ${allIssues(parsed.error, "arguments")}`, isError: true };
  let workspace: Workspace | null = null;
  try {
    workspace = await openWorkspace(root, guard);
    return { text: await found.run(workspace, parsed.data), isError: false };
  } catch (error) {
    if (isAppError(error) || (error as NodeJS.ErrnoException).code !== undefined)
      return { text: messageOf(error), isError: true };
    throw error;
  } finally {
    await workspace?.close();
  }
}
