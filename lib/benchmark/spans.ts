/**
 * Where a snippet (a signature, a whole function) sits in a file, as 1-based inclusive lines. A
 * `name#n` target (target-name.ts) passes its `occurrence`: the n-th place the snippet appears, or
 * the last when it appears fewer times (a setter's signature differs from its getter's, so it
 * appears once; a redefinition may repeat the text exactly).
 */
export function findLineSpan(
  content: string,
  snippet: string | null,
  occurrence = 1,
): { startLine: number; endLine: number } | null {
  if (!snippet) return null;
  const normalized = content.replace(/\r\n/g, "\n");
  const wanted = snippet.replace(/\r\n/g, "\n");
  let at = normalized.indexOf(wanted);
  if (at < 0) return null;
  for (let n = 1; n < occurrence; n++) {
    const next = normalized.indexOf(wanted, at + 1);
    if (next < 0) break;
    at = next;
  }
  const startLine = normalized.slice(0, at).split("\n").length;
  return { startLine, endLine: startLine + wanted.split("\n").length - 1 };
}
