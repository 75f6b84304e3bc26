/**
 * remove_function: deletes one function or method, decorators included, only when no reference to
 * it is left anywhere in the repository (its own recursive calls aside); otherwise lists them.
 */
import { AppError } from "@/lib/errors/app-error";
import type { ToolSpec } from "@/lib/llm/chat";
import type { RemoveFunctionArgs } from "../schema";
import { resolveDefinition, sourceFile, type Workspace } from "../workspace";
import { DEFINITION_PARAMETERS } from "./params";
import { formatReferences, traceSymbol } from "./trace-references";
import { assertParses, writeSource } from "./write-source";

export const REMOVE_FUNCTION: ToolSpec = {
  name: "remove_function",
  description:
    "Delete one function or method (decorators included) from a file, only if nothing in the repository still references it; otherwise nothing is deleted and the remaining references are listed.",
  parameters: DEFINITION_PARAMETERS,
};

export async function removeFunction(workspace: Workspace, args: RemoveFunctionArgs): Promise<string> {
  const file = await sourceFile(workspace, args.path);
  const tree = await workspace.parse(file.rel);
  const definition = resolveDefinition(tree, file.rel, args.qualname, ["function", "method"]);
  const traced = await traceSymbol(workspace, file.rel, args.qualname);
  const inside = (line: number) => line >= definition.startLine && line <= definition.endLine;
  const remaining = traced.references.filter((r) => r.file !== file.rel || !inside(r.line));
  if (remaining.length > 0)
    throw new AppError(
      "CONFLICT",
      `Refused: ${remaining.length} reference(s) to ${definition.qualifiedName} remain; update or remove them first, then call remove_function again. Nothing was deleted.\n${formatReferences(remaining)}`,
    );
  const siblings = definition.outer.parent?.namedChildren.filter((n) => n !== null && n.type !== "comment") ?? [];
  if (definition.kind === "method" && siblings.length === 1)
    throw new AppError(
      "CONFLICT",
      `Refused: ${definition.qualifiedName} is the only statement of its class; removing it would leave an empty class body. Nothing was deleted.`,
    );
  const lines = file.text.split("\n");
  let start = definition.startLine - 1;
  let end = definition.endLine; // exclusive
  // Take the blank lines after it too when it had blank lines before, so the gap closes up.
  if (start > 0 && lines[start - 1]?.trim() === "") while (end < lines.length && lines[end]?.trim() === "") end++;
  else if (start === 0) while (end < lines.length && lines[end]?.trim() === "") end++;
  while (start > 0 && lines[start - 1]?.trim() === "" && end >= lines.length) start--;
  let next = [...lines.slice(0, start), ...lines.slice(end)].join("\n");
  if (file.text.endsWith("\n") && !next.endsWith("\n") && next !== "") next += "\n";
  await assertParses(next, `removing ${definition.qualifiedName}`);
  await writeSource(workspace, file, next);
  return `Removed ${definition.qualifiedName} (lines ${definition.startLine}-${definition.endLine}) from ${file.rel}; no references remained.`;
}
