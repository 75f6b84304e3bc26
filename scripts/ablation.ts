/**
 * npm run ablation: one agent under several Code-KIT arms on the same instances (docs/ablation.md).
 * The instances are chosen once (the first --per-subtask of each subtask by id, whatever already
 * ran) and every arm runs exactly those through run-agents (resumable: done runs are skipped);
 * then each arm's runs get their task checks and the rule judge (and an LLM judge with
 * --llm-judge), and the table is printed: per arm the 11 rates, their average, task completion,
 * the change against none with McNemar's exact p, model calls and cost.
 */
import { createDb, databasePathFromEnv } from "@/db/client";
import { ablationBaseOf, ablationRuns } from "@/db/queries/ablation";
import { pickInstances } from "@/db/queries/run-plan";
import { ensureJudge } from "@/db/queries/verdicts";
import { SUBTASK_IDS } from "@/lib/benchmark/subtasks";
import { choiceListOption, choiceOption, cliCommand, integerOption, parseCli, textOption } from "@/lib/cli/args";
import { createProgress } from "@/lib/cli/progress";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { MITIGATIONS, type Mitigation } from "@/lib/codekit/arms";
import { prepareAblation } from "@/lib/dashboard/ablation";
import { ablationTextLines } from "@/lib/dashboard/ablation-report";
import { toQueryString } from "@/lib/dashboard/query-string";
import { AppError } from "@/lib/errors/app-error";
import { RULE_JUDGE } from "@/lib/judge/rules/rule-judge";
import { PROVIDERS } from "@/lib/agents/agent-spec";
import { main as evaluate } from "./evaluate";
import { runAgents } from "./run-agents";

export const DEFAULT_ARMS = ["none", "rules", "tools", "codekit"] as const;

export const cli = () =>
  cliCommand(
    "npm run ablation --",
    "Runs one agent under each Code-KIT arm on the same instances, evaluates the runs and prints the per-arm table (resumable).",
  )
    .addOption(textOption("--benchmark <id>", "the benchmark whose instances are run").makeOptionMandatory())
    .addOption(textOption("--agent <agent>", "as run-agents --agent").makeOptionMandatory())
    .addOption(
      choiceListOption("--arms <arms>", "the arms, comma-separated; none is the baseline", MITIGATIONS).default(
        [...DEFAULT_ARMS],
        DEFAULT_ARMS.join(","),
      ),
    )
    .addOption(
      choiceOption("--split <split>", "eval: the evaluation split only; all: every instance", ["eval", "all"]).default(
        "eval",
      ),
    )
    .addOption(choiceOption("--subtask <subtask>", "only this subtask's instances", SUBTASK_IDS))
    .addOption(integerOption("--per-subtask <n>", "the first n instances of each subtask", { min: 1 }))
    .addOption(integerOption("--limit <n>", "at most this many instances in all", { min: 1 }))
    .option("--mock", "a local scripted model (offline; the script, not the arm, decides the effect)")
    .addOption(choiceOption("--provider <provider>", "the model provider (default: the agent's)", PROVIDERS))
    .addOption(textOption("--model <model>", "the model (default: the provider's default)"))
    .addOption(
      textOption("--llm-judge <judge>", "also judge with this LLM judge (as evaluate --judge; --mock applies)"),
    )
    .addOption(integerOption("--concurrency <n>", "runs at once", { min: 1, max: 16 }).default(2))
    .addOption(integerOption("--seed <n>", "seed of the scripted model's choices", { min: 0 }).default(42))
    .option("--allow-unsandboxed", "as run-agents --allow-unsandboxed")
    .addOption(textOption("--runs-dir <dir>", "where run folders are written").default("data/runs"));

type Options = ReturnType<ReturnType<typeof cli>["opts"]>;

/** The run-agents arguments every arm shares; the arm and the instances are added per arm. */
function runAgentsArgv(args: Options, instanceIds: string[]): string[] {
  const optional: [string, string | number | undefined][] = [
    ["--provider", args.provider],
    ["--model", args.model],
  ];
  return [
    ...["--benchmark", args.benchmark, "--agent", args.agent, "--split", args.split],
    ...(args.subtask ? ["--subtask", args.subtask] : []),
    ...["--instances", instanceIds.join(","), "--concurrency", String(args.concurrency)],
    ...["--seed", String(args.seed), "--runs-dir", args.runsDir],
    ...optional.flatMap(([flag, value]) => (value === undefined ? [] : [flag, String(value)])),
    ...(args.mock ? ["--mock"] : []),
    ...(args.allowUnsandboxed ? ["--allow-unsandboxed"] : []),
  ];
}

/** Task checks first (the judges read them), then the rule judge, then the LLM judge if asked. */
function evaluations(args: Options, configId: string): string[][] {
  const runs = ["--runs", `${configId}-*`];
  return [
    ["--task-checks", ...runs],
    ["--judge", "rule", ...runs],
    ...(args.llmJudge ? [["--judge", args.llmJudge, ...(args.mock ? ["--mock"] : []), ...runs]] : []),
  ];
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = await parseCli(cli(), argv, io);
  if (!parsed) return 0;
  const args = parsed.options;
  const arms = args.arms as Mitigation[];
  const say = (line: string) => io.stdout.write(`${line}\n`);
  const dbFile = databasePathFromEnv(io.env);

  const db = createDb(dbFile);
  let instanceIds: string[];
  try {
    instanceIds = pickInstances(db, {
      benchmarkId: args.benchmark,
      subtask: args.subtask,
      splitOnly: args.split === "eval",
      perSubtask: args.perSubtask,
      limit: args.limit,
    }).map((instance) => instance.id);
  } finally {
    db.$client.close();
  }
  say(`${instanceIds.length} instance(s) of ${args.benchmark}; every arm runs these: ${arms.join(", ")}`);

  const configs: { arm: Mitigation; configId: string }[] = [];
  const progress = createProgress("arms", arms.length, io.stderr);
  for (const arm of arms) {
    say(`arm ${arm}: run`);
    const ran = await runAgents([...runAgentsArgv(args, instanceIds), "--mitigation", arm], io);
    // Stopped by a signal: run-agents has said so and kept the finished runs; a new call resumes.
    if (ran.code >= 128) return ran.code;
    if (ran.code !== 0 || ran.configId === null)
      throw new AppError("INTERNAL", `arm ${arm}: run-agents failed with exit code ${ran.code}`);
    for (const evaluateArgv of evaluations(args, ran.configId)) {
      say(`arm ${arm}: evaluate ${evaluateArgv.join(" ")}`);
      const code = await evaluate(evaluateArgv, io);
      if (code !== 0) throw new AppError("INTERNAL", `arm ${arm}: evaluate ${evaluateArgv.join(" ")} exited ${code}`);
    }
    configs.push({ arm, configId: ran.configId });
    progress.tick();
  }
  progress.finish();
  return printTable(args, configs, instanceIds, io);
}

/** The rule judge's table on the chosen instances, and where the page shows it. */
function printTable(
  args: Options,
  configs: { arm: Mitigation; configId: string }[],
  instanceIds: string[],
  io: CliIo,
): number {
  const db = createDb(databasePathFromEnv(io.env));
  try {
    const judgeId = ensureJudge(db, RULE_JUDGE);
    const chosen = new Set(instanceIds);
    const runs = ablationRuns(db, { benchmarkId: args.benchmark, judgeId, arms: configs }).filter((run) =>
      chosen.has(run.instanceId),
    );
    const table = prepareAblation(
      runs,
      configs.map((c) => c.arm),
    );
    const lines = ablationTextLines(table);
    const first = configs[0];
    const query = { benchmark: args.benchmark, judge: judgeId, config: first && ablationBaseOf(db, first.configId) };
    io.stdout.write(`${["ablation, rule judge:", ...lines].join("\n")}\n`);
    io.stdout.write(`see /ablation${toQueryString(query)} in the dashboard (npm run dev, or npm run demo)\n`);
    if (table.instances === instanceIds.length) return 0;
    io.stderr.write(
      `${instanceIds.length - table.instances} chosen instance(s) lack a judged run of some arm (see the lines above); run again to resume\n`,
    );
    return 1;
  } finally {
    db.$client.close();
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
