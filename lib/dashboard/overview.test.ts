import { describe, expect, it } from "vitest";
import type { Mitigation } from "@/lib/codekit/arms";
import { METRIC_IDS, type MetricId } from "@/lib/metrics/catalog";
import {
  overviewExportRows,
  prepareMetricChart,
  prepareOverviewTables,
  rateCell,
  type OverviewGroup,
} from "./overview";

function group(
  family: OverviewGroup["family"],
  framework: string,
  model: string,
  counts: Partial<Record<MetricId, [number, number]>>,
  task: [number, number] = [0, 0],
  mitigation: Mitigation = "none",
): OverviewGroup {
  const metrics = Object.fromEntries(
    METRIC_IDS.map((m) => [m, { violated: counts[m]?.[0] ?? 0, decided: counts[m]?.[1] ?? 0 }]),
  ) as OverviewGroup["metrics"];
  return { family, framework, model, mitigation, runs: 10, metrics, task: { completed: task[0], known: task[1] } };
}

describe("rateCell", () => {
  it("gives the rate, a Wilson interval around it and a heat capped at 1", () => {
    const cell = rateCell(3, 10);
    expect(cell.rate).toBeCloseTo(0.3);
    expect(cell.interval![0]).toBeLessThan(0.3);
    expect(cell.interval![1]).toBeGreaterThan(0.3);
    expect(cell.heat).toBeCloseTo(0.6);
    expect(rateCell(9, 10).heat).toBe(1);
  });

  it("has no rate when nothing was decided (shown as a dash, never as 0%)", () => {
    expect(rateCell(0, 0)).toEqual({ count: 0, of: 0, rate: null, interval: null, heat: 0 });
  });
});

describe("prepareOverviewTables", () => {
  const groups = [
    group("code_generation", "smolagents", "gpt-5", { syntax: [1, 4], file_read: [2, 4] }, [3, 4]),
    group("code_generation", "openhands", "gpt-5", { syntax: [0, 5], file_read: [5, 5] }),
    group("system_interaction", "openhands", "gpt-5", { file_read: [1, 2] }),
  ];

  it("makes one table per family with data, in catalog order, rows sorted by framework and model", () => {
    const tables = prepareOverviewTables(groups);
    expect(tables.map((t) => t.family)).toEqual(["code_generation", "system_interaction"]);
    expect(tables[0]!.rows.map((r) => r.framework)).toEqual(["openhands", "smolagents"]);
  });

  it("lists only the metrics decided in the family, averages the rates with data", () => {
    const [codegen, system] = prepareOverviewTables(groups);
    expect(codegen!.metrics).toEqual(["syntax", "file_read"]);
    expect(system!.metrics).toEqual(["file_read"]);
    const smol = codegen!.rows.find((r) => r.framework === "smolagents")!;
    expect(smol.average).toBeCloseTo((0.25 + 0.5) / 2);
    expect(smol.task.rate).toBeCloseTo(0.75);
    expect(smol.cells.context.rate).toBeNull();
  });

  it("adds up groups of the same framework and model within a family", () => {
    const split = [
      group("code_generation", "a", "m", { syntax: [1, 2] }),
      group("code_generation", "a", "m", { syntax: [1, 3] }),
    ];
    const [table] = prepareOverviewTables(split);
    expect(table!.rows).toHaveLength(1);
    expect(table!.rows[0]!.cells.syntax).toMatchObject({ count: 2, of: 5 });
    expect(table!.rows[0]!.runs).toBe(20);
  });

  it("gives each arm of a framework and model its own row, under the plain one", () => {
    const arms = [
      group("code_generation", "smolagents", "m", { syntax: [1, 4] }, [0, 0], "codekit"),
      group("code_generation", "smolagents", "m", { syntax: [3, 4] }),
      group("code_generation", "smolagents", "m", { syntax: [2, 4] }, [0, 0], "rules"),
    ];
    const [table] = prepareOverviewTables(arms);
    expect(table!.rows.map((r) => [r.mitigation, r.cells.syntax.count])).toEqual([
      ["none", 3],
      ["rules", 2],
      ["codekit", 1],
    ]);
    expect(new Set(table!.rows.map((r) => r.key)).size).toBe(3);
    expect(overviewExportRows([table!]).filter((r) => r.metric === "syntax")).toEqual([
      expect.objectContaining({ framework: "smolagents", arm: "none", count: 3 }),
      expect.objectContaining({ framework: "smolagents", arm: "rules", count: 2 }),
      expect.objectContaining({ framework: "smolagents", arm: "codekit", count: 1 }),
    ]);
  });

  it("exports one line per family, configuration and metric (plus task completion)", () => {
    const rows = overviewExportRows(prepareOverviewTables(groups));
    expect(rows).toHaveLength(3 * (METRIC_IDS.length + 1));
    expect(rows[0]).toMatchObject({
      family: "code_generation",
      framework: "openhands",
      arm: "none",
      metric: "syntax",
      count: 0,
      of: 5,
    });
  });
});

describe("prepareMetricChart", () => {
  it("gives one entry per metric with data and one series per framework, in %", () => {
    const chart = prepareMetricChart(
      [
        group("code_generation", "a", "m1", { file_read: [1, 4] }),
        group("system_interaction", "a", "m2", { file_read: [1, 4] }),
        group("code_generation", "b", "m1", { file_read: [0, 4] }),
      ],
      "framework",
    );
    expect(chart.series).toEqual(["a", "b"]);
    expect(chart.data).toEqual([{ metric: "File Read", a: 25, b: 0 }]);
  });

  it("gives a framework's mitigation arm a series of its own, named with the arm's label", () => {
    const chart = prepareMetricChart(
      [
        group("code_generation", "a", "m1", { file_read: [1, 4] }),
        group("code_generation", "a", "m1", { file_read: [0, 4] }, [0, 0], "codekit"),
      ],
      "framework",
    );
    expect(chart.series).toEqual(["a", "a · Code-KIT (selector)"]);
    expect(chart.data).toEqual([{ metric: "File Read", a: 25, "a · Code-KIT (selector)": 0 }]);
    expect(
      prepareMetricChart([group("code_generation", "a", "m1", { file_read: [1, 4] }, [0, 0], "codekit")], "model")
        .series,
    ).toEqual(["m1"]);
  });
});
