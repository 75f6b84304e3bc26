"use client";
import { useEffect, useRef, useState, type ReactNode } from "react";

/**
 * Renders `children` once their place comes near the viewport (within `margin`), a box of
 * `minHeight` until then: a chart below the tables costs the page nothing (no module loaded, no
 * render) until the reader scrolls towards it. Without IntersectionObserver, at once.
 */
export function WhenVisible({
  children,
  minHeight,
  margin = "400px",
}: {
  children: ReactNode;
  minHeight: number;
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
  return <div ref={place} className="chart" style={{ minHeight }} data-testid="chart-placeholder" />;
}
