/**
 * Function-level code generation: the agent answers with the function, not the file. Its
 * definition is put in place of the target (decorators through end) in the original file, so the
 * code-level metrics can judge the result like an edited file.
 */
import { findFunction, outlinePython } from "./python-definitions";
import { expandTabs, removeIndent } from "./python-strings";

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

export async function mergeSnippet(
  original: string,
  answer: string,
  target: string,
): Promise<{ merged: string } | { problem: string }> {
  const name = target.split(".").at(-1) ?? target;
  const candidates = codeCandidates(answer).filter((code) => code.trim() !== "");
  if (candidates.length === 0) return { problem: "the answer has no code" };

  let snippet: string[] | null = null;
  for (const code of candidates) {
    const definition = findFunction(await outlinePython(code), target);
    if (!definition) continue;
    const lines = code.split("\n").slice(definition.startLine - 1, definition.endLine);
    const width = expandTabs(definition.indent).length;
    snippet = lines.map((line) => removeIndent(line, width));
    break;
  }
  if (!snippet) return { problem: `the answer has no definition of \`${name}\`` };

  const eol = original.includes("\r\n") ? "\r\n" : "\n";
  const text = original.replace(/\r\n?/g, "\n");
  const originalLines = text.split("\n");
  const place = (await outlinePython(text)).find((d) => d.kind !== "class" && d.qualifiedName === target);
  if (!place) return { problem: `\`${target}\` is not defined in the original file` };
  const body = snippet.map((line) => (line === "" ? "" : `${place.indent}${line}`));
  const merged = [...originalLines.slice(0, place.startLine - 1), ...body, ...originalLines.slice(place.endLine)].join(
    eol,
  );
  return { merged };
}
