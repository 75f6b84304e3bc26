/** Finding an agent's session files under its HOME after a run. */
import fs from "node:fs/promises";
import path from "node:path";

/** Files under `root/sub` whose name matches `pattern`, as paths relative to `root`, sorted. */
export async function filesUnder(root: string, sub: string, pattern: RegExp): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return; // the agent never created it
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && pattern.test(entry.name))
        found.push(path.relative(root, full).split(path.sep).join("/"));
    }
  };
  await walk(path.join(root, sub));
  return found.sort();
}

/** The lines of an agent's stdout that can be JSON records (CLIs print the odd warning on stdout). */
export const jsonLinesOnly = (stdout: string) =>
  stdout
    .split("\n")
    .filter((line) => line.trimStart().startsWith("{"))
    .join("\n");
