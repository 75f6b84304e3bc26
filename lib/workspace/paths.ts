/**
 * Resolving a path the model named (relative to the workspace, or absolute) to a file inside the
 * workspace. Anything that leaves it, lexically (`..`, another absolute path) or through a symlink
 * (even a dangling one, even in a parent folder), is refused with an error that says why.
 * A process still running in the workspace could swap a folder for a symlink between the check
 * and the access: reads go through `readResolved`, which refuses a link anywhere on the resolved
 * path (and FIFOs: `mkfifo` then a read would block the agent loop forever); writes rely on the
 * sandbox running one command at a time, which closes the gap under bubblewrap.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { AppError } from "@/lib/errors/app-error";
import { readUntrusted, type ReadResult } from "@/lib/util/untrusted-files";

export interface WorkspacePath {
  /** The real location to read or write (symlinks inside the workspace resolved). */
  abs: string;
  /** As the model named it, relative to the workspace (POSIX; "." for the workspace itself). */
  rel: string;
  /** The absolute path to show the model (its own spelling, made absolute). */
  display: string;
}

const MAX_LINK_HOPS = 40;

const isInside = (root: string, p: string) => p === root || p.startsWith(root.endsWith("/") ? root : `${root}/`);

export interface WorkspaceRoot {
  /** The workspace as configured (what the model is told). */
  given: string;
  /** Its real path (all symlinks resolved). */
  real: string;
}

export async function workspaceRootOf(workspaceDir: string): Promise<WorkspaceRoot> {
  const given = path.resolve(workspaceDir);
  return { given, real: await fs.realpath(given) };
}

function refuse(input: string, why: string): never {
  throw new AppError(
    "FORBIDDEN",
    `Refused: the path ${input} ${why}; tools may only touch files inside the workspace.`,
  );
}

/**
 * `followFinal: false` leaves a symlink in the last position unresolved (deleting a link removes
 * the link, never its target), but still checks every folder on the way.
 */
export async function resolveWorkspacePath(
  root: WorkspaceRoot,
  input: string,
  options: { followFinal?: boolean } = {},
): Promise<WorkspacePath> {
  if (input.length === 0) throw new AppError("INVALID_INPUT", "The path is empty.");
  if (input.includes("\0")) throw new AppError("INVALID_INPUT", "The path contains a NUL byte.");
  const lexical = path.resolve(root.given, input);
  let relative: string;
  if (isInside(root.given, lexical)) relative = path.relative(root.given, lexical);
  else if (isInside(root.real, lexical)) relative = path.relative(root.real, lexical);
  else refuse(input, `is outside the workspace ${root.given}`);
  const rel = relative === "" ? "." : relative.split(path.sep).join("/");

  const pending = relative.split(path.sep).filter((s) => s.length > 0);
  let current = root.real;
  let hops = 0;
  while (pending.length > 0) {
    const name = pending.shift()!;
    const next = path.join(current, name);
    let stat;
    try {
      stat = await fs.lstat(next);
    } catch {
      // Does not exist (yet): nothing below it can be a symlink.
      current = path.join(next, ...pending);
      break;
    }
    if (stat.isSymbolicLink() && (pending.length > 0 || options.followFinal !== false)) {
      if (++hops > MAX_LINK_HOPS) refuse(input, "goes through too many symlinks");
      const target = path.resolve(current, await fs.readlink(next));
      if (!isInside(root.real, target))
        refuse(input, `goes through the symlink ${name} -> ${target}, out of the workspace`);
      pending.unshift(
        ...path
          .relative(root.real, target)
          .split(path.sep)
          .filter((s) => s.length > 0),
      );
      current = root.real;
    } else current = next;
  }
  return { abs: current, rel, display: path.join(root.given, relative) };
}

/** `'...'` for bash, whatever the text holds. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A message for the model from whatever went wrong (no stack traces, no host details beyond the path). */
export function messageOf(error: unknown): string {
  if (error instanceof AppError) return error.message;
  const errno = error as NodeJS.ErrnoException;
  const where = errno.path ? ` ${errno.path}` : "";
  switch (errno.code) {
    case "ENOENT":
      return `No such file or folder:${where}`;
    case "EISDIR":
      return `Is a folder:${where}`;
    case "ENOTDIR":
      return `Not a folder:${where}`;
    case "EACCES":
    case "EPERM":
      return `Permission denied:${where}`;
    case "EEXIST":
      return `Already exists:${where}`;
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

export function clip(text: string, maxChars: number, note = ""): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n<response clipped>${note}`;
}

/** Decodes UTF-8 text; null for binary content. */
export function textOf(data: Buffer): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    return null;
  }
}

/** Files a tool reads at most (the model sees a clipped view anyway). */
export const TOOL_READ_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Reads a resolved file: its path is real (no links), so a link found on it now was swapped in
 * since, and is refused; a FIFO, socket or device is refused unread; a file over the bound too.
 */
export function readResolved(target: WorkspacePath, maxBytes = TOOL_READ_MAX_BYTES): Promise<ReadResult> {
  return readUntrusted("/", target.abs.slice(1), { maxBytes, refuseLarger: true });
}
