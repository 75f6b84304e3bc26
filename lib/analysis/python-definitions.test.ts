import { describe, expect, it } from "vitest";
import { findFunction, listDefinitions, outlineDefinitions, outlinePython } from "./python-definitions";
import { parsePython } from "./python-parser";
import { recoverDefinitions } from "./python-recovery";

const MODULE = `def helper():
    def inner():
        return 1
    return inner()


class Cache:
    """A cache."""
    @property
    def size(
        self,
    ) -> int:
        """How many entries.

        Counted on demand.
        """
    async def clear(self):
        self.entries = {}
        # trailing comment

if os.name == "nt":
    def helper():
        return 2
`;

async function withTree<T>(source: string, read: (tree: Awaited<ReturnType<typeof parsePython>>) => T): Promise<T> {
  const tree = await parsePython(source);
  try {
    return read(tree);
  } finally {
    tree.delete();
  }
}

const spans = (defs: readonly { qualifiedName: string; startLine: number; defLine: number; endLine: number }[]) =>
  defs.map((d) => [d.qualifiedName, d.startLine, d.defLine, d.endLine]);

describe("listDefinitions", () => {
  it("lists classes, methods and functions in source order, not the functions inside functions", async () => {
    const defs = await withTree(MODULE, listDefinitions);
    expect(defs.map((d) => [d.qualifiedName, d.kind, d.occurrence, d.inBlock])).toEqual([
      ["helper", "function", 1, false],
      ["Cache", "class", 1, false],
      ["Cache.size", "method", 1, false],
      ["Cache.clear", "method", 1, false],
      ["helper", "function", 2, true],
    ]);
    const size = defs[2]!;
    expect([
      size.startLine,
      size.defLine,
      size.signatureEndLine,
      size.docstring?.startLine,
      size.bodyStartLine,
    ]).toEqual([9, 10, 12, 13, null]);
  });

  it("ends the node after a trailing comment and the code before it", async () => {
    const clear = (await withTree(MODULE, listDefinitions)).find((d) => d.qualifiedName === "Cache.clear")!;
    expect([clear.isAsync, clear.endLine, clear.codeEndLine]).toEqual([true, 19, 18]);
  });
});

describe("outlineDefinitions", () => {
  it("spans decorators through the last line of code, with the indentation as written", async () => {
    expect(spans(await outlinePython(MODULE))).toEqual([
      ["helper", 1, 1, 4],
      ["Cache", 7, 7, 18],
      ["Cache.size", 9, 10, 16],
      ["Cache.clear", 17, 17, 18],
      ["helper", 22, 22, 23],
    ]);
    expect((await outlinePython(MODULE)).map((d) => d.indent)).toEqual(["", "", "    ", "    ", "    "]);
  });

  it("reads a source that parses the same from its tokens as from its tree", async () => {
    const [parsed, recovered] = await withTree(MODULE, (tree) => [
      outlineDefinitions(tree, MODULE),
      recoverDefinitions(tree, MODULE.split("\n")),
    ]);
    expect(recovered).toEqual(parsed);
  });

  it("recovers definitions tree-sitter's error recovery swallows (a def missing its colon)", async () => {
    const source =
      "class Store:\n    @cached\n    def get(self, key)\n        return 1\n\n    def put(self):\n        pass\n";
    expect(await withTree(source, (tree) => listDefinitions(tree).map((d) => d.qualifiedName))).not.toContain(
      "Store.get",
    );
    expect(spans(await outlinePython(source))).toEqual([
      ["Store", 1, 1, 7],
      ["Store.get", 2, 3, 4],
      ["Store.put", 6, 6, 7],
    ]);
  });

  it("follows brackets, strings, comments and continuations when recovering", async () => {
    const source = [
      "x = (1,",
      "def not_one(): pass)",
      's = """a',
      'def fake(): """',
      "y = 1 \\",
      "    + 2",
      "# def commented(): pass",
      "z = 'it''s' # (",
      "def real()",
      "    return [",
      "0]",
      "w = 1",
    ].join("\n");
    expect(spans(await outlinePython(source))).toEqual([["real", 9, 9, 11]]);
  });
});

describe("findFunction", () => {
  const defs = [
    { kind: "class" as const, name: "get", qualifiedName: "get" },
    { kind: "method" as const, name: "get", qualifiedName: "Store.get" },
    { kind: "function" as const, name: "put", qualifiedName: "put" },
  ];
  it("takes the exact name, else a dotted suffix either way, else the bare name; never a class", () => {
    expect(findFunction(defs, "Store.get")).toBe(defs[1]);
    expect(findFunction(defs, "get")).toBe(defs[1]);
    expect(findFunction(defs, "pkg.Store.get")).toBe(defs[1]);
    expect(findFunction(defs, "Other.put")).toBe(defs[2]);
    expect(findFunction(defs, "missing")).toBeNull();
  });
});
