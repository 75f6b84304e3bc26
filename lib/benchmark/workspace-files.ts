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
