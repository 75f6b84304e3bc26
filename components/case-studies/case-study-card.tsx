import Link from "next/link";
import { CATALOG_SUBTASKS } from "@/lib/benchmark/subtasks";
import { formatStamp, noteExcerpt } from "@/lib/case-studies/gallery";
import type { CaseStudyCard as Card } from "@/lib/case-studies/types";
import { METRICS } from "@/lib/metrics/catalog";
import { TagChips } from "./tag-chips";
import styles from "./case-studies.module.css";

const subtaskLabel = (id: string) => CATALOG_SUBTASKS.find((s) => s.id === id)?.label ?? id;
const metricLabel = (id: string) => METRICS.find((m) => m.id === id)?.label ?? id;

/** One case study in the gallery: what it is, which run, what the rule judge found. */
export function CaseStudyCard({ card, activeTag }: { card: Card; activeTag?: string }) {
  const runHref = `/runs/${encodeURIComponent(card.runId)}`;
  const titleId = `case-study-${card.runId}`;
  return (
    <article className={styles.card} data-testid="case-study-card" data-run-id={card.runId} aria-labelledby={titleId}>
      <h2 id={titleId} data-testid="case-study-card-title">
        <Link href={`${runHref}#case-study`}>{card.title}</Link>
      </h2>
      <p className={styles.meta}>
        <Link href={runHref} data-testid="case-study-run-link">
          <code>{card.runId}</code>
        </Link>{" "}
        · <span className={`status status-${card.status}`}>{card.status}</span>
      </p>
      <p className={styles.meta}>
        {card.framework} / {card.model} · {subtaskLabel(card.subtaskId)}
      </p>
      <TagChips tags={card.tags} active={activeTag} />
      {card.note ? (
        <p className={styles.excerpt} data-testid="case-study-excerpt">
          {noteExcerpt(card.note)}
        </p>
      ) : null}
      <div className={styles.violations} data-testid="case-study-violations">
        {card.violated === null ? (
          <span className="muted">Not judged by the rule judge.</span>
        ) : card.violated.length === 0 ? (
          <span className="muted">Rule judge: no metric violated.</span>
        ) : (
          <>
            <span className="muted">Rule judge found violated: </span>
            <span className="chips">
              {card.violated.map((m) => (
                <span key={m} className="chip chip-bad">
                  {metricLabel(m)}
                </span>
              ))}
            </span>
          </>
        )}
      </div>
      <p className={`muted ${styles.stamp}`}>edited {formatStamp(card.updatedAt)}</p>
    </article>
  );
}
