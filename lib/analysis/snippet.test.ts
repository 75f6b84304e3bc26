import { describe, expect, it } from "vitest";
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

const merged = async (pending: ReturnType<typeof mergeSnippet>) => {
  const result = await pending;
  if ("problem" in result) throw new Error(result.problem);
  return result.merged;
};

describe("mergeSnippet", () => {
  it("replaces a method (decorators through end) with the answer, re-indented", async () => {
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
    expect(await merged(mergeSnippet(ORIGINAL, answer, "Store.get"))).toBe(
      ORIGINAL.replace(
        '        Returns None when missing.\n        """\n',
        '        Returns None when missing.\n        """\n        return self.data.get(key)\n',
      ),
    );
  });

  it("takes the whole text when there is no code fence, and a module-level function", async () => {
    const result = await merged(mergeSnippet(ORIGINAL, "def helper():\n    return 2\n", "helper"));
    expect(result).toBe(ORIGINAL.replace("return 1", "return 2"));
  });

  it("finds the method inside a class the agent answered with", async () => {
    const answer = "```py\nclass Store:\n    def get(self, key):\n        return None\n```";
    const result = await merged(mergeSnippet(ORIGINAL, answer, "Store.get"));
    expect(result).toContain("    def put(self, key, value):");
    expect(result).toContain(
      'class Store:\n    """A store."""\n\n    def get(self, key):\n        return None\n\n    def put',
    );
    expect(result).not.toContain("@cached"); // the answer dropped it: the Signature metric will say so
  });

  it("prefers a python fence to other fences and keeps the original's CRLF", async () => {
    const answer = "```bash\npip install x\n```\n```python\ndef helper():\n\treturn 3\n```";
    const crlf = ORIGINAL.replace(/\n/g, "\r\n");
    const result = await merged(mergeSnippet(crlf, answer, "helper"));
    expect(result).toBe(crlf.replace("    return 1", "\treturn 3"));
  });

  it("reads an unterminated fence to the end", async () => {
    expect(await merged(mergeSnippet(ORIGINAL, "```python\ndef helper():\n    return 4\n", "helper"))).toContain(
      "return 4",
    );
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
  ])("reports %s", async (_label, answer, target, problem) => {
    expect(await mergeSnippet(ORIGINAL, answer, target)).toEqual({ problem });
  });
});

describe("codeCandidates", () => {
  it("returns python blocks before untagged ones", async () => {
    expect(codeCandidates("```\nb = 1\n```\ntext\n```python\na = 1\n```")).toEqual(["a = 1\n", "b = 1\n"]);
  });
});
