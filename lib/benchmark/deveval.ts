/**
 * DevEval metadata (`data.jsonl`, schema in the DevEval README): loading with line-precise errors,
 * dropping unusable samples with a reason, and the file- vs repository-context split.
 */
import { z } from "zod";
import { fieldIssue } from "@/lib/errors/zod-issues";
import { AppError } from "@/lib/errors/app-error";

const LineSpan = z
  .tuple([z.number().int().min(1), z.number().int().min(1)])
  .refine(([a, b]) => b >= a, "end before start");

export const DevEvalSampleSchema = z
  .object({
    namespace: z.string().min(1),
    type: z.enum(["function", "method"]),
    project_path: z.string().regex(/^[^/]+\/[^/]+$/, "<Topic>/<repo>"),
    completion_path: z.string().min(1),
    signature_position: LineSpan,
    body_position: LineSpan,
    dependency: z
      .object({ intra_class: z.array(z.string()), intra_file: z.array(z.string()), cross_file: z.array(z.string()) })
      .strict(),
    requirement: z.object({ Functionality: z.string(), Arguments: z.string() }).strict(),
    tests: z.array(z.string()),
    indent: z.number().int().min(0),
  })
  .strict()
  .refine((s) => s.completion_path.startsWith(`${s.project_path}/`), {
    message: "completion_path is not inside project_path",
    path: ["completion_path"],
  })
  .refine((s) => s.body_position[0] > s.signature_position[1] || s.body_position[0] >= s.signature_position[0], {
    message: "body starts before the signature",
    path: ["body_position"],
  });
export type DevEvalSample = z.infer<typeof DevEvalSampleSchema>;

/** Parses data.jsonl; the first bad line stops it with `FILE line N, field "x": problem`. */
export function parseDevEvalJsonl(text: string, label: string): DevEvalSample[] {
  const samples: DevEvalSample[] = [];
  const seen = new Map<string, number>();
  text.split("\n").forEach((raw, i) => {
    if (raw.trim() === "") return;
    const line = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new AppError("INVALID_INPUT", `${label} line ${line}: invalid JSON: ${(error as Error).message}`);
    }
    const result = DevEvalSampleSchema.safeParse(value);
    if (!result.success) {
      throw new AppError("INVALID_INPUT", `${label} line ${line}, ${fieldIssue(result.error)}`);
    }
    const first = seen.get(result.data.namespace);
    if (first !== undefined) {
      throw new AppError(
        "INVALID_INPUT",
        `${label} line ${line}: namespace "${result.data.namespace}" repeats line ${first}`,
      );
    }
    seen.set(result.data.namespace, line);
    samples.push(result.data);
  });
  if (samples.length === 0) throw new AppError("INVALID_INPUT", `${label}: no samples`);
  return samples;
}

/** File path of a sample inside its repository (`completion_path` without `project_path/`). */
export function fileInRepo(sample: DevEvalSample): string {
  return sample.completion_path.slice(sample.project_path.length + 1);
}

/** `Class.method` or `function`: the target's name inside its module. */
export function qualifiedNameInModule(sample: DevEvalSample): string {
  const parts = sample.namespace.split(".");
  return parts.slice(sample.type === "method" ? -2 : -1).join(".");
}

export interface Dropped {
  sample: DevEvalSample;
  reason: string;
}

/**
 * A target directly in its module (function) or class body (method) is indented by one or two
 * units of 2 or 4 spaces. Deeper means it sits in a module-level conditional or other block, as
 * DevEval's two boltons samples do; such a target has no stable place to put back, so it is dropped.
 * With source code, tree-sitter confirms the block (see locate.ts).
 */
export function blockNestingProblem(sample: DevEvalSample): string | null {
  const allowed = sample.type === "function" ? [2, 4] : [4, 8];
  if (allowed.includes(sample.indent)) return null;
  return `defined inside a module-level conditional or block (body indent ${sample.indent}, a ${sample.type} at its natural place has ${allowed.join(" or ")})`;
}

export function splitUsable(samples: readonly DevEvalSample[]): { usable: DevEvalSample[]; dropped: Dropped[] } {
  const usable: DevEvalSample[] = [];
  const dropped: Dropped[] = [];
  for (const sample of samples) {
    const problem = blockNestingProblem(sample);
    if (problem) dropped.push({ sample, reason: problem });
    else usable.push(sample);
  }
  return { usable, dropped };
}

/**
 * Repository-context = at least one cross-file dependency that belongs to the repository. With
 * source code, "belongs" means it resolves to a file of the repository other than the target's
 * (`resolvesInRepo`). From metadata alone it means its top-level name is one of the packages the
 * project's own samples live in, or the project's `tests` package: a dependency like
 * `recipe_ctx.RecipeCtx...` (a test helper imported by a bare name) names nothing in the repository.
 * On the full DevEval data both give 1,253 file-context and 570 repository-context samples.
 */
export function contextOf(
  sample: DevEvalSample,
  resolvesInRepo: (dependency: string) => boolean,
): "file" | "repository" {
  return sample.dependency.cross_file.some(resolvesInRepo) ? "repository" : "file";
}

export function metadataResolver(
  samples: readonly DevEvalSample[],
): (sample: DevEvalSample) => (dep: string) => boolean {
  const topsByProject = new Map<string, Set<string>>();
  for (const s of samples) {
    const tops = topsByProject.get(s.project_path) ?? new Set(["tests"]);
    tops.add(s.namespace.split(".")[0] ?? "");
    topsByProject.set(s.project_path, tops);
  }
  return (sample) => (dep) => topsByProject.get(sample.project_path)?.has(dep.split(".")[0] ?? "") ?? false;
}
