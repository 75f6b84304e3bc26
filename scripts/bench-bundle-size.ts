/**
 * npm run bench:bundle-size: the bytes a run's workspace manifests take in the store, written in
 * full (bundle version 3 and lower) and as changes against the instance's prepared workspace
 * (version 4), on the DevEval repositories under $STUDIO_TEST_DATA (else the sample corpus) and on
 * one of them padded to --files files. Each instance gets one run that edits its target file and
 * creates a scratch file, imported once in each form; the version-4 base is stored once per
 * instance, and is reported apart.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createDb, type Db } from "@/db/client";
import { saveBenchmark } from "@/db/queries/benchmarks";
import { instanceWorkspaceSource } from "@/db/queries/instance-workspace";
import { importParsedBundle } from "@/db/queries/run-import";
import { buildBenchmark } from "@/lib/benchmark/build";
import { parseDevEvalJsonl } from "@/lib/benchmark/deveval";
import type { WorkspaceFiles } from "@/lib/benchmark/workspace-files";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { parseBundle } from "@/lib/bundle/parse";
import { bundleFilesOf, type RunRecord } from "@/lib/bundle/write";
import { cliCommand, integerOption, parseCli } from "@/lib/cli/args";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { workspaceBaseOfSource } from "@/lib/runner/workspace-base";
import { withOverlay } from "@/lib/runner/workspace-cache";
import { realRunsSource } from "./bench-real-runs";
import { generatedFiles } from "./bench-runner";

export const cli = () =>
  cliCommand(
    "npm run bench:bundle-size --",
    "Stored bytes per run of the workspace manifests, in full (bundle version 3) and as changes against the prepared workspace (version 4).",
  ).addOption(
    integerOption("--files <n>", "files the padded repository has (0: no padded repository)", {
      min: 0,
      max: 200_000,
    }).default(5000),
  );

interface Tally {
  runs: number;
  files: number;
  full: number;
  delta: number;
  bases: Map<string, number>;
}

/** One simulated run per instance, imported as a version-3 and a version-4 bundle. */
function importRuns(
  db: Db,
  instanceIds: readonly string[],
  tallies: Map<string, Tally>,
  projectOf: Map<string, string>,
  prefix: string,
) {
  instanceIds.forEach((id, i) => {
    const source = instanceWorkspaceSource(db, id);
    const before = withOverlay(source.base, source.overlay);
    const after: WorkspaceFiles = new Map(before);
    const target = [...before.keys()].find((p) => p.endsWith(".py")) ?? [...before.keys()][0]!;
    after.set(target, {
      ...before.get(target)!,
      data: Buffer.concat([before.get(target)!.data, Buffer.from("\n# done\n")]),
    });
    after.set("scratch_test.py", { data: Buffer.from("print('ok')\n"), mode: 0o100644 });
    const template = generatedRunRecord({ index: i, seed: 9, steps: 10 });
    const benchmark = db.$client
      .prepare<[string], { id: string }>("SELECT benchmark_id AS id FROM instances WHERE id = ?")
      .get(id)!.id;
    const manifest = { ...template.manifest, benchmark, instanceId: id };
    const record: RunRecord = { ...template, manifest, before, after, instance: null };
    const base = workspaceBaseOfSource(source);
    const tally = tallies.get(projectOf.get(id)!)!;
    for (const [suffix, version] of [
      ["v3", { base: null }],
      ["v4", { base }],
    ] as const) {
      const files = bundleFilesOf({
        ...record,
        ...version,
        manifest: { ...manifest, runId: `${prefix}${i}-${suffix}` },
      });
      importParsedBundle(db, parseBundle(files, `${prefix}${i}-${suffix}`), { via: "cli" });
      const bytes = files.get("workspace/before.json")!.length + files.get("workspace/after.json")!.length;
      if (suffix === "v3") tally.full += bytes;
      else tally.delta += bytes;
    }
    tally.runs += 1;
    tally.files += before.size;
    tally.bases.set(base.digest, base.bytes.length);
  });
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = await parseCli(cli(), argv, io);
  if (!parsed) return 0;
  const args = parsed.options;
  const source = realRunsSource(io.env);
  const work = await fs.mkdtemp(path.join(os.tmpdir(), "bench-bundle-size-"));
  const db = createDb(path.join(work, "studio.db"));
  try {
    const built = await buildBenchmark({
      benchmarkId: "bench-size",
      seed: 42,
      splitSize: 200,
      samples: parseDevEvalJsonl(await fs.readFile(source.data, "utf8"), source.data),
      sourceCodeDir: source.sourceCode,
    });
    const padded = built.instances[0]!.projectPath;
    const paddedName = `${padded} padded to ${args.files} files`;
    const projectOf = new Map(built.instances.map((b) => [b.instance.id, b.projectPath]));
    saveBenchmark(db, built, { name: "bench-size", source: "deveval", config: {} });
    const tallies = new Map<string, Tally>();
    const tallyOf = (): Tally => ({ runs: 0, files: 0, full: 0, delta: 0, bases: new Map() });
    for (const project of new Set(projectOf.values())) tallies.set(project, tallyOf());
    io.stderr.write(`${source.note}: ${built.instances.length} instances\n`);
    importRuns(db, [...projectOf.keys()], tallies, projectOf, "r");

    if (args.files > 0) {
      // The same repository's instances again, under another benchmark whose snapshot is padded.
      const snapshot = new Map(built.snapshots.get(padded)!);
      for (const [rel, file] of generatedFiles(Math.max(0, args.files - snapshot.size))) snapshot.set(rel, file);
      const instances = built.instances
        .filter((b) => b.projectPath === padded)
        .map((b) => ({ ...b, instance: { ...b.instance, id: `padded-${b.instance.id}`, benchmark: "bench-padded" } }));
      saveBenchmark(
        db,
        { ...built, id: "bench-padded", instances, snapshots: new Map([[padded, snapshot]]) },
        { name: "bench-padded", source: "deveval", config: {} },
      );
      for (const b of instances) projectOf.set(b.instance.id, paddedName);
      tallies.set(paddedName, tallyOf());
      importRuns(
        db,
        instances.map((b) => b.instance.id),
        tallies,
        projectOf,
        "p",
      );
    }

    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
    for (const [project, t] of tallies) {
      if (t.runs === 0) continue;
      const baseBytes = [...t.bases.values()].reduce((a, b) => a + b, 0);
      io.stdout.write(
        `${project}: ${t.runs} runs, ${Math.round(t.files / t.runs)} files each; workspace manifests per run: ` +
          `version 3 ${kb(t.full / t.runs)} (${(t.full / t.files).toFixed(0)} bytes per file), ` +
          `version 4 ${(t.delta / t.runs).toFixed(0)} bytes (${(t.full / t.delta).toFixed(0)}x less); ` +
          `bases stored once: ${t.bases.size} x ${kb(baseBytes / t.bases.size)} ` +
          `(with them spread over these runs: ${kb((t.delta + baseBytes) / t.runs)} per run)\n`,
      );
    }
    const stored = db.$client
      .prepare<[], { version: number; bytes: number; runs: number }>(
        `SELECT r.bundle_version AS version, sum(a.size) AS bytes, count(DISTINCT r.id) AS runs
           FROM run_artifacts a JOIN runs r ON r.id = a.run_id WHERE a.path LIKE 'workspace/%' GROUP BY r.bundle_version`,
      )
      .all();
    for (const row of stored)
      io.stdout.write(`stored as version ${row.version}: ${row.runs} runs, ${kb(row.bytes / row.runs)} per run\n`);
    return 0;
  } finally {
    db.$client.close();
    await fs.rm(work, { recursive: true, force: true });
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
