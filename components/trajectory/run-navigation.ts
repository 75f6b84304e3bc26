"use client";
/**
 * In-page navigation of the run page. Steps live in a virtualized list and diffs mount lazily, so
 * the browser cannot scroll to `#step-...` or `#file-...` itself: links push the fragment and
 * announce it, and the trajectory viewer and the diff list each handle their own kind of anchor,
 * also for the fragment the page was opened with and for back/forward.
 */
import { useEffect, useRef } from "react";
import { anchorHash, parseAnchor, type RunAnchor } from "@/lib/runs/anchors";

const EVENT = "run-anchor";

/** Puts the anchor in the address without moving anything (pushState fires no hashchange). */
export function setAnchor(anchor: RunAnchor): void {
  const hash = anchorHash(anchor);
  if (window.location.hash !== hash) window.history.pushState(null, "", hash);
}

export function navigateTo(anchor: RunAnchor): void {
  setAnchor(anchor);
  window.dispatchEvent(new CustomEvent<RunAnchor>(EVENT, { detail: anchor }));
}

/** The absolute address of an anchor on this page, for copying. */
export function anchorUrl(anchor: RunAnchor): string {
  return `${window.location.origin}${window.location.pathname}${window.location.search}${anchorHash(anchor)}`;
}

/** Calls `onAnchor` for the page's initial fragment, each link followed, and back/forward. */
export function useRunAnchor(onAnchor: (anchor: RunAnchor, initial: boolean) => void): void {
  const handler = useRef(onAnchor);
  useEffect(() => {
    handler.current = onAnchor;
  });
  useEffect(() => {
    const fromHash = () => {
      const anchor = parseAnchor(window.location.hash);
      if (anchor) handler.current(anchor, false);
    };
    const fromEvent = (event: Event) => handler.current((event as CustomEvent<RunAnchor>).detail, false);
    const initial = parseAnchor(window.location.hash);
    if (initial) handler.current(initial, true);
    window.addEventListener("hashchange", fromHash);
    window.addEventListener(EVENT, fromEvent);
    return () => {
      window.removeEventListener("hashchange", fromHash);
      window.removeEventListener(EVENT, fromEvent);
    };
  }, []);
}

/** Copies text to the clipboard; false where the page may not (an insecure origin, a denied permission). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
