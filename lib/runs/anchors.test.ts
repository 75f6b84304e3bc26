import { describe, expect, it } from "vitest";
import { anchorHash, anchorId, parseAnchor, type RunAnchor } from "./anchors";

describe("run anchors", () => {
  const cases: [RunAnchor, string][] = [
    [{ kind: "step", stepId: "s12" }, "#step-s12"],
    [{ kind: "file", path: "pkg/mod_0.py", hunk: null }, "#file-pkg/mod_0.py"],
    [{ kind: "file", path: "pkg/mod_0.py", hunk: 2 }, "#hunk-2-pkg/mod_0.py"],
    [{ kind: "step", stepId: "call 7#b" }, "#step-call%207%23b"],
    [{ kind: "file", path: "docs/naïve notes.md", hunk: null }, "#file-docs/na%C3%AFve%20notes.md"],
  ];

  it.each(cases)("writes %j as %s and reads it back", (anchor, hash) => {
    expect(anchorHash(anchor)).toBe(hash);
    expect(parseAnchor(hash)).toEqual(anchor);
    expect(parseAnchor(hash.slice(1))).toEqual(anchor);
  });

  it("keeps element ids unencoded", () => {
    expect(anchorId({ kind: "step", stepId: "call 7" })).toBe("step-call 7");
  });

  it("ignores fragments that are not run anchors", () => {
    for (const hash of ["", "#", "#step-", "#file-", "#verdicts", "#hunk-x-a.py", "#hunk-1-", "#step-%E0%A4%A"]) {
      expect(parseAnchor(hash)).toBeNull();
    }
  });
});
