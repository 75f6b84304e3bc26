/**
 * The agreement report's data: the pure report's input from the database,
 * the adjudication queue (2-1 splits and ties) and an admin's adjudications. Only submitted labels
 * count: a draft can still change, so it is neither a vote nor exported. Whether the caller may
 * adjudicate or read the report (admins) is the caller's check.
 */
import type { Database } from "better-sqlite3";
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

export interface ComputedReport {
  input: ReportInput;
  report: AgreementReport;
}

/** Per connection: (set, options) -> the input and report read at the set's report_version. */
const reportCache = new WeakMap<Database, Map<string, ComputedReport & { version: number }>>();
/** Reports kept per connection; the least recently asked for goes first. */
const REPORT_CACHE_SIZE = 32;

const reportVersion = (db: Db, setId: number) =>
  db.select({ version: t.agreementSets.reportVersion }).from(t.agreementSets).where(eq(t.agreementSets.id, setId)).get()
    ?.version;

/**
 * The report of a set and the input it was computed from. Computing it takes ~0.35 s for 200
 * items, three annotators and three judges (mostly the bootstrap), so both are cached per
 * connection and recomputed only when the set's report_version, which triggers bump on every
 * change to the report's inputs (migration 0012), has moved. Callers must not modify them.
 */
export function computedReport(db: Db, setId: number, options: ReportOptions = {}): ComputedReport {
  let cache = reportCache.get(db.$client);
  if (!cache) {
    cache = new Map();
    reportCache.set(db.$client, cache);
  }
  const key = JSON.stringify([setId, options.seed ?? null, options.iterations ?? null, options.level ?? null]);
  const hit = cache.get(key);
  cache.delete(key);
  if (hit && hit.version === reportVersion(db, setId)) {
    cache.set(key, hit);
    return hit;
  }
  // One transaction: the version stored is the one the input was read at (requireSet inside
  // reportInput throws NOT_FOUND for a set that does not exist).
  const { version, input } = db.transaction(() => ({
    input: reportInput(db, setId),
    version: reportVersion(db, setId)!,
  }));
  const entry = { version, input, report: computeAgreementReport(input, options) };
  cache.set(key, entry);
  for (const oldest of cache.keys()) {
    if (cache.size <= REPORT_CACHE_SIZE) break;
    cache.delete(oldest);
  }
  return entry;
}

/** The report of a set (cached: computedReport). */
export function agreementReport(db: Db, setId: number, options: ReportOptions = {}): AgreementReport {
  return computedReport(db, setId, options).report;
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
