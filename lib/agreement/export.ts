/**
 * Export of an agreement set's labels and report, CSV or JSON, with a manifest
 * that lets anyone recompute the report: the set, its seed and strata, the judges with their
 * provider, model and prompt version, the bootstrap settings and what every statistic means.
 *
 * The labels JSON is self-contained: besides the label rows it carries the items (with the metrics
 * each asks about), the adjudications and the judges' verdicts, and `parseLabelsExport` turns it
 * back into the report's input. CSV holds rows only, so a CSV download goes with the manifest as
 * its own JSON file (`manifestBody`).
 */
import { z } from "zod";
import { exportBody, type ExportFormat, type ExportRow } from "@/lib/util/export-body";
import { MetricIdSchema } from "@/lib/metrics/schema";
import { DEFAULT_BOOTSTRAP_ITERATIONS } from "./report";
import {
  ReportAdjudicationSchema,
  ReportAnnotatorSchema,
  ReportItemSchema,
  ReportJudgeSchema,
  ReportVerdictSchema,
  type ReportInput,
} from "./report-input";
import type { AgreementReport, ReportOptions } from "./report-types";
import { HumanLabelSchema, StratumFieldSchema } from "./study-schema";
import { STATISTIC_DEFINITIONS } from "./statistic-definitions";
import { parseInput } from "./validate";

export { STATISTIC_DEFINITIONS };

export const AGREEMENT_EXPORT_FORMAT = "misbehavior-studio/agreement-export";

const ManifestSchema = z.object({
  format: z.literal(AGREEMENT_EXPORT_FORMAT),
  version: z.literal(1),
  set: z.object({ id: z.number().int(), name: z.string() }),
  seed: z.number().int(),
  size: z.number().int(),
  strata: z.object({
    fields: z.array(StratumFieldSchema),
    items: z.array(z.object({ stratum: z.string(), items: z.number().int() })),
  }),
  annotatorsPerItem: z.number().int(),
  annotators: z.array(ReportAnnotatorSchema),
  judges: z.array(ReportJudgeSchema),
  bootstrap: z.object({ seed: z.number().int(), iterations: z.number().int(), level: z.number() }),
  generatedAt: z.string(),
  statistics: z.array(z.object({ name: z.string(), definition: z.string() })),
});
export type AgreementManifest = z.infer<typeof ManifestSchema>;

export interface ExportOptions extends ReportOptions {
  /** ISO time stamp; the caller's clock, so tests can pin it. */
  generatedAt: string;
}

export function agreementManifest(input: ReportInput, options: ExportOptions): AgreementManifest {
  const strata = new Map<string, number>();
  for (const item of input.items) strata.set(item.stratum, (strata.get(item.stratum) ?? 0) + 1);
  return {
    format: AGREEMENT_EXPORT_FORMAT,
    version: 1,
    set: { id: input.set.id, name: input.set.name },
    seed: input.set.seed,
    size: input.set.size,
    strata: {
      fields: input.set.strata,
      items: [...strata].sort(([a], [b]) => (a < b ? -1 : 1)).map(([stratum, items]) => ({ stratum, items })),
    },
    annotatorsPerItem: input.set.annotatorsPerItem,
    annotators: input.annotators,
    judges: input.judges,
    bootstrap: {
      seed: options.seed ?? input.set.seed,
      iterations: options.iterations ?? DEFAULT_BOOTSTRAP_ITERATIONS,
      level: options.level ?? 0.95,
    },
    generatedAt: options.generatedAt,
    statistics: STATISTIC_DEFINITIONS,
  };
}

/** One row per submitted label, in item order. */
export function labelRows(input: ReportInput): ExportRow[] {
  const items = new Map(input.items.map((item) => [item.runId, item]));
  const usernames = new Map(input.annotators.map((a) => [a.userId, a.username]));
  return [...input.labels]
    .sort((a, b) => (items.get(a.runId)?.position ?? 0) - (items.get(b.runId)?.position ?? 0))
    .map((label) => ({
      set: input.set.name,
      run_id: label.runId,
      position: items.get(label.runId)?.position ?? null,
      stratum: items.get(label.runId)?.stratum ?? null,
      annotator_id: label.userId,
      annotator: usernames.get(label.userId) ?? null,
      metric: label.metric,
      value: label.value,
      rationale: label.note ?? null,
    }));
}

const ci = (interval: [number, number] | null) => ({ ci_low: interval?.[0] ?? null, ci_high: interval?.[1] ?? null });

/**
 * The report as rows, one table with a `section` column: `judge` (per metric and judge), `humans`
 * (per metric), `macro` (per judge and statistic, plus the annotators' means), `flips` (per pair of
 * judges and metric) and `annotator` (per annotator).
 */
export function reportRows(report: AgreementReport): ExportRow[] {
  const judgeOf = new Map(report.judges.map((j) => [j.id, j]));
  const judgeColumns = (id: number) => {
    const judge = judgeOf.get(id);
    return {
      judge_id: id,
      judge: judge?.name ?? null,
      provider: judge?.provider ?? null,
      model: judge?.model ?? null,
      prompt_version: judge?.promptVersion ?? null,
    };
  };
  const rows: ExportRow[] = [];
  for (const metric of report.metrics) {
    for (const stats of metric.judges) {
      const [[tp = 0, fn = 0] = [], [fp = 0, tn = 0] = []] = stats.confusion;
      rows.push({
        section: "judge",
        metric: metric.metric,
        ...judgeColumns(stats.judgeId),
        n: stats.n,
        agreed: stats.agreed,
        accuracy: stats.accuracy,
        ...ci(stats.interval),
        kappa: stats.kappa,
        ac1: stats.ac1,
        human_violated_judge_violated: tp,
        human_violated_judge_not_violated: fn,
        human_not_violated_judge_violated: fp,
        human_not_violated_judge_not_violated: tn,
        undecided: stats.undecided,
      });
    }
    rows.push({
      section: "humans",
      metric: metric.metric,
      items: metric.items,
      unanimous: metric.votes.unanimous,
      split: metric.votes.split,
      tie: metric.votes.tie,
      empty: metric.votes.empty,
      adjudicated: metric.adjudicated,
      decided: metric.decided,
      cannot_tell: metric.cannotTell,
      fleiss_kappa: metric.humans.fleissKappa,
      fleiss_items: metric.humans.fleissItems,
      alpha: metric.humans.alpha,
      alpha_units: metric.humans.alphaUnits,
    });
  }
  for (const macro of report.macro.judges) {
    for (const statistic of ["accuracy", "kappa", "ac1"] as const) {
      const stat = macro[statistic];
      rows.push({
        section: "macro",
        statistic,
        ...judgeColumns(macro.judgeId),
        value: stat.value,
        ...ci(stat.interval),
        metrics: stat.metrics,
      });
    }
  }
  for (const statistic of ["fleissKappa", "alpha"] as const) {
    const mean = report.macro.humans[statistic];
    rows.push({ section: "macro", statistic: `humans_${statistic}`, value: mean.value, metrics: mean.metrics });
  }
  for (const flips of report.flips) {
    for (const m of flips.perMetric) {
      rows.push({
        section: "flips",
        metric: m.metric,
        base_judge_id: flips.baseJudgeId,
        candidate_judge_id: flips.candidateJudgeId,
        toward: m.toward,
        away: m.away,
      });
    }
  }
  for (const a of report.annotatorQuality) {
    rows.push({
      section: "annotator",
      annotator_id: a.userId,
      annotator: a.username,
      labels: a.labels,
      cannot_tell: a.cannotTell,
      n: a.n,
      agreed: a.agreed,
      value: a.rate,
      ...ci(a.interval),
    });
  }
  return rows;
}

export interface ExportFile {
  body: string;
  contentType: string;
  filename: string;
}

function slug(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "set";
}

export function exportLabels(input: ReportInput, format: ExportFormat, options: ExportOptions): ExportFile {
  const meta = {
    manifest: agreementManifest(input, options),
    items: input.items,
    adjudications: input.adjudications,
    verdicts: input.verdicts,
  };
  return {
    ...exportBody(labelRows(input), format, meta),
    filename: `agreement-${slug(input.set.name)}-labels.${format}`,
  };
}

export function exportReport(
  input: ReportInput,
  report: AgreementReport,
  format: ExportFormat,
  options: ExportOptions,
): ExportFile {
  const meta = { manifest: agreementManifest(input, options) };
  return {
    ...exportBody(reportRows(report), format, meta),
    filename: `agreement-${slug(input.set.name)}-report.${format}`,
  };
}

/** The manifest on its own, to accompany a CSV download. */
export function manifestBody(input: ReportInput, options: ExportOptions): ExportFile {
  return {
    body: `${JSON.stringify(agreementManifest(input, options), null, 2)}\n`,
    contentType: "application/json; charset=utf-8",
    filename: `agreement-${slug(input.set.name)}-manifest.json`,
  };
}

const LabelRowSchema = z.object({
  run_id: z.string(),
  annotator_id: z.number().int(),
  metric: MetricIdSchema,
  value: HumanLabelSchema,
  rationale: z.string().nullable(),
});

const LabelsExportSchema = z.object({
  manifest: ManifestSchema,
  items: z.array(ReportItemSchema),
  adjudications: z.array(ReportAdjudicationSchema),
  verdicts: z.array(ReportVerdictSchema),
  rows: z.array(LabelRowSchema),
});

/**
 * A labels JSON export back into the report's input and options: computeAgreementReport on them
 * gives the report the export was made with.
 */
export function parseLabelsExport(json: unknown): { input: ReportInput; options: ReportOptions } {
  const data = parseInput(LabelsExportSchema, json, "parseLabelsExport", "export");
  const { manifest } = data;
  return {
    input: {
      set: {
        id: manifest.set.id,
        name: manifest.set.name,
        seed: manifest.seed,
        size: manifest.size,
        annotatorsPerItem: manifest.annotatorsPerItem,
        strata: manifest.strata.fields,
      },
      items: data.items,
      annotators: manifest.annotators,
      labels: data.rows.map((row) => ({
        runId: row.run_id,
        userId: row.annotator_id,
        metric: row.metric,
        value: row.value,
        note: row.rationale,
      })),
      adjudications: data.adjudications,
      judges: manifest.judges,
      verdicts: data.verdicts,
    },
    options: manifest.bootstrap,
  };
}
