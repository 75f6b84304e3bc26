import { stringify } from "csv-stringify/sync";

export type ExportRow = Record<string, string | number | boolean | null>;
export type ExportFormat = "csv" | "json";

/**
 * What a spreadsheet may act on at the start of a cell (OWASP "CSV injection"): = + - @ and
 * their full-width forms, which Excel and LibreOffice fold to ASCII (＝1+1 computes); | and ;
 * (DDE and argument separators in some locales); a double quote (opens a quoted formula in
 * LibreOffice's import).
 */
const TRIGGER = /^[=+\-@|;"\uff1d\uff0b\uff0d\uff20\uff5c\uff1b\uff02]/u;
/** Skipped by spreadsheets before they look at the first character: spaces, NBSP, other Unicode spaces, controls, zero-widths. */
const LEADING_BLANKS = /^[\s\u0000-\u001f\u007f\u200b-\u200d\u2060\ufeff]+/u;

/**
 * The one defuser of every CSV export: a text cell that starts with tab, CR or LF, or with a
 * trigger after any leading blanks, gets a leading apostrophe, which spreadsheets show as text.
 * Rationales, notes and titles come from people and models. Numbers and booleans stay as they are.
 */
export function defuseCsvCell(value: string | number | boolean | null | undefined): string | number | boolean {
  if (value === null || value === undefined) return "";
  if (typeof value !== "string") return value;
  const dangerous = /^[\t\r\n]/.test(value) || TRIGGER.test(value.replace(LEADING_BLANKS, ""));
  return dangerous ? `'${value}` : value;
}

/** RFC 4180 CSV with a header of every column any row has, in first-seen order. */
export function toCsv(rows: readonly ExportRow[]): string {
  const columns: string[] = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  return stringify(
    rows.map((row) => columns.map((c) => defuseCsvCell(row[c]))),
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
