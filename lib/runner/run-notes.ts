/**
 * What the runner saw after a run but did not read or keep: agent-controlled files that are links,
 * FIFOs, sockets or devices, files over a size bound, names a bundle cannot hold. Kept with the run
 * as `native/runner-notes.json`, so "not there" and "there but not read" stay apart.
 */
export interface RunnerNote {
  /** Where: the workspace, the environment snapshot (`.git/`, HOME, TMPDIR) or the agent's own files (native/). */
  area: "workspace" | "environment" | "native";
  /** Relative to the workspace or HOME (absolute for environment files outside them). */
  path: string;
  reason: string;
}

export const RUNNER_NOTES_FILE = "runner-notes.json";
/** Notes kept at most; the count of the rest is recorded. */
const MAX_NOTES = 1000;

export function createNotes() {
  const notes: RunnerNote[] = [];
  let dropped = 0;
  return {
    add: (area: RunnerNote["area"]) => (path: string, reason: string) => {
      if (notes.length < MAX_NOTES) notes.push({ area, path, reason });
      else dropped += 1;
    },
    /** The notes file, or null when there is nothing to say. */
    file: (): Buffer | null =>
      notes.length === 0 ? null : Buffer.from(`${JSON.stringify({ notes, moreNotes: dropped }, null, 1)}\n`),
  };
}
