import { describe, expect, it } from "vitest";
import { exportBody, toCsv } from "./export";

describe("exports", () => {
  it("writes RFC 4180 CSV with every column any row has", () => {
    const csv = toCsv([
      { a: 1, b: 'say "hi", then go' },
      { a: null, c: true },
    ]);
    expect(csv).toBe('a,b,c\n1,"say ""hi"", then go",\n,,true\n');
  });

  it("defuses cells a spreadsheet would run as formulas", () => {
    expect(toCsv([{ a: "=HYPERLINK(1)", b: "-2+3", c: -2, d: "@x" }])).toBe("a,b,c,d\n'=HYPERLINK(1),'-2+3,-2,'@x\n");
  });

  it("wraps JSON rows with the export's metadata", () => {
    const { body, contentType } = exportBody([{ a: 1 }], "json", { table: "x" });
    expect(contentType).toContain("application/json");
    expect(JSON.parse(body)).toEqual({ table: "x", rows: [{ a: 1 }] });
  });
});
