/** The acceptance list, continued: Context (everything outside the target) and the move modes. */
import { describe, expect, it } from "vitest";
import { evaluate, messages } from "./test-support";

const MODULE = `"""Geometry helpers."""
import os.path
import numpy as np
from typing import List, Optional

LIMIT = 3
NAMES: List[str] = ["a", "b"]


class Shape(Base):
    """A shape."""

    sides = 0

    def area(self) -> float:
        """Area of the shape."""

    def describe(self):
        return f"{self.sides} sides"

    class Meta:
        ordering = ["name"]

        def key(self):
            return "name"


def helper(value, scale=1):
    return value * scale


def f(x):
    """Return the thing."""


if __name__ == "__main__":
    print(f(LIMIT))
`;

/** MODULE with `f` implemented, then `edit` applied. */
const implemented = MODULE.replace(
  '    """Return the thing."""\n',
  '    """Return the thing."""\n    return helper(x)\n',
);
const edited = (from: string, to: string) => {
  if (!implemented.includes(from)) throw new Error(`not in MODULE: ${from}`);
  return implemented.replace(from, to);
};

describe("Context", () => {
  it("is not violated when only the target changes", async () => {
    const result = await evaluate(MODULE, implemented);
    expect(result).toMatchObject({ context: "not_violated", evidence: [], additions: [] });
  });

  it("is not violated by formatting-only and comment-only edits outside the target", async () => {
    const reformatted = implemented
      .replace(
        "def helper(value, scale=1):\n    return value * scale",
        "def helper(value,\n           scale=1,):\n    # scaled\n    return (value * scale)",
      )
      .replace('NAMES: List[str] = ["a", "b"]', "NAMES: List[str] = [\n    'a',\n    'b',\n]")
      .replace("\n\n\nclass Shape", "\n# shapes\nclass Shape")
      .replace(/\n/g, "\r\n");
    expect((await evaluate(MODULE, reformatted)).context).toBe("not_violated");
  });

  it("is not violated by tabs instead of spaces", async () => {
    expect((await evaluate(MODULE, implemented.replace(/ {4}/g, "\t"))).context).toBe("not_violated");
  });

  it("is not violated by reordering definitions", async () => {
    const helper = "def helper(value, scale=1):\n    return value * scale\n\n\n";
    const reordered = edited(helper, "").replace("class Shape(Base):", `${helper}class Shape(Base):`);
    expect((await evaluate(MODULE, reordered)).context).toBe("not_violated");
  });

  it.each([
    ["an import removed", "import os.path\n", "", "import `os.path` removed"],
    [
      "a from-import name removed",
      "import List, Optional",
      "import List",
      "import `from typing import Optional` removed",
    ],
    [
      "an import alias changed",
      "import numpy as np",
      "import numpy.linalg as np",
      "import `numpy as np` changed to `numpy.linalg as np`",
    ],
    ["a module variable changed", "LIMIT = 3", "LIMIT = 4", "module variable `LIMIT` changed from `3` to `4`"],
    ["a module variable removed", "LIMIT = 3\n", "", "module variable `LIMIT` removed"],
    [
      "a variable annotation changed",
      "NAMES: List[str]",
      "NAMES: list",
      "annotation of module variable `NAMES` changed from `List[str]` to `list`",
    ],
    [
      "the module docstring changed",
      '"""Geometry helpers."""',
      '"""Geometry."""',
      "module docstring altered (line 1: `Geometry helpers.` → `Geometry.`)",
    ],
    ["the module docstring removed", '"""Geometry helpers."""\n', "", "module docstring removed"],
    [
      "another function removed",
      "def helper(value, scale=1):\n    return value * scale\n",
      "",
      "function `helper` removed",
    ],
    [
      "another function's body changed",
      "return value * scale",
      "return value * scale * 2",
      "body of `helper` changed (`return value * scale` → `return value * scale * 2`)",
    ],
    [
      "another function's parameter renamed",
      "def helper(value, scale=1)",
      "def helper(v, scale=1)",
      "parameter `value` of `helper` renamed to `v`",
    ],
    [
      "another function's docstring added",
      "def helper(value, scale=1):\n",
      'def helper(value, scale=1):\n    """Scale."""\n',
      "docstring of `helper` added",
    ],
    [
      "a class base changed",
      "class Shape(Base):",
      "class Shape(Base, Mixin):",
      "bases of class `Shape` changed from `(Base)` to `(Base, Mixin)`",
    ],
    [
      "a class docstring changed",
      '"""A shape."""',
      '"""Any shape."""',
      "docstring of class `Shape` altered (line 1: `A shape.` → `Any shape.`)",
    ],
    ["a class attribute changed", "sides = 0", "sides = 3", "attribute `Shape.sides` changed from `0` to `3`"],
    [
      "a method removed",
      '    def describe(self):\n        return f"{self.sides} sides"\n',
      "",
      "method `Shape.describe` removed",
    ],
    [
      "a nested class method changed",
      'return "name"',
      'return "key"',
      'body of `Shape.Meta.key` changed (`return "name"` → `return "key"`)',
    ],
    [
      "a nested class attribute changed",
      'ordering = ["name"]',
      'ordering = ["-name"]',
      'attribute `Shape.Meta.ordering` changed from `["name"]` to `["-name"]`',
    ],
    [
      "the main block changed",
      "print(f(LIMIT))",
      "print(f(1))",
      'top-level statement `if __name__ == "__main__":` changed',
    ],
    [
      "the main block removed",
      'if __name__ == "__main__":\n    print(f(LIMIT))\n',
      "",
      'top-level statement `if __name__ == "__main__":` removed',
    ],
  ])("is violated by %s", async (_label, from, to, message) => {
    const result = await evaluate(MODULE, edited(from, to));
    expect(result.context).toBe("violated");
    expect(messages(result, "context")).toContain(message);
    expect(result.signature).toBe("not_violated");
    const evidence = result.evidence.find((e) => e.message === message)!;
    expect(evidence.hunk).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@/);
  });

  it("reports a removed class once, on the original's lines", async () => {
    const start = implemented.indexOf("class Shape(Base):");
    const end = implemented.indexOf("def helper");
    const result = await evaluate(MODULE, implemented.slice(0, start) + implemented.slice(end));
    expect(messages(result, "context")).toEqual(["class `Shape` removed"]);
    expect(result.evidence[0]).toMatchObject({ line: 10, lineIn: "original" });
    expect(result.evidence[0]!.hunk).toContain("-class Shape(Base):");
  });

  it("lists pure additions as information, not violations", async () => {
    const added = edited("import numpy as np\n", "import numpy as np\nimport json\n")
      .replace("LIMIT = 3\n", "LIMIT = 3\nDEBUG = False\n")
      .replace("    class Meta:", "    def perimeter(self):\n        return 0\n\n    class Meta:")
      .replace("def f(x):", "def extra():\n    return 1\n\n\nclass New:\n    pass\n\n\ndef f(x):")
      .replace('if __name__ == "__main__":', 'logging.basicConfig()\nif __name__ == "__main__":');
    const result = await evaluate(MODULE, added);
    expect(result.context).toBe("not_violated");
    expect(result.evidence).toEqual([]);
    expect(result.additions.map((a) => a.message)).toEqual([
      "import `json` added",
      "class `New` added",
      "method `Shape.perimeter` added",
      "function `extra` added",
      "module variable `DEBUG` added",
      "top-level statement `logging.basicConfig()` added",
    ]);
    expect(result.additions.every((a) => a.lineIn === "modified" && a.hunk.includes("+"))).toBe(true);
  });

  it("judges the rest of the class as context for a method target", async () => {
    const filled = MODULE.replace(
      '        """Area of the shape."""\n',
      '        """Area of the shape."""\n        return 0.0\n',
    );
    const clean = await evaluate(MODULE, filled, { target: "Shape.area" });
    expect(clean).toMatchObject({ signature: "not_violated", bodyChange: "not_violated", context: "not_violated" });
    const touched = await evaluate(
      MODULE,
      filled.replace("sides = 0", "sides = 4").replace("def f(x):", "def f(x, y):"),
      {
        target: "Shape.area",
      },
    );
    expect(messages(touched, "context")).toEqual([
      "attribute `Shape.sides` changed from `0` to `4`",
      "parameter `y` of `f` added",
    ]);
  });

  it("does not judge what happens inside the target", async () => {
    const result = await evaluate(
      MODULE,
      edited("    return helper(x)\n", "    import os\n    def inner():\n        return 1\n    return inner()\n"),
    );
    expect(result.context).toBe("not_violated");
    expect(result.additions).toEqual([]);
  });
});

const SOURCE = `import os
from .util import clean


def moved(path, *, strict=False):
    """Normalize a path."""
    return clean(os.path.normpath(path))


def stays():
    return 1
`;

describe("move_source", () => {
  const afterMove = SOURCE.replace(/def moved[\s\S]*?\n\n\n/, "");

  it("does not count the moved function's absence", async () => {
    const result = await evaluate(SOURCE, afterMove, { target: "moved", mode: "move_source" });
    expect(result).toMatchObject({
      syntax: "not_violated",
      signature: "not_applicable",
      bodyChange: "not_applicable",
      context: "not_violated",
    });
  });

  it("lists a re-import of the moved function as an addition", async () => {
    const reimported = afterMove.replace(
      "from .util import clean\n",
      "from .util import clean\nfrom .paths import moved\n",
    );
    const result = await evaluate(SOURCE, reimported, { target: "moved", mode: "move_source" });
    expect(result.context).toBe("not_violated");
    expect(result.additions.map((a) => a.message)).toEqual(["import `from .paths import moved` added"]);
  });

  it("is violated when something else goes with it", async () => {
    const result = await evaluate(SOURCE, afterMove.replace("import os\n", ""), {
      target: "moved",
      mode: "move_source",
    });
    expect(messages(result, "context")).toEqual(["import `os` removed"]);
  });
});

describe("move_destination", () => {
  const DESTINATION = '"""Path tools."""\nimport os\n\n\ndef existing():\n    return os.sep\n';
  const arrived = `${DESTINATION}\nfrom .util import clean\n\n\ndef moved(path, *, strict=False):\n    """Normalize a path."""\n    return clean(os.path.normpath(path))\n`;
  const move = { target: "moved", mode: "move_destination" as const, moveSource: SOURCE };

  it("is not violated when the function arrives intact (formatting aside)", async () => {
    const result = await evaluate(
      DESTINATION,
      arrived.replace("clean(os.path.normpath(path))", "clean(\n        os.path.normpath(path),\n    )"),
      move,
    );
    expect(result).toMatchObject({ signature: "not_violated", bodyChange: "not_violated", context: "not_violated" });
    expect(result.additions.map((a) => a.message)).toEqual(["import `from .util import clean` added"]);
  });

  it("is violated when the moved body or docstring changed", async () => {
    const result = await evaluate(
      DESTINATION,
      arrived.replace("normpath(path)", "abspath(path)").replace("Normalize", "Normalise"),
      move,
    );
    expect(result.bodyChange).toBe("violated");
    expect(messages(result, "body_change")).toEqual([
      "docstring of `moved` altered (line 1: `Normalize a path.` → `Normalise a path.`)",
      "body of `moved` changed (`return clean(os.path.normpath(path))` → `return clean(os.path.abspath(path))`)",
    ]);
  });

  it("is violated when the signature changed or the function is missing", async () => {
    const changed = await evaluate(DESTINATION, arrived.replace("*, strict=False", "strict=False"), move);
    expect(messages(changed, "signature")).toEqual([
      "parameter `strict` changed from keyword-only to positional-or-keyword",
    ]);
    const missing = await evaluate(DESTINATION, DESTINATION, move);
    expect(missing).toMatchObject({ signature: "violated", bodyChange: "not_applicable", context: "not_violated" });
  });

  it("judges what was in the destination before as context", async () => {
    const result = await evaluate(DESTINATION, arrived.replace("return os.sep", "return '/'"), move);
    expect(messages(result, "context")).toEqual(['body of `existing` changed (`return os.sep` → `return "/"`)']);
  });

  it("works for a destination that did not exist", async () => {
    const result = await evaluate(
      "",
      `import os\nfrom .util import clean\n\n${SOURCE.slice(SOURCE.indexOf("def moved"), SOURCE.indexOf("def stays"))}`,
      move,
    );
    expect(result).toMatchObject({
      syntax: "not_violated",
      signature: "not_violated",
      bodyChange: "not_violated",
      context: "not_violated",
    });
  });
});
