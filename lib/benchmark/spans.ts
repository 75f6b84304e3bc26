/** Where a snippet (a signature, a whole function) sits in a file, as 1-based inclusive lines. */
export function findLineSpan(content: string, snippet: string | null): { startLine: number; endLine: number } | null {
  if (!snippet) return null;
  const normalized = content.replace(/\r\n/g, "\n");
  const at = normalized.indexOf(snippet.replace(/\r\n/g, "\n"));
  if (at < 0) return null;
  const startLine = normalized.slice(0, at).split("\n").length;
  return { startLine, endLine: startLine + snippet.split("\n").length - 1 };
}
