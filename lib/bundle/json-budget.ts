/**
 * The budget of parsed JSON per bundle. What JSON.parse builds can be twenty times the text:
 * measured in an import worker (the smallest heap cap that parses a 4 MiB member), `[{},{},...]`
 * needs 22.7 bytes of heap per byte, `[[],[],...]` 16.7, `{"k1":0,...}` 10.6, `[1.5,...]` 7.7,
 * `["a",...]` and `[1,...]` 4.7, a trajectory of newlines 5.7. At its heap cap a worker thread
 * gets 16 MB of leeway, and one larger allocation then aborts the whole server process, not just
 * the worker: a 64 MiB member of `{},` (about 800 MB of objects) followed by one large allocation
 * did. So the JSON members together (not files/ or native/, which stay bytes) are held to a total
 * whose worst case stays far below the worker's cap: 24 MiB x 22.7 = 545 MB under 1024 MB.
 * The project's own largest bundles hold 9 MiB of JSON (bench:ingest at its 10,000-step maximum
 * with a 20,000-file workspace listing); a 2,403-step run holds 0.7 MiB.
 */
import { BundleError } from "./errors";
import type { BundleFiles } from "./read";

export const DEFAULT_MAX_JSON_BYTES = 24 * 1024 * 1024;

/** Worst heap bytes per JSON byte measured (`[{},{},...]`), for sizing the worker's cap. */
export const HEAP_BYTES_PER_JSON_BYTE = 23;

/**
 * Refuses the bundle (413) before anything is parsed once its JSON members, taken in `members`
 * order, pass `max` bytes, naming the member that crosses the limit.
 */
export function checkJsonBytes(files: BundleFiles, members: readonly string[], label: string, max: number): void {
  let total = 0;
  for (const member of members) {
    total += files.get(member)?.length ?? 0;
    if (total <= max) continue;
    throw new BundleError(
      { bundle: label, member },
      `JSON members reach ${total} bytes with this one, over the limit of ${max} (STUDIO_BUNDLE_MAX_JSON_BYTES)`,
      "TOO_LARGE",
    );
  }
}
