import type { MetricId } from "@/lib/metrics/catalog";

/** A flagged run as stored: tags lower-case and sorted (lib/case-studies/schema.ts). */
export interface CaseStudy {
  runId: string;
  title: string;
  note: string;
  tags: string[];
  createdAt: string;
  updatedAt: string;
}

/** A gallery card: the case study and what the run was. */
export interface CaseStudyCard extends CaseStudy {
  benchmarkId: string;
  instanceId: string;
  subtaskId: string;
  framework: string;
  model: string;
  status: string;
  /** Metrics the rule judge found violated, in catalog order; null: the rule judge never saw the run. */
  violated: MetricId[] | null;
}

export interface TagCount {
  tag: string;
  count: number;
}

export interface CaseStudyGallery {
  /** The case studies that match the filter, most recently edited first. */
  cards: CaseStudyCard[];
  /** Every tag in use with the number of case studies carrying it, most used first. */
  tags: TagCount[];
  /** All case studies, filtered or not: tells "none yet" from "none match". */
  total: number;
}
