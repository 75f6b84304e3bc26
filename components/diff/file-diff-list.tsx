"use client";
/**
 * Every file the run changed, each as a Monaco diff (before vs after; created and deleted files
 * against empty). Binary, oversized and missing contents get a note instead. Diffs the page did
 * not inline are fetched from /api/runs/<id>/files when they come near the viewport. Handles
 * `#file-<path>` and `#hunk-<n>-<path>` anchors: scrolls to the file and reveals the hunk.
 */
import { useEffect, useRef, useState } from "react";
import { anchorId, type RunAnchor } from "@/lib/runs/anchors";
import { languageOf } from "@/lib/runs/file-content";
import type { FileDiffContent } from "@/lib/runs/schema";
import type { ChangedFile } from "@/lib/runs/types";
import { AnchorLink } from "../trajectory/anchor-link";
import { useRunAnchor } from "../trajectory/run-navigation";
import { DiffView } from "./diff-view";
import type { RevealRequest } from "./monaco-diff";
import { useNearViewport } from "./use-near-viewport";
import styles from "./diff.module.css";

const bytes = (n: number | null) => (n === null ? "–" : n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KB`);

type Loaded = { state: "loading" } | { state: "failed"; message: string } | { state: "done"; content: FileDiffContent };

/** A deferred diff's contents, fetched once `wanted`; `retry` fetches again after a failure. */
function useDeferredContent(runId: string, file: ChangedFile, wanted: boolean): [Loaded, () => void] {
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!wanted || file.content.status !== "deferred") return;
    const controller = new AbortController();
    const url = `/api/runs/${encodeURIComponent(runId)}/files?path=${encodeURIComponent(file.path)}`;
    fetch(url, { signal: controller.signal })
      .then(async (response) => {
        const body: unknown = await response.json();
        if (!response.ok) {
          const message = (body as { error?: string }).error ?? `the server answered ${response.status}`;
          throw new Error(message);
        }
        // The schema (and zod with it) loads with the first fetched diff, not with the run page.
        const { FileDiffContentSchema } = await import("@/lib/runs/schema");
        setLoaded({ state: "done", content: FileDiffContentSchema.parse(body) });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setLoaded({ state: "failed", message: error instanceof Error ? error.message : String(error) });
      });
    return () => controller.abort();
  }, [runId, file.path, file.content.status, wanted, attempt]);
  const retry = () => {
    setLoaded({ state: "loading" });
    setAttempt((a) => a + 1);
  };
  return [loaded, retry];
}

function Note({ children }: { children: React.ReactNode }) {
  return (
    <div className={styles.note} data-testid="diff-note">
      {children}
    </div>
  );
}

function DiffBody({
  content,
  file,
  reveal,
}: {
  content: FileDiffContent;
  file: ChangedFile;
  reveal: RevealRequest | null;
}) {
  switch (content.status) {
    case "inline":
      return (
        <DiffView
          original={content.before}
          modified={content.after}
          language={languageOf(file.path)}
          sideBySide={file.kind === "updated"}
          label={file.path}
          reveal={reveal}
          // A whole created or deleted file is one block: a shorter window onto it.
          maxHeight={file.kind === "updated" ? 560 : 320}
        />
      );
    case "binary":
      return <Note>Binary file: not shown as text ({`${bytes(file.beforeSize)} → ${bytes(file.afterSize)}`}).</Note>;
    case "too_large":
      return (
        <Note>
          Too large to diff here (over {bytes(content.limitBytes)} on a side; {bytes(file.beforeSize)} →{" "}
          {bytes(file.afterSize)}). The run bundle has both versions.
        </Note>
      );
    case "missing":
      return <Note>The contents of this change were not stored with the run (the bundle listed only its hashes).</Note>;
    case "not_kept":
      // Both hashes unknown: a run made elsewhere whose repo diff names the file without its contents.
      if (content.beforeSha256 === null && content.afterSha256 === null)
        return (
          <Note>
            Not captured: the run&apos;s repo diff names this file, not its contents (see &quot;Made elsewhere&quot; for
            the diff; import with --repo to rebuild both versions).
          </Note>
        );
      return (
        <Note>
          Too large to keep: the runner recorded only its size and sha256 ({bytes(file.beforeSize)} →{" "}
          {bytes(file.afterSize)}
          {content.afterSha256 ? `, sha256 ${content.afterSha256.slice(0, 12)}…` : ""}), not its content.
        </Note>
      );
    case "deferred":
      return <Note>Loading…</Note>;
  }
}

function FileDiffCard({ runId, file, reveal }: { runId: string; file: ChangedFile; reveal: RevealRequest | null }) {
  const ref = useRef<HTMLElement>(null);
  const near = useNearViewport(ref);
  const [deferred, retry] = useDeferredContent(runId, file, near || reveal !== null);
  const anchor: RunAnchor = { kind: "file", path: file.path, hunk: null };
  return (
    // `file-diff-target` stays a plain class too: the run-detail e2e spec checks the cited file by it.
    <section
      ref={ref}
      id={anchorId(anchor)}
      className={reveal ? `${styles.fileDiff} ${styles.target} file-diff-target` : styles.fileDiff}
      data-testid="file-diff"
      data-path={file.path}
      aria-label={`${file.kind} ${file.path}`}
    >
      <header className={styles.head}>
        <span className={`change change-${file.kind}`}>{file.kind}</span>
        <code className={styles.path}>{file.path}</code>
        <span className="muted">
          {bytes(file.beforeSize)} → {bytes(file.afterSize)}
        </span>
        <AnchorLink anchor={anchor} className="step-link" title="Link to this file's diff">
          #
        </AnchorLink>
      </header>
      {file.content.status !== "deferred" ? (
        <DiffBody content={file.content} file={file} reveal={reveal} />
      ) : deferred.state === "done" ? (
        <DiffBody content={deferred.content} file={file} reveal={reveal} />
      ) : deferred.state === "failed" ? (
        <div className={`${styles.note} ${styles.noteError}`} role="alert">
          Could not load this diff: {deferred.message}.{" "}
          <button type="button" className="link-button" onClick={retry}>
            Try again
          </button>
        </div>
      ) : (
        <Note>Loading…</Note>
      )}
    </section>
  );
}

export function FileDiffList({ runId, changes }: { runId: string; changes: ChangedFile[] }) {
  const [reveal, setReveal] = useState<{ path: string; request: RevealRequest } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const nonce = useRef(0);
  const listRef = useRef<HTMLDivElement>(null);

  useRunAnchor((anchor) => {
    if (anchor.kind !== "file") return;
    if (!changes.some((c) => c.path === anchor.path)) {
      setNotice(`The run did not change ${anchor.path}: there is no diff to show.`);
      document.getElementById("changes")?.scrollIntoView({ block: "start" });
      return;
    }
    setNotice(null);
    nonce.current += 1;
    setReveal({ path: anchor.path, request: { hunk: anchor.hunk, nonce: nonce.current } });
  });

  // Diffs above the target grow as their editors load: keep the target in place until they
  // settle, or until the reader scrolls, clicks or types.
  useEffect(() => {
    const card = reveal ? document.getElementById(anchorId({ kind: "file", path: reveal.path, hunk: null })) : null;
    const list = listRef.current;
    if (!card || !list) return;
    card.scrollIntoView({ block: "start" });
    const observer = new ResizeObserver(() => card.scrollIntoView({ block: "start" }));
    observer.observe(list);
    const stop = () => observer.disconnect();
    const timer = setTimeout(stop, 4000);
    const events = ["wheel", "touchstart", "keydown", "mousedown"] as const;
    for (const e of events) window.addEventListener(e, stop, { once: true, passive: true });
    return () => {
      stop();
      clearTimeout(timer);
      for (const e of events) window.removeEventListener(e, stop);
    };
  }, [reveal]);

  if (changes.length === 0) {
    return (
      <div className="empty-state" data-testid="changes-empty">
        <strong>No file changed.</strong> The workspace after the run is identical to the one before it (execution
        caches aside).
      </div>
    );
  }
  return (
    <div ref={listRef} className={styles.fileDiffs} data-testid="changed-files">
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {changes.map((file) => (
        <FileDiffCard
          key={file.path}
          runId={runId}
          file={file}
          reveal={reveal?.path === file.path ? reveal.request : null}
        />
      ))}
    </div>
  );
}
