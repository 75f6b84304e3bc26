import { describe, expect, it } from "vitest";
import { analyzePython, analyzePythonBytes, decodePythonSource, firstInvalidUtf8 } from "./ast-report";
import { AstReportSchema, type AstReport } from "./schema";

const SAMPLE = `"""Tools for parsing."""
from __future__ import annotations
import os.path, sys as system
from ..pkg.mod import (alpha as a, beta,)
from . import *

LIMIT: int = 3
a = b = [1, 2,]
os.environ["X"] = "1"

@dataclass(frozen=True)
class Outer(Base, metaclass=Meta):
    '''Outer class.'''
    size = 10

    class Inner:
        def method(self, /, x: int = 1, *args: str, key, flag=False, **rest) -> "Outer":
            r"""Raw \\d docstring."""
            return x

    @property
    async def fetch(self):
        pass

def helper(value, *, scale: float = 1.5):
    return value * scale

if __name__ == "__main__":
    helper(1)
`;

async function report(source: string): Promise<AstReport> {
  return AstReportSchema.parse(await analyzePython(source));
}

const fn = (r: AstReport, name: string) => r.functions.find((f) => f.qualifiedName === name)!;

describe("analyzePython", () => {
  it("reports module docstring, imports, variables and other statements", async () => {
    const r = await report(SAMPLE);
    expect(r.parses).toBe(true);
    expect(r.errors).toEqual([]);
    expect(r.moduleDocstring).toBe("Tools for parsing.");
    expect(r.moduleDocstringSpan).toEqual({ startLine: 1, endLine: 1 });
    expect(r.imports.map((i) => [i.kind, i.module, i.names, i.line])).toEqual([
      ["from", "__future__", [{ name: "annotations", alias: null }], 2],
      ["import", "os.path", [{ name: "os.path", alias: null }], 3],
      ["import", "sys", [{ name: "sys", alias: "system" }], 3],
      [
        "from",
        "..pkg.mod",
        [
          { name: "alpha", alias: "a" },
          { name: "beta", alias: null },
        ],
        4,
      ],
      ["from", ".", [{ name: "*", alias: null }], 5],
    ]);
    expect(r.variables.map((v) => [v.names, v.target, v.annotation, v.value, v.line])).toEqual([
      [["LIMIT"], "LIMIT", "int", "3", 7],
      [["a", "b"], "a = b", null, "[1, 2]", 8],
      [['os.environ["X"]'], 'os.environ["X"]', null, '"1"', 9],
    ]);
    expect(r.otherStatements).toEqual([{ text: 'if __name__ == "__main__":\n    helper(1)', line: 28, endLine: 29 }]);
  });

  it("reports classes with bases, decorators, docstrings, attributes and nesting", async () => {
    const r = await report(SAMPLE);
    expect(r.classes.map((c) => c.qualifiedName)).toEqual(["Outer", "Outer.Inner"]);
    const outer = r.classes[0]!;
    expect(outer.bases).toEqual(["Base", "metaclass=Meta"]);
    expect(outer.decorators).toEqual(["@dataclass(frozen=True)"]);
    expect(outer.docstring).toBe("Outer class.");
    expect(outer.variables.map((v) => [v.target, v.value])).toEqual([["size", "10"]]);
    expect([outer.startLine, outer.endLine]).toEqual([11, 23]);
  });

  it("reports functions and methods with their full interface", async () => {
    const r = await report(SAMPLE);
    expect(r.functions.map((f) => [f.qualifiedName, f.kind])).toEqual([
      ["Outer.Inner.method", "method"],
      ["Outer.fetch", "method"],
      ["helper", "function"],
    ]);
    const method = fn(r, "Outer.Inner.method");
    expect(method.parameters.map((p) => [p.name, p.kind, p.default, p.annotation])).toEqual([
      ["self", "positional_only", null, null],
      ["x", "positional_or_keyword", "1", "int"],
      ["args", "var_positional", null, "str"],
      ["key", "keyword_only", null, null],
      ["flag", "keyword_only", "False", null],
      ["rest", "var_keyword", null, null],
    ]);
    expect(method.returnAnnotation).toBe('"Outer"');
    expect(method.docstring).toBe("Raw \\d docstring.");
    expect(method.normalizedBody).toBe("return x");
    expect(method.bodyHash).toMatch(/^[0-9a-f]{64}$/);
    const fetch = fn(r, "Outer.fetch");
    expect([fetch.isAsync, fetch.decorators, fetch.startLine, fetch.defLine, fetch.endLine]).toEqual([
      true,
      ["@property"],
      21,
      22,
      23,
    ]);
    expect(fn(r, "helper").parameters[1]).toMatchObject({ name: "scale", kind: "keyword_only", default: "1.5" });
  });

  it("numbers same-named definitions (property setters) by occurrence", async () => {
    const r = await report(
      "class A:\n    @property\n    def x(self):\n        return 1\n\n    @x.setter\n    def x(self, v):\n        pass\n",
    );
    expect(r.functions.map((f) => [f.qualifiedName, f.occurrence, f.decorators])).toEqual([
      ["A.x", 1, ["@property"]],
      ["A.x", 2, ["@x.setter"]],
    ]);
  });

  it("lists every syntax error, 1-based", async () => {
    const r = await report("def f(:\n    pass\n\nx = (1,\ny = 2\n\ndef g():\n    return 1\n");
    expect(r.parses).toBe(false);
    expect(r.errors.length).toBeGreaterThanOrEqual(2);
    expect(r.errors[0]).toMatchObject({ line: 1 });
    expect(r.errors.every((e) => e.line >= 1 && e.column >= 1)).toBe(true);
    expect(r.functions.map((f) => f.qualifiedName)).toContain("g");
  });

  it.each([
    [
      "an unindent that matches no level",
      "if a:\n    b()\n  c()\n",
      "unindent does not match any outer indentation level",
    ],
    ["an unexpected indent in a block", "def f():\n    a()\n      b()\n", "unexpected indent"],
    ["an indented first line", "  x = 1\n", "unexpected indent"],
    ["a Python 2 print statement", 'print "hi"\n', "Missing parentheses in call to 'print'"],
    [
      "a parameter without default after one with",
      "def f(a=1, b):\n    pass\n",
      "non-default argument follows default argument",
    ],
    ["a positional argument after a keyword one", "f(a=1, 2)\n", "positional argument follows keyword argument"],
    ["inconsistent tabs and spaces", "if a:\n        b()\n\tc()\n", "inconsistent use of tabs and spaces"],
  ])("flags what tree-sitter accepts but CPython refuses: %s", async (_label, source, message) => {
    const r = await report(source);
    expect(r.parses).toBe(false);
    expect(r.errors.map((e) => e.message).join("\n")).toContain(message);
  });

  it("accepts tab indentation, one-line blocks, clauses and a BOM", async () => {
    const r = await report(
      "\uFEFFdef f(x):\n\tif x: return 1\n\telif x is None:\n\t\treturn 2\n\telse:\n\t\treturn 3\n",
    );
    expect(r.errors).toEqual([]);
    expect(r.hasBom).toBe(true);
    expect(fn(r, "f").normalizedBody).toBe("if x:\n    return 1\nelif x is None:\n    return 2\nelse:\n    return 3");
  });

  it("gives the same report for CRLF, tabs and a BOM as for LF and spaces", async () => {
    const lf = await report(SAMPLE);
    const crlf = await report(`\uFEFF${SAMPLE.replace(/\n/g, "\r\n").replace(/ {4}/g, "\t")}`);
    expect({ ...crlf, hasBom: false }).toEqual(lf);
  });

  it("is deterministic and JSON-serializable", async () => {
    const first = await analyzePython(SAMPLE);
    const second = await analyzePython(SAMPLE);
    expect(JSON.stringify(first)).toBe(JSON.stringify(second));
    expect(JSON.parse(JSON.stringify(first))).toEqual(first);
  });
});

describe("normalized bodies", () => {
  const bodyOf = async (source: string) => fn(await report(source), "f").normalizedBody;

  it.each([
    ["comments and blank lines", "def f(x):\n    y = x  # note\n\n    # more\n    return y\n"],
    ["layout and line continuations", "def f(x):\n    y = \\\n        x\n    return  y\n"],
    ["quote style and escapes", "def f(x):\n    y = x\n    return y\n"],
    ["CRLF and tabs", "def f(x):\r\n\ty = x\r\n\treturn y\r\n"],
    ["semicolons", "def f(x):\n    y = x; return y\n"],
  ])("ignore %s", async (_label, variant) => {
    expect(await bodyOf(variant)).toBe(await bodyOf("def f(x):\n    y = x\n    return y\n"));
  });

  it("ignores trailing commas, redundant parentheses, string quoting and number spelling", async () => {
    const a = await bodyOf("def f(x):\n    call(x, 'a', \"it's\", 0XFF,)\n    return (\n        x + 1\n    )\n");
    const b = await bodyOf("def f(x):\n    call(x, \"a\", 'it\\'s', 0xff)\n    return x + 1\n");
    expect(a).toBe(b);
    expect(a).toBe('call(x, "a", "it\'s", 255)\nreturn x + 1');
  });

  it.each([
    [
      "a statement moved into a block",
      "def f(x):\n    if x:\n        a()\n    b()\n",
      "def f(x):\n    if x:\n        a()\n        b()\n",
    ],
    ["a string's content", "def f():\n    return 'a'\n", "def f():\n    return 'b'\n"],
    ["a one-element tuple", "def f():\n    return (1,)\n", "def f():\n    return (1)\n"],
    [
      "operator precedence parentheses",
      "def f(a, b):\n    return (a + b) * 2\n",
      "def f(a, b):\n    return a + b * 2\n",
    ],
    ["an f-string's expression", 'def f(a):\n    return f"{a!r:>3}"\n', 'def f(a):\n    return f"{a!s:>3}"\n'],
    ["bytes vs str", "def f():\n    return b'a'\n", "def f():\n    return 'a'\n"],
  ])("keep %s", async (_label, left, right) => {
    expect(await bodyOf(left)).not.toBe(await bodyOf(right));
  });

  it("leaves the docstring out of the body", async () => {
    const r = await report('def f():\n    """Only a docstring."""\n');
    expect(fn(r, "f")).toMatchObject({ docstring: "Only a docstring.", normalizedBody: "" });
  });
});

describe("bytes", () => {
  it("reports the first byte that is not UTF-8 and still analyzes the rest", async () => {
    const data = Buffer.concat([Buffer.from("# caf"), Buffer.from([0xe9]), Buffer.from("\ndef f():\n    return 1\n")]);
    const r = AstReportSchema.parse(await analyzePythonBytes(data));
    expect(r.encodingError).toEqual({ offset: 5 });
    expect(r.parses).toBe(false);
    expect(r.errors[0]).toMatchObject({ line: 1, column: 6 });
    expect(r.errors[0]!.message).toContain("not valid UTF-8");
    expect(r.functions.map((f) => f.qualifiedName)).toEqual(["f"]);
  });

  it("decodes a PEP 263 coding declaration", async () => {
    const data = Buffer.concat([
      Buffer.from("# -*- coding: latin-1 -*-\nname = 'caf"),
      Buffer.from([0xe9, 0x27, 0x0a]),
    ]);
    const r = await analyzePythonBytes(data);
    expect(r.encodingError).toBeNull();
    expect(r.parses).toBe(true);
    expect(r.variables[0]!.value).toBe('"café"');
  });

  it("strips a UTF-8 BOM and finds invalid sequences", () => {
    expect(decodePythonSource(Buffer.from([0xef, 0xbb, 0xbf, 0x78]))).toMatchObject({ text: "x", hasBom: true });
    expect(firstInvalidUtf8(Buffer.from("héllo"))).toBe(-1);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xc3]))).toBe(1);
    expect(firstInvalidUtf8(Buffer.from([0xed, 0xa0, 0x80]))).toBe(0); // a UTF-16 surrogate
    expect(firstInvalidUtf8(Buffer.from([0xc0, 0x80]))).toBe(0); // overlong
  });
});
