import type { z } from "zod";
import { AppError, type ErrorCode } from "@/lib/errors/app-error";
import { formatIssuePath } from "@/lib/errors/zod-issues";

/** Where in a bundle a problem sits: the member, and a line or field inside it. */
export interface BundleLocation {
  bundle: string;
  member?: string;
  line?: number;
  field?: string;
}

/**
 * A precise complaint about one bundle: `runs/r1: trajectory.jsonl line 12, field "exitCode":
 * expected number, received string`.
 */
export class BundleError extends AppError {
  readonly location: BundleLocation;
  readonly problem: string;

  constructor(location: BundleLocation, problem: string, code: ErrorCode = "BUNDLE_INVALID") {
    super(code, oneLine(`${formatLocation(location)}: ${problem}`));
    this.location = location;
    this.problem = problem;
  }
}

/** Messages are one line: control characters from names or values are shown escaped. */
function oneLine(text: string): string {
  return text.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

export function formatLocation(location: BundleLocation): string {
  let text = location.bundle;
  if (location.member) text += `: ${location.member}`;
  if (location.line !== undefined) text += ` line ${location.line}`;
  if (location.field) text += `, field "${location.field}"`;
  return text;
}

/** Turns the first issue of a zod error into a BundleError at the given member (and line). */
export function bundleErrorFromZod(error: z.ZodError, location: Omit<BundleLocation, "field">): BundleError {
  const issue = error.issues[0];
  if (!issue) return new BundleError(location, "invalid content");
  const field = issue.path.length > 0 ? formatIssuePath(issue.path) : undefined;
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problem(s))` : "";
  return new BundleError({ ...location, field }, `${issue.message}${more}`);
}
