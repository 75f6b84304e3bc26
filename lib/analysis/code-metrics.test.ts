/**
 * The acceptance list of the code-level metrics: one hand-built before/after pair per rule.
 * Context and move modes: code-metrics-context.test.ts.
 */
import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors/app-error";
import { evaluate, messages } from "./test-support";

const DOC = '    """Return the thing."""\n';

describe("Signature", () => {
  it.each([
    ["an un-annotated parameter renamed", "def f(limit):\n", "def f(n):\n", "parameter `limit` renamed to `n`"],
    ["an annotated parameter renamed", "def f(limit: int):\n", "def f(n: int):\n", "parameter `limit` renamed to `n`"],
    ["*args renamed", "def f(*args):\n", "def f(*rest):\n", "parameter `args` renamed to `rest`"],
    ["parameters reordered", "def f(a, b):\n", "def f(b, a):\n", "parameters reordered: (a, b) → (b, a)"],
    ["a parameter added", "def f(a):\n", "def f(a, b):\n", "parameter `b` added"],
    ["a parameter removed", "def f(a, b):\n", "def f(a):\n", "parameter `b` removed"],
    [
      "a default changed",
      "def f(timeout=10):\n",
      "def f(timeout=30):\n",
      "default of `timeout` changed from `10` to `30`",
    ],
    ["a default removed", "def f(timeout=10):\n", "def f(timeout):\n", "default `10` of `timeout` removed"],
    ["a default added", "def f(x):\n", "def f(x=None):\n", "default `None` added to `x`"],
    [
      "positional to keyword-only",
      "def f(a, b):\n",
      "def f(a, *, b):\n",
      "parameter `b` changed from positional-or-keyword to keyword-only",
    ],
    [
      "positional to positional-only",
      "def f(a, b):\n",
      "def f(a, /, b):\n",
      "parameter `a` changed from positional-or-keyword to positional-only",
    ],
    ["an annotation changed", "def f(x: int):\n", "def f(x: str):\n", "annotation of `x` changed from `int` to `str`"],
    ["an annotation added", "def f(x):\n", "def f(x: int):\n", "annotation `int` added to `x`"],
    ["an annotation removed", "def f(x: int):\n", "def f(x):\n", "annotation `int` of `x` removed"],
    [
      "the return annotation changed",
      "def f() -> int:\n",
      "def f() -> str:\n",
      "return annotation of `f` changed from `int` to `str`",
    ],
    ["a return annotation added", "def f():\n", "def f() -> bool:\n", "return annotation `bool` added to `f`"],
    ["async added", "def f():\n", "async def f():\n", "`async` added to `f`"],
    ["async removed", "async def f():\n", "def f():\n", "`async` removed from `f`"],
    ["a decorator added", "def f():\n", "@cached\ndef f():\n", "decorator `@cached` added to `f`"],
    ["a decorator removed", "@cached\ndef f():\n", "def f():\n", "decorator `@cached` removed from `f`"],
    [
      "decorator arguments changed",
      "@retry(3)\ndef f():\n",
      "@retry(5)\ndef f():\n",
      "decorator `@retry(3)` removed from `f`",
    ],
    ["decorators reordered", "@a\n@b\ndef f():\n", "@b\n@a\ndef f():\n", "decorators of `f` reordered"],
  ])("is violated by %s", async (_label, before, after, message) => {
    const result = await evaluate(`${before}${DOC}`, `${after}${DOC}    return 1\n`);
    expect(result.signature).toBe("violated");
    expect(messages(result, "signature")).toContain(message);
    expect(result.context).toBe("not_violated");
  });

  it("reports each difference separately, on the modified line", async () => {
    const result = await evaluate(
      `def f(data: str, limit=10) -> int:\n${DOC}`,
      `\n\nasync def f(data: bytes, n=10) -> int:\n${DOC}    return 1\n`,
    );
    expect(messages(result, "signature")).toEqual([
      "parameter `limit` renamed to `n`",
      "annotation of `data` changed from `str` to `bytes`",
      "`async` added to `f`",
    ]);
    expect(result.evidence[0]).toMatchObject({ element: "parameter `limit`", line: 3, lineIn: "modified" });
    expect(result.evidence[0]!.hunk).toContain("-def f(data: str, limit=10) -> int:");
    expect(result.evidence[0]!.hunk).toContain("+async def f(data: bytes, n=10) -> int:");
  });

  it("is not violated by reformatting the signature", async () => {
    const result = await evaluate(
      `def f(a, b: "int" = 'x', *, c=(1, 2)) -> 'R':\n${DOC}`,
      `def f(\n    a,\n    b: 'int' = "x",\n    *,\n    c=(1, 2,),  # note\n) -> "R":\n${DOC}    return a\n`,
    );
    expect(result).toMatchObject({ syntax: "not_violated", signature: "not_violated", bodyChange: "not_violated" });
  });

  it("is violated when the target is gone, naming a likely rename", async () => {
    const result = await evaluate(`def f(x):\n${DOC}`, `def g(x):\n${DOC}    return x\n`);
    expect(result.signature).toBe("violated");
    expect(result.bodyChange).toBe("not_applicable");
    expect(messages(result, "signature")).toEqual(["function `f` not found (renamed to `g`?)"]);
    expect(result.evidence[0]).toMatchObject({ line: 1, lineIn: "modified" });
  });

  it("names a missing method with its class", async () => {
    const result = await evaluate("class A:\n    def m(self):\n        pass\n", "class A:\n    pass\n", {
      target: "A.m",
    });
    expect(messages(result, "signature")).toEqual(["method `A.m` not found"]);
    expect(result.evidence[0]).toMatchObject({ line: 2, lineIn: "original" });
  });

  it("refuses a target the original does not define", async () => {
    const error = await evaluate("def f():\n    pass\n", "", { target: "missing" }).catch((e: unknown) => e);
    expect(isAppError(error, "INVALID_INPUT")).toBe(true);
  });

  it("picks the implementation among @overload stubs, and `name#n` explicitly", async () => {
    const original =
      "@overload\ndef f(x: int) -> int: ...\n@overload\ndef f(x: str) -> str: ...\ndef f(x):\n    pass\n";
    const modified = original.replace("def f(x):", "def f(y):");
    expect(messages(await evaluate(original, modified), "signature")).toEqual(["parameter `x` renamed to `y`"]);
    expect((await evaluate(original, modified, { target: "f#1" })).signature).toBe("not_violated");
  });
});

describe("Body Change (code generation)", () => {
  const ORIGINAL = 'def f(items):\n    """\n    Sum the items.\n\n    :param items: numbers\n    """\n';

  it("is not violated when the requirement docstring is kept and the body written", async () => {
    const result = await evaluate(ORIGINAL, `${ORIGINAL}    return sum(items)\n`);
    expect(result).toMatchObject({ syntax: "not_violated", signature: "not_violated", bodyChange: "not_violated" });
    expect(result.evidence).toEqual([]);
  });

  it("is violated when the docstring is altered", async () => {
    const result = await evaluate(ORIGINAL, ORIGINAL.replace("numbers", "floats") + "    return sum(items)\n");
    expect(result.bodyChange).toBe("violated");
    expect(messages(result, "body_change")).toEqual([
      "docstring of `f` altered (line 3: `:param items: numbers` → `:param items: floats`)",
    ]);
    expect(result.evidence[0]).toMatchObject({ line: 2, lineIn: "modified" });
  });

  it("is violated when the docstring is removed", async () => {
    const result = await evaluate(ORIGINAL, "def f(items):\n    return sum(items)\n");
    expect(messages(result, "body_change")).toEqual(["docstring of `f` removed"]);
  });

  it("is violated when the docstring is no longer the first statement", async () => {
    const result = await evaluate(ORIGINAL, ORIGINAL.replace('    """\n    Sum', '    x = 1\n    """\n    Sum'));
    expect(messages(result, "body_change")).toEqual(["docstring of `f` removed"]);
  });

  it.each([
    [
      "re-indented and re-quoted",
      "def f(items):\n  '''\n  Sum the items.\n\n  :param items: numbers\n  '''\n  return 1\n",
    ],
    ["with CRLF line endings", `${ORIGINAL}    return 1\n`.replace(/\n/g, "\r\n")],
    ["with tabs", `${ORIGINAL}    return 1\n`.replace(/ {4}/g, "\t")],
    ["re-wrapped", 'def f(items):\n    """Sum the items. :param items:\n    numbers"""\n    return 1\n'],
  ])("is not violated by the docstring %s", async (_label, modified) => {
    expect((await evaluate(ORIGINAL, modified)).bodyChange).toBe("not_violated");
  });

  it("uses the requirement the user gave, as a literal or as text", async () => {
    const given = '    """\n    Sum the items.\n\n    :param items: numbers\n    """';
    const masked = "def f(items):\n    pass\n";
    const kept = `${ORIGINAL}    return 1\n`;
    expect((await evaluate(masked, kept, { givenDocstring: given })).bodyChange).toBe("not_violated");
    expect((await evaluate(masked, kept, { givenDocstring: "Sum the items. :param items: numbers" })).bodyChange).toBe(
      "not_violated",
    );
    expect((await evaluate(masked, kept, { givenDocstring: "Sum all items." })).bodyChange).toBe("violated");
  });

  it("is not applicable when no requirement was given", async () => {
    expect((await evaluate("def f():\n    pass\n", "def f():\n    return 1\n")).bodyChange).toBe("not_applicable");
  });
});

describe("Syntax", () => {
  it("is violated when the file does not parse; the rest cannot be judged", async () => {
    const result = await evaluate(`def f(x):\n${DOC}`, `def f(x):\n${DOC}    return (x +\n\ndef g(:\n    pass\n`);
    expect(result).toMatchObject({
      syntax: "violated",
      signature: "not_applicable",
      bodyChange: "not_applicable",
      context: "not_applicable",
      additions: [],
    });
    expect(result.evidence.length).toBeGreaterThanOrEqual(1);
    expect(result.evidence.every((e) => e.metric === "syntax" && e.lineIn === "modified")).toBe(true);
    expect(result.evidence[0]!.message).toMatch(/^syntax error at line \d+, column \d+: /);
    expect(result.evidence[0]!.hunk).toContain("@@");
  });

  it("is violated by an indentation error, with CPython's message and position", async () => {
    const result = await evaluate(`def f(x):\n${DOC}`, `def f(x):\n${DOC}    y = x\n      return y\n`);
    expect(result.syntax).toBe("violated");
    expect(result.evidence[0]).toMatchObject({
      line: 4,
      message: "syntax error at line 4, column 6: IndentationError: unexpected indent",
    });
  });

  it("is violated by bytes that are not UTF-8, which CPython refuses", async () => {
    const modified = Buffer.concat([Buffer.from(`def f(x):\n${DOC}    # caf`), Buffer.from([0xe9]), Buffer.from("\n")]);
    const result = await evaluate(`def f(x):\n${DOC}`, modified);
    expect(result.syntax).toBe("violated");
    expect(result.evidence[0]!.message).toContain("not valid UTF-8 (byte offset 47)");
  });

  it("accepts a declared encoding, a BOM, CRLF and tabs", async () => {
    const latin1 = Buffer.concat([
      Buffer.from(`# -*- coding: latin-1 -*-\ndef f(x):\n${DOC}    return 'caf`),
      Buffer.from([0xe9, 0x27, 0x0a]),
    ]);
    const original = `# -*- coding: latin-1 -*-\ndef f(x):\n${DOC}`;
    expect(await evaluate(original, latin1)).toMatchObject({ syntax: "not_violated", context: "not_violated" });
    const crlfTabs = Buffer.from(`\uFEFF${original}\treturn 1\r\n`.replace(/\n/g, "\r\n").replace(/ {4}/g, "\t"));
    expect(await evaluate(original, crlfTabs)).toMatchObject({
      syntax: "not_violated",
      signature: "not_violated",
      bodyChange: "not_violated",
      context: "not_violated",
    });
  });

  it("cites the first 50 errors of a file that is not Python at all", async () => {
    const garbage = Array.from({ length: 300 }, (_, i) => `x${i} = = ${i}`).join("\n");
    const result = await evaluate(`def f(x):\n${DOC}`, garbage);
    expect(result.syntax).toBe("violated");
    expect(result.evidence).toHaveLength(51);
    expect(result.evidence[50]!.message).toMatch(/^250 more syntax errors \(all of them are in the AST report\)$/);
  });

  it("makes every metric not applicable when the file is gone", async () => {
    expect(await evaluate("def f():\n    pass\n", null)).toEqual({
      syntax: "not_applicable",
      signature: "not_applicable",
      bodyChange: "not_applicable",
      context: "not_applicable",
      evidence: [],
      additions: [],
      reasons: {
        syntax: "the file is gone",
        signature: "the file is gone",
        body_change: "the file is gone",
        context: "the file is gone",
      },
    });
  });
});
