/**
 * The budget of parsed JSON per bundle. What JSON.parse builds can be 25 times the text: measured
 * in an import worker (the smallest heap cap, to 4 MB, that gets through a 4 MiB member),
 * `[{},{},...]` needs 24.7 bytes of heap per byte (in manifest.json, workspace/ or verdicts.json
 * alike), `[[],[],...]` 16.7, `{"k1":0,...}` 10.6, `[1.5,...]` 6.7, `["a",...]` and `[1,...]`
 * 5.7, a trajectory of newlines 4.7. (Before validation stopped at the first bad element, `{},`
 * in workspace/after.json's files took 683: four zod issues each.) At its heap cap a worker gets
 * 16 MB of leeway, and one larger allocation then aborts the whole server process, not just the
 * worker: under a 256 MB cap, 12 MiB of `{},` in manifest.json and a trajectory of 60 MiB of
 * newlines (split into one array) ended the process with exit code 134. So the JSON members
 * together (not files/ or native/, which stay bytes) are held to a total whose worst case stays
 * far below the worker's cap: 24 MiB x 25 = 600 MB under 1024 MB. The project's own largest
 * bundles hold 9 MiB of JSON (bench:ingest at its 10,000-step maximum with a 20,000-file
 * workspace listing); a 2,403-step run holds 0.7 MiB.
 */
import { BundleError } from "./errors";
import type { BundleFiles } from "./read";
import { BUNDLE_MEMBERS } from "./schema";

const JSON_MEMBERS = new Set<string>(Object.values(BUNDLE_MEMBERS));

/** Whether an archive member is one of the JSON members, also under one top folder (`run-1/manifest.json`). */
export function isJsonMember(name: string): boolean {
  const slash = name.indexOf("/");
  return JSON_MEMBERS.has(name) || (slash > 0 && JSON_MEMBERS.has(name.slice(slash + 1)));
}

export function jsonBudgetError(
  label: string,
  member: string,
  total: number,
  max: number,
  setBy = "STUDIO_BUNDLE_MAX_JSON_BYTES",
): BundleError {
  return new BundleError(
    { bundle: label, member },
    `JSON members reach ${total} bytes with this one, over the limit of ${max} (${setBy})`,
    "TOO_LARGE",
  );
}

export const DEFAULT_MAX_JSON_BYTES = 24 * 1024 * 1024;

/** Worst heap bytes per JSON byte measured (`[{},{},...]`), for sizing the worker's cap. */
export const HEAP_BYTES_PER_JSON_BYTE = 25;

/**
 * The most JSON bytes a worker with this heap cap can parse in the worst case, with a quarter of
 * the cap left for everything else. Loading the env already refuses a budget over the cap; this
 * holds a worker to it whatever limit its caller passed: past the cap Node may abort the whole
 * process instead of the worker (nodejs/node#47224, seen here ~1 run in 7 with 12 MiB of `{},`
 * under a 256 MB cap), so a worker must never get there.
 */
export function jsonBytesWithinHeap(heapCapMb: number): number {
  return Math.floor((heapCapMb * 1024 * 1024 * 0.75) / HEAP_BYTES_PER_JSON_BYTE);
}

/**
 * Refuses the bundle (413) before anything is parsed once its JSON members pass `max` bytes,
 * naming the member that crosses the limit. Archive readers also hold the sizes their headers
 * declare to it (members.ts); this covers bundles built in memory (the runner's) as well.
 */
export function checkJsonBytes(files: BundleFiles, label: string, max: number, setBy?: string): void {
  let total = 0;
  for (const member of JSON_MEMBERS) {
    total += files.get(member)?.length ?? 0;
    if (total <= max) continue;
    throw jsonBudgetError(label, member, total, max, setBy);
  }
}
