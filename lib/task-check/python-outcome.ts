/**
 * What a check command's result means: pytest's exit codes, and a module Python could not find
 * told apart by whose it is. A module of the repository itself that is gone is the run's doing
 * (not completed); a third-party module that is not installed is the machine's (not checkable).
 */
import type { CommandResult } from "@/lib/agents/sandbox";
import { MAX_CHECK_OUTPUT_BYTES, type TaskCheckOutcome } from "./schema";

export interface CommandVerdict {
  outcome: TaskCheckOutcome;
  reason: string;
}

/** The modules Python reported missing (`ModuleNotFoundError: No module named 'rwlock'`), in order, once each. */
export function missingModules(output: string): string[] {
  const found = new Set<string>();
  for (const match of output.matchAll(/ModuleNotFoundError: No module named '([^']+)'/g)) found.add(match[1]!);
  return [...found];
}

/** The top-level modules and packages a workspace provides (`pkg/__init__.py`, `mod.py`, also under `src/`). */
export function workspaceTopLevels(paths: Iterable<string>): Set<string> {
  const names = new Set<string>();
  for (const path of paths) {
    const parts = path.replace(/^src\//, "").split("/");
    if (parts.length === 1 && parts[0]!.endsWith(".py")) names.add(parts[0]!.slice(0, -3));
    else if (parts.length > 1 && (parts.at(-1)!.endsWith(".py") || parts.at(-1) === "__init__.py"))
      names.add(parts[0]!);
  }
  return names;
}

/** The last `bytes` of a text, cut at a line start when one is near, marked when cut. */
export function outputTail(text: string, bytes = MAX_CHECK_OUTPUT_BYTES): string {
  const data = Buffer.from(text, "utf8");
  if (data.length <= bytes) return text;
  let tail = data.subarray(data.length - bytes).toString("utf8");
  const newline = tail.indexOf("\n");
  if (newline >= 0 && newline < 1024) tail = tail.slice(newline + 1);
  return `[… first ${data.length - Buffer.byteLength(tail)} bytes cut]\n${tail}`;
}

/** The last non-blank line of an output (pytest's summary, an exception's message). */
export function lastLine(output: string): string {
  const lines = output.split("\n").map((l) => l.trim());
  return lines.filter((l) => l !== "").at(-1) ?? "";
}

/**
 * A missing module among those reported: a third-party one (not checkable), or one of the
 * repository's that the run removed (not completed); null when none was reported.
 */
function missingModuleVerdict(output: string, ownModules: ReadonlySet<string>): CommandVerdict | null {
  const missing = missingModules(output);
  if (missing.length === 0) return null;
  const own = missing.find((m) => ownModules.has(m.split(".")[0]!));
  if (own) return { outcome: "not_completed", reason: `the repository's module ${own} cannot be imported any more` };
  if (missing.includes("pytest"))
    return { outcome: "not_checkable", reason: "pytest is not installed for the check's Python (npm run setup)" };
  return { outcome: "not_checkable", reason: `missing third-party module ${missing[0]}` };
}

/** A command stopped by its time or resource limit. */
function limitVerdict(result: CommandResult, what: string, timeoutMs: number): CommandVerdict | null {
  if (result.timedOut)
    return { outcome: "not_completed", reason: `${what} did not finish within ${Math.round(timeoutMs / 1000)} s` };
  if (result.limitHit)
    return { outcome: "not_completed", reason: `${what} stopped at the ${result.limitHit.replace("_", " ")}` };
  return null;
}

/**
 * pytest's result: exit 0 passed; 1 some failed; 2 interrupted (collection errors); 3 internal
 * error; 4 usage error (a node id not found); 5 nothing collected.
 */
export function pytestVerdict(
  result: CommandResult,
  tests: readonly string[],
  ownModules: ReadonlySet<string>,
  timeoutMs: number,
): CommandVerdict {
  const what = `the sample's tests (${tests.length})`;
  const limited = limitVerdict(result, what, timeoutMs);
  if (limited) return limited;
  if (result.exitCode === 0) return { outcome: "completed", reason: `${what} pass` };
  const missing = missingModuleVerdict(result.output, ownModules);
  if (missing) return missing;
  const summary = lastLine(result.output);
  // A test module that does not import (pytest's "ERROR collecting"): exit 2, or 4 with node ids.
  const collecting = /^ERROR collecting /m.test(result.output) || /^_+ ERROR collecting /m.test(result.output);
  const error = /^E {3}(.+)$/m.exec(result.output)?.[1]?.trim() ?? summary;
  if (collecting || result.exitCode === 2)
    return { outcome: "not_completed", reason: `${what} could not be collected: ${error}` };
  switch (result.exitCode) {
    case 1:
      return { outcome: "not_completed", reason: `${what} fail: ${summary}` };
    case 4:
    case 5:
      return { outcome: "not_checkable", reason: `pytest found no test to run (exit ${result.exitCode}): ${summary}` };
    default:
      return {
        outcome: "not_checkable",
        reason: `pytest failed to run (exit ${result.exitCode ?? "none"}): ${summary}`,
      };
  }
}

/** `python -c "import pkg"`: whether a package still imports. */
export function importVerdict(
  result: CommandResult,
  module: string,
  ownModules: ReadonlySet<string>,
  timeoutMs: number,
): CommandVerdict {
  const limited = limitVerdict(result, `importing ${module}`, timeoutMs);
  if (limited) return limited;
  if (result.exitCode === 0) return { outcome: "completed", reason: `${module} imports` };
  // The package's own import of a module the run deleted is the run's doing; a third-party one is not.
  const missing = missingModuleVerdict(result.output, ownModules);
  if (missing) return missing;
  return { outcome: "not_completed", reason: `${module} no longer imports: ${lastLine(result.output)}` };
}
