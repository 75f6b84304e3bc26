/**
 * The condensed middle of a long trajectory: file and command steps on one line each (their
 * observations folded in), identical consecutive steps collapsed, messages and unpaired
 * observations elided behind counted markers or short suffixes.
 */
import type { TrajectoryStep } from "@/lib/bundle/schema";
import { durationOf, oneLine, summarizeArguments, truncateMiddle } from "./render-step";

export type Kind = TrajectoryStep["kind"];
export type Counts = Partial<Record<Kind, number>>;

const KIND_LABELS: Record<Kind, [string, string]> = {
  message: ["message", "messages"],
  tool_call: ["tool call", "tool calls"],
  observation: ["observation", "observations"],
  shell: ["shell command", "shell commands"],
  file_read: ["file read", "file reads"],
  file_write: ["file write", "file writes"],
  file_delete: ["file delete", "file deletes"],
};
const KIND_ORDER: Kind[] = ["observation", "message", "tool_call", "shell", "file_read", "file_write", "file_delete"];

/** Elided runs up to this many steps become a suffix of the line before them, not a marker line. */
const SHORT_GAP = 3;

const num = (n: number) => n.toLocaleString("en-US");

function countText(counts: Counts): string {
  return KIND_ORDER.filter((k) => (counts[k] ?? 0) > 0)
    .map((k) => {
      const n = counts[k] ?? 0;
      const [one, many] = KIND_LABELS[k];
      return `${num(n)} ${n === 1 ? one : many}`;
    })
    .join(", ");
}

export function addCounts(into: Counts, from: Counts): void {
  for (const k of KIND_ORDER) if (from[k]) into[k] = (into[k] ?? 0) + (from[k] ?? 0);
}

export const total = (counts: Counts) => KIND_ORDER.reduce((sum, k) => sum + (counts[k] ?? 0), 0);

export function elisionMarker(counts: Counts): string {
  const n = total(counts);
  return `[... ${num(n)} step${n === 1 ? "" : "s"} elided: ${countText(counts)} ...]`;
}

/** A file/command step of the condensed middle, its paired observation folded in. */
interface Unit {
  /** The condensed text, ids included. */
  text: string;
  /** The same without ids: equal keys are repeats. */
  key: string;
  counts: Counts;
  lastId: string;
}

export type Entry = { unit: Unit } | { elided: TrajectoryStep };

export interface CondensePlan {
  edge: number;
  outputChars: number;
  /** Whether observations no call claims get a line of their own. */
  keepOrphanObservations: boolean;
  fullStepChars: number;
}

/** Pairs each call with its observation: the same callId, else an uncalled observation right after it. */
function pairObservations(steps: readonly TrajectoryStep[]): Map<number, number> {
  const pairs = new Map<number, number>();
  const claimed = new Set<number>();
  steps.forEach((step, i) => {
    if (step.kind !== "tool_call" && step.kind !== "shell") return;
    for (let j = i + 1; j < Math.min(steps.length, i + 6); j++) {
      const next = steps[j]!;
      if (next.kind !== "observation" || claimed.has(j)) continue;
      if ((step.callId && next.callId === step.callId) || (!next.callId && j === i + 1)) {
        pairs.set(i, j);
        claimed.add(j);
        break;
      }
      if (!step.callId) break;
    }
  });
  return pairs;
}

export function condensedEntries(steps: readonly TrajectoryStep[], plan: CondensePlan): Entry[] {
  const pairs = pairObservations(steps);
  const folded = new Set(pairs.values());
  const n = plan.outputChars;
  const snippet = (text: string) => (n > 0 && text.trim() !== "" ? `: ${truncateMiddle(oneLine(text), n)}` : "");
  const entries: Entry[] = [];
  steps.forEach((step, i) => {
    if (folded.has(i)) return;
    const observationIndex = pairs.get(i);
    const observation = observationIndex === undefined ? undefined : steps[observationIndex];
    const result =
      observation?.kind === "observation"
        ? { ids: ` ⇒ [${observation.id}]`, text: `${observation.isError ? " ERROR" : ""}${snippet(observation.text)}` }
        : { ids: "", text: "" };
    const counts: Counts = { [step.kind]: 1, ...(observation ? { observation: 1 } : {}) };
    // The duration is shown after the kind but is no part of the key: repeats differ in it.
    const took = durationOf(step);
    const unit = (kind: string, rest: string, tail = ""): Entry => ({
      unit: {
        text: `[${step.id}] ${kind}${took}${rest}${tail}`,
        key: `${kind}${rest}`,
        counts,
        lastId: observation?.id ?? step.id,
      },
    });
    switch (step.kind) {
      case "message":
        entries.push({ elided: step });
        return;
      case "observation":
        if (plan.keepOrphanObservations && n > 0)
          entries.push(unit("observation", `${step.isError ? " ERROR" : ""}${snippet(step.text)}`));
        else entries.push({ elided: step });
        return;
      case "tool_call": {
        const args = ` ${summarizeArguments(step.arguments, 120 + n)}`.trimEnd();
        const kind = `tool_call ${step.tool}`;
        entries.push({
          unit: {
            text: `[${step.id}] ${kind}${took}${args}${result.ids}${result.text}`,
            key: `${kind}${args} ⇒${result.text}`,
            counts,
            lastId: observation?.id ?? step.id,
          },
        });
        return;
      }
      case "shell": {
        const status = `→ exit ${step.exitCode ?? "?"}${step.timedOut ? " (timed out)" : ""}`;
        const rest = ` $ ${truncateMiddle(oneLine(step.command), 300)} ${status}${snippet(step.output)}`;
        entries.push(unit("shell", rest, `${result.ids}${result.text}`));
        return;
      }
      default:
        entries.push(unit(step.kind, ` ${step.path}`));
    }
  });
  return entries;
}

/** A rendered middle line and the steps it stands for (for last-resort trimming). */
export interface Line {
  text: string;
  counts: Counts;
  /** Steps it stands for without showing them on a line of their own. */
  hidden: number;
}

/** Collapses repeats and turns elided runs into suffixes (short gaps) or marker lines. */
export function renderMiddle(entries: readonly Entry[]): Line[] {
  const lines: Line[] = [];
  let gap: Counts = {};
  let repeat: { unit: Unit; more: number; between: Counts; lastId: string; moreCounts: Counts } | null = null;

  const flushGap = () => {
    const n = total(gap);
    if (n === 0) return;
    const previous = lines.at(-1);
    if (n <= SHORT_GAP && previous && !previous.text.startsWith("[... ")) {
      previous.text += ` (+${countText(gap)})`;
      addCounts(previous.counts, gap);
      previous.hidden += n;
    } else lines.push({ text: elisionMarker(gap), counts: gap, hidden: n });
    gap = {};
  };
  const flushRepeat = () => {
    if (!repeat) return;
    lines.push({ text: repeat.unit.text, counts: { ...repeat.unit.counts }, hidden: 0 });
    if (repeat.more > 0) {
      const between = total(repeat.between) > 0 ? `, with ${countText(repeat.between)} elided in between` : "";
      const counts = { ...repeat.between };
      addCounts(counts, repeat.moreCounts);
      lines.push({
        text: `[... the same step repeated ${num(repeat.more)} more time${repeat.more === 1 ? "" : "s"} up to [${repeat.lastId}]${between} ...]`,
        counts,
        hidden: total(counts),
      });
    }
    repeat = null;
  };

  for (const entry of entries) {
    if ("elided" in entry) {
      gap[entry.elided.kind] = (gap[entry.elided.kind] ?? 0) + 1;
      continue;
    }
    const { unit } = entry;
    if (repeat && repeat.unit.key === unit.key) {
      repeat.more++;
      repeat.lastId = unit.lastId;
      addCounts(repeat.moreCounts, unit.counts);
      addCounts(repeat.between, gap);
      gap = {};
      continue;
    }
    flushRepeat();
    flushGap();
    repeat = { unit, more: 0, between: {}, lastId: unit.lastId, moreCounts: {} };
  }
  flushRepeat();
  flushGap();
  return lines;
}
