"use client";
import type { ReactNode } from "react";
import { anchorHash, type RunAnchor } from "@/lib/runs/anchors";
import { navigateTo } from "./run-navigation";

/** A link to a step or a diff on this run page (a real link: it can be opened in a new tab or copied). */
export function AnchorLink({
  anchor,
  children,
  className,
  title,
  testId,
}: {
  anchor: RunAnchor;
  children: ReactNode;
  className?: string;
  title?: string;
  testId?: string;
}) {
  return (
    <a
      href={anchorHash(anchor)}
      className={className}
      title={title}
      data-testid={testId}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigateTo(anchor);
      }}
    >
      {children}
    </a>
  );
}
