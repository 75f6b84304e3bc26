import { describe, expect, it } from "vitest";
import { logicalLines, outlineDefinitions } from "./python-outline";
import { codeCandidates, mergeSnippet } from "./snippet";

const ORIGINAL = `import os


class Store:
    """A store."""

    @cached
    def get(self, key):
        """Get a value.

        Returns None when missing.
        """

    def put(self, key, value):
        self.data[key] = value


def helper():
    return 1
`;

const merged = (result: ReturnType<typeof mergeSnippet>) => {
  if ("problem" in result) throw new Error(result.problem);
  return result.merged;
};

describe("mergeSnippet", () => {
  it("replaces a method (decorators through end) with the answer, re-indented", () => {
    const answer = [
      "Here is the implementation:",
      "",
      "```python",
      "@cached",
      "def get(self, key):",
      '    """Get a value.',
      "",
      "    Returns None when missing.",
      '    """',
      "    return self.data.get(key)",
      "```",
      "",
      "It returns None for missing keys.",
    ].join("\n");
    expect(merged(mergeSnippet(ORIGINAL, answer, "Store.get"))).toBe(
      ORIGINAL.replace(
        '        Returns None when missing.\n        """\n',
        '        Returns None when missing.\n        """\n        return self.data.get(key)\n',
      ),
    );
  });

  it("takes the whole text when there is no code fence, and a module-level function", () => {
    const result = merged(mergeSnippet(ORIGINAL, "def helper():\n    return 2\n", "helper"));
    expect(result).toBe(ORIGINAL.replace("return 1", "return 2"));
  });

  it("finds the method inside a class the agent answered with", () => {
    const answer = "```py\nclass Store:\n    def get(self, key):\n        return None\n```";
    const result = merged(mergeSnippet(ORIGINAL, answer, "Store.get"));
    expect(result).toContain("    def put(self, key, value):");
    expect(result).toContain(
      'class Store:\n    """A store."""\n\n    def get(self, key):\n        return None\n\n    def put',
    );
    expect(result).not.toContain("@cached"); // the answer dropped it: the Signature metric will say so
  });

  it("prefers a python fence to other fences and keeps the original's CRLF", () => {
    const answer = "```bash\npip install x\n```\n```python\ndef helper():\n\treturn 3\n```";
    const crlf = ORIGINAL.replace(/\n/g, "\r\n");
    const result = merged(mergeSnippet(crlf, answer, "helper"));
    expect(result).toBe(crlf.replace("    return 1", "\treturn 3"));
  });

  it("reads an unterminated fence to the end", () => {
    expect(merged(mergeSnippet(ORIGINAL, "```python\ndef helper():\n    return 4\n", "helper"))).toContain("return 4");
  });

  it.each([
    ["no code", "   \n", "helper", "the answer has no code"],
    ["no definition of the name", "```python\nx = 1\n```", "helper", "the answer has no definition of `helper`"],
    ["a different function", "def other():\n    pass\n", "helper", "the answer has no definition of `helper`"],
    [
      "a target the original lacks",
      "def missing():\n    pass\n",
      "missing",
      "`missing` is not defined in the original file",
    ],
  ])("reports %s", (_label, answer, target, problem) => {
    expect(mergeSnippet(ORIGINAL, answer, target)).toEqual({ problem });
  });
});

describe("outline", () => {
  it("follows brackets, strings, comments and continuations", () => {
    const source = [
      "x = (1,",
      "     2)",
      's = """a',
      'def fake(): """',
      "y = 1 \\",
      "    + 2",
      "# def commented(): pass",
      "z = 'it''s' # (",
    ].join("\n");
    expect(logicalLines(source).map((l) => [l.startLine, l.endLine])).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
      [8, 8],
    ]);
    expect(outlineDefinitions(source)).toEqual([]);
  });

  it("names nested definitions and spans decorators to the last deeper line", () => {
    const defs = outlineDefinitions(ORIGINAL);
    expect(defs.map((d) => [d.qualifiedName, d.startLine, d.defLine, d.endLine])).toEqual([
      ["Store", 4, 4, 15],
      ["Store.get", 7, 8, 12],
      ["Store.put", 14, 14, 15],
      ["helper", 18, 18, 19],
    ]);
  });
});

describe("codeCandidates", () => {
  it("returns python blocks before untagged ones", () => {
    expect(codeCandidates("```\nb = 1\n```\ntext\n```python\na = 1\n```")).toEqual(["a = 1\n", "b = 1\n"]);
  });
});
