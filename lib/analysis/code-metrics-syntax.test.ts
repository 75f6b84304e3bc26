/**
 * Syntax as CPython sees it: programs tree-sitter's grammar accepts and CPython refuses (the
 * audit's error classes, each failing before the CPython check), compile-time errors, and the
 * reverse case, where CPython's word wins.
 */
import { describe, expect, it } from "vitest";
import { evaluate, messages } from "./test-support";

const ORIGINAL = 'def f(x):\n    """Return x."""\n    return x\n';

describe("Syntax is violated where CPython refuses what tree-sitter accepts", () => {
  it.each([
    ["`async` as a name", "async = 1", "invalid syntax"],
    [
      "a tuple target of an augmented assignment",
      "a, b += 1",
      "'tuple' is an illegal expression for augmented assignment",
    ],
    ["backticks", "y = `x`", "invalid syntax"],
    ["an unknown \\N{...} name", 'y = "\\N{BAD}"', "unknown Unicode character name"],
    ["a bare * without keyword parameters", "def g(*): pass", "named arguments must follow bare *"],
    ["deleting a call", "del f()", "cannot delete function call"],
    [
      "an unparenthesized generator beside another argument",
      "g(x for x in y, 1)",
      "Generator expression must be parenthesized",
    ],
    ["*args after **kwargs", "g(**k, *a)", "iterable argument unpacking follows keyword argument unpacking"],
    ["a Python 2 octal literal", "y = 0777", "leading zeros in decimal integer literals are not permitted"],
    ["the <> operator", "y = a <> b", "invalid syntax"],
    ["non-ASCII bytes", 'y = b"é"', "bytes can only contain ASCII literal characters"],
    [
      "Python 2 except syntax",
      "try:\n    pass\nexcept E, e:\n    pass",
      "multiple exception types must be parenthesized",
      7,
    ],
    ["an assignment expression as a statement", "z := 1", "invalid syntax"],
    ["a literal as a with target", "with g() as 1:\n    pass", "cannot assign to literal"],
  ])("%s", async (_label, statement, message, line = 5) => {
    const result = await evaluate(ORIGINAL, `${ORIGINAL}\n${statement}\n`);
    expect(result.syntax).toBe("violated");
    expect(result.evidence[0]).toMatchObject({ metric: "syntax", line, lineIn: "modified" });
    expect(result.evidence[0]!.message).toContain(message);
    expect([result.signature, result.bodyChange, result.context]).toEqual([
      "not_applicable",
      "not_applicable",
      "not_applicable",
    ]);
    expect(result.reasons?.context).toContain(`the file does not compile (line ${line}:`);
  });
});

describe("Syntax is violated by compile-time errors", () => {
  it.each([
    ["`return` outside a function", "return 1", "'return' outside function"],
    ["`yield` outside a function", "y = yield", "'yield' outside function"],
    ["`await` outside a function", "await g()", "'await' outside function"],
    ["`break` outside a loop", "break", "'break' outside loop"],
    ["`continue` outside a loop", "continue", "'continue' not properly in loop"],
    ["`nonlocal` at module level", "nonlocal x", "nonlocal declaration not allowed at module level"],
    ["a nonlocal without a binding", "def g():\n    nonlocal q", "no binding for nonlocal 'q' found"],
    ["a duplicate parameter", "def g(a, a):\n    pass", "duplicate argument 'a' in function definition"],
    ["`import *` in a function", "def g():\n    from os import *", "import * only allowed at module level"],
    ["a late __future__ import", "from __future__ import annotations", "from __future__ imports must occur"],
    ["an async comprehension outside async", "y = [i async for i in a]", "asynchronous comprehension outside"],
  ])("%s", async (_label, statement, message) => {
    const result = await evaluate(ORIGINAL, `${ORIGINAL}\n${statement}\n`);
    expect(result.syntax).toBe("violated");
    expect(messages(result, "syntax")[0]).toContain(message);
  });

  it("reports CPython's error first and tree-sitter's later ones after it", async () => {
    const result = await evaluate(ORIGINAL, `${ORIGINAL}\ny = 0777\n\ndef g(:\n    pass\n`);
    expect(result.evidence.map((e) => e.line)).toEqual([5, 7]);
    expect(result.evidence[0]!.message).toMatch(/^syntax error at line 5, column 5: leading zeros/);
  });
});

describe("CPython's word wins where tree-sitter finds a fault", () => {
  it("takes `print >> f` for the Python 3 expression it is, not a Python 2 statement", async () => {
    const result = await evaluate(ORIGINAL, `${ORIGINAL}\nprint >> f\n`);
    expect(result.syntax).toBe("not_violated");
    expect(result.context).toBe("not_violated");
    expect(result.additions.map((e) => e.message)).toEqual(["top-level statement `print >> f` added"]);
  });
});
