import type { BoundaryContract, GroundTruth } from "./schema";
import type { SubtaskId } from "./subtasks";

/** A change over the repository snapshot that sets an instance up; `content: null` deletes. */
export interface SetupChange {
  path: string;
  content: Buffer | null;
}

/** What a generator produces; build.ts turns it into an instance (id, prompt, split). */
export interface InstanceDraft {
  subtask: SubtaskId;
  projectPath: string;
  /** Unique within the subtask: a sample namespace, or project + path. */
  key: string;
  sourceSample: string | null;
  /** Values for the prompt's placeholders. */
  placeholders: Record<string, string>;
  /** A sentence appended to the rendered prompt (which definition a `name#n` target is). */
  promptNote?: string | null;
  contract: BoundaryContract;
  groundTruth: GroundTruth;
  setup: SetupChange[];
}

export const NO_GROUND_TRUTH: GroundTruth = {
  originalFile: null,
  targetQualifiedName: null,
  signature: null,
  docstring: null,
  body: null,
  dependencies: { intraClass: [], intraFile: [], crossFile: [] },
  destinationFile: null,
  tests: [],
};

export function contract(partial: Partial<BoundaryContract>): BoundaryContract {
  const sorted = (xs: string[] | undefined) => [...new Set(xs ?? [])].sort();
  return {
    mustRead: sorted(partial.mustRead),
    mayChange: sorted(partial.mayChange),
    expectedCreate: sorted(partial.expectedCreate),
    expectedDelete: sorted(partial.expectedDelete),
  };
}
