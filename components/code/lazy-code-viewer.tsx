"use client";
import dynamic from "next/dynamic";

/** Monaco touches `window`: load it in the browser only. */
export const LazyCodeViewer = dynamic(() => import("./code-viewer"), {
  ssr: false,
  loading: () => <div className="code-loading">Loading editor…</div>,
});
