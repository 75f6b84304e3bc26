/**
 * The files a run changed, with the contents their diffs need: within a byte budget on the run
 * page, one file at a time for the files route, each side's state when its content was not kept.
 */
import { and, asc, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import {
  decodeText,
  diffPlan,
  INLINE_DIFF_BUDGET_BYTES,
  MAX_DIFF_BYTES,
  type DiffPlan,
  type SideInfo,
} from "@/lib/runs/file-content";
import type { FileDiffContent } from "@/lib/runs/schema";
import type { ChangedFile } from "@/lib/runs/types";
import type { Db } from "../client";
import * as t from "../schema";
import { omittedSides, sideKey, type ChangeSide } from "./omitted-content";

export interface RunDetailOptions {
  /** Bytes of file contents inlined into the page; files past it are fetched when scrolled to. */
  inlineBudgetBytes?: number;
  maxDiffBytes?: number;
}

export function contentOf(db: Db, sha256: string | null): Buffer | null {
  if (!sha256) return null;
  return (
    db.select({ content: t.fileContents.content }).from(t.fileContents).where(eq(t.fileContents.sha256, sha256)).get()
      ?.content ?? null
  );
}

const beforeContent = alias(t.fileContents, "before_content");
const afterContent = alias(t.fileContents, "after_content");

export interface ChangeRow {
  path: string;
  kind: string;
  beforeSha256: string | null;
  afterSha256: string | null;
  beforeSize: number | null;
  afterSize: number | null;
  beforeStoredSize: number | null;
  beforeIsText: boolean | null;
  afterStoredSize: number | null;
  afterIsText: boolean | null;
}

export function changeRows(db: Db, runId: string, path?: string): ChangeRow[] {
  return db
    .select({
      path: t.fileChanges.path,
      kind: t.fileChanges.kind,
      beforeSha256: t.fileChanges.beforeSha256,
      afterSha256: t.fileChanges.afterSha256,
      beforeSize: t.fileChanges.beforeSize,
      afterSize: t.fileChanges.afterSize,
      beforeStoredSize: beforeContent.size,
      beforeIsText: beforeContent.isText,
      afterStoredSize: afterContent.size,
      afterIsText: afterContent.isText,
    })
    .from(t.fileChanges)
    .leftJoin(beforeContent, eq(beforeContent.sha256, t.fileChanges.beforeSha256))
    .leftJoin(afterContent, eq(afterContent.sha256, t.fileChanges.afterSha256))
    .where(
      path === undefined
        ? eq(t.fileChanges.runId, runId)
        : and(eq(t.fileChanges.runId, runId), eq(t.fileChanges.path, path)),
    )
    .orderBy(asc(t.fileChanges.path))
    .all();
}

/** Whether a side the change says exists has no stored content (never stored, or kept by size and hash only). */
const lacksContent = (row: ChangeRow, side: ChangeSide) =>
  side === "before"
    ? row.kind !== "created" && row.beforeStoredSize === null
    : row.kind !== "deleted" && row.afterStoredSize === null;

/** Sides recorded without content, read only when some change lacks stored content (omitted-content.ts). */
function omittedOf(db: Db, runId: string, rows: ChangeRow[]): Map<string, string | null> {
  const lacking = rows.some((r) => lacksContent(r, "before") || lacksContent(r, "after"));
  return lacking ? omittedSides(db, runId) : new Map();
}

function planOf(row: ChangeRow, maxBytes: number, omitted: Map<string, string | null>): DiffPlan {
  const side = (which: ChangeSide, exists: boolean, size: number | null, isText: boolean | null): SideInfo =>
    !exists
      ? { state: "absent" }
      : size !== null
        ? { state: "stored", size, isText: isText ?? false }
        : omitted.has(sideKey(which, row.path))
          ? { state: "not_kept" }
          : { state: "missing" };
  const plan = diffPlan(
    side("before", row.kind !== "created", row.beforeStoredSize, row.beforeIsText),
    side("after", row.kind !== "deleted", row.afterStoredSize, row.afterIsText),
    maxBytes,
  );
  if (plan.status !== "not_kept") return plan;
  const sha256 = (which: ChangeSide) => omitted.get(sideKey(which, row.path)) ?? null;
  return { status: "not_kept", beforeSha256: sha256("before"), afterSha256: sha256("after") };
}

function loadDiff(db: Db, row: ChangeRow): FileDiffContent {
  const text = (sha: string | null) => {
    if (sha === null) return "";
    const data = contentOf(db, sha);
    return data === null ? null : decodeText(data);
  };
  const before = text(row.beforeSha256);
  const after = text(row.afterSha256);
  if (before === null || after === null) return { status: "binary" };
  return { status: "inline", before, after };
}

/** One changed file's diff contents (what the files route answers); null when the run changed no such file. */
export function getChangedFileContent(
  db: Db,
  runId: string,
  path: string,
  maxDiffBytes = MAX_DIFF_BYTES,
): FileDiffContent | null {
  const [row] = changeRows(db, runId, path);
  if (!row) return null;
  const plan = planOf(row, maxDiffBytes, omittedOf(db, runId, [row]));
  return plan.status === "load" ? loadDiff(db, row) : plan;
}

/** Every changed file; contents inlined in path order until the budget is spent, the rest deferred. */
export function changedFiles(db: Db, runId: string, rows: ChangeRow[], options: RunDetailOptions): ChangedFile[] {
  const omitted = omittedOf(db, runId, rows);
  const maxBytes = options.maxDiffBytes ?? MAX_DIFF_BYTES;
  let budget = options.inlineBudgetBytes ?? INLINE_DIFF_BUDGET_BYTES;
  return rows.map((row) => {
    const plan = planOf(row, maxBytes, omitted);
    let content: FileDiffContent;
    if (plan.status !== "load") content = plan;
    else if (plan.bytes > budget) content = { status: "deferred" };
    else {
      budget -= plan.bytes;
      content = loadDiff(db, row);
    }
    return {
      path: row.path,
      kind: row.kind as ChangedFile["kind"],
      beforeSize: row.beforeSize,
      afterSize: row.afterSize,
      content,
    };
  });
}
