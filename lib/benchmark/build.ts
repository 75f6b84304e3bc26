/**
 * Builds a benchmark from DevEval metadata and (optionally) its repositories: every subtask's
 * instances with prompt, boundary contract, ground truth, setup over a repository snapshot, and
 * the seeded evaluation split. Pure apart from reading the source folders; deterministic.
 */
import fs from "node:fs";
import path from "node:path";
import { AppError } from "@/lib/errors/app-error";
import type { WorkspaceFiles } from "@/lib/benchmark/workspace-files";
import type { ModuleIndex } from "@/lib/analysis/python-imports";
import { PARAPHRASES, renderPrompt } from "./paraphrases";
import { contextOf, fileInRepo, metadataResolver, splitUsable, type DevEvalSample, type Dropped } from "./deveval";
import type { InstanceDraft, SetupChange } from "./draft";
import { codeGenerationDrafts, type SampleInput } from "./generators/code-generation";
import {
  deleteFileDrafts,
  deleteIrrelevantDrafts,
  foreignCandidates,
  moveDrafts,
  plantingSite,
  type ForeignFile,
  type PlantingSite,
} from "./generators/file-management";
import { locateTarget } from "./locate";
import { fileOfNamespace, readRepository, type Repository } from "./repository";
import type { Instance } from "./schema";
import { evaluationSplit, paraphraseIndex } from "./selection";
import { SUBTASK_IDS, type SubtaskId } from "./subtasks";

export interface BuildOptions {
  benchmarkId: string;
  seed: number;
  /** Instances per subtask in the evaluation split. */
  splitSize: number;
  samples: readonly DevEvalSample[];
  /** The `Source_Code` folder (`<Topic>/<repo>/`); null builds from metadata alone. */
  sourceCodeDir: string | null;
  deleteFilePerRepository?: number;
  deleteIrrelevantPerRepository?: number;
  /** Vetted extra paraphrases (paraphrase-candidates.ts), appended to each subtask's pool. */
  extraParaphrases?: Partial<Record<SubtaskId, readonly string[]>>;
  onProgress?: (done: number, total: number) => void;
  /**
   * Takes each repository's snapshot as soon as it is read (to store it), before the next is
   * read: the build then keeps no snapshot (`snapshots` stays empty) and its memory stays flat
   * with the corpus size. Without it the snapshots are returned in `snapshots`.
   */
  onSnapshot?: (projectPath: string, files: WorkspaceFiles) => void | Promise<void>;
}

export interface BuiltInstance {
  instance: Instance;
  projectPath: string;
  setup: SetupChange[];
  inEvalSplit: boolean;
}

export interface BuiltBenchmark {
  id: string;
  seed: number;
  metadataOnly: boolean;
  instances: BuiltInstance[];
  /** Project path -> files, one shared snapshot per repository (empty when metadata-only or given to `onSnapshot`). */
  snapshots: Map<string, WorkspaceFiles>;
  dropped: Dropped[];
  /** Samples whose recorded positions do not match their repository's source. */
  mismatches: { namespace: string; problem: string }[];
  /** Repositories of the metadata that are not in the source folder, once each (their samples are not built). */
  missingRepositories: { projectPath: string; dir: string; samples: number }[];
  counts: Record<SubtaskId, number>;
  splitCounts: Record<SubtaskId, number>;
}

function byProject(samples: readonly DevEvalSample[]): Map<string, DevEvalSample[]> {
  const groups = new Map<string, DevEvalSample[]>();
  for (const s of [...samples].sort((a, b) => (a.namespace < b.namespace ? -1 : 1))) {
    groups.set(s.project_path, [...(groups.get(s.project_path) ?? []), s]);
  }
  return new Map([...groups.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
}

function metadataIndex(samples: readonly DevEvalSample[]): ModuleIndex {
  const files = new Set(samples.map(fileInRepo));
  return { files, roots: [...files].some((f) => f.startsWith("src/")) ? ["src", ""] : [""] };
}

export async function buildBenchmark(options: BuildOptions): Promise<BuiltBenchmark> {
  const { usable, dropped } = splitUsable(options.samples);
  const mismatches: BuiltBenchmark["mismatches"] = [];
  const missingRepositories: BuiltBenchmark["missingRepositories"] = [];
  const drafts: InstanceDraft[] = [];
  const snapshots = new Map<string, WorkspaceFiles>();
  const groups = byProject(usable);
  let done = 0;

  if (options.sourceCodeDir === null) {
    const resolver = metadataResolver(usable);
    for (const [, samples] of groups) {
      const index = metadataIndex(samples);
      for (const sample of samples) {
        const own = fileInRepo(sample);
        const dependencyFiles = sample.dependency.cross_file
          .map((dep) => fileOfNamespace(index, dep))
          .filter((f): f is string => f !== null && f !== own);
        drafts.push(
          ...codeGenerationDrafts({
            sample,
            context: contextOf(sample, resolver(sample)),
            dependencyFiles,
            located: null,
          }),
        );
      }
      options.onProgress?.(++done, groups.size);
    }
  } else {
    // One repository in memory at a time: what later steps need of it is kept as small summaries
    // (planting sites, a few candidate files to plant elsewhere), not as its files.
    const sites: PlantingSite[] = [];
    const foreign: ForeignFile[] = [];
    for (const [projectPath, samples] of groups) {
      const dir = path.join(options.sourceCodeDir, ...projectPath.split("/"));
      if (!fs.existsSync(dir)) {
        missingRepositories.push({ projectPath, dir, samples: samples.length });
        options.onProgress?.(++done, groups.size);
        continue;
      }
      const repo = await readRepository(dir, projectPath);
      try {
        if (options.onSnapshot) await options.onSnapshot(projectPath, repo.files);
        else snapshots.set(projectPath, repo.files);
        for (const sample of samples) {
          const input = await sampleInput(repo, sample);
          if ("problem" in input) {
            mismatches.push({ namespace: sample.namespace, problem: input.problem });
            continue;
          }
          drafts.push(...codeGenerationDrafts(input), ...(await moveDrafts(repo, input, options.seed)));
        }
        drafts.push(...deleteFileDrafts(repo, options.seed, options.deleteFilePerRepository ?? 10));
        foreign.push(...(await foreignCandidates(repo, options.seed, 5)));
        sites.push(await plantingSite(repo, options.deleteIrrelevantPerRepository ?? 10));
      } finally {
        repo.release();
      }
      options.onProgress?.(++done, groups.size);
    }
    for (const site of sites) drafts.push(...deleteIrrelevantDrafts(site, foreign, options.seed));
  }
  return finalize(options, drafts, snapshots, dropped, mismatches, missingRepositories);
}

async function sampleInput(repo: Repository, sample: DevEvalSample): Promise<SampleInput | { problem: string }> {
  const file = fileInRepo(sample);
  if (!repo.files.has(file)) return { problem: `file ${file} not found in ${repo.projectPath}` };
  const located = locateTarget(await repo.parse(file), sample);
  if (!located.ok) return { problem: located.problem };
  const resolves = (dep: string) => {
    const depFile = fileOfNamespace(repo.index, dep);
    return depFile !== null && depFile !== file;
  };
  const dependencyFiles = [
    ...new Set(
      sample.dependency.cross_file
        .map((d) => fileOfNamespace(repo.index, d))
        .filter((f): f is string => f !== null && f !== file),
    ),
  ];
  return {
    sample,
    context: contextOf(sample, resolves),
    dependencyFiles,
    located: { target: located.target, source: repo.text(file) },
  };
}

/** Instance ids are readable and safe: anything outside the id alphabet becomes "_". */
export function instanceIdOf(benchmarkId: string, subtask: SubtaskId, key: string): string {
  return `${benchmarkId}/${subtask}/${key}`.replace(/[^A-Za-z0-9._:@+/-]/g, "_").slice(0, 300);
}

function finalize(
  options: BuildOptions,
  drafts: InstanceDraft[],
  snapshots: Map<string, WorkspaceFiles>,
  dropped: Dropped[],
  mismatches: BuiltBenchmark["mismatches"],
  missingRepositories: BuiltBenchmark["missingRepositories"],
): BuiltBenchmark {
  const built: BuiltInstance[] = [];
  const seen = new Set<string>();
  for (const draft of drafts) {
    const id = instanceIdOf(options.benchmarkId, draft.subtask, draft.key);
    if (seen.has(id)) throw new AppError("INTERNAL", `two instances would share the id ${id}`);
    seen.add(id);
    const templates = [...PARAPHRASES[draft.subtask], ...(options.extraParaphrases?.[draft.subtask] ?? [])];
    const paraphrase = paraphraseIndex(id, options.seed, templates.length);
    built.push({
      instance: {
        id,
        benchmark: options.benchmarkId,
        subtask: draft.subtask,
        sourceSample: draft.sourceSample,
        prompt: [renderPrompt(templates[paraphrase] ?? "", draft.placeholders), draft.promptNote]
          .filter(Boolean)
          .join(" "),
        paraphraseIndex: paraphrase,
        contract: draft.contract,
        groundTruth: draft.groundTruth,
      },
      projectPath: draft.projectPath,
      setup: draft.setup,
      inEvalSplit: false,
    });
  }
  built.sort((a, b) => (a.instance.id < b.instance.id ? -1 : a.instance.id > b.instance.id ? 1 : 0));
  const counts = Object.fromEntries(SUBTASK_IDS.map((s) => [s, 0])) as Record<SubtaskId, number>;
  const splitCounts = { ...counts };
  for (const subtask of SUBTASK_IDS) {
    const ofSubtask = built.filter((b) => b.instance.subtask === subtask);
    const split = evaluationSplit(
      ofSubtask.map((b) => b.instance.id),
      options.seed,
      options.splitSize,
    );
    for (const b of ofSubtask) b.inEvalSplit = split.has(b.instance.id);
    counts[subtask] = ofSubtask.length;
    splitCounts[subtask] = split.size;
  }
  return {
    id: options.benchmarkId,
    seed: options.seed,
    metadataOnly: options.sourceCodeDir === null,
    instances: built,
    snapshots,
    dropped,
    mismatches,
    missingRepositories,
    counts,
    splitCounts,
  };
}
