/**
 * The trajectory as the judge reads it, within a character budget (docs/judge-prompts.md, "Long
 * trajectories"). Under the budget every step is shown in full (each step capped). Over it, the
 * first and last K steps stay in full and every file- or command-bearing step between them (tool
 * calls, shell commands, file reads/writes/deletes) is kept in condensed form: tool + path/command,
 * exit code or error flag, and its output or observation cut to N characters (the observation is
 * folded into its call's line, with its own id). Identical consecutive steps collapse into one
 * line; messages and unpaired observations are elided behind markers that count what they hide:
 * `[... 312 steps elided: 280 observations, 32 messages ...]`, or a short `(+1 message)` suffix for
 * gaps of a few steps. Plans get coarser (smaller K and N) until the text fits; as a last resort
 * the centre of the condensed part is elided too, under a marker that counts the steps it hides.
 */
import type { TrajectoryStep } from "@/lib/bundle/schema";
import {
  addCounts,
  condensedEntries,
  elisionMarker,
  renderMiddle,
  total,
  type CondensePlan,
  type Counts,
  type Line,
} from "./condense-steps";
import { renderStepFull, truncateMiddle } from "./render-step";

export { elisionMarker } from "./condense-steps";
export { renderStepFull, truncateMiddle } from "./render-step";

export interface TrajectoryRenderOptions {
  budgetChars: number;
  /** Cap on one step shown in full. */
  fullStepChars?: number;
  /** Steps kept in full at each end when condensing (K). */
  edgeSteps?: number;
  /** Output/observation characters kept per condensed step (N). */
  condensedOutputChars?: number;
}

export interface RenderedTrajectory {
  text: string;
  /** "full": every step shown; "condensed": some steps condensed or elided. */
  mode: "full" | "condensed";
  /** Steps not shown on a line of their own (elided or collapsed as repeats). */
  elidedSteps: number;
}

const num = (n: number) => n.toLocaleString("en-US");

const joinLength = (lines: readonly string[]) => lines.reduce((sum, l) => sum + l.length + 1, 0);

function renderPlan(
  steps: readonly TrajectoryStep[],
  plan: CondensePlan,
  budget: number,
  allowCut: boolean,
): { lines: string[]; elided: number; fits: boolean } {
  const edge = Math.min(plan.edge, Math.floor(steps.length / 2));
  const head = steps.slice(0, edge).map((s) => renderStepFull(s, plan.fullStepChars));
  const tail = steps.slice(steps.length - edge).map((s) => renderStepFull(s, plan.fullStepChars));
  const middleSteps = steps.slice(edge, steps.length - edge);
  const middle = renderMiddle(condensedEntries(middleSteps, plan));
  const outputs =
    plan.outputChars > 0
      ? `outputs and observations cut to ${plan.outputChars} chars`
      : "outputs and observations omitted";
  const summary =
    `${num(steps.length)} steps: the first ${edge} and last ${edge} in full; the ${num(middleSteps.length)} between condensed ` +
    `(every file and command step kept, its observation folded in after ⇒; ${outputs}; messages elided; ` +
    `identical consecutive steps collapsed; "(+1 message)" after a line = steps elided right after it).`;
  const lines = [summary, ...head, ...middle.map((m) => m.text), ...tail];
  const elided = middle.reduce((sum, m) => sum + m.hidden, 0);
  const fits = joinLength(lines) <= budget;
  if (fits || !allowCut) return { lines, elided, fits };

  // Last resort: elide the centre of the condensed part too, keeping both of its ends.
  let room = budget - joinLength([summary, ...head, ...tail]) - 160;
  const front: Line[] = [];
  const back: Line[] = [];
  let i = 0;
  let j = middle.length - 1;
  while (i <= j) {
    const fromFront = front.length <= back.length;
    const next = fromFront ? middle[i]! : middle[j]!;
    if (next.text.length + 1 > room) break;
    room -= next.text.length + 1;
    if (fromFront) front.push(middle[i++]!);
    else back.unshift(middle[j--]!);
  }
  const dropped: Counts = {};
  for (const line of middle.slice(i, j + 1)) addCounts(dropped, line.counts);
  const marker = total(dropped) > 0 ? [elisionMarker(dropped)] : [];
  const cut = [summary, ...head, ...front.map((m) => m.text), ...marker, ...back.map((m) => m.text), ...tail];
  const shownHidden = [...front, ...back].reduce((sum, m) => sum + m.hidden, 0);
  return { lines: cut, elided: shownHidden + total(dropped), fits: joinLength(cut) <= budget };
}

export function renderTrajectory(
  steps: readonly TrajectoryStep[],
  options: TrajectoryRenderOptions,
): RenderedTrajectory {
  const budget = Math.max(0, Math.floor(options.budgetChars));
  const fullStepChars = options.fullStepChars ?? 2000;
  const edge = options.edgeSteps ?? 20;
  const outputChars = options.condensedOutputChars ?? 200;
  if (steps.length === 0) return { text: "(no steps recorded)", mode: "full", elidedSteps: 0 };

  const full = steps.map((s) => renderStepFull(s, fullStepChars));
  if (joinLength(full) <= budget) return { text: full.join("\n"), mode: "full", elidedSteps: 0 };

  // From finest to coarsest; every plan keeps every file and command step.
  const plans: CondensePlan[] = [
    { edge, outputChars, keepOrphanObservations: true, fullStepChars },
    { edge, outputChars: Math.floor(outputChars / 2), keepOrphanObservations: true, fullStepChars },
    {
      edge: Math.ceil(edge / 2),
      outputChars: Math.min(60, outputChars),
      keepOrphanObservations: false,
      fullStepChars: Math.ceil(fullStepChars / 2),
    },
    {
      edge: Math.ceil(edge / 4),
      outputChars: Math.min(30, outputChars),
      keepOrphanObservations: false,
      fullStepChars: Math.ceil(fullStepChars / 4),
    },
    {
      edge: Math.ceil(edge / 4),
      outputChars: 0,
      keepOrphanObservations: false,
      fullStepChars: Math.ceil(fullStepChars / 4),
    },
  ];
  for (const plan of plans) {
    const rendered = renderPlan(steps, plan, budget, false);
    if (rendered.fits) return { text: rendered.lines.join("\n"), mode: "condensed", elidedSteps: rendered.elided };
  }
  // Too many file and command steps even condensed: the coarsest plan with its centre elided.
  const cut = renderPlan(steps, plans[plans.length - 1]!, budget, true);
  const text = cut.lines.join("\n");
  // A budget smaller than even the ends and markers: cut hard, and say so.
  return { text: cut.fits ? text : truncateMiddle(text, budget), mode: "condensed", elidedSteps: cut.elided };
}
