/**
 * The labeling workspace's reads and writes. Blindness is enforced here, not in
 * the pages: every function takes the acting user and refuses (FORBIDDEN) an item that is not
 * assigned to them; the workspace's loader returns the run without the judges' verdicts and only
 * the user's own labels; judges and other annotators come only from `loadRevealed`, after submit.
 *
 * Writes are IMMEDIATE transactions: each reads (assignment, applicability) and then writes, and a
 * deferred transaction that has read cannot wait for another writer in WAL mode (it fails with
 * SQLITE_BUSY at once); an immediate one takes the write lock first and waits (busy timeout).
 */
import { and, asc, eq, isNotNull } from "drizzle-orm";
import { humanMajorities } from "@/lib/agreement/item-majority";
import { LabelInputSchema, type HumanLabel, type LabelInput } from "@/lib/agreement/study-schema";
import type {
  LabelingItem,
  OwnLabel,
  RevealedAnnotator,
  RevealedItem,
  SubmitResult,
} from "@/lib/agreement/study-types";
import { parseInput } from "@/lib/agreement/validate";
import { AppError } from "@/lib/errors/app-error";
import type { MetricId, VerdictValue } from "@/lib/metrics/catalog";
import type { Db } from "../client";
import * as t from "../schema";
import { ownItems } from "./agreement-queue";
import { applicableByRun, requireSet, type Reader, type StoredSet } from "./agreement-sets";
import { getRunDetail } from "./run-detail";

/** Who acts on which item. */
export interface ItemRef {
  setId: number;
  runId: string;
  userId: number;
}

/** The user's assignment of the item, or FORBIDDEN (also for a run that is not in the set). */
function requireAssignment(db: Reader, ref: ItemRef): { submittedAt: string | null } {
  const row = db
    .select({ submittedAt: t.itemAssignments.submittedAt })
    .from(t.itemAssignments)
    .where(
      and(
        eq(t.itemAssignments.setId, ref.setId),
        eq(t.itemAssignments.runId, ref.runId),
        eq(t.itemAssignments.userId, ref.userId),
      ),
    )
    .get();
  if (!row) throw new AppError("FORBIDDEN", `run "${ref.runId}" is not assigned to you in this agreement set`);
  return row;
}

function metricsOf(db: Reader, set: StoredSet, runId: string): MetricId[] {
  return applicableByRun(db, set, [runId]).get(runId) ?? [];
}

function ownLabels(db: Reader, ref: ItemRef): OwnLabel[] {
  return db
    .select({ metric: t.labels.metric, value: t.labels.value, note: t.labels.note, updatedAt: t.labels.updatedAt })
    .from(t.labels)
    .where(and(eq(t.labels.setId, ref.setId), eq(t.labels.runId, ref.runId), eq(t.labels.userId, ref.userId)))
    .all()
    .map((row) => ({ ...row, metric: row.metric as MetricId, value: row.value as HumanLabel }));
}

/** One item of the workspace for its annotator: the run (no verdicts), the metrics, their labels. */
export async function loadLabelingItem(db: Db, setId: number, runId: string, userId: number): Promise<LabelingItem> {
  const ref = { setId, runId, userId };
  const set = requireSet(db, setId);
  const { submittedAt } = requireAssignment(db, ref);
  const items = ownItems(db, setId, userId);
  const index = items.findIndex((item) => item.runId === runId);
  const detail = await getRunDetail(db, runId);
  if (!detail) throw new AppError("NOT_FOUND", `run "${runId}" does not exist`);
  // The verdicts are dropped here so that no page can show them by accident before submit.
  const { verdicts: _verdicts, ...run } = detail;
  return {
    set: { id: set.id, name: set.name, revealAfterSubmit: set.revealAfterSubmit },
    runId,
    position: items[index]?.position ?? 0,
    ordinal: index + 1,
    total: items.length,
    previousRunId: items[index - 1]?.runId ?? null,
    nextRunId: items[index + 1]?.runId ?? null,
    nextUnfinishedRunId: items.find((item) => item.submittedAt === null && item.runId !== runId)?.runId ?? null,
    submittedAt,
    metrics: metricsOf(db, set, runId),
    labels: ownLabels(db, ref),
    canReveal: submittedAt !== null && set.revealAfterSubmit,
    run,
  };
}

/**
 * The judges' verdicts and the other annotators' labels on an item, for an annotator who has
 * submitted it, in a set that reveals. Other annotators appear once they have submitted too (their
 * drafts stay theirs). FORBIDDEN otherwise.
 */
export function loadRevealed(db: Db, setId: number, runId: string, userId: number): RevealedItem {
  const set = requireSet(db, setId);
  const { submittedAt } = requireAssignment(db, { setId, runId, userId });
  if (submittedAt === null) throw new AppError("FORBIDDEN", "submit this item to see the judges and the other labels");
  if (!set.revealAfterSubmit) throw new AppError("FORBIDDEN", `agreement set "${set.name}" does not reveal labels`);
  const metrics = metricsOf(db, set, runId);

  const verdicts = db
    .select({
      judgeId: t.judges.id,
      kind: t.judges.kind,
      name: t.judges.name,
      provider: t.judges.provider,
      model: t.judges.model,
      promptVersion: t.judges.promptVersion,
      metric: t.verdicts.metric,
      value: t.verdicts.value,
      rationale: t.verdicts.rationale,
    })
    .from(t.verdicts)
    .innerJoin(t.judges, eq(t.judges.id, t.verdicts.judgeId))
    .where(eq(t.verdicts.runId, runId))
    .orderBy(asc(t.judges.id), asc(t.verdicts.metric))
    .all()
    .filter((v) => metrics.includes(v.metric as MetricId))
    .map((v) => ({ ...v, metric: v.metric as MetricId, value: v.value as VerdictValue }));

  const submitted = db
    .select({
      userId: t.users.id,
      username: t.users.username,
      displayName: t.users.displayName,
      submittedAt: t.itemAssignments.submittedAt,
    })
    .from(t.itemAssignments)
    .innerJoin(t.users, eq(t.users.id, t.itemAssignments.userId))
    .where(
      and(
        eq(t.itemAssignments.setId, setId),
        eq(t.itemAssignments.runId, runId),
        isNotNull(t.itemAssignments.submittedAt),
      ),
    )
    .orderBy(asc(t.users.username))
    .all();
  const labels = submitted.flatMap((annotator) =>
    ownLabels(db, { setId, runId, userId: annotator.userId }).map((label) => ({ ...label, userId: annotator.userId })),
  );
  const others: RevealedAnnotator[] = submitted
    .filter((annotator) => annotator.userId !== userId)
    .map((annotator) => ({
      ...annotator,
      submittedAt: annotator.submittedAt ?? "",
      labels: labels
        .filter((label) => label.userId === annotator.userId)
        .map(({ metric, value, note }) => ({ metric, value, note })),
    }));
  const majorities = humanMajorities({
    set: {
      id: set.id,
      name: set.name,
      seed: set.seed,
      size: set.size,
      annotatorsPerItem: set.annotatorsPerItem,
      strata: [],
    },
    items: [{ runId, position: 0, stratum: "", metrics }],
    annotators: submitted.map((a) => ({ userId: a.userId, username: a.username })),
    labels: labels.map(({ userId: labeler, metric, value }) => ({ runId, userId: labeler, metric, value })),
    adjudications: [],
    judges: [],
    verdicts: [],
  });
  return { runId, metrics, verdicts, others, majorities };
}

/**
 * Saves (upserts) the user's label of one metric. Refuses an item not assigned to them
 * (FORBIDDEN), one already submitted (CONFLICT: submitted labels are final) and a metric the item
 * does not ask about (INVALID_INPUT); the value and rationale are validated. `note` undefined
 * keeps the saved rationale.
 */
export function saveLabel(db: Db, ref: ItemRef, input: LabelInput, now: string = new Date().toISOString()): OwnLabel {
  const label = parseInput(LabelInputSchema, input, "label");
  return db.transaction(
    (tx) => {
      const set = requireSet(tx, ref.setId);
      if (requireAssignment(tx, ref).submittedAt !== null) {
        throw new AppError("CONFLICT", `run "${ref.runId}" is already submitted; its labels are final`);
      }
      if (!metricsOf(tx, set, ref.runId).includes(label.metric)) {
        throw new AppError("INVALID_INPUT", `metric ${label.metric} does not apply to run "${ref.runId}"`);
      }
      const update = { value: label.value, updatedAt: now, ...(label.note === undefined ? {} : { note: label.note }) };
      tx.insert(t.labels)
        .values({ ...ref, metric: label.metric, value: label.value, note: label.note ?? null, updatedAt: now })
        .onConflictDoUpdate({ target: [t.labels.setId, t.labels.runId, t.labels.userId, t.labels.metric], set: update })
        .run();
      const saved = ownLabels(tx, ref).find((l) => l.metric === label.metric);
      if (!saved) throw new AppError("INTERNAL", "the label was not stored");
      return saved;
    },
    { behavior: "immediate" },
  );
}

/**
 * Submits the item: every metric it asks about must have a label (INVALID_INPUT naming the missing
 * ones). Submitting twice changes nothing. When it was the user's last open item, their enrolment
 * is marked finished too.
 */
export function submitItem(db: Db, ref: ItemRef, now: string = new Date().toISOString()): SubmitResult {
  return db.transaction(
    (tx) => {
      const set = requireSet(tx, ref.setId);
      const { submittedAt } = requireAssignment(tx, ref);
      const nextOpen = () =>
        ownItems(tx, ref.setId, ref.userId).find((item) => item.submittedAt === null && item.runId !== ref.runId)
          ?.runId ?? null;
      if (submittedAt !== null) return { submittedAt, alreadySubmitted: true, nextRunId: nextOpen() };

      const labeled = new Set(ownLabels(tx, ref).map((label) => label.metric));
      const missing = metricsOf(tx, set, ref.runId).filter((metric) => !labeled.has(metric));
      if (missing.length > 0) {
        throw new AppError("INVALID_INPUT", `label every metric before submitting; missing: ${missing.join(", ")}`);
      }
      const mine = and(eq(t.itemAssignments.setId, ref.setId), eq(t.itemAssignments.userId, ref.userId));
      tx.update(t.itemAssignments)
        .set({ submittedAt: now })
        .where(and(mine, eq(t.itemAssignments.runId, ref.runId)))
        .run();
      const nextRunId = nextOpen();
      if (nextRunId === null) {
        tx.update(t.assignments)
          .set({ submittedAt: now })
          .where(and(eq(t.assignments.setId, ref.setId), eq(t.assignments.userId, ref.userId)))
          .run();
      }
      return { submittedAt: now, alreadySubmitted: false, nextRunId };
    },
    { behavior: "immediate" },
  );
}
