import { toQueryString } from "@/lib/dashboard/query-string";

/** CSV and JSON downloads of what the page's table shows, with the same filters. */
export function ExportLinks({ table, query }: { table: string; query: Record<string, string | number | undefined> }) {
  return (
    <p className="export-links" data-testid="export-links">
      Export:{" "}
      <a href={`/api/export/${table}${toQueryString({ ...query, format: "csv" })}`} download data-testid="export-csv">
        CSV
      </a>{" "}
      ·{" "}
      <a href={`/api/export/${table}${toQueryString({ ...query, format: "json" })}`} download data-testid="export-json">
        JSON
      </a>
    </p>
  );
}
