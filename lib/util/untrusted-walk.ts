/**
 * Walking a folder an untrusted process controls (untrusted-files.ts says why and how): each
 * folder is entered through the descriptor of its parent, never through a link, and every entry is
 * handed over by kind with a way to open it that cannot follow a link or block on a FIFO.
 */
import { isUtf8 } from "node:buffer";
import type fsSync from "node:fs";
import { readdirSync, lstatSync, readlinkSync } from "node:fs";
import {
  at,
  closeQuietly,
  kindOf,
  openFolderChain,
  openIn,
  type EntryKind,
  type OpenedFile,
  type Refusal,
} from "./untrusted-files";

/** Folders deeper than this are not entered: one descriptor stays open per level. */
export const MAX_WALK_DEPTH = 256;
/** Entries handled between two yields to the event loop (the model gateway shares it). */
const ENTRIES_PER_YIELD = 256;

export interface WalkEntry {
  /** '/'-joined path from the walk's base. */
  rel: string;
  kind: EntryKind;
  /** lstat of the entry (its own mode and size, a link's not its target's), taken when asked; null if it is gone. */
  lstat(): fsSync.Stats | null;
  /** Opens the entry as a regular file (no link followed, never blocking); the caller closes it. */
  open(): OpenedFile | Refusal;
  /** A link's target, as text; null when it is no longer a link (replaced since the listing). */
  readlink(): string | null;
}

export interface WalkOptions {
  /** Entries that cannot be named in a bundle (not UTF-8), folders past MAX_WALK_DEPTH. */
  onSkip?(rel: string, reason: string): void;
  /** Sort each folder's entries by name (byte order), for stable manifests. */
  sorted?: boolean;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Visits everything under `base/sub` (`sub` may be "" for `base` itself), depth first, entering
 * folders only (never a link to one). A missing `sub` visits nothing; a `sub` that is a link or
 * not a folder is reported to `onSkip`.
 */
export async function walkUntrusted(
  base: string,
  sub: string,
  visit: (entry: WalkEntry) => void | Promise<void>,
  options: WalkOptions = {},
): Promise<void> {
  const start = openFolderChain(
    base,
    sub.split("/").filter((p) => p !== ""),
  );
  if (!start.ok) {
    if (start.kind !== "missing") options.onSkip?.(sub, start.reason);
    return;
  }
  let seen = 0;
  const walk = async (dirFd: number, prefix: string, depth: number): Promise<void> => {
    const entries = readdirSync(at(dirFd, ""), { withFileTypes: true, encoding: "buffer" });
    if (options.sorted) entries.sort((a, b) => Buffer.compare(a.name, b.name));
    for (const entry of entries) {
      const raw = entry.name;
      const name = raw.toString("utf8");
      const rel = prefix ? `${prefix}/${name}` : name;
      if (++seen % ENTRIES_PER_YIELD === 0) await yieldToLoop();
      if (!isUtf8(raw)) {
        options.onSkip?.(rel, "its name is not UTF-8");
        continue;
      }
      // The listing's own type (d_type; Node lstats when the file system gives none): with an lstat
      // (and a promise) per entry a 5,000-file scan took ~150 ms, not ~100 (bench:runner). The open
      // is checked with fstat anyway.
      const kind = kindOf(entry);
      if (kind === "directory") {
        if (depth >= MAX_WALK_DEPTH) {
          options.onSkip?.(rel, `deeper than ${MAX_WALK_DEPTH} folders`);
          continue;
        }
        const child = openIn(dirFd, raw, rel, true);
        if (!child.ok) {
          if (child.kind !== "missing") options.onSkip?.(rel, child.reason);
          continue;
        }
        try {
          await walk(child.fd, rel, depth + 1);
        } finally {
          closeQuietly(child.fd);
        }
        continue;
      }
      const visited = visit({
        rel,
        kind,
        lstat: () => lstatSync(at(dirFd, raw), { throwIfNoEntry: false }) ?? null,
        open: () => openIn(dirFd, raw, rel),
        readlink: () => {
          try {
            return readlinkSync(at(dirFd, raw), "utf8");
          } catch {
            return null;
          }
        },
      });
      if (visited) await visited;
    }
  };
  try {
    await walk(
      start.fd,
      sub
        .split("/")
        .filter((p) => p !== "")
        .join("/"),
      0,
    );
  } finally {
    closeQuietly(start.fd);
  }
}
