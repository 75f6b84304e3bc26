/**
 * Who reads what: the one rule every page, route and action of the web app applies (through
 * app/session.ts), and the README's "Blindness" paragraph states.
 *
 * While no annotator account exists the app is open: a local tool for one researcher, anyone
 * reads everything. From the first annotator on (a study is active) nothing is open to a
 * signed-out visitor but the sign-in page, so that annotators stay blind to the judges:
 * - `dashboard`: overview, runs (verdicts, trajectories, files), compare, ablation, exports, and the
 *   benchmarks, instances (their ground truth) and jobs (logs list violations): admin or viewer.
 * - `case-studies`: the gallery, its export and the case-study notes on a run page: admin only
 *   (they are the researchers' own readings of runs, shown to nobody who labels or only reads).
 */
import type { Role } from "./schema";

export const READ_AREAS = ["dashboard", "case-studies"] as const;
export type ReadArea = (typeof READ_AREAS)[number];

const READERS: Record<ReadArea, readonly Role[]> = {
  dashboard: ["admin", "viewer"],
  "case-studies": ["admin"],
};

/** The roles that read `area` once a study is active. */
export function readersOf(area: ReadArea): readonly Role[] {
  return READERS[area];
}

/** Whether someone with `role` (null: signed out) reads `area`. */
export function mayRead(area: ReadArea, { studyActive, role }: { studyActive: boolean; role: Role | null }): boolean {
  if (!studyActive) return true;
  return role !== null && READERS[area].includes(role);
}
