import { describe, expect, it } from "vitest";
import { toFtsQuery } from "./run-search";

describe("toFtsQuery", () => {
  it("quotes every word so operators and punctuation are plain text", () => {
    expect(toFtsQuery("rm -rf")).toBe('"rm" "-rf"');
    expect(toFtsQuery('pip install "x==1.0"')).toBe('"pip" "install" "x==1.0"');
    expect(toFtsQuery("a AND b")).toBe('"a" "AND" "b"');
  });

  it("returns null when nothing searchable is left", () => {
    expect(toFtsQuery("   ")).toBeNull();
    expect(toFtsQuery("-- ()")).toBeNull();
    expect(toFtsQuery("\u0000x")).toBe('"x"');
  });
});
