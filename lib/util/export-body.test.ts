import { describe, expect, it } from "vitest";
import { defuseCsvCell, exportBody, toCsv } from "./export-body";

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

  it("defuses every leading character a spreadsheet acts on, also behind blanks and in full width", () => {
    const dangerous = [
      "=1+1",
      "+1+1",
      "-1+1",
      "@SUM(A1)",
      "\t=1+1",
      "\tplain",
      "\rplain",
      "\nplain",
      "\r\n=1+1",
      " =1+1",
      "   +1",
      "\u00a0=1+1", // NBSP
      "\u3000=1+1", // ideographic space
      "\u200b=1+1", // zero-width space
      "\ufeff@x", // byte-order mark
      "\u0000=1",
      "\uff1d1+1", // full-width =
      "\uff0b1",
      "\uff0d1",
      "\uff20x",
      " \uff1d1+1",
      "|calc!A1",
      ";=1",
      '"=1+1"',
      "\uff5ccalc",
      "\uff1b1",
      "\uff02x",
    ];
    for (const value of dangerous) expect(defuseCsvCell(value), JSON.stringify(value)).toBe(`'${value}`);
    for (const value of ["plain", " indented text", "a=b", "x-1", "'quoted", "", "1.5", "e@mail"])
      expect(defuseCsvCell(value), JSON.stringify(value)).toBe(value);
    expect([defuseCsvCell(-2), defuseCsvCell(true), defuseCsvCell(null)]).toEqual([-2, true, ""]);
    expect(toCsv([{ a: "\u00a0=HYPERLINK(1)", b: "\n=2" }])).toBe("a,b\n'\u00a0=HYPERLINK(1),\"'\n=2\"\n");
  });

  it("wraps JSON rows with the export's metadata", () => {
    const { body, contentType } = exportBody([{ a: 1 }], "json", { table: "x" });
    expect(contentType).toContain("application/json");
    expect(JSON.parse(body)).toEqual({ table: "x", rows: [{ a: 1 }] });
  });
});
