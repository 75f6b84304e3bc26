/**
 * npm run audit -- FILE...: a misbehavior report for runs made elsewhere (docs/foreign-runs.md),
 * without touching the studio's database. Each run is read by its format's reader, made into a
 * run bundle and judged by the rule judge exactly as `ingest` + `evaluate` would, in a database
 * held in memory and dropped at exit. Several files are read together (a Gemini CLI stream and its
 * session file); `--json` prints one JSON object per run.
 */
import { createDb } from "@/db/client";
import { loadEvaluationInput } from "@/db/queries/evaluation";
import { importParsedBundle } from "@/db/queries/run-import";
import { cliCommand, parseCli } from "@/lib/cli/args";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { addForeignOptions, foreignOptionsFrom, readLogs } from "@/lib/cli/foreign-options";
import { foreignBundles } from "@/lib/foreign/import";
import type { EvaluationInput, VerdictDraft } from "@/lib/judge/schema";
import { ruleJudge } from "@/lib/judge/rules/rule-judge";
import { METRICS } from "@/lib/metrics/catalog";

export const cli = () =>
  addForeignOptions(
    cliCommand(
      "npm run audit --",
      "Prints a misbehavior report for runs made elsewhere, without touching the database.",
    )
      .argument("<files...>", "agent logs or repo diffs (read together: a stream and its session file)")
      .option("--json", "print one JSON object per run"),
  );

export interface AuditedRun {
  label: string;
  format: string;
  runId: string;
  framework: string;
  model: string;
  instance: string;
  evidence: EvaluationInput["evidence"];
  workspaceRoot: string | null;
  steps: Record<string, number>;
  changes: { path: string; kind: string }[];
  verdicts: { metric: string; value: string; rationale: string; citations: VerdictDraft["citations"] }[];
  /** What of the log could not be used (a diff that does not parse). */
  warnings: string[];
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = await parseCli(cli(), argv, io);
  if (!parsed) return 0;
  const {
    options: args,
    args: [paths],
  } = parsed;
  const options = await foreignOptionsFrom(args);
  const { files, problems } = await readLogs(
    paths.map((path) => ({ path, named: true })),
    args.format,
  );
  for (const problem of problems) io.stderr.write(`error: ${problem}\n`);
  const db = createDb(":memory:");
  let failed = problems.length;
  try {
    for (const outcome of await foreignBundles(files, options)) {
      if (!outcome.ok) {
        io.stderr.write(`error: ${outcome.error}\n`);
        failed += 1;
        continue;
      }
      for (const warning of outcome.warnings) io.stderr.write(`warning: ${outcome.label}: ${warning}\n`);
      const { runId } = importParsedBundle(db, outcome.bundle, { via: "cli" });
      const input = loadEvaluationInput(db, runId);
      const verdicts = await ruleJudge(input);
      const audited = {
        ...auditedRun(outcome.label, outcome.format, outcome.bundle.manifest, input, verdicts),
        warnings: outcome.warnings,
      };
      io.stdout.write(args.json ? `${JSON.stringify(audited)}\n` : report(audited));
    }
  } finally {
    db.$client.close();
  }
  return failed > 0 ? 1 : 0;
}

function auditedRun(
  label: string,
  format: string,
  manifest: { runId: string; agent: { framework: string; model: string }; instanceId: string },
  input: EvaluationInput,
  verdicts: VerdictDraft[],
): Omit<AuditedRun, "warnings"> {
  const steps: Record<string, number> = {};
  for (const step of input.steps) steps[step.kind] = (steps[step.kind] ?? 0) + 1;
  return {
    label,
    format,
    runId: manifest.runId,
    framework: manifest.agent.framework,
    model: manifest.agent.model,
    instance: manifest.instanceId,
    evidence: input.evidence,
    workspaceRoot: input.workspaceRoot,
    steps,
    changes: input.changes.map((c) => ({ path: c.path, kind: c.kind })),
    verdicts: verdicts.map((v) => ({
      metric: v.metric,
      value: v.value,
      rationale: v.rationale,
      citations: v.citations,
    })),
  };
}

const MARK: Record<string, string> = {
  violated: "VIOLATED",
  not_violated: "ok",
  not_applicable: "n/a",
  invalid: "INVALID",
};

function report(run: AuditedRun): string {
  const stepText = Object.entries(run.steps)
    .map(([kind, n]) => `${n} ${kind}`)
    .join(", ");
  const lines = [
    `== ${run.label} (${run.format})`,
    `   ${run.framework} / ${run.model} on ${run.instance}; workspace root ${run.workspaceRoot ?? "unknown"}`,
    `   evidence: trajectory ${run.evidence.trajectory ? "yes" : "no"}, workspace ${run.evidence.workspace}, environment ${run.evidence.environment ? "yes" : "no"}`,
    `   steps: ${stepText || "none"}`,
    `   files changed: ${run.changes.length === 0 ? "none" : run.changes.map((c) => `${c.kind} ${c.path}`).join(", ")}`,
  ];
  for (const v of run.verdicts) {
    const label = METRICS.find((m) => m.id === v.metric)?.label ?? v.metric;
    const cited = v.citations.map((c) => ("stepId" in c ? `step ${c.stepId}` : c.path)).join(", ");
    lines.push(`   ${(MARK[v.value] ?? v.value).padEnd(8)} ${label}: ${v.rationale}${cited ? ` [${cited}]` : ""}`);
  }
  return `${lines.join("\n")}\n`;
}

if (isEntryPoint(import.meta.url)) await runMain(main);
