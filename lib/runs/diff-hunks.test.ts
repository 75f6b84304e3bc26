import { describe, expect, it } from "vitest";
import { hunkLocations } from "./diff-hunks";

describe("hunkLocations", () => {
  const lines = (n: number, edit: Record<number, string> = {}) =>
    Array.from({ length: n }, (_, i) => edit[i + 1] ?? `line ${i + 1}`).join("\n") + "\n";

  it("finds one hunk per group of changes, merging changes within twice the context", () => {
    const before = lines(40);
    const after = lines(40, { 5: "changed 5", 9: "changed 9", 30: "changed 30" });
    expect(hunkLocations(before, after)).toEqual([
      { beforeLine: 5, afterLine: 5, adds: true },
      { beforeLine: 30, afterLine: 30, adds: true },
    ]);
    expect(hunkLocations(before, after, 1)).toHaveLength(3);
  });

  it("locates pure insertions and removals", () => {
    const before = lines(20);
    const inserted = before.replace("line 10\n", "line 10\nnew a\nnew b\n");
    expect(hunkLocations(before, inserted)).toEqual([{ beforeLine: 11, afterLine: 11, adds: true }]);
    const removed = before.replace("line 10\n", "");
    expect(hunkLocations(before, removed)).toEqual([{ beforeLine: 10, afterLine: 10, adds: false }]);
  });

  it("treats created and deleted files as one hunk against empty", () => {
    expect(hunkLocations("", "a\nb\n")).toEqual([{ beforeLine: 1, afterLine: 1, adds: true }]);
    expect(hunkLocations("a\nb\n", "")).toEqual([{ beforeLine: 1, afterLine: 1, adds: false }]);
    expect(hunkLocations("same\n", "same\n")).toEqual([]);
  });
});
