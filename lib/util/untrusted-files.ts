/**
 * Reading files that an untrusted process controls (an agent's workspace, its HOME, its output
 * folder, `.git/`) from the host side, after the run. A link there is the agent's way to make the
 * host read what the sandbox hides (`ln -s /project/data/secret ~/.studio/stderr.log`), and a FIFO
 * its way to make the host block forever (`mkfifo .git/HEAD`). So nothing here follows a link, in
 * the file or in any folder above it, nothing blocks on a FIFO, and every read has a size and a
 * time bound. What is not a regular file is reported by kind, never read.
 *
 * Linux only, like the sandbox: a folder is opened with O_DIRECTORY|O_NOFOLLOW and the next name
 * is opened through `/proc/self/fd/<folder>/<name>` (Node's openat(2)), so a folder swapped for a
 * link between two calls is never followed. Files are opened O_NOFOLLOW|O_NONBLOCK and checked
 * with fstat after the open, so a FIFO swapped in after the listing is seen, not read. Walking a
 * folder the same way: untrusted-walk.ts.
 */
import { createHash } from "node:crypto";
import fsSync from "node:fs";

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = fsSync.constants;
const FILE_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
const DIR_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
/** Read and hash in chunks of this size, checking the deadline between them. */
const CHUNK_BYTES = 1024 * 1024;
/**
 * A read or hash past this is abandoned, checked between chunks (a run writing and hashing a 1 GiB
 * workspace file took 4.1 s in all here). A single read that never returns (a hung network mount)
 * still holds its thread; the sandbox shows agents no such mount.
 */
export const DEFAULT_READ_TIMEOUT_MS = 30_000;

export type EntryKind = "file" | "directory" | "symlink" | "fifo" | "socket" | "device" | "missing" | "other";

/** What a Stats or a Dirent says the entry is. */
export function kindOf(
  stat: Pick<
    fsSync.Stats,
    "isFile" | "isDirectory" | "isSymbolicLink" | "isFIFO" | "isSocket" | "isBlockDevice" | "isCharacterDevice"
  >,
): EntryKind {
  if (stat.isFile()) return "file";
  if (stat.isDirectory()) return "directory";
  if (stat.isSymbolicLink()) return "symlink";
  if (stat.isFIFO()) return "fifo";
  if (stat.isSocket()) return "socket";
  if (stat.isBlockDevice() || stat.isCharacterDevice()) return "device";
  return "other";
}

/** Why a path was not read. */
export interface Refusal {
  ok: false;
  kind: EntryKind;
  reason: string;
}

export interface OpenedFile {
  ok: true;
  fd: number;
  size: number;
  mode: number;
}

const refusal = (kind: EntryKind, reason: string): Refusal => ({ ok: false, kind, reason });

/** The path of `name` inside the folder open as `dirFd`, resolved by the kernel from that folder. */
export function at(dirFd: number, name: string | Buffer): string | Buffer {
  return typeof name === "string"
    ? `/proc/self/fd/${dirFd}/${name}`
    : Buffer.concat([Buffer.from(`/proc/self/fd/${dirFd}/`), name]);
}

function refusalOf(error: unknown, what: string): Refusal {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return refusal("missing", `${what} does not exist`);
  if (code === "ELOOP") return refusal("symlink", describeKind(what, "symlink"));
  if (code === "ENOTDIR") return refusal("other", `${what} is not a folder`);
  if (code === "ENXIO") return refusal("socket", describeKind(what, "socket"));
  return refusal("other", `${what} cannot be opened (${code ?? String(error)})`);
}

function lstatKind(file: string | Buffer): EntryKind | null {
  try {
    return kindOf(fsSync.lstatSync(file));
  } catch {
    return null;
  }
}

const KIND_TEXT: Record<EntryKind, string> = {
  file: "a regular file",
  directory: "a folder",
  symlink: "a symbolic link (not followed)",
  fifo: "a FIFO (not read)",
  socket: "a socket (not read)",
  device: "a device (not read)",
  missing: "missing",
  other: "not a regular file (not read)",
};

/** "x is a FIFO (not read)", for notes. */
export const describeKind = (label: string, kind: EntryKind) => `${label} is ${KIND_TEXT[kind]}`;

export function closeQuietly(fd: number): void {
  try {
    fsSync.closeSync(fd);
  } catch {
    // already closed
  }
}

/** Opens a file or folder in `dirFd` without following a link: regular files only, unless `directory`. */
export function openIn(dirFd: number, name: string | Buffer, label: string, directory = false): OpenedFile | Refusal {
  let fd: number;
  try {
    fd = fsSync.openSync(at(dirFd, name), directory ? DIR_FLAGS : FILE_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // O_DIRECTORY|O_NOFOLLOW on a link fails with ENOTDIR, not ELOOP: say what is really there.
    const found = code === "ENOTDIR" || code === "ELOOP" ? lstatKind(at(dirFd, name)) : null;
    if (found && found !== "directory") return refusal(found, describeKind(label, found));
    return refusalOf(error, label);
  }
  const stat = fsSync.fstatSync(fd);
  const kind = kindOf(stat);
  if (kind !== (directory ? "directory" : "file")) {
    closeQuietly(fd);
    return refusal(kind, describeKind(label, kind));
  }
  return { ok: true, fd, size: stat.size, mode: stat.mode };
}

/** Opens the trusted folder `base` (made by the runner, not by the agent). */
function openBase(base: string): number {
  return fsSync.openSync(base, O_RDONLY | O_DIRECTORY);
}

/**
 * Opens the folder `rel` under `base`, one component at a time, none of them a link. The caller
 * closes the descriptor.
 */
export function openFolderChain(base: string, parts: string[]): OpenedFile | Refusal {
  let dirFd: number;
  try {
    dirFd = openBase(base);
  } catch (error) {
    return refusalOf(error, base);
  }
  for (let i = 0; i < parts.length; i++) {
    const next = openIn(dirFd, parts[i]!, parts.slice(0, i + 1).join("/"), true);
    closeQuietly(dirFd);
    if (!next.ok) return next;
    dirFd = next.fd;
  }
  return { ok: true, fd: dirFd, size: 0, mode: 0 };
}

/** Opens the regular file `rel` ('/'-separated, relative) under the trusted folder `base`. The caller closes it. */
export function openUntrustedFile(base: string, rel: string): OpenedFile | Refusal {
  const parts = rel.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.length === 0 || parts.includes("..")) return refusal("other", `${rel} is not a path inside its folder`);
  const folder = openFolderChain(base, parts.slice(0, -1));
  if (!folder.ok) return folder;
  try {
    return openIn(folder.fd, parts.at(-1)!, rel);
  } finally {
    closeQuietly(folder.fd);
  }
}

export interface ReadBounds {
  /** Bytes kept at most; a longer file is cut (`truncated`), or refused with `refuseLarger`. */
  maxBytes: number;
  /** Keep the end of a longer file instead of its start (logs). */
  keepTail?: boolean;
  refuseLarger?: boolean;
  timeoutMs?: number;
}

export type ReadResult = { ok: true; data: Buffer; size: number; truncated: boolean } | Refusal;

const readChunk = (fd: number, buffer: Buffer, offset: number, length: number, position: number) =>
  new Promise<number>((resolve, reject) =>
    fsSync.read(fd, buffer, offset, length, position, (error, bytes) => (error ? reject(error) : resolve(bytes))),
  );

/** Reads up to `length` bytes from `position`, chunk by chunk, refusing past the deadline. */
async function readRange(fd: number, position: number, length: number, deadline: number, label: string) {
  const buffer = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    if (Date.now() > deadline) throw new Error(`${label}: reading took longer than allowed`);
    const bytes = await readChunk(fd, buffer, filled, Math.min(CHUNK_BYTES, length - filled), position + filled);
    if (bytes === 0) break; // shrank while we read
    filled += bytes;
  }
  return buffer.subarray(0, filled);
}

/** Reads the file `rel` under `base` within the bounds, or says why not (its kind, a sentence). */
export async function readUntrusted(base: string, rel: string, bounds: ReadBounds): Promise<ReadResult> {
  const opened = openUntrustedFile(base, rel);
  if (!opened.ok) return opened;
  try {
    return await readOpened(opened, rel, bounds);
  } finally {
    closeQuietly(opened.fd);
  }
}

export async function readOpened(opened: OpenedFile, label: string, bounds: ReadBounds): Promise<ReadResult> {
  const { size } = opened;
  if (size > bounds.maxBytes && bounds.refuseLarger) {
    return refusal("file", `${label} is ${size} bytes, over the limit of ${bounds.maxBytes}`);
  }
  const deadline = Date.now() + (bounds.timeoutMs ?? DEFAULT_READ_TIMEOUT_MS);
  const length = Math.min(size, bounds.maxBytes);
  const position = bounds.keepTail ? size - length : 0;
  try {
    const data = await readRange(opened.fd, position, length, deadline, label);
    return { ok: true, data, size, truncated: size > length };
  } catch (error) {
    return refusal("file", error instanceof Error ? error.message : String(error));
  }
}

/** sha256 of an open file, streamed: a file of any size costs CHUNK_BYTES of memory. */
export async function hashOpened(opened: OpenedFile, label: string, timeoutMs = DEFAULT_READ_TIMEOUT_MS) {
  const hash = createHash("sha256");
  const buffer = Buffer.alloc(Math.min(CHUNK_BYTES, Math.max(1, opened.size)));
  const deadline = Date.now() + timeoutMs;
  let position = 0;
  for (;;) {
    if (Date.now() > deadline) throw new Error(`${label}: hashing took longer than ${timeoutMs} ms`);
    const bytes = await readChunk(opened.fd, buffer, 0, buffer.length, position);
    if (bytes === 0) break;
    hash.update(buffer.subarray(0, bytes));
    position += bytes;
  }
  return { sha256: hash.digest("hex"), size: position };
}
