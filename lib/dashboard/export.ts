import { stringify } from "csv-stringify/sync";

export type ExportRow = Record<string, string | number | boolean | null>;
export const EXPORT_FORMATS = ["csv", "json"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * A text cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first) gets a leading
 * apostrophe: rationales and notes come from people and models (OWASP "CSV injection").
 */
function safeCell(value: string | number | boolean | null | undefined): string | number | boolean {
  if (value === null || value === undefined) return "";
  return typeof value === "string" && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** RFC 4180 CSV with a header of every column any row has, in first-seen order. */
export function toCsv(rows: readonly ExportRow[]): string {
  const columns: string[] = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  return stringify(
    rows.map((row) => columns.map((c) => safeCell(row[c]))),
    { header: true, columns, cast: { boolean: (v) => (v ? "true" : "false") } },
  );
}

/** The body and content type of an export download. */
export function exportBody(
  rows: readonly ExportRow[],
  format: ExportFormat,
  meta: Record<string, unknown>,
): { body: string; contentType: string } {
  if (format === "csv") return { body: toCsv(rows), contentType: "text/csv; charset=utf-8" };
  return { body: `${JSON.stringify({ ...meta, rows }, null, 2)}\n`, contentType: "application/json; charset=utf-8" };
}
