"use client";
import dynamic from "next/dynamic";

/** Monaco touches `window`: the diff editor loads in the browser only, on first use. */
export const LazyMonacoDiff = dynamic(() => import("./monaco-diff"), {
  ssr: false,
  loading: () => <div className="code-loading">Loading the diff editor…</div>,
});
