/**
 * Links that carry the dashboard's filters. No imports: client components (the case-study panel on
 * the run page) build such links without loading zod, which ./params.ts needs to read them.
 */

/** The query string for `params`, without defaults and empty values, keys sorted (stable links). */
export function toQueryString(params: Record<string, string | number | undefined | null>): string {
  const entries = Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null && v !== "")
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => [k, String(v)]);
  const text = new URLSearchParams(entries).toString();
  return text === "" ? "" : `?${text}`;
}
