/**
 * bench:evaluate's real runs: the scripted agents (file-tools, terminal-editor; --mock) on every
 * instance of a benchmark built from DevEval repositories, made once into a database under the
 * temporary folder, keyed by what they are made from, and reused by later benchmarks. Making
 * them runs each in the sandbox (about 2.5 minutes per agent on the five DevEval repositories).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb, type Db } from "@/db/client";
import type { CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";
import { testDataPath } from "@/lib/test-support/test-data";
import { main as buildBenchmark } from "./build-benchmark";
import { main as runAgents } from "./run-agents";

const AGENTS = ["file-tools", "terminal-editor"] as const;
const SEED = "42";

export interface RealRunsSource {
  data: string;
  sourceCode: string;
  /** Why these repositories (the sample corpus stands in when STUDIO_TEST_DATA is unset). */
  note: string;
}

/** The five DevEval repositories under $STUDIO_TEST_DATA, else the sample corpus. */
export function realRunsSource(env: NodeJS.ProcessEnv): RealRunsSource {
  const real5 = testDataPath("deveval/data.real5.jsonl", env);
  if (real5)
    return {
      data: real5,
      sourceCode: path.join(path.dirname(real5), "Source_Code"),
      note: "the five DevEval repositories ($STUDIO_TEST_DATA/deveval)",
    };
  return {
    data: "data/sample-corpus/data.jsonl",
    sourceCode: "data/sample-corpus/Source_Code",
    note: "STUDIO_TEST_DATA is unset: the sample corpus's repositories stand in for DevEval's",
  };
}

/** What the runs are made from: the metadata, every source file's path and size, the agents, the seed. */
function keyOf(source: RealRunsSource): string {
  const hash = createHash("sha256").update(fs.readFileSync(source.data));
  const files = fs.readdirSync(source.sourceCode, { recursive: true, encoding: "utf8" }).sort();
  for (const file of files) hash.update(`${file}\0${fs.statSync(path.join(source.sourceCode, file)).size}\0`);
  return hash
    .update(`${AGENTS.join(",")}\0${SEED}`)
    .digest("hex")
    .slice(0, 16);
}

/** The database holding the real runs (made now if no earlier benchmark made them), checkpointed. */
export async function realRunsDb(source: RealRunsSource, cacheDir: string, io: CliIo): Promise<string> {
  const dir = path.join(cacheDir, keyOf(source));
  const dbPath = path.join(dir, "runs.db");
  if (fs.existsSync(path.join(dir, "complete"))) return dbPath;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  io.stderr.write(`making the real runs once into ${dir} (each in the sandbox: minutes)\n`);
  const sub: CliIo = { ...io, stdout: io.stderr, env: { ...io.env, STUDIO_DB: dbPath } };
  const build = ["--deveval-data", source.data, "--source-code", source.sourceCode, "--name", "bench-real"];
  if ((await buildBenchmark(build, sub)) !== 0)
    throw new AppError("INTERNAL", "the real runs' benchmark failed to build");
  for (const agent of AGENTS) {
    const argv = ["--benchmark", "bench-real", "--agent", agent, "--mock", "--split", "all", "--seed", SEED];
    if ((await runAgents([...argv, "--runs-dir", path.join(dir, "runs")], sub)) !== 0)
      throw new AppError("INTERNAL", `the ${agent} runs failed`);
  }
  const db = createDb(dbPath);
  db.$client.pragma("wal_checkpoint(TRUNCATE)");
  db.$client.close();
  // The run folders are imported and the workspace cache was only for making them: the database is all that is read again.
  for (const folder of ["runs", "cache"]) fs.rmSync(path.join(dir, folder), { recursive: true, force: true });
  fs.writeFileSync(path.join(dir, "complete"), "");
  return dbPath;
}

/** The DevEval samples the runs come from (an instance without one counts as its own). */
export function samplesOf(db: Db): number {
  return db.$client
    .prepare<[], { n: number }>(
      "SELECT count(DISTINCT coalesce(i.source_sample, r.instance_id)) AS n FROM runs r JOIN instances i ON i.id = r.instance_id",
    )
    .get()!.n;
}

/** A one-line description of the runs: how many, of how many samples, of which repositories and subtasks. */
export function describeRuns(dbPath: string): string {
  const db = createDb(dbPath);
  try {
    const rows = db.$client
      .prepare<[], { project: string | null; subtask: string }>(
        "SELECT i.project_path AS project, i.subtask_id AS subtask FROM runs r JOIN instances i ON i.id = r.instance_id",
      )
      .all();
    const tally = (keys: string[]) =>
      [...keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>())]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, n]) => `${k} ${n}`)
        .join(", ");
    const repos = rows.map((r) => r.project?.split("/").at(-1) ?? "(no repository)");
    return `${rows.length} runs of ${samplesOf(db)} DevEval samples; repositories: ${tally(repos)}; subtasks: ${tally(rows.map((r) => r.subtask))}`;
  } finally {
    db.$client.close();
  }
}

export const loadAverage = () =>
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")}`;
