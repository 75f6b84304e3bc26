/**
 * npm run judge-check: a judge scored without humans, against the scripted runs whose ground truth
 * the script knows (every injected misbehavior and every clean run; lib/agreement/judge-check.ts).
 * The judge first scores those of the runs it has not judged yet (as `evaluate` would), then its
 * verdicts are compared per metric; the scores are stored for the agreement page.
 */
import { createDb, databasePathFromEnv } from "@/db/client";
import { evaluationStore, runsToEvaluate } from "@/db/queries/evaluation";
import { judgeCheckVerdicts, saveJudgeCheck, scriptedBehaviours } from "@/db/queries/judge-checks";
import { cliCommand, parseCli } from "@/lib/cli/args";
import { createProgress } from "@/lib/cli/progress";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";
import { evaluateRuns } from "@/lib/judge/evaluate-runs";
import { scoreJudgeCheck, type JudgeCheckResult } from "@/lib/agreement/judge-check";
import type { MetricId } from "@/lib/metrics/catalog";
import { judgeConcurrency, openRunJudge, withJudgeOptions } from "./evaluate";

export const cli = () =>
  withJudgeOptions(
    cliCommand(
      "npm run judge-check --",
      "Scores a judge per metric against the scripted runs whose misbehaviors the script knows.",
    ),
  ).option("--json", "print the scores as JSON");

const percent = (value: number | null) => (value === null ? "   n/a" : `${(value * 100).toFixed(1).padStart(5)}%`);

export function formatJudgeCheck(label: string, result: JudgeCheckResult): string {
  const lines = [
    `${label} on ${result.runs} scripted run(s): macro accuracy ${percent(result.macroAccuracy).trim()}`,
    `  ${"metric".padEnd(24)} accuracy  found  missed  passed  flagged  abstained  n/a`,
  ];
  for (const m of result.metrics) {
    lines.push(
      `  ${m.metric.padEnd(24)} ${percent(m.accuracy)}  ${String(m.truePositives).padStart(5)}  ${String(m.falseNegatives).padStart(6)}  ${String(m.trueNegatives).padStart(6)}  ${String(m.falsePositives).padStart(7)}  ${String(m.abstained).padStart(9)}  ${String(m.notApplicable).padStart(3)}`,
    );
  }
  lines.push(
    "  found/missed: injected misbehaviors of the metric; passed/flagged: clean runs; abstained: not_applicable or invalid on an injected one, invalid on a clean one (counted wrong); n/a: not_applicable on a clean run (not scored)",
  );
  return `${lines.join("\n")}\n`;
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = await parseCli(cli(), argv, io);
  if (!parsed) return 0;
  const args = parsed.options;
  const db = createDb(databasePathFromEnv(io.env));
  const active = await openRunJudge(db, args, io);
  try {
    const behaviours = scriptedBehaviours(db);
    if (behaviours.size === 0) {
      throw new AppError(
        "NOT_FOUND",
        "no scripted run knows its behaviour: make some with `npm run run-agents -- --mock` (or `npm run demo`)",
      );
    }
    const scripted = new Set(behaviours.keys());
    const pending = runsToEvaluate(db, active.judgeIdByMetric).filter((id) => scripted.has(id));
    if (pending.length > 0) {
      const progress = createProgress("judge", pending.length, io.stderr);
      await evaluateRuns(evaluationStore(db), active, pending, {
        concurrency: judgeConcurrency(args),
        onRun: (runId, error) => {
          if (error) io.stderr.write(`error: run ${runId}: ${error}\n`);
          progress.tick(error !== undefined);
        },
      });
      progress.finish();
    }
    const judgeIdByMetric = active.judgeIdByMetric as ReadonlyMap<MetricId, number>;
    const result = scoreJudgeCheck(behaviours, judgeCheckVerdicts(db, judgeIdByMetric, [...scripted]));
    saveJudgeCheck(db, judgeIdByMetric, result);
    if (args.json) io.stdout.write(`${JSON.stringify({ judge: active.label, ...result })}\n`);
    else io.stdout.write(formatJudgeCheck(active.label, result));
    return 0;
  } finally {
    await active.close();
    db.$client.close();
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
