import Form from "next/form";
import Link from "next/link";
import { connection } from "next/server";
import { getAppDb } from "@/db/app-db";
import { requireReader } from "@/app/session";
import { listCaseStudies } from "@/db/queries/case-studies";
import { CaseStudyCard } from "@/components/case-studies/case-study-card";
import { ExportLinks } from "@/components/dashboard/export-links";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { galleryHref } from "@/lib/case-studies/gallery";
import { GalleryParamsSchema } from "@/lib/case-studies/schema";
import { parseParams, type SearchParams } from "@/lib/dashboard/params";
import styles from "@/components/case-studies/case-studies.module.css";

/**
 * The case-study gallery: flagged runs as cards, filtered by tag and searched via the URL
 * (?tag=&q=). Admins only once a study is active (lib/auth/access.ts).
 */
export default async function CaseStudiesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await connection();
  await requireReader("case-studies", "/case-studies");
  const parsed = parseParams(GalleryParamsSchema, await searchParams);
  if (!parsed.ok) {
    return (
      <section>
        <h1>Case studies</h1>
        <ErrorState title="This gallery link has a bad parameter" errors={parsed.errors} />
        <p>
          <Link href={galleryHref()}>Show all case studies</Link>
        </p>
      </section>
    );
  }
  const { tag, q } = parsed.value;
  const gallery = listCaseStudies(getAppDb(), { tag, q });
  if (gallery.total === 0) {
    return (
      <section>
        <h1>Case studies</h1>
        <EmptyState title="No case studies yet" testId="case-studies-empty">
          Open a run from the <Link href="/runs">runs list</Link> and use <strong>Flag as case study</strong> in its
          Case study section: give it a title, a note and tags, and it shows up here.
        </EmptyState>
      </section>
    );
  }
  const shown = gallery.cards.length;
  return (
    <section className="case-studies">
      <h1>Case studies</h1>
      <Form action="/case-studies" className="filter-bar" data-testid="case-studies-filter">
        {tag ? <input type="hidden" name="tag" value={tag} /> : null}
        <label className="search">
          <span>Search titles and notes</span>
          <input
            type="search"
            name="q"
            defaultValue={q ?? ""}
            placeholder="e.g. deleted"
            data-testid="case-studies-search"
          />
        </label>
        <button type="submit">Search</button>
      </Form>
      <nav className={styles.tagFilter} aria-label="Filter by tag">
        <span className="muted">Tags:</span>
        <ul className="chips">
          <li>
            <Link
              href={galleryHref({ q })}
              className={`chip ${styles.tag}${tag ? "" : ` ${styles.active}`}`}
              aria-current={tag ? undefined : "true"}
            >
              all
            </Link>
          </li>
          {gallery.tags.map((t) => (
            <li key={t.tag}>
              <Link
                href={galleryHref({ tag: t.tag, q })}
                className={`chip ${styles.tag}${t.tag === tag ? ` ${styles.active}` : ""}`}
                aria-current={t.tag === tag ? "true" : undefined}
                data-testid="tag-filter"
              >
                #{t.tag} <span className="muted">{t.count}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <p className="muted" data-testid="case-studies-total">
        {tag || q ? `${shown} of ${gallery.total}` : shown} case {gallery.total === 1 ? "study" : "studies"}
        {tag ? (
          <>
            {" "}
            tagged <strong>#{tag}</strong>
          </>
        ) : null}
        {q ? (
          <>
            {" "}
            matching <strong>“{q}”</strong>
          </>
        ) : null}
        {tag || q ? (
          <>
            {" "}
            · <Link href={galleryHref()}>clear</Link>
          </>
        ) : null}
      </p>
      {shown === 0 ? (
        <EmptyState title="No case study matches" testId="case-studies-no-match">
          Try another tag or search, or <Link href={galleryHref()}>show all case studies</Link>.
        </EmptyState>
      ) : (
        <>
          <ExportLinks table="case-studies" query={{ tag, q }} />
          <div className={styles.grid} data-testid="case-study-grid">
            {gallery.cards.map((card) => (
              <CaseStudyCard key={card.runId} card={card} activeTag={tag} />
            ))}
          </div>
        </>
      )}
    </section>
  );
}
