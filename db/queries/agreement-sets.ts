/**
 * Agreement sets: drawing one (a stratified, seeded sample of runs from
 * run_facts, lib/agreement/sampling.ts), enrolling its annotators and giving each item k of them,
 * all in one transaction; listing sets with each annotator's progress; an annotator's own queue.
 * Labels, reveal and submission are in agreement-labels.ts, the report in agreement-report.ts.
 */
import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { applicableMetrics } from "@/lib/agreement/applicability";
import { assignAnnotators, stratifiedSample } from "@/lib/agreement/sampling";
import {
  AgreementSetDesignSchema,
  AgreementSetInputSchema,
  type AgreementSetDesign,
  type AgreementSetInput,
} from "@/lib/agreement/study-schema";
import type { AgreementSetSummary } from "@/lib/agreement/study-types";
import { parseInput } from "@/lib/agreement/validate";
import { AppError } from "@/lib/errors/app-error";
import type { MetricId } from "@/lib/metrics/catalog";
import type { Db } from "../client";
import * as t from "../schema";

/** The database or a transaction of it: the helpers below run inside both. */
export type Reader = Pick<Db, "select">;

/** Roles that may label (a viewer may not). */
const LABELING_ROLES = new Set(["annotator", "admin"]);

/** Rows per INSERT: SQLite caps bound variables per statement. */
const INSERT_CHUNK = 500;

export interface StoredSet {
  id: number;
  name: string;
  seed: number;
  size: number;
  annotatorsPerItem: number;
  revealAfterSubmit: boolean;
  createdAt: string;
  createdBy: number | null;
  design: AgreementSetDesign;
}

export function requireSet(db: Reader, setId: number): StoredSet {
  const row = db.select().from(t.agreementSets).where(eq(t.agreementSets.id, setId)).get();
  if (!row) throw new AppError("NOT_FOUND", `agreement set ${setId} does not exist`);
  return { ...row, design: AgreementSetDesignSchema.parse(row.design) };
}

/**
 * The metrics each item of the set asks about (lib/agreement/applicability.ts): the set's rule
 * judge's not_applicable verdicts, read now, so a re-run of the rule judge is seen. Only the items
 * in `runIds` when given.
 */
export function applicableByRun(db: Reader, set: StoredSet, runIds?: readonly string[]): Map<string, MetricId[]> {
  const items = db
    .select({ runId: t.agreementItems.runId })
    .from(t.agreementItems)
    .where(
      and(
        eq(t.agreementItems.setId, set.id),
        runIds === undefined ? undefined : inArray(t.agreementItems.runId, [...runIds]),
      ),
    )
    .all();
  const verdicts = new Map<string, { metric: string; value: string }[]>();
  const judgeId = set.design.ruleJudgeId;
  if (judgeId !== null && items.length > 0) {
    const rows = db
      .select({ runId: t.verdicts.runId, metric: t.verdicts.metric, value: t.verdicts.value })
      .from(t.verdicts)
      .innerJoin(
        t.agreementItems,
        and(eq(t.agreementItems.runId, t.verdicts.runId), eq(t.agreementItems.setId, set.id)),
      )
      .where(
        and(eq(t.verdicts.judgeId, judgeId), runIds === undefined ? undefined : inArray(t.verdicts.runId, [...runIds])),
      )
      .all();
    for (const row of rows) {
      const list = verdicts.get(row.runId);
      if (list) list.push(row);
      else verdicts.set(row.runId, [row]);
    }
  }
  return new Map(items.map((item) => [item.runId, applicableMetrics(verdicts.get(item.runId) ?? [])]));
}

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) out.push(rows.slice(i, i + INSERT_CHUNK));
  return out;
}

/**
 * Draws and stores a new agreement set, in one transaction: the candidates are the runs of
 * run_facts matching the filters (and judged by every compared judge), the sample is stratified
 * and seeded, each item gets `annotatorsPerItem` annotators with balanced loads (same seed).
 * A taken name is CONFLICT; unknown or non-labeling annotators, unknown judges, too few annotators
 * or no matching run are INVALID_INPUT naming the problem.
 */
export function createAgreementSet(
  db: Db,
  input: AgreementSetInput,
  createdBy: number | null = null,
  now: string = new Date().toISOString(),
): AgreementSetSummary {
  const options = parseInput(AgreementSetInputSchema, input, "agreement set");
  const setId = db.transaction(
    (tx) => {
      const taken = tx
        .select({ id: t.agreementSets.id })
        .from(t.agreementSets)
        .where(eq(t.agreementSets.name, options.name))
        .get();
      if (taken) throw new AppError("CONFLICT", `an agreement set named "${options.name}" already exists`);

      const users = tx
        .select({ id: t.users.id, username: t.users.username, role: t.users.role })
        .from(t.users)
        .where(inArray(t.users.id, options.annotatorIds))
        .all();
      for (const userId of options.annotatorIds) {
        const user = users.find((u) => u.id === userId);
        if (!user) throw new AppError("INVALID_INPUT", `annotator ${userId} does not exist`);
        if (!LABELING_ROLES.has(user.role)) {
          throw new AppError("INVALID_INPUT", `"${user.username}" is a ${user.role} and cannot label`);
        }
      }
      if (options.annotatorsPerItem > options.annotatorIds.length) {
        throw new AppError(
          "INVALID_INPUT",
          `each item needs ${options.annotatorsPerItem} annotators but only ${options.annotatorIds.length} are enrolled`,
        );
      }

      const judges = options.judgeIds.length
        ? tx.select({ id: t.judges.id }).from(t.judges).where(inArray(t.judges.id, options.judgeIds)).all()
        : [];
      const missingJudge = options.judgeIds.find((id) => !judges.some((j) => j.id === id));
      if (missingJudge !== undefined) throw new AppError("INVALID_INPUT", `judge ${missingJudge} does not exist`);
      const ruleJudgeId = resolveRuleJudge(tx, options.ruleJudgeId);

      const conditions: (SQL | undefined)[] = [
        options.benchmarkId === undefined ? undefined : eq(t.runFacts.benchmarkId, options.benchmarkId),
        options.includeSynthetic ? undefined : eq(t.runFacts.synthetic, false),
        ...options.judgeIds.map(
          (judgeId) =>
            sql`EXISTS (SELECT 1 FROM ${t.verdicts} WHERE ${t.verdicts.runId} = ${t.runFacts.runId} AND ${t.verdicts.judgeId} = ${judgeId})`,
        ),
      ];
      const candidates = tx
        .select({
          runId: t.runFacts.runId,
          subtask: t.runFacts.subtaskId,
          framework: t.runFacts.framework,
          model: t.runFacts.model,
        })
        .from(t.runFacts)
        .where(and(...conditions))
        .orderBy(asc(t.runFacts.runId))
        .all();
      if (candidates.length === 0) {
        throw new AppError("INVALID_INPUT", "no runs match the filters (benchmark, judges compared)");
      }

      const sample = stratifiedSample(candidates, { seed: options.seed, size: options.size, strata: options.strata });
      const design: AgreementSetDesign = {
        version: 1,
        strata: options.strata,
        requestedSize: options.size,
        filters: {
          benchmarkId: options.benchmarkId ?? null,
          judgeIds: options.judgeIds,
          includeSynthetic: options.includeSynthetic,
        },
        ruleJudgeId,
        population: sample.population,
        allocation: sample.allocation,
      };
      const set = tx
        .insert(t.agreementSets)
        .values({
          name: options.name,
          seed: options.seed,
          size: sample.items.length,
          design,
          annotatorsPerItem: options.annotatorsPerItem,
          revealAfterSubmit: options.revealAfterSubmit,
          createdBy,
          createdAt: now,
        })
        .returning({ id: t.agreementSets.id })
        .get();

      for (const rows of chunks(sample.items)) {
        tx.insert(t.agreementItems)
          .values(rows.map((item) => ({ setId: set.id, ...item })))
          .run();
      }
      tx.insert(t.assignments)
        .values(options.annotatorIds.map((userId) => ({ setId: set.id, userId, createdAt: now })))
        .run();
      const assigned = assignAnnotators(sample.items, options.annotatorIds, options.annotatorsPerItem, options.seed);
      const itemAssignments = assigned.flatMap(({ item, annotatorIds }) =>
        annotatorIds.map((userId) => ({ setId: set.id, runId: item.runId, userId, createdAt: now })),
      );
      for (const rows of chunks(itemAssignments)) tx.insert(t.itemAssignments).values(rows).run();
      return set.id;
    },
    { behavior: "immediate" },
  );
  return getAgreementSet(db, setId);
}

/** The rule judge whose not_applicable verdicts decide applicability: the one named, else the latest. */
function resolveRuleJudge(db: Reader, ruleJudgeId: number | undefined): number | null {
  if (ruleJudgeId === undefined) {
    const latest = db
      .select({ id: t.judges.id })
      .from(t.judges)
      .where(eq(t.judges.kind, "rule"))
      .orderBy(desc(t.judges.id))
      .limit(1)
      .get();
    return latest?.id ?? null;
  }
  const judge = db.select({ kind: t.judges.kind }).from(t.judges).where(eq(t.judges.id, ruleJudgeId)).get();
  if (!judge) throw new AppError("INVALID_INPUT", `rule judge ${ruleJudgeId} does not exist`);
  if (judge.kind !== "rule") throw new AppError("INVALID_INPUT", `judge ${ruleJudgeId} is not a rule judge`);
  return ruleJudgeId;
}

function summaries(db: Db, setId?: number): AgreementSetSummary[] {
  const sets = db
    .select()
    .from(t.agreementSets)
    .where(setId === undefined ? undefined : eq(t.agreementSets.id, setId))
    .orderBy(desc(t.agreementSets.createdAt), desc(t.agreementSets.id))
    .all();
  if (sets.length === 0) return [];
  const ids = sets.map((s) => s.id);
  const progress = db
    .select({
      setId: t.assignments.setId,
      userId: t.assignments.userId,
      username: t.users.username,
      displayName: t.users.displayName,
      finishedAt: t.assignments.submittedAt,
      assigned: sql<number>`count(${t.itemAssignments.runId})`,
      submitted: sql<number>`count(${t.itemAssignments.submittedAt})`,
    })
    .from(t.assignments)
    .innerJoin(t.users, eq(t.users.id, t.assignments.userId))
    .leftJoin(
      t.itemAssignments,
      and(eq(t.itemAssignments.setId, t.assignments.setId), eq(t.itemAssignments.userId, t.assignments.userId)),
    )
    .where(inArray(t.assignments.setId, ids))
    .groupBy(t.assignments.setId, t.assignments.userId)
    .orderBy(asc(t.users.username))
    .all();
  const open = db
    .select({ setId: t.itemAssignments.setId, runId: t.itemAssignments.runId })
    .from(t.itemAssignments)
    .where(and(inArray(t.itemAssignments.setId, ids), isNull(t.itemAssignments.submittedAt)))
    .groupBy(t.itemAssignments.setId, t.itemAssignments.runId)
    .all();
  return sets.map((set) => ({
    ...set,
    design: AgreementSetDesignSchema.parse(set.design),
    completedItems: set.size - open.filter((o) => o.setId === set.id).length,
    annotators: progress
      .filter((p) => p.setId === set.id)
      .map(({ setId: _, ...p }) => ({ ...p, assigned: Number(p.assigned), submitted: Number(p.submitted) })),
  }));
}

/** Every set, newest first, with each annotator's progress (for admins). */
export function listAgreementSets(db: Db): AgreementSetSummary[] {
  return summaries(db);
}

export function getAgreementSet(db: Db, setId: number): AgreementSetSummary {
  const [summary] = summaries(db, setId);
  if (!summary) throw new AppError("NOT_FOUND", `agreement set ${setId} does not exist`);
  return summary;
}
