/**
 * A file CPython compiles and tree-sitter cannot read whole (its grammar lags CPython's): the
 * Syntax verdict is CPython's, and the structural metrics say why they cannot judge. CPython is
 * stood in for here, as a newer CPython than tree-sitter's grammar would answer.
 */
import { describe, expect, it, vi } from "vitest";
import { evaluate } from "./test-support";

vi.mock("./cpython-check", () => ({ compileCheck: async () => ({ ok: true }) }));

const ORIGINAL = 'def f(x):\n    """Return x."""\n    return x\n';

describe("a file tree-sitter cannot read whole and CPython compiles", () => {
  it("is not a Syntax violation, and the structure is not judged from a partial tree", async () => {
    const result = await evaluate(ORIGINAL, 'def f(x):\n    """Return x."""\n    return x +* 1\n');
    expect(result.syntax).toBe("not_violated");
    expect([result.signature, result.bodyChange, result.context]).toEqual([
      "not_applicable",
      "not_applicable",
      "not_applicable",
    ]);
    expect(result.reasons?.context).toMatch(
      /^tree-sitter cannot read the structure of the modified file, which CPython compiles \(line 3: /,
    );
  });

  it("names the move source when that is the side it cannot read", async () => {
    const result = await evaluate("", ORIGINAL, { mode: "move_destination", moveSource: "def f(x:\n    pass\n" });
    expect(result.reasons?.body_change).toContain("structure of the move source file");
  });
});
