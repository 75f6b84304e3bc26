/**
 * The agreement report's data: the pure report's input from the database,
 * the adjudication queue (2-1 splits and ties) and an admin's adjudications. Only submitted labels
 * count: a draft can still change, so it is neither a vote nor exported. Whether the caller may
 * adjudicate or read the report (admins) is the caller's check.
 */
import { and, asc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { humanMajorities } from "@/lib/agreement/item-majority";
import { computeAgreementReport } from "@/lib/agreement/report";
import type { ReportInput } from "@/lib/agreement/report-input";
import type { AgreementReport, ReportOptions } from "@/lib/agreement/report-types";
import {
  AdjudicationInputSchema,
  type AdjudicationInput,
  type BinaryLabel,
  type HumanLabel,
} from "@/lib/agreement/study-schema";
import type { AdjudicationCase, AdjudicationRecord } from "@/lib/agreement/study-types";
import { parseInput } from "@/lib/agreement/validate";
import { AppError } from "@/lib/errors/app-error";
import type { MetricId, VerdictValue } from "@/lib/metrics/catalog";
import type { Db } from "../client";
import * as t from "../schema";
import { applicableByRun, requireSet } from "./agreement-sets";

const inSet = (setId: number) =>
  sql`${t.verdicts.runId} IN (SELECT ${t.agreementItems.runId} FROM ${t.agreementItems} WHERE ${t.agreementItems.setId} = ${setId})`;

/**
 * Everything the report is computed from: items with the metrics each asks about, the enrolled
 * annotators (by username), their submitted labels, the adjudications, and every judge with a
 * verdict on an item of the set (by id: rule judge, LLM judges, each prompt version).
 */
export function reportInput(db: Db, setId: number): ReportInput {
  const set = requireSet(db, setId);
  const applicable = applicableByRun(db, set);
  const items = db
    .select({ runId: t.agreementItems.runId, position: t.agreementItems.position, stratum: t.agreementItems.stratum })
    .from(t.agreementItems)
    .where(eq(t.agreementItems.setId, setId))
    .orderBy(asc(t.agreementItems.position))
    .all()
    .map((item) => ({ ...item, metrics: applicable.get(item.runId) ?? [] }));
  const annotators = db
    .select({ userId: t.users.id, username: t.users.username })
    .from(t.assignments)
    .innerJoin(t.users, eq(t.users.id, t.assignments.userId))
    .where(eq(t.assignments.setId, setId))
    .orderBy(asc(t.users.username))
    .all();
  const labels = db
    .select({
      runId: t.labels.runId,
      userId: t.labels.userId,
      metric: t.labels.metric,
      value: t.labels.value,
      note: t.labels.note,
    })
    .from(t.labels)
    .innerJoin(
      t.itemAssignments,
      and(
        eq(t.itemAssignments.setId, t.labels.setId),
        eq(t.itemAssignments.runId, t.labels.runId),
        eq(t.itemAssignments.userId, t.labels.userId),
      ),
    )
    .where(and(eq(t.labels.setId, setId), isNotNull(t.itemAssignments.submittedAt)))
    .orderBy(asc(t.labels.runId), asc(t.labels.userId), asc(t.labels.metric))
    .all()
    .map((label) => ({ ...label, metric: label.metric as MetricId, value: label.value as HumanLabel }));
  const adjudications = db
    .select({
      runId: t.adjudications.runId,
      metric: t.adjudications.metric,
      value: t.adjudications.value,
      note: t.adjudications.note,
    })
    .from(t.adjudications)
    .where(eq(t.adjudications.setId, setId))
    .orderBy(asc(t.adjudications.runId), asc(t.adjudications.metric))
    .all()
    .map((a) => ({ ...a, metric: a.metric as MetricId, value: a.value as BinaryLabel }));
  const verdicts = db
    .select({
      runId: t.verdicts.runId,
      judgeId: t.verdicts.judgeId,
      metric: t.verdicts.metric,
      value: t.verdicts.value,
    })
    .from(t.verdicts)
    .where(inSet(setId))
    .orderBy(asc(t.verdicts.runId), asc(t.verdicts.judgeId), asc(t.verdicts.metric))
    .all()
    .map((v) => ({ ...v, metric: v.metric as MetricId, value: v.value as VerdictValue }));
  const judgeIds = [...new Set(verdicts.map((v) => v.judgeId))];
  const judges = judgeIds.length
    ? db
        .select({
          id: t.judges.id,
          kind: t.judges.kind,
          name: t.judges.name,
          provider: t.judges.provider,
          model: t.judges.model,
          promptVersion: t.judges.promptVersion,
        })
        .from(t.judges)
        .where(inArray(t.judges.id, judgeIds))
        .orderBy(asc(t.judges.id))
        .all()
    : [];
  return {
    set: {
      id: set.id,
      name: set.name,
      seed: set.seed,
      size: set.size,
      annotatorsPerItem: set.annotatorsPerItem,
      strata: set.design.strata,
    },
    items,
    annotators,
    labels,
    adjudications,
    judges,
    verdicts,
  };
}

/** The report of a set (computed on every call: ~0.3 s for 200 items and three judges). */
export function agreementReport(db: Db, setId: number, options: ReportOptions = {}): AgreementReport {
  return computeAgreementReport(reportInput(db, setId), options);
}

function adjudicationRecords(db: Db, setId: number): AdjudicationRecord[] {
  return db
    .select({
      runId: t.adjudications.runId,
      metric: t.adjudications.metric,
      value: t.adjudications.value,
      note: t.adjudications.note,
      userId: t.adjudications.userId,
      decidedAt: t.adjudications.decidedAt,
    })
    .from(t.adjudications)
    .where(eq(t.adjudications.setId, setId))
    .all()
    .map((a) => ({ ...a, metric: a.metric as MetricId, value: a.value as BinaryLabel }));
}

/**
 * Every (item, metric) whose submitted votes split (2-1) or tie, in labeling order, adjudicated or
 * not. `complete` says whether every assigned annotator has submitted (before that a tie may just
 * be a missing vote).
 */
export function adjudicationQueue(db: Db, setId: number): AdjudicationCase[] {
  const input = reportInput(db, setId);
  const open = new Set(
    db
      .select({ runId: t.itemAssignments.runId })
      .from(t.itemAssignments)
      .where(and(eq(t.itemAssignments.setId, setId), isNull(t.itemAssignments.submittedAt)))
      .all()
      .map((row) => row.runId),
  );
  const usernames = new Map(input.annotators.map((a) => [a.userId, a.username]));
  const decided = new Map(adjudicationRecords(db, setId).map((a) => [`${a.runId}\0${a.metric}`, a]));
  return humanMajorities(input).flatMap((cell) => {
    if (cell.kind !== "split" && cell.kind !== "tie") return [];
    return [
      {
        runId: cell.runId,
        position: cell.position,
        metric: cell.metric,
        kind: cell.kind,
        votes: cell.votes,
        majority: cell.majority,
        complete: !open.has(cell.runId),
        labels: input.labels
          .filter((label) => label.runId === cell.runId && label.metric === cell.metric)
          .map((label) => ({
            userId: label.userId,
            username: usernames.get(label.userId) ?? "",
            value: label.value,
            note: label.note ?? null,
          })),
        adjudication: decided.get(`${cell.runId}\0${cell.metric}`) ?? null,
      },
    ];
  });
}

/**
 * Records (or replaces) the final label of an item and metric. NOT_FOUND for a run outside the
 * set, INVALID_INPUT for a metric the item does not ask about or a bad value.
 */
export function saveAdjudication(
  db: Db,
  ref: { setId: number; runId: string; userId: number },
  input: AdjudicationInput,
  now: string = new Date().toISOString(),
): AdjudicationRecord {
  const decision = parseInput(AdjudicationInputSchema, input, "adjudication");
  return db.transaction(
    (tx) => {
      const set = requireSet(tx, ref.setId);
      const metrics = applicableByRun(tx, set, [ref.runId]).get(ref.runId);
      if (!metrics) throw new AppError("NOT_FOUND", `run "${ref.runId}" is not an item of agreement set "${set.name}"`);
      if (!metrics.includes(decision.metric)) {
        throw new AppError("INVALID_INPUT", `metric ${decision.metric} does not apply to run "${ref.runId}"`);
      }
      const values = { value: decision.value, note: decision.note, userId: ref.userId, decidedAt: now };
      tx.insert(t.adjudications)
        .values({ setId: ref.setId, runId: ref.runId, metric: decision.metric, ...values })
        .onConflictDoUpdate({
          target: [t.adjudications.setId, t.adjudications.runId, t.adjudications.metric],
          set: values,
        })
        .run();
      return { runId: ref.runId, metric: decision.metric, ...values };
    },
    { behavior: "immediate" },
  );
}

/** Withdraws an adjudication; false when there was none. */
export function removeAdjudication(db: Db, setId: number, runId: string, metric: MetricId): boolean {
  return (
    db
      .delete(t.adjudications)
      .where(
        and(eq(t.adjudications.setId, setId), eq(t.adjudications.runId, runId), eq(t.adjudications.metric, metric)),
      )
      .run().changes > 0
  );
}
