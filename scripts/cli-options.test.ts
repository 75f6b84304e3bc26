/**
 * Every CLI in scripts/ against its one declaration of options: --help (exit 0, on stdout) lists
 * each option it accepts, an unknown flag is refused (exit 2) before any work, a bad number is
 * named with the form it should have.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CommandUnknownOpts } from "@commander-js/extra-typings";
import { afterAll, describe, expect, it } from "vitest";
import { runCaptured } from "@/lib/cli/cli-io.fixture";
import type { CliIo } from "@/lib/cli/run-cli";
import * as ablation from "./ablation";
import * as analyze from "./analyze";
import * as audit from "./audit";
import * as benchAnalyzer from "./bench-analyzer";
import * as benchDistributed from "./bench-distributed";
import * as benchBuild from "./bench-build";
import * as benchBundleSize from "./bench-bundle-size";
import * as benchDashboard from "./bench-dashboard";
import * as benchEvaluate from "./bench-evaluate";
import * as benchHostileImport from "./bench-hostile-import";
import * as benchIngest from "./bench-ingest";
import * as benchPages from "./bench-pages";
import * as benchRunner from "./bench-runner";
import * as buildBenchmark from "./build-benchmark";
import * as demo from "./demo";
import * as evaluate from "./evaluate";
import * as ingest from "./ingest";
import * as judgeCheck from "./judge-check";
import * as migrate from "./migrate";
import * as ruleJudge from "./rule-judge";
import * as runAgents from "./run-agents";
import * as seedScale from "./seed-scale";
import * as setup from "./setup";
import * as users from "./users";
import * as worker from "./worker";

interface Cli {
  main: (argv: string[], io: CliIo) => Promise<number>;
  cli: () => CommandUnknownOpts;
}

/** Each CLI, with a number option and the form its message names (null: it takes no number). */
const CLIS: [string, Cli, [string, string] | null][] = [
  ["ablation", ablation, ["--per-subtask", "a positive integer"]],
  ["analyze", analyze, null],
  ["audit", audit, null],
  ["bench-analyzer", benchAnalyzer, ["--files", "an integer from 1 to 10000"]],
  ["bench-distributed", benchDistributed, ["--runs", "an integer from 1 to 10000"]],
  ["bench-bundle-size", benchBundleSize, ["--files", "an integer from 0 to 200000"]],
  ["bench-build", benchBuild, ["--repos", "an integer from 1 to 10000"]],
  ["bench-dashboard", benchDashboard, ["--iterations", "an integer from 5 to 10000"]],
  ["bench-evaluate", benchEvaluate, ["--count", "an integer from 1 to 100000"]],
  ["bench-hostile-import", benchHostileImport, ["--port", "an integer from 1024 to 65535"]],
  ["bench-ingest", benchIngest, ["--count", "an integer from 1 to 100000"]],
  ["bench-pages", benchPages, ["--iterations", "an integer from 3 to 1000"]],
  ["bench-runner", benchRunner, ["--files", "an integer from 1 to 200000"]],
  ["build-benchmark", buildBenchmark, ["--split-size", "a positive integer"]],
  ["demo", demo, ["--port", "an integer from 1 to 65535"]],
  ["evaluate", evaluate, ["--concurrency", "an integer from 1 to 32"]],
  ["ingest", ingest, ["--concurrency", "an integer from 1 to 64"]],
  ["judge-check", judgeCheck, ["--concurrency", "an integer from 1 to 32"]],
  ["migrate", migrate, null],
  ["rule-judge", ruleJudge, null],
  ["run-agents", runAgents, ["--limit", "a positive integer"]],
  ["seed-scale", seedScale, ["--runs", "an integer from 1 to 2000000"]],
  ["setup", setup, null],
  ["users", users, null],
  ["worker", worker, ["--poll-ms", "an integer from 50 to 60000"]],
];

const root = fs.mkdtempSync(path.join(os.tmpdir(), "cli-options-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

let counter = 0;

/** main() as runMain runs it, on a database path that must stay uncreated by a refused call. */
async function run(cli: Cli, argv: string[]) {
  const dbPath = path.join(root, `case-${++counter}`, "studio.db");
  const result = await runCaptured(cli.main, argv, { NODE_ENV: "test", STUDIO_DB: dbPath });
  return { ...result, message: result.error?.message ?? "", dbCreated: fs.existsSync(path.dirname(dbPath)) };
}

/** The command and, for `users`, each subcommand, with the argv prefix that reaches it. */
const commandsOf = (cli: Cli): [string[], CommandUnknownOpts][] => {
  const top = cli.cli();
  return [[[], top], ...top.commands.map((sub): [string[], CommandUnknownOpts] => [[sub.name()], sub])];
};

it("covers every CLI in scripts/", () => {
  const entryPoints = fs
    .readdirSync("scripts")
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .filter((f) => fs.readFileSync(path.join("scripts", f), "utf8").includes("isEntryPoint(import.meta.url)"))
    .map((f) => f.replace(/\.ts$/, ""));
  expect(CLIS.map(([name]) => name).sort()).toEqual(entryPoints.sort());
});

describe.each(CLIS)("%s", (_name, cli, numberOption) => {
  it("answers --help on stdout with exit 0, listing every option it accepts, each described", async () => {
    for (const [prefix, command] of commandsOf(cli)) {
      const help = await run(cli, [...prefix, "--help"]);
      expect(help.code, prefix.join(" ")).toBe(0);
      expect(help.stderr).toBe("");
      expect(help.stdout).toMatch(/^Usage: /);
      expect(help.dbCreated).toBe(false);
      for (const option of command.options) {
        expect(help.stdout).toContain(option.flags);
        expect(option.description.length, option.flags).toBeGreaterThan(0);
      }
      for (const sub of command.commands) expect(help.stdout).toContain(sub.name());
    }
  });

  it("refuses an unknown flag with exit 2, before any work", async () => {
    for (const [prefix] of commandsOf(cli)) {
      const refused = await run(cli, [...prefix, "--no-such-flag"]);
      expect(refused.code, prefix.join(" ")).toBe(2);
      expect(refused.message).toBe("unknown option '--no-such-flag'; see --help");
      expect(refused.stdout).toBe("");
      expect(refused.dbCreated).toBe(false);
    }
  });

  // Only CLIs that take a number get this test: a skipped one would read as missing test data.
  if (numberOption) {
    const [flag, expected] = numberOption;
    it("names a bad number and the form it should have", async () => {
      const refused = await run(cli, [flag, "abc"]);
      expect(refused.code).toBe(2);
      expect(refused.message).toBe(`${flag}: expected ${expected}, got "abc"`);
      expect(refused.dbCreated).toBe(false);
    });
  }
});
