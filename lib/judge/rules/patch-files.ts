/**
 * The files a patch an agent applied names, and how: Codex's `apply_patch` envelope (`*** Add File:`,
 * `*** Update File:`, `*** Delete File:`, `*** Move to:`) or a unified diff's `---`/`+++` headers.
 * Only the names are read, never the hunks.
 */

/** The files named by a patch: Codex's `*** Add/Update/Delete File:` envelope or a unified diff. */
export function patchFiles(patch: string): { path: string; kind: "write" | "delete"; inPlace: boolean }[] {
  const found: { path: string; kind: "write" | "delete"; inPlace: boolean }[] = [];
  let minus: string | null = null;
  for (const line of patch.split("\n")) {
    const envelope = /^\*\*\* (Add|Update|Delete) File: (.+?)\s*$/.exec(line);
    const moved = /^\*\*\* Move to: (.+?)\s*$/.exec(line);
    if (envelope) {
      const [, verb = "", path = ""] = envelope;
      found.push({ path, kind: verb === "Delete" ? "delete" : "write", inPlace: verb === "Update" });
    } else if (moved) {
      const from = found.at(-1);
      if (from) from.kind = "delete";
      found.push({ path: moved[1]!, kind: "write", inPlace: false });
    } else if (line.startsWith("--- ")) minus = line.slice(4).split("\t")[0]!.trim();
    else if (line.startsWith("+++ ")) {
      const plus = line.slice(4).split("\t")[0]!.trim();
      if (plus === "/dev/null" && minus)
        found.push({ path: minus.replace(/^a\//, ""), kind: "delete", inPlace: false });
      else
        found.push({ path: plus.replace(/^b\//, ""), kind: "write", inPlace: minus !== null && minus !== "/dev/null" });
    }
  }
  return found;
}
