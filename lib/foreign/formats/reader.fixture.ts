/** Test support for the foreign-format readers: files from the committed fixtures or text, runs read and checked. */
import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { TrajectoryStepSchema } from "@/lib/bundle/schema";
import type { ForeignFile, ForeignFormat, ForeignRun } from "../types";

const FIXTURES = path.join(__dirname, "fixtures");

/** A file at an absolute path, named by its base name as an import would name it. */
export function fileAt(absolute: string): ForeignFile {
  return { name: path.basename(absolute), data: fs.readFileSync(absolute) };
}

/** A committed fixture: `fixtureFile("openhands-events/handmade.json")`. */
export function fixtureFile(relative: string): ForeignFile {
  return fileAt(path.join(FIXTURES, relative));
}

export function textFile(name: string, text: string): ForeignFile {
  return { name, data: Buffer.from(text) };
}

/** Every run of the file, each checked: steps valid in our trajectory model, step ids unique. */
export function readRuns(format: ForeignFormat, file: ForeignFile): ForeignRun[] {
  const runs = format.read(file, { siblings: [] });
  for (const run of runs) {
    TrajectoryStepSchema.array().parse(run.steps);
    expect(new Set(run.steps.map((s) => s.id)).size).toBe(run.steps.length);
  }
  return runs;
}

/** The one run of a one-run file, checked as readRuns does. */
export function readOnlyRun(format: ForeignFormat, file: ForeignFile): ForeignRun {
  const runs = readRuns(format, file);
  expect(runs).toHaveLength(1);
  return runs[0]!;
}

/** The files a run's patch changes, from its `diff --git a/...` lines. */
export function patchFiles(run: ForeignRun): string[] {
  return [...(run.patch ?? "").matchAll(/^diff --git a\/(\S+)/gm)].map((m) => m[1] ?? "");
}

/** The reader's error for `file`, as text (expect it to name the file and where). */
export function readError(format: ForeignFormat, file: ForeignFile): string {
  try {
    format.read(file, { siblings: [] });
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
  return "no error";
}
