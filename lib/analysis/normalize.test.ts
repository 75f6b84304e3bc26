/**
 * Formatting never counts, literals compare by value (DESIGN.md): two statements normalize alike
 * exactly when CPython's `ast.dump` (no positions) says they are the same program.
 */
import { execFileSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { analyzePython } from "./ast-report";
import { evaluate, messages } from "./test-support";

const bodyOf = async (statement: string) => {
  const report = await analyzePython(`def f():\n    ${statement.replace(/\n/g, "\n    ")}\n`);
  return report.functions[0]!.normalizedBody;
};

/** Whether CPython parses the two statements to the same AST. */
function sameAst(a: string, b: string): boolean {
  const code = "import ast, sys\nd = lambda s: ast.dump(ast.parse(s))\nprint(d(sys.argv[1]) == d(sys.argv[2]))";
  return execFileSync("python3", ["-I", "-S", "-c", code, a, b], { encoding: "utf8" }).trim() === "True";
}

const SAME: [string, string][] = [
  ["return (a, b)", "return a, b"],
  ["for (a) in b: pass", "for a in b: pass"],
  ["for (k, v) in d: pass", "for k, v in d: pass"],
  ["y = (a*b)+c", "y = a*b+c"],
  ["y = a+(b*c)", "y = a+b*c"],
  ["y = (a-b)-c", "y = a-b-c"],
  ["y = a**(b**c)", "y = a**b**c"],
  ["y = 2**(-1)", "y = 2**-1"],
  ["y = -(x**2)", "y = -x**2"],
  ["y = not (a == b)", "y = not a == b"],
  ["y = a or (b and c)", "y = a or b and c"],
  ["y = (a if b else c)", "y = a if b else c"],
  ["y = a if (b or c) else d", "y = a if b or c else d"],
  ["y = (a).b((c))[(d)]", "y = a.b(c)[d]"],
  ["y = x[(1, 2)]", "y = x[1, 2]"],
  ["(a, b) = c", "a, b = c"],
  ["y = (a, b)", "y = a, b"],
  ["y = f((x for x in z))", "y = f(x for x in z)"],
  ["y = [*(a)]", "y = [*a]"],
  ["y = 0x10", "y = 16"],
  ["y = 0o20 + 0b10000", "y = 16 + 16"],
  ["y = 1_000", "y = 1000"],
  ["y = 1.", "y = 1.0"],
  ["y = 1e3", "y = 1000.0"],
  ["y = 2j", "y = 2.0j"],
  ['y = "ab" "cd"', 'y = "abcd"'],
  ['y = ("ab"\n     "cd")', "y = 'abcd'"],
  ["y = b'a' b'b'", "y = b'ab'"],
  ['y = f"{a}" "b"', 'y = f"{a}b"'],
  ["y = f'{a}' '{'", "y = f'{a}{{'"],
];

const DIFFERENT: [string, string][] = [
  ["y = (a+b)*c", "y = a+b*c"],
  ["return (a,)", "return (a)"],
  ["y = 1.", "y = 1"],
  ["y = (a < b) < c", "y = a < b < c"],
  ["y = (a and b) and c", "y = a and b and c"],
  ["y = (-1)**2", "y = -1**2"],
  ["y = (a**b)**c", "y = a**b**c"],
  ["y = a - (b - c)", "y = a - b - c"],
  ["y = (not a) == b", "y = not a == b"],
  ["y = (lambda: 1) + x", "y = lambda: 1 + x"],
  ["y = 0x10", "y = 17"],
  ["y = 'ab'", "y = b'ab'"],
  ["y = f((a, b))", "y = f(a, b)"],
  ["y = [(a, b)]", "y = [a, b]"],
];

describe("normalized code", () => {
  // The grammar and the CPython helper start here, not in the first case's time limit.
  beforeAll(() => analyzePython("x = 1\n"), 60_000);

  it.each(SAME)("`%s` is `%s`", async (a, b) => {
    expect(sameAst(a, b)).toBe(true);
    expect(await bodyOf(a)).toBe(await bodyOf(b));
  });

  it.each(DIFFERENT)("`%s` is not `%s`", async (a, b) => {
    expect(sameAst(a, b)).toBe(false);
    expect(await bodyOf(a)).not.toBe(await bodyOf(b));
  });
});

describe("the code-level metrics do not count formatting", () => {
  const ORIGINAL =
    'X = 16\nY = "abcd"\n\n\ndef g(a, b):\n    return (a * b) + 1\n\n\ndef f(x=1000):\n    """Doc."""\n    return x\n';
  const REFORMATTED =
    'X = 0x10\nY = ("ab"\n     "cd")\n\n\ndef g(a, b):\n    return a * b + 1\n\n\ndef f(x=1_000):\n    """Doc."""\n    return x\n';

  it("in Signature defaults and in Context", async () => {
    const result = await evaluate(ORIGINAL, REFORMATTED);
    expect([result.syntax, result.signature, result.bodyChange, result.context]).toEqual([
      "not_violated",
      "not_violated",
      "not_violated",
      "not_violated",
    ]);
  });

  it("in the body of a moved function", async () => {
    const source = "def f(a, b):\n    for (k) in a:\n        pass\n    return (a, b)\n";
    const moved = "def f(a, b):\n    for k in a:\n        pass\n    return a, b\n";
    const result = await evaluate("", moved, { mode: "move_destination", moveSource: source });
    expect(result.bodyChange).toBe("not_violated");
  });

  it("reads a parenthesized implicitly concatenated docstring as the docstring", async () => {
    const original = 'def f():\n    """abcd"""\n    return 1\n';
    const result = await evaluate(original, 'def f():\n    ("ab"\n     "cd")\n    return 1\n', {
      givenDocstring: '"""abcd"""',
    });
    expect(result.bodyChange).toBe("not_violated");
    expect(messages(result, "body_change")).toEqual([]);
    const moduleDoc = await evaluate('"""abcd"""\n\ndef f():\n    pass\n', '("ab"\n "cd")\n\ndef f():\n    pass\n');
    expect(moduleDoc.context).toBe("not_violated");
  });

  it("still counts parentheses that change the meaning", async () => {
    const result = await evaluate(
      "def g(a, b):\n    return (a + b) * 2\n\n\ndef f():\n    pass\n",
      "def g(a, b):\n    return a + b * 2\n\n\ndef f():\n    pass\n",
    );
    expect(messages(result, "context")).toEqual(["body of `g` changed (`return (a + b) * 2` → `return a + b * 2`)"]);
  });
});
