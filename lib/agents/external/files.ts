/**
 * Finding and reading an agent's own files under its HOME after a run. The agent wrote them, so
 * they are listed and read through lib/util/untrusted-files.ts: no link followed (in the file or a
 * folder above it), no FIFO opened, a size bound on every read.
 */
import path from "node:path";
import { AppError } from "@/lib/errors/app-error";
import { readUntrusted } from "@/lib/util/untrusted-files";
import { walkUntrusted } from "@/lib/util/untrusted-walk";

/** A transcript or session file larger than this is refused (the stdout transcript has the same cap). */
export const AGENT_FILE_MAX_BYTES = 64 * 1024 * 1024;

/** Regular files under `root/sub` whose name matches `pattern`, as paths relative to `root`, sorted. */
export async function filesUnder(root: string, sub: string, pattern: RegExp): Promise<string[]> {
  const found: string[] = [];
  await walkUntrusted(root, sub, (entry) => {
    if (entry.kind === "file" && pattern.test(path.posix.basename(entry.rel))) found.push(entry.rel);
  });
  return found.sort();
}

/**
 * The text of an agent's file `rel` under `root` (its HOME), or null when there is none. A link, a
 * FIFO or a file over the bound is an error naming `shownAs` (its name in the bundle), never read.
 */
export async function readAgentFile(root: string, rel: string, shownAs: string): Promise<string | null> {
  const result = await readUntrusted(root, rel, { maxBytes: AGENT_FILE_MAX_BYTES, refuseLarger: true });
  if (result.ok) return result.data.toString("utf8");
  if (result.kind === "missing") return null;
  throw new AppError("INVALID_INPUT", `${shownAs}: ${result.reason.replace(rel, "the file")}`);
}

/** The lines of an agent's stdout that can be JSON records (CLIs print the odd warning on stdout). */
export const jsonLinesOnly = (stdout: string) =>
  stdout
    .split("\n")
    .filter((line) => line.trimStart().startsWith("{"))
    .join("\n");
