"use client";
import dynamic from "next/dynamic";
import type { ComponentProps } from "react";
import type { MetricBarChart } from "./metric-bar-chart";
import { WhenVisible } from "./when-visible";

/** The height a chart takes (its figure), held while it loads so nothing below moves. */
const CHART_HEIGHT = 360;

const LoadedMetricBarChart = dynamic(() => import("./metric-bar-chart").then((m) => m.MetricBarChart), {
  ssr: false,
  loading: () => <div className="chart" style={{ minHeight: CHART_HEIGHT }} />,
});

/**
 * The overview's charts sit below its tables: recharts (the page's largest client module) loads,
 * and the chart is drawn, when the reader scrolls near it, not while the page starts (at a million
 * runs it was the overview's longest task after hydration, up to 1.3 s on this machine).
 */
export function LazyMetricBarChart(props: ComponentProps<typeof MetricBarChart>) {
  return (
    <WhenVisible minHeight={CHART_HEIGHT} className="chart" testId="chart-placeholder">
      <LoadedMetricBarChart {...props} />
    </WhenVisible>
  );
}
