import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { TrajectoryStepSchema } from "@/lib/bundle/schema";
import { stepActions } from "@/lib/judge/rules/file-actions";
import type { NormalizedTranscript } from "./transcript";

/** Transcripts the real CLIs wrote against a scripted local model (fixtures/README.md). */
const FIXTURES = path.join(import.meta.dirname, "fixtures");
export const readFixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), "utf8");

/** Every step is a valid trajectory step and the ids are unique. */
export function expectValidSteps(result: NormalizedTranscript) {
  for (const step of result.steps)
    expect(TrajectoryStepSchema.safeParse(step).success, JSON.stringify(step)).toBe(true);
  expect(new Set(result.steps.map((s) => s.id)).size).toBe(result.steps.length);
}
export const kinds = (result: NormalizedTranscript) => result.steps.map((s) => s.kind);
/** The paths the steps write, as the rule judge reads them. */
export const writes = (result: NormalizedTranscript) =>
  result.steps
    .flatMap(stepActions)
    .filter((a) => a.kind === "write")
    .map((a) => a.path);
