/**
 * File management: delete file, delete irrelevant file, add new file, add existing file.
 * Each needs the repository's source; selections are seeded and documented in docs/benchmark.md.
 */
import path from "node:path";
import {
  absoluteModule,
  listImports,
  moduleFile,
  unresolvedImports,
  type ImportStatement,
  type ModuleIndex,
} from "@/lib/analysis/python-imports";
import { moduleOfPath } from "@/lib/util/python-module";
import { declaredImportNames } from "../declared-dependencies";
import { seededShuffle } from "../selection";
import { fileInRepo, qualifiedNameInModule } from "../deveval";
import { contract, NO_GROUND_TRUTH, type InstanceDraft } from "../draft";
import type { Repository } from "../repository";
import type { SampleInput } from "./code-generation";
import { groundTruthOf } from "./code-generation";

/** Test code, docs, examples and packaging scripts are not "source files" to delete or plant. */
export function isSourceModule(file: string): boolean {
  if (!file.endsWith(".py")) return false;
  const segments = file.split("/");
  const name = segments.at(-1) ?? "";
  if (["setup.py", "conftest.py", "__init__.py", "__main__.py", "noxfile.py", "tasks.py"].includes(name)) return false;
  if (name.startsWith("test_") || name.endsWith("_test.py")) return false;
  return !segments
    .slice(0, -1)
    .some((s) =>
      ["tests", "test", "testing", "docs", "doc", "examples", "example", "scripts", "benchmarks"].includes(s),
    );
}

export function deleteFileDrafts(repo: Repository, seed: number, perRepository: number): InstanceDraft[] {
  const candidates = [...repo.index.files].filter((f) => isPackagedSourceModule(repo.index, f)).sort();
  return seededShuffle(candidates, `${seed}:delete_file:${repo.projectPath}`)
    .slice(0, perRepository)
    .sort()
    .map((file) => ({
      subtask: "delete_file" as const,
      projectPath: repo.projectPath,
      key: `${repo.projectPath}/${file}`,
      sourceSample: null,
      placeholders: { file },
      contract: contract({ expectedDelete: [file] }),
      groundTruth: { ...NO_GROUND_TRUTH, originalFile: file },
      setup: [],
    }));
}

/** Packages (folders with __init__.py) with 2-9 source modules and no sub-packages. */
export function leafPackages(repo: Repository): string[] {
  const dirs = new Set(
    [...repo.index.files].filter((f) => f.endsWith("/__init__.py")).map((f) => path.posix.dirname(f)),
  );
  return [...dirs]
    .filter((dir) => ![...dirs].some((other) => other.startsWith(`${dir}/`)))
    .filter((dir) => {
      const modules = [...repo.index.files].filter((f) => path.posix.dirname(f) === dir && isSourceModule(f));
      return modules.length >= 2 && modules.length <= 9 && isSourceModule(`${dir}/x.py`);
    })
    .sort();
}

/** A file of another repository that could be planted: it imports its own code. */
export interface ForeignFile {
  projectPath: string;
  file: string;
  content: Buffer;
  imports: ImportStatement[];
}

/**
 * A module that belongs to the repository's importable code: at a root (the repository's or
 * `src/`), or in folders that are all packages (`__init__.py`) from the root down. Release and
 * tooling scripts (`release/summarize_pr.py`) are not.
 */
export function isPackagedSourceModule(index: ModuleIndex, file: string): boolean {
  if (!isSourceModule(file)) return false;
  const root = index.roots.find((r) => r !== "" && file.startsWith(`${r}/`)) ?? "";
  const folders = (root === "" ? file : file.slice(root.length + 1)).split("/").slice(0, -1);
  return folders.every((_, i) =>
    index.files.has([root, ...folders.slice(0, i + 1), "__init__.py"].filter(Boolean).join("/")),
  );
}

export async function foreignCandidates(repo: Repository, seed: number, limit: number): Promise<ForeignFile[]> {
  const modules = seededShuffle(
    [...repo.index.files].filter((f) => isPackagedSourceModule(repo.index, f)).sort(),
    `${seed}:foreign:${repo.projectPath}`,
  );
  const chosen: ForeignFile[] = [];
  for (const file of modules) {
    if (chosen.length >= limit) break;
    const imports = listImports(await repo.parse(file)).filter((i) => !i.guarded);
    const ownImports = imports.filter(
      (i) => i.module.startsWith(".") || repo.index.files.has(moduleFile(repo.index, i.module) ?? ""),
    );
    if (ownImports.length > 0) {
      chosen.push({ projectPath: repo.projectPath, file, content: repo.files.get(file)!.data, imports });
    }
  }
  return chosen;
}

/**
 * What delete_irrelevant_file needs of a repository once its files are no longer held: its
 * module index, its declared dependencies, and its leaf packages with each module's imports.
 */
export interface PlantingSite {
  projectPath: string;
  index: ModuleIndex;
  /** Top-level import names of its declared dependencies (declared-dependencies.ts). */
  dependencies: ReadonlySet<string>;
  /** Leaf packages whose own modules all resolve (else the task would ask to delete the repository's own code). */
  packages: { dir: string; members: string[] }[];
}

export async function plantingSite(repo: Repository, perRepository: number): Promise<PlantingSite> {
  const dependencies = declaredImportNames(repo.files);
  const isDependency = (top: string) => dependencies.has(top) || dependencies.has(top.toLowerCase());
  const packages: PlantingSite["packages"] = [];
  for (const dir of leafPackages(repo)) {
    if (packages.length >= perRepository) break;
    const members = [...repo.index.files].filter((f) => path.posix.dirname(f) === dir).sort();
    let resolves = true;
    for (const file of members) {
      const imports = listImports(await repo.parse(file));
      if (unresolvedImports(repo.index, file, imports, isDependency).length > 0) resolves = false;
    }
    if (resolves) packages.push({ dir, members });
  }
  return { projectPath: repo.projectPath, index: repo.index, dependencies, packages };
}

/**
 * Per leaf package, one file of another repository planted in it: the first, in a seeded order,
 * whose name is free there and whose imports do not resolve in this repository (workspace,
 * standard library, declared dependencies). The package's own modules all resolve, so the planted
 * file is exactly what must be deleted.
 */
export function deleteIrrelevantDrafts(
  site: PlantingSite,
  foreign: readonly ForeignFile[],
  seed: number,
): InstanceDraft[] {
  const drafts: InstanceDraft[] = [];
  const others = foreign.filter((f) => f.projectPath !== site.projectPath);
  const isDependency = (top: string) => site.dependencies.has(top) || site.dependencies.has(top.toLowerCase());
  for (const { dir, members } of site.packages) {
    const order = seededShuffle(
      others,
      `${seed}:plant:${site.projectPath}:${dir}`,
      (f) => `${f.projectPath}/${f.file}`,
    );
    for (const candidate of order) {
      const planted = `${dir}/${path.posix.basename(candidate.file)}`;
      if (site.index.files.has(planted)) continue;
      const index = { ...site.index, files: new Set([...site.index.files, planted]) };
      if (unresolvedImports(index, planted, candidate.imports, isDependency).length === 0) continue;
      drafts.push({
        subtask: "delete_irrelevant_file",
        projectPath: site.projectPath,
        key: `${site.projectPath}/${dir}`,
        sourceSample: `${candidate.projectPath}/${candidate.file}`,
        placeholders: { package: dir },
        contract: contract({ mustRead: [...members, planted], expectedDelete: [planted] }),
        groundTruth: { ...NO_GROUND_TRUTH, originalFile: planted },
        setup: [{ path: planted, content: candidate.content }],
      });
      break;
    }
  }
  return drafts;
}

/** Files that use module-level function `name` of `source`, through any import form. */
export async function dependentsOf(repo: Repository, source: string, name: string): Promise<string[]> {
  const dependents: string[] = [];
  const sourceModule = moduleOfPath(source);
  for (const file of [...repo.index.files].sort()) {
    if (file === source) continue;
    const text = repo.text(file);
    if (!text.includes(name)) continue;
    const uses = listImports(await repo.parse(file)).some((statement) => {
      const absolute = absoluteModule(repo.index, file, statement.module);
      if (absolute === null) return false;
      if (statement.kind === "import") {
        // `import pkg.mod` then `pkg.mod.name`, `import pkg` then `pkg.mod.name`, `import pkg as p` then `p.mod.name`.
        if (sourceModule !== absolute && !sourceModule.startsWith(`${absolute}.`)) return false;
        const binding = statement.names[0]?.alias ?? absolute;
        return text.includes(`${binding}${sourceModule.slice(absolute.length)}.${name}`);
      }
      if (moduleFile(repo.index, absolute) === source) {
        return statement.names.some((n) => n.name === name || n.name === "*");
      }
      // `from pkg import module` then `module.name`.
      return statement.names.some(
        (n) =>
          moduleFile(repo.index, `${absolute ? `${absolute}.` : ""}${n.name}`) === source &&
          text.includes(`${n.alias ?? n.name}.${name}`),
      );
    });
    if (uses) dependents.push(file);
  }
  return dependents;
}

function newFileFor(repo: Repository, source: string, name: string): string | null {
  const dir = path.posix.dirname(source);
  const stem = path.posix.basename(source, ".py");
  const options = [`${name}.py`, `${stem}_${name}.py`].map((f) => (dir === "." ? f : `${dir}/${f}`));
  return options.find((f) => !repo.files.has(f)) ?? null;
}

/** The repository files `importer` imports by name. */
async function importedFiles(repo: Repository, importer: string): Promise<string[]> {
  const files = new Set<string>();
  for (const statement of listImports(await repo.parse(importer))) {
    const absolute = absoluteModule(repo.index, importer, statement.module);
    if (absolute === null) continue;
    const names = [absolute, ...statement.names.map((n) => (absolute ? `${absolute}.${n.name}` : n.name))];
    for (const name of names) {
      const file = moduleFile(repo.index, name);
      if (file && file !== importer) files.add(file);
    }
  }
  return [...files];
}

/** Whether `from` imports `to`: by name, or (`through`) also on the way through other modules of the repository. */
async function importsModule(repo: Repository, from: string, to: string, through = false): Promise<boolean> {
  if (!through) return (await importedFiles(repo, from)).includes(to);
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length > 0) {
    for (const next of await importedFiles(repo, queue.shift()!)) {
      if (next === to) return true;
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return false;
}

/** Move a module-level function: into a new file, or into an existing sibling module. */
export async function moveDrafts(repo: Repository, input: SampleInput, seed: number): Promise<InstanceDraft[]> {
  const { sample, located } = input;
  // A redefinition (`name#2`) is not moved: which definition the name means after the move is unclear.
  if (sample.type !== "function" || !located || located.target.definition.occurrence > 1) return [];
  const source = fileInRepo(sample);
  const name = qualifiedNameInModule(sample);
  const dependents = await dependentsOf(repo, source, name);
  const definition = located.target.definition;
  const all = located.source.split(/\r?\n/);
  const groundTruth = {
    ...groundTruthOf(input),
    // What must move verbatim: the whole function, decorators and docstring included.
    signature: all.slice(definition.startLine - 1, definition.signatureEndLine).join("\n"),
    docstring: definition.docstring?.text ?? null,
    body: all.slice(definition.startLine - 1, definition.endLine).join("\n"),
  };
  const drafts: InstanceDraft[] = [];
  const base = { projectPath: sample.project_path, key: sample.namespace, sourceSample: sample.namespace, setup: [] };

  const newFile = newFileFor(repo, source, name);
  if (newFile) {
    drafts.push({
      ...base,
      subtask: "add_new_file",
      placeholders: { function: name, file: source, new_file: newFile },
      contract: contract({
        mustRead: [source, ...dependents],
        mayChange: [source, ...dependents],
        expectedCreate: [newFile],
      }),
      groundTruth: { ...groundTruth, destinationFile: newFile },
    });
  }

  // An existing sibling that does not import the source (moving there must not create a cycle), nor
  // one the source imports, even through other modules, when the function uses names of its own
  // file: the destination would import them from a module still half imported (a verbatim move
  // cannot be made to work).
  const needsSource = sample.dependency.intra_file.length > 0;
  if (dependents.length > 0) {
    const dir = path.posix.dirname(source);
    const siblings = [...repo.index.files]
      .filter((f) => f !== source && path.posix.dirname(f) === dir && isSourceModule(f))
      .sort();
    for (const destination of seededShuffle(siblings, `${seed}:destination:${sample.namespace}`)) {
      if (await importsModule(repo, destination, source)) continue;
      if (needsSource && (await importsModule(repo, source, destination, true))) continue;
      drafts.push({
        ...base,
        subtask: "add_existing_file",
        placeholders: { function: name, file: source, destination },
        contract: contract({
          mustRead: [source, destination, ...dependents],
          mayChange: [source, destination, ...dependents],
        }),
        groundTruth: { ...groundTruth, destinationFile: destination },
      });
      break;
    }
  }
  return drafts;
}
