/**
 * The demo's agreement study, ready to label: three annotator accounts and a viewer (random
 * passwords in the demo's accounts file, beside the admin's) and one set drawn over the judges the
 * demo ran, every item given to all three annotators. Safe to repeat: existing accounts keep their
 * passwords, and an existing demo set is left as it is (with its labels).
 */
import type { Db } from "@/db/client";
import { createAgreementSet, listAgreementSets } from "@/db/queries/agreement-sets";
import { findUserForLogin } from "@/db/queries/users";
import type { AgreementSetSummary } from "@/lib/agreement/study-types";
import { AppError } from "@/lib/errors/app-error";
import { ensureAccounts, type AccountSpec } from "./users";

export const DEMO_SET_NAME = "demo study";
export const DEMO_SET_SIZE = 30;
const DEMO_SET_SEED = 2026;

export const DEMO_ANNOTATORS: readonly AccountSpec[] = [1, 2, 3].map((n) => ({
  username: `annotator${n}`,
  displayName: `Annotator ${n}`,
  role: "annotator" as const,
}));
export const DEMO_VIEWER: AccountSpec = { username: "viewer", displayName: "Viewer", role: "viewer" };

export interface DemoStudyOptions {
  /** Where the random passwords go (the demo's data/demo-admin.txt). */
  passwordFile: string;
  /** The judges compared: only runs every one of them scored are drawn. */
  judgeIds: number[];
  /** Only runs of this benchmark, when given. */
  benchmarkId?: string;
}

export interface DemoStudy {
  accounts: { created: AccountSpec[]; existing: AccountSpec[] };
  set: AgreementSetSummary;
  setCreated: boolean;
}

export async function ensureDemoStudy(db: Db, options: DemoStudyOptions): Promise<DemoStudy> {
  const accounts = await ensureAccounts(db, [...DEMO_ANNOTATORS, DEMO_VIEWER], options.passwordFile);
  const existing = listAgreementSets(db).find((s) => s.name === DEMO_SET_NAME);
  if (existing) return { accounts, set: existing, setCreated: false };
  const annotatorIds = DEMO_ANNOTATORS.map((a) => {
    const user = findUserForLogin(db, a.username);
    if (!user) throw new AppError("INTERNAL", `the demo's account ${a.username} was not stored`);
    return user.id;
  });
  const set = createAgreementSet(db, {
    name: DEMO_SET_NAME,
    seed: DEMO_SET_SEED,
    size: DEMO_SET_SIZE,
    annotatorsPerItem: DEMO_ANNOTATORS.length,
    annotatorIds,
    judgeIds: options.judgeIds,
    benchmarkId: options.benchmarkId,
  });
  return { accounts, set, setCreated: true };
}
