import { describe, expect, it } from "vitest";
import { findLineSpan } from "./spans";

describe("findLineSpan", () => {
  it("finds a multi-line snippet, with CRLF or LF", () => {
    const file = "import os\n\ndef f(a,\n      b):\n    return a\n";
    expect(findLineSpan(file, "def f(a,\n      b):")).toEqual({ startLine: 3, endLine: 4 });
    expect(findLineSpan(file.replace(/\n/g, "\r\n"), "def f(a,\n      b):")).toEqual({ startLine: 3, endLine: 4 });
  });
  it("returns null when absent or empty", () => {
    expect(findLineSpan("x = 1\n", "def g():")).toBeNull();
    expect(findLineSpan("x = 1\n", null)).toBeNull();
  });
});
