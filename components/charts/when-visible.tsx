"use client";
import { useEffect, useRef, useState, type ReactNode } from "react";

/**
 * Renders `children` once their place comes near the viewport (within `margin`), a box of
 * `minHeight` (styled by `className`, found by `testId`) until then: a chart or a table below the
 * first screen costs the page nothing (no module loaded, no render) until the reader scrolls
 * towards it. Without IntersectionObserver, at once.
 */
export function WhenVisible({
  children,
  minHeight,
  className,
  testId,
  margin = "400px",
}: {
  children: ReactNode;
  minHeight: number;
  className: string;
  testId: string;
  margin?: string;
}) {
  const place = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const element = place.current;
    if (!element || typeof IntersectionObserver === "undefined") return setVisible(true);
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setVisible(true);
          observer.disconnect();
        }
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [margin]);
  if (visible) return <>{children}</>;
  return <div ref={place} className={className} style={{ minHeight }} data-testid={testId} />;
}
