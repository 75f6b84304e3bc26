/**
 * modify_function: replaces the body of one function or method and nothing else. `new_body` is
 * the body (its indentation is redone), or the whole definition when the model finds that easier:
 * either way the signature (name, parameters, defaults, annotations, decorators, async) and the
 * docstring must come out as they were, nothing outside the function may change, and the file
 * must parse; otherwise the file is left as it was and the reason returned.
 */
import type { Node } from "web-tree-sitter";
import { AppError } from "@/lib/errors/app-error";
import { compareDocstring } from "@/lib/analysis/compare-body";
import { compareInterfaces } from "@/lib/analysis/compare-signature";
import { listDefinitions, type PythonDefinition } from "@/lib/analysis/python-definitions";
import { parsePython } from "@/lib/analysis/python-parser";
import { leadingWhitespace } from "@/lib/analysis/python-strings";
import { functionEntries } from "@/lib/analysis/report-definitions";
import type { FunctionEntry } from "@/lib/analysis/schema";
import { formatTargetName } from "@/lib/analysis/target-name";
import type { ToolSpec } from "@/lib/llm/chat";
import type { ModifyFunctionArgs } from "../schema";
import { resolveDefinition, sourceFile, type Workspace } from "../workspace";
import { PATH_PARAM, QUALNAME_PARAM } from "./params";
import { assertParses, writeSource } from "./write-source";

export const MODIFY_FUNCTION: ToolSpec = {
  name: "modify_function",
  description:
    "Replace the body of one function or method in place. Only the body changes: a new_body that alters the signature, decorators or the given docstring, or that reaches outside the function, is refused and the file left unchanged. The result must parse.",
  parameters: {
    type: "object",
    properties: {
      path: PATH_PARAM,
      qualname: QUALNAME_PARAM,
      new_body: {
        type: "string",
        description:
          "The new body (statements after the signature; indentation is adjusted, the docstring is kept when omitted), or the whole definition with its signature unchanged",
      },
    },
    required: ["path", "qualname", "new_body"],
  },
};

/** Removes the common indentation of the non-blank lines, and blank lines at both ends. */
export function dedent(text: string): string[] {
  const lines = text.replace(/\r\n?/g, "\n").replace(/\t/g, "    ").split("\n");
  while (lines.length > 0 && lines[0]!.trim() === "") lines.shift();
  while (lines.length > 0 && lines.at(-1)!.trim() === "") lines.pop();
  const width = Math.min(...lines.filter((l) => l.trim() !== "").map((l) => leadingWhitespace(l).length));
  return lines.map((l) => (l.trim() === "" ? "" : l.slice(width)));
}

const isDefinitionText = (lines: readonly string[]) => /^(@|def\s|async\s+def\s)/.test(lines[0] ?? "");

/** Index just past the end of 1-based line `line` (before its newline). */
function lineEnd(text: string, line: number): number {
  let index = -1;
  for (let i = 0; i < line; i++) {
    index = text.indexOf("\n", index + 1);
    if (index < 0) return text.length;
  }
  return index;
}

async function startsWithDocstring(lines: readonly string[]): Promise<boolean> {
  const tree = await parsePython(lines.join("\n"));
  try {
    const first = tree.rootNode.namedChildren.find((n) => n !== null && n.type !== "comment");
    return first?.type === "expression_statement" && first.namedChildren[0]?.type === "string";
  } finally {
    tree.delete();
  }
}

/** The new file text: the body (or whole definition) spliced in, indentation redone. */
async function splice(text: string, definition: PythonDefinition, lines: string[]): Promise<string> {
  const codeEnd = lineEnd(text, definition.codeEndLine);
  if (isDefinitionText(lines)) {
    const start = text.lastIndexOf("\n", definition.outer.startIndex - 1) + 1;
    const indent = text.slice(start, definition.outer.startIndex);
    return text.slice(0, start) + lines.map((l) => (l === "" ? "" : indent + l)).join("\n") + text.slice(codeEnd);
  }
  const body = definition.node.childForFieldName("body") as Node;
  const colon = definition.node.children.filter((c): c is Node => c !== null && c.type === ":").at(-1)!;
  const sameLine = body.startPosition.row === colon.startPosition.row;
  const lineStart = text.lastIndexOf("\n", definition.node.startIndex - 1) + 1;
  const indent = sameLine
    ? `${text.slice(lineStart, definition.node.startIndex)}    `
    : leadingWhitespace(text.slice(text.lastIndexOf("\n", body.startIndex - 1) + 1));
  const keepDocstring = definition.docstring !== null && !(await startsWithDocstring(lines));
  const cut = keepDocstring
    ? lineEnd(text, definition.docstring!.endLine)
    : sameLine
      ? colon.endIndex
      : lineEnd(text, colon.startPosition.row + 1);
  return `${text.slice(0, cut)}\n${lines.map((l) => (l === "" ? "" : indent + l)).join("\n")}${text.slice(codeEnd)}`;
}

const entryOf = (entries: FunctionEntry[], d: PythonDefinition) =>
  entries.find((e) => e.qualifiedName === d.qualifiedName && e.occurrence === d.occurrence)!;

const outline = (defs: PythonDefinition[]) => defs.map((d) => formatTargetName(d.qualifiedName, d.occurrence));

export async function modifyFunction(workspace: Workspace, args: ModifyFunctionArgs): Promise<string> {
  const file = await sourceFile(workspace, args.path);
  const tree = await workspace.parse(file.rel);
  const definition = resolveDefinition(tree, file.rel, args.qualname, ["function", "method"]);
  const name = formatTargetName(definition.qualifiedName, definition.occurrence);
  const lines = dedent(args.new_body);
  if (lines.every((l) => l.trim() === "" || l.trim().startsWith("#")))
    throw new AppError("INVALID_INPUT", "Refused: new_body has no statement; give at least one (e.g. `pass`).");
  const next = await splice(file.text, definition, lines);
  await assertParses(next, `the new body of ${name}`);

  const newTree = await parsePython(next);
  try {
    const before = listDefinitions(tree);
    const after = listDefinitions(newTree);
    const moved = after.find(
      (d) => d.qualifiedName === definition.qualifiedName && d.occurrence === definition.occurrence,
    );
    const tail = file.text.length - lineEnd(file.text, definition.codeEndLine);
    const expectedEnd = next.slice(0, next.length - tail).split("\n").length;
    if (!moved || moved.codeEndLine !== expectedEnd || outline(before).join() !== outline(after).join())
      throw new AppError(
        "INVALID_INPUT",
        `Refused: new_body reaches outside ${name} (a line indented less than the body, or a new definition around it). Give only the body of ${name}; the file is unchanged.`,
      );
    const old = entryOf(functionEntries(tree, file.text), definition);
    const now = entryOf(functionEntries(newTree, next), moved);
    const findings = compareInterfaces(old, now, false);
    const docstring = compareDocstring(
      "the docstring",
      { value: old.docstring, span: old.docstringSpan },
      { value: now.docstring, span: now.docstringSpan },
      { before: null, after: null },
    );
    if (docstring) findings.push(docstring);
    if (findings.length > 0)
      throw new AppError(
        "INVALID_INPUT",
        `Refused: modify_function changes only the body of ${name}, but this would change: ${findings.map((f) => f.message).join("; ")}. Keep the signature, decorators and docstring exactly as they are; the file is unchanged.`,
      );
    if (next === file.text) return `${name} in ${file.rel} already has this body; nothing changed.`;
    await writeSource(workspace, file, next);
    return `Replaced the body of ${name} in ${file.rel} (now lines ${moved.startLine}-${moved.codeEndLine}); nothing else changed.`;
  } finally {
    newTree.delete();
  }
}
