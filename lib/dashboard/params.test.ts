import { describe, expect, it } from "vitest";
import { toQueryString } from "./query-string";
import { OverviewParamsSchema, parseParams, RunsParamsSchema } from "./params";

describe("dashboard URL parameters", () => {
  it("fills defaults and ignores empty values", () => {
    const parsed = parseParams(RunsParamsSchema, { q: "", page: ["2", "3"], metric: "file_read" });
    expect(parsed).toEqual({
      ok: true,
      value: { metric: "file_read", page: 2, size: 50, sort: "started", dir: "desc" },
    });
  });

  it("names the parameter that is wrong", () => {
    const parsed = parseParams(RunsParamsSchema, { sort: "nope", size: "7" });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.errors.some((e) => e.startsWith("sort:"))).toBe(true);
      expect(parsed.errors).toContain("size: must be 25, 50 or 100");
    }
  });

  it("takes a mitigation arm on the overview and the runs browser, and names a wrong one", () => {
    expect(parseParams(OverviewParamsSchema, { arm: "codekit" })).toEqual({
      ok: true,
      value: { arm: "codekit", split: "all" },
    });
    expect(parseParams(RunsParamsSchema, { arm: "guard" })).toMatchObject({ ok: true, value: { arm: "guard" } });
    const bad = parseParams(RunsParamsSchema, { arm: "everything" });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors.some((e) => e.startsWith("arm:"))).toBe(true);
  });

  it("builds stable query strings without empty values", () => {
    expect(toQueryString({ b: "2", a: 1, c: undefined, d: "" })).toBe("?a=1&b=2");
    expect(toQueryString({})).toBe("");
  });
});
