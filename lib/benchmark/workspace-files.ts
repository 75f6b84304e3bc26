import { createHash } from "node:crypto";

/**
 * A workspace held in memory: the instance's repository as the agent found it, or as it left it.
 * The benchmark builds it, the runner captures and restores it, and a bundle writes it out.
 */
export interface WorkspaceFile {
  data: Buffer;
  mode: number;
  /**
   * Set when the content was not kept (a file over the runner's size cap): its real size and hash,
   * streamed from disk; `data` is then empty. Written as an entry with `contentOmitted`.
   */
  omitted?: { size: number; sha256: string };
}

/** Relative path -> content and mode. */
export type WorkspaceFiles = Map<string, WorkspaceFile>;

/**
 * A repository snapshot's digest: over its entries in order (path, content hash, mode). Same
 * digest, same files: the workspace cache keys by it, and a remote worker checks what it was sent.
 */
export function snapshotDigest(entries: Iterable<{ path: string; sha256: string; mode: number }>): string {
  const digest = createHash("sha256");
  for (const e of entries) digest.update(`${e.path}\0${e.sha256}\0${e.mode}\n`);
  return digest.digest("hex");
}
