import Link from "next/link";
import { galleryHref } from "@/lib/case-studies/gallery";
import styles from "./case-studies.module.css";

/** A case study's tags, each a link to the gallery filtered by it. */
export function TagChips({ tags, active }: { tags: readonly string[]; active?: string }) {
  if (tags.length === 0) return null;
  return (
    <ul className={`chips ${styles.tagChips}`} aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag}>
          <Link
            href={galleryHref({ tag })}
            className={`chip ${styles.tag}${tag === active ? ` ${styles.active}` : ""}`}
            aria-current={tag === active ? "true" : undefined}
            data-testid="case-study-tag"
          >
            #{tag}
          </Link>
        </li>
      ))}
    </ul>
  );
}
