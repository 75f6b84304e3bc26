"use client";
import { useRef } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { MetricChart } from "@/lib/dashboard/overview";
import { downloadPng, downloadSvg } from "./download-chart";

const PALETTE = ["#3451b2", "#b42318", "#1f7a4d", "#a15c07", "#6e3fb0", "#0b7285", "#c2255c", "#495057"];

/** Violation rate (%) per metric, one bar per series; SVG and PNG downloads of what is drawn. */
export function MetricBarChart({ title, chart, fileName }: { title: string; chart: MetricChart; fileName: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const svg = () => ref.current?.querySelector<SVGSVGElement>(".recharts-wrapper > svg.recharts-surface") ?? null;
  return (
    <figure className="chart" data-testid={`chart-${fileName}`}>
      <figcaption>
        {title}
        <span className="chart-actions">
          <button type="button" onClick={() => svg() && downloadSvg(svg()!, fileName)} data-testid="chart-svg">
            SVG
          </button>
          <button type="button" onClick={() => svg() && downloadPng(svg()!, fileName)} data-testid="chart-png">
            PNG
          </button>
        </span>
      </figcaption>
      <div ref={ref}>
        <ResponsiveContainer width="100%" height={320}>
          <BarChart data={chart.data} margin={{ top: 8, right: 16, bottom: 48, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="metric" interval={0} angle={-20} textAnchor="end" height={56} tick={{ fontSize: 11 }} />
            <YAxis unit="%" tick={{ fontSize: 11 }} />
            <Tooltip formatter={(value) => (value === null ? "–" : `${String(value)}%`)} />
            <Legend verticalAlign="top" height={28} />
            {chart.series.map((name, i) => (
              <Bar key={name} dataKey={name} fill={PALETTE[i % PALETTE.length]} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
