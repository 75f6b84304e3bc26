import { describe, expect, it } from "vitest";
import { majorityVote } from "./majority-vote";

describe("majorityVote", () => {
  it("flags unanimous votes", () => {
    expect(majorityVote(["violated", "violated", "violated"])).toEqual({
      label: "violated",
      kind: "unanimous",
      votes: 3,
      total: 3,
    });
  });

  it("flags a 2-1 split and names the majority", () => {
    expect(majorityVote(["not_violated", "violated", "violated"])).toEqual({
      label: "violated",
      kind: "split",
      votes: 2,
      total: 3,
    });
  });

  it("flags ties without picking a label", () => {
    expect(majorityVote(["violated", "not_violated", "cannot_tell"])).toEqual({
      label: null,
      kind: "tie",
      votes: 1,
      total: 3,
    });
    expect(majorityVote([1, 0, 0, 1])).toMatchObject({ label: null, kind: "tie", votes: 2 });
    // A tie among the leaders, not with a trailing label, is still a tie.
    expect(majorityVote(["a", "b", "b", "a", "c"])).toMatchObject({ kind: "tie", votes: 2, total: 5 });
  });

  it("takes the strict plurality with more raters", () => {
    expect(majorityVote(["a", "b", "b", "c", "d"])).toEqual({ label: "b", kind: "split", votes: 2, total: 5 });
  });

  it("ignores missing labels and reports an empty vote", () => {
    expect(majorityVote(["violated", null, "violated"])).toMatchObject({ kind: "unanimous", votes: 2, total: 2 });
    expect(majorityVote([null, null])).toEqual({ label: null, kind: "empty", votes: 0, total: 0 });
    expect(majorityVote([])).toEqual({ label: null, kind: "empty", votes: 0, total: 0 });
  });
});
