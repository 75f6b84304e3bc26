/** What crosses Code-KIT's boundary: each tool's arguments (as the model sends them) and its result. */
import { z } from "zod";

const path = z.string().min(1).max(1024).describe("A Python file, relative to the workspace root");
const qualname = z
  .string()
  .min(1)
  .max(300)
  .describe("`function`, `Class.method`, or `name#n` for the n-th definition of a name defined more than once");

export const TraceReferencesArgsSchema = z.strictObject({
  symbol: z.string().min(1).max(300),
  path: path.optional(),
});
export const AnalyzeDependenciesArgsSchema = z.strictObject({ path, function: qualname.optional() });
export const ExtractSnippetArgsSchema = z.strictObject({ path, qualname });
export const ModifyFunctionArgsSchema = z.strictObject({
  path,
  qualname,
  new_body: z.string().min(1).max(200_000),
});
export const RemoveFunctionArgsSchema = z.strictObject({ path, qualname });

export type TraceReferencesArgs = z.infer<typeof TraceReferencesArgsSchema>;
export type AnalyzeDependenciesArgs = z.infer<typeof AnalyzeDependenciesArgsSchema>;
export type ExtractSnippetArgs = z.infer<typeof ExtractSnippetArgsSchema>;
export type ModifyFunctionArgs = z.infer<typeof ModifyFunctionArgsSchema>;
export type RemoveFunctionArgs = z.infer<typeof RemoveFunctionArgsSchema>;

/** What a tool call returns to the model: text, and whether it is a refusal or an error. */
export const CodekitResultSchema = z.object({ text: z.string(), isError: z.boolean() });
export type CodekitResult = z.infer<typeof CodekitResultSchema>;
