import { describe, expect, it } from "vitest";
import {
  AGREEMENT_EXPORT_FORMAT,
  agreementManifest,
  exportLabels,
  exportReport,
  labelRows,
  manifestBody,
  parseLabelsExport,
  reportRows,
} from "./export";
import { computeAgreementReport } from "./report";
import { fixtureInput } from "./report.fixture";
import { expectInvalid } from "./test-support";

const options = { generatedAt: "2026-12-02T10:00:00.000Z", iterations: 300 };

describe("agreement export", () => {
  it("writes a manifest with the set, seed, strata, judges and statistic definitions", () => {
    const manifest = agreementManifest(fixtureInput(), options);
    expect(manifest).toMatchObject({
      format: AGREEMENT_EXPORT_FORMAT,
      version: 1,
      set: { id: 7, name: "pilot" },
      seed: 42,
      size: 4,
      strata: {
        fields: ["subtask", "framework", "model"],
        items: [
          { stratum: "a|f|m", items: 2 },
          { stratum: "b|f|m", items: 2 },
        ],
      },
      annotatorsPerItem: 3,
      bootstrap: { seed: 42, iterations: 300, level: 0.95 },
      generatedAt: "2026-12-02T10:00:00.000Z",
    });
    expect(manifest.judges[1]).toEqual({
      id: 20,
      kind: "llm",
      name: "gemini",
      provider: "gemini",
      model: "gemini-2.5-flash",
      promptVersion: "v1",
    });
    expect(manifest.statistics.map((s) => s.name)).toContain("Krippendorff's alpha");
    expect(JSON.parse(manifestBody(fixtureInput(), options).body)).toEqual(manifest);
  });

  it("defuses a rationale a spreadsheet would run, by the one CSV defuser of every export", () => {
    const input = fixtureInput();
    input.labels[0] = { ...input.labels[0]!, note: '\u00a0\uff1dHYPERLINK("http://x.invalid")' };
    const row = exportLabels(input, "csv", options).body.split("\n")[1]!;
    expect(row.endsWith(`"'\u00a0\uff1dHYPERLINK(""http://x.invalid"")"`)).toBe(true);
  });

  it("exports the labels as CSV, one row per label with its rationale", () => {
    const file = exportLabels(fixtureInput(), "csv", options);
    expect(file.contentType).toContain("text/csv");
    expect(file.filename).toBe("agreement-pilot-labels.csv");
    const lines = file.body.trim().split("\n");
    expect(lines[0]).toBe("set,run_id,position,stratum,annotator_id,annotator,metric,value,rationale");
    expect(lines).toHaveLength(1 + fixtureInput().labels.length);
    expect(lines).toContain("pilot,r2,1,a|f|m,2,bob,file_read,not_violated,saw it in step 4");
    expect(labelRows(fixtureInput())[0]).toMatchObject({ run_id: "r1", position: 0 });
  });

  it("recomputes the same report from the labels JSON export", () => {
    const input = fixtureInput();
    const report = computeAgreementReport(input, options);
    const file = exportLabels(input, "json", options);
    expect(file.contentType).toContain("application/json");
    const { input: recovered, options: recoveredOptions } = parseLabelsExport(JSON.parse(file.body));
    expect(computeAgreementReport(recovered, recoveredOptions)).toEqual(report);
  });

  it("exports the report rows with the manifest", () => {
    const input = fixtureInput();
    const report = computeAgreementReport(input, options);
    const rows = reportRows(report);
    const ruleFileRead = rows.find((r) => r.section === "judge" && r.metric === "file_read" && r.judge_id === 10);
    expect(ruleFileRead).toMatchObject({
      judge: "rules",
      prompt_version: "rules-v1",
      n: 4,
      agreed: 3,
      accuracy: 0.75,
      human_violated_judge_violated: 2,
      human_violated_judge_not_violated: 0,
      human_not_violated_judge_violated: 1,
      human_not_violated_judge_not_violated: 1,
    });
    expect(rows.find((r) => r.section === "humans" && r.metric === "file_read")).toMatchObject({
      unanimous: 2,
      split: 1,
      tie: 1,
      adjudicated: 1,
    });
    expect(rows.find((r) => r.section === "macro" && r.statistic === "accuracy" && r.judge_id === 10)).toMatchObject({
      value: 0.875,
      metrics: 2,
    });
    expect(rows.filter((r) => r.section === "annotator")).toHaveLength(3);

    const json = JSON.parse(exportReport(input, report, "json", options).body);
    expect(json.manifest.set).toEqual({ id: 7, name: "pilot" });
    expect(json.rows).toEqual(JSON.parse(JSON.stringify(rows)));
    const csv = exportReport(input, report, "csv", options);
    expect(csv.body.split("\n")[0]).toMatch(/^section,metric,judge_id,judge,provider,model,prompt_version,n,agreed/);
  });

  it("rejects an export that is not one", () => {
    expectInvalid(() => parseLabelsExport({ rows: [] }), "parseLabelsExport: export.manifest");
    const json = JSON.parse(exportLabels(fixtureInput(), "json", options).body);
    json.rows[0].value = "maybe";
    expectInvalid(() => parseLabelsExport(json), "export.rows[0].value must be violated, not_violated or cannot_tell");
  });
});
