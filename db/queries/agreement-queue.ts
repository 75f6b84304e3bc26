/**
 * One annotator's side of a set: the sets they are enrolled in with their own progress, and their
 * queue of items in labeling order with each item's status and where to resume.
 */
import { and, asc, desc, eq } from "drizzle-orm";
import type { AnnotatorQueue, AnnotatorSetSummary, QueueItem } from "@/lib/agreement/study-types";
import { AppError } from "@/lib/errors/app-error";
import type { Db } from "../client";
import * as t from "../schema";
import { applicableByRun, requireSet, type Reader } from "./agreement-sets";

/** The sets a user is enrolled in, with their own progress only. */
export function listAnnotatorSets(db: Db, userId: number): AnnotatorSetSummary[] {
  const sets = db
    .select({
      id: t.agreementSets.id,
      name: t.agreementSets.name,
      revealAfterSubmit: t.agreementSets.revealAfterSubmit,
    })
    .from(t.assignments)
    .innerJoin(t.agreementSets, eq(t.agreementSets.id, t.assignments.setId))
    .where(eq(t.assignments.userId, userId))
    .orderBy(desc(t.agreementSets.createdAt), desc(t.agreementSets.id))
    .all();
  return sets.map((set) => {
    const items = ownItems(db, set.id, userId);
    return {
      ...set,
      assigned: items.length,
      submitted: items.filter((i) => i.submittedAt !== null).length,
      nextRunId: items.find((i) => i.submittedAt === null)?.runId ?? null,
    };
  });
}

/** The user's items of the set in labeling order. */
export function ownItems(
  db: Reader,
  setId: number,
  userId: number,
): { runId: string; position: number; submittedAt: string | null }[] {
  return db
    .select({
      runId: t.itemAssignments.runId,
      position: t.agreementItems.position,
      submittedAt: t.itemAssignments.submittedAt,
    })
    .from(t.itemAssignments)
    .innerJoin(
      t.agreementItems,
      and(eq(t.agreementItems.setId, t.itemAssignments.setId), eq(t.agreementItems.runId, t.itemAssignments.runId)),
    )
    .where(and(eq(t.itemAssignments.setId, setId), eq(t.itemAssignments.userId, userId)))
    .orderBy(asc(t.agreementItems.position))
    .all();
}

/**
 * One annotator's items in order with their status, and where to resume. FORBIDDEN for a user
 * not enrolled in the set.
 */
export function annotatorQueue(db: Db, setId: number, userId: number): AnnotatorQueue {
  const set = requireSet(db, setId);
  const items = ownItems(db, setId, userId);
  if (items.length === 0) {
    const enrolled = db
      .select({ userId: t.assignments.userId })
      .from(t.assignments)
      .where(and(eq(t.assignments.setId, setId), eq(t.assignments.userId, userId)))
      .get();
    if (!enrolled) throw new AppError("FORBIDDEN", `you are not an annotator of agreement set "${set.name}"`);
  }
  const applicable = applicableByRun(db, set);
  const labeled = new Map<string, Set<string>>();
  const labels = db
    .select({ runId: t.labels.runId, metric: t.labels.metric })
    .from(t.labels)
    .where(and(eq(t.labels.setId, setId), eq(t.labels.userId, userId)))
    .all();
  for (const label of labels) labeled.set(label.runId, (labeled.get(label.runId) ?? new Set()).add(label.metric));

  const queue: QueueItem[] = items.map((item, i) => {
    const metrics = applicable.get(item.runId) ?? [];
    const done = metrics.filter((metric) => labeled.get(item.runId)?.has(metric)).length;
    return {
      runId: item.runId,
      position: item.position,
      ordinal: i + 1,
      status: item.submittedAt !== null ? "submitted" : done > 0 ? "in_progress" : "todo",
      labeled: done,
      applicable: metrics.length,
      submittedAt: item.submittedAt,
    };
  });
  return {
    setId,
    setName: set.name,
    userId,
    items: queue,
    assigned: queue.length,
    submitted: queue.filter((item) => item.status === "submitted").length,
    nextRunId: queue.find((item) => item.status !== "submitted")?.runId ?? null,
  };
}

/** Whether the user labels this run in some agreement set (and may so read its files). */
export function isAssignedRun(db: Db, runId: string, userId: number): boolean {
  return (
    db
      .select({ runId: t.itemAssignments.runId })
      .from(t.itemAssignments)
      .where(and(eq(t.itemAssignments.runId, runId), eq(t.itemAssignments.userId, userId)))
      .get() !== undefined
  );
}
