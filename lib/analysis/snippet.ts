/**
 * Function-level code generation: the agent answers with the function, not the file. Its
 * definition is put in place of the target (decorators through end) in the original file, so the
 * code-level metrics can judge the result like an edited file.
 */
import { findFunction, outlinePython, type DefinitionOutline } from "./python-definitions";
import { expandTabs, removeIndent } from "./python-strings";
import { parseTargetName, plainFunctionName } from "./target-name";

const FENCE = /^[ \t]*```[ \t]*([A-Za-z0-9_+.-]*)[^\n]*\n([\s\S]*?)(?:^[ \t]*```[ \t]*$|(?![\s\S]))/gm;
const PYTHON_TAGS = new Set(["python", "py", "python3", "py3"]);

/** Code blocks of an answer (```python preferred, then untagged), or the whole text when it has none. */
export function codeCandidates(answer: string): string[] {
  const text = answer.replace(/\r\n?/g, "\n");
  const tagged: string[] = [];
  const untagged: string[] = [];
  for (const match of text.matchAll(FENCE)) {
    const tag = (match[1] ?? "").toLowerCase();
    const body = match[2] ?? "";
    if (PYTHON_TAGS.has(tag)) tagged.push(body);
    else if (tag === "") untagged.push(body);
  }
  const blocks = [...tagged, ...untagged];
  return blocks.length > 0 ? blocks : [text];
}

/** The first code block of an answer that defines the target, with that definition. */
export async function answerDefinition(
  answer: string,
  target: string,
): Promise<{ code: string; definition: DefinitionOutline } | null> {
  for (const code of codeCandidates(answer)) {
    if (code.trim() === "") continue;
    const definition = findFunction(await outlinePython(code), target);
    if (definition) return { code, definition };
  }
  return null;
}

export async function mergeSnippet(
  original: string,
  answer: string,
  target: string,
): Promise<{ merged: string } | { problem: string }> {
  const name = plainFunctionName(target);
  if (codeCandidates(answer).every((code) => code.trim() === "")) return { problem: "the answer has no code" };
  const found = await answerDefinition(answer, target);
  if (!found) return { problem: `the answer has no definition of \`${name}\`` };
  const { code, definition } = found;
  const width = expandTabs(definition.indent).length;
  const snippet = code
    .split("\n")
    .slice(definition.startLine - 1, definition.endLine)
    .map((line) => removeIndent(line, width));

  const eol = original.includes("\r\n") ? "\r\n" : "\n";
  const text = original.replace(/\r\n?/g, "\n");
  const originalLines = text.split("\n");
  const { qualifiedName, occurrence } = parseTargetName(target);
  const place = (await outlinePython(text)).filter((d) => d.kind !== "class" && d.qualifiedName === qualifiedName)[
    occurrence - 1
  ];
  if (!place) return { problem: `\`${target}\` is not defined in the original file` };
  const body = snippet.map((line) => (line === "" ? "" : `${place.indent}${line}`));
  const merged = [...originalLines.slice(0, place.startLine - 1), ...body, ...originalLines.slice(place.endLine)].join(
    eol,
  );
  return { merged };
}
