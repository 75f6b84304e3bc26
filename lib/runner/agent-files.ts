/**
 * The files an external agent leaves in its HOME that the run keeps under native/: its stderr log,
 * its session transcripts (the adapter says where) and whatever it wrote to its output folder.
 * The agent controls all of them, so each is read through lib/util/untrusted-files.ts: a link, a
 * FIFO or a socket there is noted, never followed or opened, and every read is bounded.
 */
import type { ExternalAgentAdapter } from "@/lib/agents/external";
import { explainUnsafeRelativePath } from "@/lib/util/relative-path";
import { describeKind, readUntrusted } from "@/lib/util/untrusted-files";
import { walkUntrusted } from "@/lib/util/untrusted-walk";
import type { RunnerNote } from "./run-notes";
import { DEFAULT_MAX_STORED_FILE_BYTES } from "./workspace";

/** The runner's own folder under HOME: the forwarder, stderr.log and the output folder. */
export const STUDIO_DIR = ".studio";
export const STDERR_FILE = `${STUDIO_DIR}/stderr.log`;
export const OUTPUT_DIR = `${STUDIO_DIR}/output`;
/** The end of stderr is kept (where a crash says why). */
const STDERR_MAX_BYTES = 4 * 1024 * 1024;

export interface AgentFiles {
  /** The end of stderr.log, as text ("" when absent or not a regular file). */
  stderr: string;
  /** By name under native/: `stderr.log`, `home/<session file>`, `output/<file>`. */
  native: Map<string, Buffer>;
  notes: Omit<RunnerNote, "area">[];
}

export async function collectAgentFiles(input: {
  homeDir: string;
  adapter: ExternalAgentAdapter;
  maxStoredFileBytes?: number;
}): Promise<AgentFiles> {
  const { homeDir } = input;
  const maxBytes = input.maxStoredFileBytes ?? DEFAULT_MAX_STORED_FILE_BYTES;
  const native = new Map<string, Buffer>();
  const notes: AgentFiles["notes"] = [];
  const note = (path: string, reason: string) => notes.push({ path, reason });

  let stderr = "";
  const log = await readUntrusted(homeDir, STDERR_FILE, { maxBytes: STDERR_MAX_BYTES, keepTail: true });
  if (log.ok) {
    stderr = log.data.toString("utf8");
    native.set("stderr.log", log.data);
    if (log.truncated) note(STDERR_FILE, `${log.size} bytes: only the last ${STDERR_MAX_BYTES} kept`);
  } else if (log.kind !== "missing") note(STDERR_FILE, log.reason);

  const keep = async (rel: string, name: string) => {
    // A name a bundle cannot hold (a backslash, a control character) would lose the whole run.
    const problem = explainUnsafeRelativePath(name);
    if (problem) return note(rel, `not kept: its name ${problem}`);
    const file = await readUntrusted(homeDir, rel, { maxBytes, refuseLarger: true });
    if (file.ok) native.set(name, file.data);
    else if (file.kind !== "missing") note(rel, `${file.reason}; not kept`);
  };
  for (const rel of await input.adapter.sessionFiles(homeDir)) await keep(rel, `home/${rel}`);
  const outputs: string[] = [];
  await walkUntrusted(
    homeDir,
    OUTPUT_DIR,
    (entry) => {
      if (entry.kind === "file") outputs.push(entry.rel);
      else note(entry.rel, describeKind(entry.rel, entry.kind));
    },
    { onSkip: (rel, reason) => note(rel, reason) },
  );
  for (const rel of outputs) await keep(rel, `output/${rel.slice(OUTPUT_DIR.length + 1)}`);
  return { stderr, native, notes };
}
