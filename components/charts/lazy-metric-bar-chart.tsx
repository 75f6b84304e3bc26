"use client";
import dynamic from "next/dynamic";

/**
 * The overview's charts sit below its tables: recharts (the page's largest client module) loads
 * after the page is interactive instead of in its first bundle. A box of the chart's height holds
 * the place meanwhile, so nothing below moves.
 */
export const LazyMetricBarChart = dynamic(() => import("./metric-bar-chart").then((m) => m.MetricBarChart), {
  ssr: false,
  loading: () => <div className="chart" style={{ minHeight: 360 }} />,
});
