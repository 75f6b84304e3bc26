/**
 * Building a bundle from a run held in memory, and writing it as a folder or .zip (a .tar.gz, which
 * only tests write, is in test-support.ts).
 * The agent runner, the demo, the benchmarks and the tests all produce bundles through here.
 */
import fs from "node:fs/promises";
import path from "node:path";
import yazl from "yazl";
import type { Instance } from "@/lib/benchmark/schema";
import type { WorkspaceFiles } from "@/lib/benchmark/workspace-files";
import { canonicalJson } from "@/lib/util/canonical-json";
import { diffManifests, sha256Hex } from "./parse";
import type { BundleFiles } from "./read";
import { applyDelta, deltaAgainst, type WorkspaceBase } from "./workspace-delta";
import {
  BUNDLE_MEMBERS,
  CONTENT_DIR,
  DELTA_VERSION,
  NATIVE_DIR,
  type AstReportFile,
  type BundleVerdict,
  type EnvironmentSnapshot,
  type ManifestEntry,
  type RunManifest,
  type TrajectoryStep,
  type WorkspaceManifest,
} from "./schema";

export interface RunRecord {
  manifest: RunManifest;
  steps: TrajectoryStep[];
  before: WorkspaceFiles;
  after: WorkspaceFiles;
  environmentBefore?: EnvironmentSnapshot | null;
  environmentAfter?: EnvironmentSnapshot | null;
  instance?: Instance | null;
  verdicts?: BundleVerdict[];
  astReport?: AstReportFile | null;
  /** The agent's own transcripts, by path under native/. */
  native?: Map<string, Buffer>;
  /**
   * The instance's prepared workspace as the studio holds it: when given, the workspace members
   * are written as changes against it (version 4), and contents it holds are left out of files/.
   */
  base?: WorkspaceBase | null;
}

export function manifestOf(files: WorkspaceFiles): WorkspaceManifest {
  const entries: ManifestEntry[] = [...files.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([p, f]) =>
      f.omitted
        ? { path: p, size: f.omitted.size, mode: f.mode, sha256: f.omitted.sha256, contentOmitted: "too_large" }
        : { path: p, size: f.data.length, mode: f.mode, sha256: sha256Hex(f.data) },
    );
  return { files: entries };
}

/**
 * The bundle version a run needs (docs/run-bundle.md, section 9): 4 when written against a base,
 * else 2 once an entry's content is omitted, else 1.
 */
export function versionFor(
  before: WorkspaceManifest,
  after: WorkspaceManifest,
  base?: WorkspaceBase | null,
): RunManifest["version"] {
  if (base) return DELTA_VERSION;
  return [...before.files, ...after.files].some((e) => e.contentOmitted) ? 2 : 1;
}

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 1)}\n`);

export function bundleFilesOf(run: RunRecord): BundleFiles {
  const files: BundleFiles = new Map();
  const { base } = run;
  let before = manifestOf(run.before);
  let after = manifestOf(run.after);
  files.set(BUNDLE_MEMBERS.manifest, json({ ...run.manifest, version: versionFor(before, after, base) }));
  files.set(BUNDLE_MEMBERS.trajectory, Buffer.from(run.steps.map((s) => `${canonicalJson(s)}\n`).join("")));
  if (base) {
    const deltaBefore = deltaAgainst(base, before);
    const deltaAfter = deltaAgainst(base, after);
    files.set(BUNDLE_MEMBERS.workspaceBefore, json(deltaBefore));
    files.set(BUNDLE_MEMBERS.workspaceAfter, json(deltaAfter));
    // The manifests the importer will see: a file equal to the base's is the base's entry.
    before = applyDelta(base, deltaBefore, { bundle: "(written)", member: BUNDLE_MEMBERS.workspaceBefore });
    after = applyDelta(base, deltaAfter, { bundle: "(written)", member: BUNDLE_MEMBERS.workspaceAfter });
  } else {
    files.set(BUNDLE_MEMBERS.workspaceBefore, json(before));
    files.set(BUNDLE_MEMBERS.workspaceAfter, json(after));
  }
  for (const change of diffManifests(before, after)) {
    for (const [entry, side] of [
      [change.before, run.before],
      [change.after, run.after],
    ] as const) {
      if (!entry || entry.contentOmitted || base?.held.has(entry.sha256!)) continue;
      files.set(`${CONTENT_DIR}${entry.sha256}`, side.get(change.path)!.data);
    }
  }
  if (run.environmentBefore) files.set(BUNDLE_MEMBERS.environmentBefore, json(run.environmentBefore));
  if (run.environmentAfter) files.set(BUNDLE_MEMBERS.environmentAfter, json(run.environmentAfter));
  if (run.instance) files.set(BUNDLE_MEMBERS.instance, json(run.instance));
  if (run.verdicts && run.verdicts.length > 0) files.set(BUNDLE_MEMBERS.verdicts, json(run.verdicts));
  if (run.astReport) files.set(BUNDLE_MEMBERS.astReport, json(run.astReport));
  for (const [name, data] of run.native ?? []) files.set(`${NATIVE_DIR}${name}`, data);
  return files;
}

export async function writeBundleFolder(dir: string, files: BundleFiles): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  for (const [name, data] of files) {
    const target = path.join(dir, ...name.split("/"));
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, data);
  }
}

export function zipBuffer(files: BundleFiles): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const zip = new yazl.ZipFile();
    for (const [name, data] of files) zip.addBuffer(data, name);
    const chunks: Buffer[] = [];
    zip.outputStream.on("data", (c: Buffer) => chunks.push(c));
    zip.outputStream.on("error", reject);
    zip.outputStream.on("end", () => resolve(Buffer.concat(chunks)));
    zip.end();
  });
}
