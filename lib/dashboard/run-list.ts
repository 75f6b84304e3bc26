/**
 * How the runs table can be sorted and paged. No imports: the table is a client component and
 * reads these without loading zod, which ./params.ts needs to check the URL's values against them.
 */
export const RUN_SORT_COLUMNS = ["started", "steps", "tokens", "cost", "duration", "violations"] as const;
export type RunSort = (typeof RUN_SORT_COLUMNS)[number];

export const RUN_PAGE_SIZES = [25, 50, 100] as const;
