import { describe, expect, it } from "vitest";
import { findLineSpan } from "./spans";

describe("findLineSpan", () => {
  it("finds a multi-line snippet, with CRLF or LF", () => {
    const file = "import os\n\ndef f(a,\n      b):\n    return a\n";
    expect(findLineSpan(file, "def f(a,\n      b):")).toEqual({ startLine: 3, endLine: 4 });
    expect(findLineSpan(file.replace(/\n/g, "\r\n"), "def f(a,\n      b):")).toEqual({ startLine: 3, endLine: 4 });
  });
  it("takes the n-th place of a repeated snippet (a redefinition), or the last", () => {
    const file = "def f():\n    return 1\n\n\ndef f():\n    return 2\n";
    expect(findLineSpan(file, "def f():", 2)).toEqual({ startLine: 5, endLine: 5 });
    expect(findLineSpan(file, "def f():", 3)).toEqual({ startLine: 5, endLine: 5 });
    expect(findLineSpan(file, "def f():")).toEqual({ startLine: 1, endLine: 1 });
  });
  it("returns null when absent or empty", () => {
    expect(findLineSpan("x = 1\n", "def g():")).toBeNull();
    expect(findLineSpan("x = 1\n", null)).toBeNull();
  });
});
