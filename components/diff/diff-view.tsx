"use client";
import { useRef } from "react";
import { DiffErrorBoundary } from "./diff-error-boundary";
import { LazyMonacoDiff } from "./lazy-monaco-diff";
import type { RevealRequest } from "./monaco-diff";
import { useNearViewport } from "./use-near-viewport";

/** A diff that loads its editor when it comes near the viewport, or at once when asked to reveal a hunk. */
export function DiffView(props: {
  original: string;
  modified: string;
  language: string;
  sideBySide: boolean;
  label: string;
  reveal?: RevealRequest | null;
  maxHeight?: number;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const near = useNearViewport(ref);
  const show = near || (props.reveal ?? null) !== null;
  return (
    <div ref={ref} className="diff-view">
      {show ? (
        <DiffErrorBoundary original={props.original} modified={props.modified}>
          <LazyMonacoDiff {...props} />
        </DiffErrorBoundary>
      ) : (
        <div className="code-loading">The diff loads when it scrolls into view.</div>
      )}
    </div>
  );
}
