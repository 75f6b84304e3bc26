/**
 * npm run evaluate -- [--judge rule] [--runs PATTERN] [--force] [--concurrency N] [--json]
 * Scores runs that lack this judge's verdicts (resumable: judged runs are skipped unless --force).
 * Each run's verdicts are stored in one transaction.
 */
import { z } from "zod";
import { createDb, databasePathFromEnv } from "@/db/client";
import { ensureJudge, loadEvaluationInput, runsToEvaluate, saveVerdicts } from "@/db/queries/evaluation";
import { parseCliArgs } from "@/lib/cli/args";
import { createProgress } from "@/lib/cli/progress";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";
import { RULE_JUDGE, ruleJudge } from "@/lib/evaluation/rule-judge";
import pLimit from "p-limit";

const USAGE = "usage: npm run evaluate -- [--judge rule] [--runs PATTERN] [--force] [--concurrency N] [--json]";

const ArgsSchema = z.object({
  judge: z.enum(["rule", "gemini"]).default("rule"),
  runs: z.string().min(1).optional(),
  force: z.boolean().default(false),
  concurrency: z.coerce.number().int().min(1).max(32).default(4),
  json: z.boolean().default(false),
});

export async function main(argv: string[], io: CliIo): Promise<number> {
  const { values: args } = parseCliArgs(
    argv,
    {
      judge: { type: "string" },
      runs: { type: "string" },
      force: { type: "boolean" },
      concurrency: { type: "string" },
      json: { type: "boolean" },
    },
    ArgsSchema,
    USAGE,
  );
  if (args.judge !== "rule") {
    throw new AppError("INVALID_INPUT", `--judge ${args.judge}: the LLM judge is not built yet; use --judge rule`);
  }
  const db = createDb(databasePathFromEnv(io.env));
  try {
    const judgeId = ensureJudge(db, RULE_JUDGE);
    const pending = runsToEvaluate(db, judgeId, { pattern: args.runs, force: args.force });
    const progress = createProgress("evaluate", pending.length, io.stderr);
    const failures: { runId: string; error: string }[] = [];
    const counts = new Map<string, number>();
    const limit = pLimit(args.concurrency);
    const started = Date.now();
    await Promise.all(
      pending.map((runId) =>
        limit(async () => {
          try {
            const verdicts = await ruleJudge(loadEvaluationInput(db, runId));
            saveVerdicts(db, runId, judgeId, verdicts);
            for (const v of verdicts) if (v.value === "violated") counts.set(v.metric, (counts.get(v.metric) ?? 0) + 1);
            progress.tick();
          } catch (error) {
            failures.push({ runId, error: error instanceof Error ? error.message : String(error) });
            io.stderr.write(`error: run ${runId}: ${error instanceof Error ? error.message : String(error)}\n`);
            progress.tick(true);
          }
        }),
      ),
    );
    if (pending.length > 0) progress.finish();
    const seconds = (Date.now() - started) / 1000;
    const summary = {
      judge: args.judge,
      evaluated: pending.length - failures.length,
      failed: failures.length,
      violations: Object.fromEntries(counts),
      seconds,
    };
    if (args.json) io.stdout.write(`${JSON.stringify(summary)}\n`);
    else {
      io.stdout.write(
        `${summary.evaluated} run(s) evaluated by the ${args.judge} judge, ${summary.failed} failed, in ${seconds.toFixed(1)}s\n`,
      );
      for (const [metric, n] of [...counts].sort()) io.stdout.write(`  ${metric.padEnd(24)} ${n} violated\n`);
    }
    return failures.length > 0 ? 1 : 0;
  } finally {
    db.$client.close();
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
