/**
 * What crosses the agreement boundary: the shapes the statistics accept. Callers are the report,
 * the export and the CLIs; a malformed table is a bug upstream, so it fails loudly here
 * (lib/agreement/validate.ts turns the first issue into an AppError) instead of yielding a number.
 */
import { z } from "zod";

/**
 * A count of items or raters. Whole numbers only: a table of proportions would give the right
 * kappa but a meaningless standard error (n would be 1), so it is rejected rather than guessed at.
 */
export const CountSchema = z
  .number({ error: (issue) => `must be a finite number (got ${String(issue.input)})` })
  .int({ error: (issue) => `must be a whole number (got ${String(issue.input)})` })
  .min(0, { error: (issue) => `must not be negative (got ${String(issue.input)})` });

const CountTableSchema = z.array(z.array(CountSchema, { error: "must be an array of counts" }), {
  error: "must be an array of rows",
});

/** Rater A in rows, rater B in columns, the same categories in the same order on both axes. */
export const SquareTableSchema = CountTableSchema.superRefine((table, ctx) => {
  const bad = table.findIndex((row) => row.length !== table.length);
  if (bad >= 0) {
    const columns = table[bad]?.length ?? 0;
    ctx.addIssue({
      code: "custom",
      message: `must be square (k x k): ${table.length} rows but row ${bad} has ${columns} columns`,
    });
  }
});

/** Subjects x categories; every subject rated by the same number (at least 2) of raters. */
export const FleissCountsSchema = CountTableSchema.superRefine((counts, ctx) => {
  const first = counts[0];
  if (first === undefined) return;
  const raters = first.reduce((sum, cell) => sum + cell, 0);
  const jagged = counts.findIndex((row) => row.length !== first.length);
  if (jagged >= 0) {
    const message = `must have the same categories on every row: row 0 has ${first.length}, row ${jagged} has ${counts[jagged]?.length}`;
    ctx.addIssue({ code: "custom", message });
    return;
  }
  // Fleiss' kappa is defined for a fixed number of raters per subject; data with missing ratings
  // belongs to Krippendorff's alpha, which handles them by design.
  const uneven = counts.findIndex((row) => row.reduce((sum, cell) => sum + cell, 0) !== raters);
  if (uneven >= 0) {
    const message = `must have the same number of raters on every row: row 0 has ${raters}, row ${uneven} has a different total (use krippendorffAlphaNominal for missing ratings)`;
    ctx.addIssue({ code: "custom", message });
  } else if (raters < 2) {
    ctx.addIssue({ code: "custom", message: `needs at least 2 raters per subject (got ${raters})` });
  }
});

export const ReliabilityValueSchema = z.union([z.string(), z.number(), z.null()], {
  error: (issue) => `must be a string, a finite number or null (got ${String(issue.input)})`,
});
export type ReliabilityValue = z.infer<typeof ReliabilityValueSchema>;

/** Rows = raters, columns = units, null = not rated. */
export const ReliabilityDataSchema = z
  .array(z.array(ReliabilityValueSchema, { error: "must be an array of values" }), {
    error: "must be an array of rater rows",
  })
  .superRefine((data, ctx) => {
    const units = data[0]?.length ?? 0;
    const bad = data.findIndex((row) => row.length !== units);
    if (bad >= 0) {
      const message = `must have one column per unit on every row: row 0 has ${units}, row ${bad} has ${data[bad]?.length}`;
      ctx.addIssue({ code: "custom", message });
    }
  });

/** A critical value of the standard normal, e.g. 1.96 for a two-sided 95% interval. */
export const CriticalValueSchema = z
  .number({ error: (issue) => `must be a finite number (got ${String(issue.input)})` })
  .positive({ error: (issue) => `must be positive (got ${String(issue.input)})` });

export const BootstrapOptionsSchema = z.strictObject(
  {
    // A uint32 so two different seeds never collapse to the same generator state.
    seed: z
      .number({ error: "must be a number" })
      .int({ error: "must be a whole number" })
      .min(0, { error: "must be between 0 and 4294967295" })
      .max(0xffff_ffff, { error: "must be between 0 and 4294967295" }),
    iterations: z
      .number({ error: "must be a number" })
      .int({ error: "must be a whole number" })
      .min(1, { error: "must be at least 1" })
      .max(1_000_000, { error: "must be at most 1,000,000" })
      .default(2000),
    level: z
      .number({ error: "must be a number" })
      .gt(0, { error: "must be strictly between 0 and 1" })
      .lt(1, { error: "must be strictly between 0 and 1" })
      .default(0.95),
  },
  // A misspelt option ("levels") would otherwise silently fall back to the default.
  {
    error: (issue) => (issue.code === "unrecognized_keys" ? `has unknown keys: ${issue.keys.join(", ")}` : undefined),
  },
);
export type BootstrapOptions = z.input<typeof BootstrapOptionsSchema>;
