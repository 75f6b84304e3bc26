/**
 * A small database for the agreement query tests: synthetic runs (two frameworks, the synthetic
 * models and subtasks), an admin, three annotators and a viewer, a rule judge that finds Signature
 * and Body Change not applicable on even runs, and an LLM judge.
 */
import { parseBundle } from "@/lib/bundle/parse";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { bundleFilesOf } from "@/lib/bundle/write";
import { verdict } from "@/lib/judge/schema";
import { METRIC_IDS, type MetricId } from "@/lib/metrics/catalog";
import { createDb, type Db } from "../client";
import * as t from "../schema";
import { ensureJudge, saveVerdicts } from "./verdicts";
import { importParsedBundle } from "./run-import";

export const NOT_APPLICABLE_ON_EVEN: readonly MetricId[] = ["signature", "body_change"];

export interface StudyFixture {
  db: Db;
  runIds: string[];
  users: { admin: number; ann: number; bob: number; cat: number; viewer: number };
  ruleJudgeId: number;
  llmJudgeId: number;
}

export function runIdOf(i: number): string {
  return `synthetic-6-${String(i).padStart(6, "0")}`;
}

/** Imports `count` runs, inserts the users and judges; `db` defaults to a fresh in-memory one. */
export function seedStudy(count: number, db: Db = createDb(":memory:")): StudyFixture {
  const runIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const record = generatedRunRecord({ index: i, seed: 6, steps: 8, workspaceFiles: 6, changedFiles: 3 });
    record.manifest.agent.framework = i % 3 === 0 ? "openhands" : "synthetic";
    importParsedBundle(db, parseBundle(bundleFilesOf(record), `b${i}`), { via: "cli" });
    runIds.push(record.manifest.runId);
  }
  const user = (username: string, role: string) =>
    db
      .insert(t.users)
      .values({ username, displayName: username.toUpperCase(), role, passwordHash: "not-a-hash" })
      .returning({ id: t.users.id })
      .get().id;
  const users = {
    admin: user("admin", "admin"),
    ann: user("ann", "annotator"),
    bob: user("bob", "annotator"),
    cat: user("cat", "annotator"),
    viewer: user("viewer", "viewer"),
  };
  const ruleJudgeId = ensureJudge(db, { kind: "rule", name: "rules", promptVersion: "rules-v1" });
  const llmJudgeId = ensureJudge(db, {
    kind: "llm",
    name: "gemini",
    provider: "gemini",
    model: "gemini-2.5-flash",
    promptVersion: "v1",
  });
  runIds.forEach((runId, i) => {
    saveVerdicts(
      db,
      runId,
      ruleJudgeId,
      METRIC_IDS.map((metric, m) =>
        verdict(
          metric,
          i % 2 === 0 && NOT_APPLICABLE_ON_EVEN.includes(metric)
            ? "not_applicable"
            : (i + m) % 4 === 0
              ? "violated"
              : "not_violated",
          "rule",
        ),
      ),
    );
    saveVerdicts(
      db,
      runId,
      llmJudgeId,
      METRIC_IDS.map((metric, m) => verdict(metric, (i + m) % 3 === 0 ? "violated" : "not_violated", "llm")),
    );
  });
  return { db, runIds, users, ruleJudgeId, llmJudgeId };
}
