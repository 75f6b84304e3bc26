import { describe, expect, it } from "vitest";
import { runsTotalText } from "./format";

describe("runsTotalText", () => {
  it("counts runs, and says when the words matched more runs than were searched", () => {
    expect(runsTotalText(1, null)).toBe("1 run");
    expect(runsTotalText(0, null)).toBe("0 runs");
    expect(runsTotalText(2345, null)).toBe("2345 runs");
    expect(runsTotalText(832, 10_000)).toBe(
      "832 runs among the newest 10,000 the words match (more match: add words to narrow the search)",
    );
  });
});
