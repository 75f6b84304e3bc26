/**
 * Writing a tool's new version of a file: only when it parses, only over the regular file it read,
 * only where the sandbox guard (the `guard` arm) allows.
 */
import fs from "node:fs/promises";
import { AppError } from "@/lib/errors/app-error";
import { firstSyntaxError, parsePython } from "@/lib/analysis/python-parser";
import { assertGuardAllows } from "@/lib/workspace/guard";
import type { Workspace } from "../workspace";

/** Refuses text that tree-sitter cannot parse without an ERROR node, naming the line. */
export async function assertParses(text: string, what: string): Promise<void> {
  const tree = await parsePython(text);
  try {
    const error = firstSyntaxError(tree);
    if (error)
      throw new AppError(
        "INVALID_INPUT",
        `Refused: ${what} would not parse (syntax error at line ${error.line}, column ${error.column}: ${error.text}). The file is unchanged.`,
      );
  } finally {
    tree.delete();
  }
}

/**
 * Writes over the file only while it is still a regular file (never through a link swapped in
 * since), and only when the guard lets the task change it. `file.abs` is its real path.
 */
export async function writeSource(workspace: Workspace, file: { abs: string }, text: string): Promise<void> {
  assertGuardAllows(workspace.guard, workspace.root, file.abs, "write");
  const abs = file.abs;
  const stat = await fs.lstat(abs);
  if (!stat.isFile()) throw new AppError("FORBIDDEN", "Refused: the file is no longer a regular file.");
  const handle = await fs.open(abs, fs.constants.O_WRONLY | fs.constants.O_TRUNC | fs.constants.O_NOFOLLOW);
  try {
    await handle.writeFile(text, "utf8");
  } finally {
    await handle.close();
  }
}
