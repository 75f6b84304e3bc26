/**
 * What the agreement study's queries (db/queries/agreement-*.ts) return to the pages: plain,
 * serializable data. An annotator's views never carry another annotator's labels or a judge's
 * verdict unless they come from `loadRevealed`, which checks that the item was submitted first.
 */
import type { ActionResult } from "@/lib/errors/action-result";
import type { MetricId, VerdictValue } from "@/lib/metrics/catalog";
import type { RunDetail } from "@/lib/runs/types";
import type { ItemMetricMajority } from "./item-majority";
import type { AgreementSetDesign, BinaryLabel, HumanLabel } from "./study-schema";

export interface AnnotatorProgress {
  userId: number;
  username: string;
  displayName: string;
  /** Items given to this annotator. */
  assigned: number;
  submitted: number;
  /** When they submitted their last item; null while any is open. */
  finishedAt: string | null;
}

export interface AgreementSetSummary {
  id: number;
  name: string;
  seed: number;
  /** Items drawn (at most the requested size: fewer when fewer runs matched). */
  size: number;
  annotatorsPerItem: number;
  revealAfterSubmit: boolean;
  createdAt: string;
  createdBy: number | null;
  design: AgreementSetDesign;
  /** Items every assigned annotator has submitted. */
  completedItems: number;
  annotators: AnnotatorProgress[];
}

/** A set as one annotator sees it on their home page: their own progress only. */
export interface AnnotatorSetSummary {
  id: number;
  name: string;
  revealAfterSubmit: boolean;
  assigned: number;
  submitted: number;
  /** Where to resume: the first item (in labeling order) not yet submitted; null when done. */
  nextRunId: string | null;
}

/** todo: no label yet; in_progress: some labels saved, not submitted; submitted: final. */
export type QueueStatus = "todo" | "in_progress" | "submitted";

export interface QueueItem {
  runId: string;
  /** Place in the set's labeling order (0-based). */
  position: number;
  /** 1-based place in this annotator's own list ("item 3 of 67"). */
  ordinal: number;
  status: QueueStatus;
  /** Applicable metrics labeled so far, of `applicable`. */
  labeled: number;
  applicable: number;
  submittedAt: string | null;
}

export interface AnnotatorQueue {
  setId: number;
  setName: string;
  userId: number;
  items: QueueItem[];
  assigned: number;
  submitted: number;
  /** The first item not yet submitted, in order: "resume where you left off". */
  nextRunId: string | null;
}

/** One of the annotator's own labels. */
export interface OwnLabel {
  metric: MetricId;
  value: HumanLabel;
  /** Rationale. */
  note: string | null;
  updatedAt: string;
}

/** The run as the labeling workspace shows it: everything but the judges' verdicts. */
export type LabelingRun = Omit<RunDetail, "verdicts">;

export interface LabelingItem {
  set: { id: number; name: string; revealAfterSubmit: boolean };
  runId: string;
  position: number;
  /** 1-based place in this annotator's list, of `total`. */
  ordinal: number;
  total: number;
  /** Neighbours in this annotator's list, for previous / next. */
  previousRunId: string | null;
  nextRunId: string | null;
  /** The first of this annotator's items not yet submitted other than this one. */
  nextUnfinishedRunId: string | null;
  submittedAt: string | null;
  /** The metrics to label, catalog order (lib/agreement/applicability.ts). */
  metrics: MetricId[];
  /** This annotator's labels only. */
  labels: OwnLabel[];
  /** Submitted and the set reveals: loadRevealed will answer. */
  canReveal: boolean;
  run: LabelingRun;
}

export interface RevealedVerdict {
  judgeId: number;
  kind: string;
  name: string;
  provider: string;
  model: string;
  promptVersion: string;
  metric: MetricId;
  value: VerdictValue;
  rationale: string;
}

export interface RevealedAnnotator {
  userId: number;
  username: string;
  displayName: string;
  submittedAt: string;
  labels: { metric: MetricId; value: HumanLabel; note: string | null }[];
}

/** After submitting: the judges and the other annotators who have submitted the item too. */
export interface RevealedItem {
  runId: string;
  metrics: MetricId[];
  verdicts: RevealedVerdict[];
  others: RevealedAnnotator[];
  /** The majority of every submitted label so far (this annotator's included), per metric. */
  majorities: ItemMetricMajority[];
}

export interface SubmitResult {
  submittedAt: string;
  /** The item had been submitted before; nothing changed. */
  alreadySubmitted: boolean;
  /** The next item not yet submitted, or null when all are. */
  nextRunId: string | null;
}

export interface AdjudicationRecord {
  runId: string;
  metric: MetricId;
  value: BinaryLabel;
  note: string;
  userId: number;
  decidedAt: string;
}

/** An (item, metric) whose submitted votes split or tie: what an admin adjudicates. */
export interface AdjudicationCase {
  runId: string;
  position: number;
  metric: MetricId;
  kind: "split" | "tie";
  votes: ItemMetricMajority["votes"];
  /** The majority of the votes (null on a tie). */
  majority: BinaryLabel | null;
  /** Every assigned annotator has submitted the item: the votes are final. */
  complete: boolean;
  labels: { userId: number; username: string; value: HumanLabel; note: string | null }[];
  adjudication: AdjudicationRecord | null;
}

/** What the labeling workspace's server actions answer (save a label, submit an item). */
export type LabelActionResult = ActionResult<never, { nextRunId?: string | null }>;
