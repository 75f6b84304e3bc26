/** extract_snippet: the exact source of one definition, decorators included, for moving it verbatim. */
import type { ToolSpec } from "@/lib/llm/chat";
import type { PythonDefinition } from "@/lib/analysis/python-definitions";
import type { ExtractSnippetArgs } from "../schema";
import { resolveDefinition, sourceFile, type Workspace } from "../workspace";
import { DEFINITION_PARAMETERS } from "./params";

export const EXTRACT_SNIPPET: ToolSpec = {
  name: "extract_snippet",
  description:
    "Return the exact source of one function, method or class (decorators included) with its line span, to copy or move it verbatim.",
  parameters: DEFINITION_PARAMETERS,
};

/** Lines `startLine`..`codeEndLine` of a definition: decorators on, trailing comments of the body off. */
export function definitionSource(text: string, definition: PythonDefinition): string {
  return text
    .split("\n")
    .slice(definition.startLine - 1, definition.codeEndLine)
    .join("\n");
}

export async function extractSnippet(workspace: Workspace, args: ExtractSnippetArgs): Promise<string> {
  const file = await sourceFile(workspace, args.path);
  const definition = resolveDefinition(await workspace.parse(file.rel), file.rel, args.qualname);
  return `${file.rel}:${definition.startLine}-${definition.codeEndLine}\n${definitionSource(file.text, definition)}`;
}
