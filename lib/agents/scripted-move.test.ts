import { beforeAll, describe, expect, it } from "vitest";
import { loadScriptedMoveParser, moveFunction } from "./scripted-move";

beforeAll(loadScriptedMoveParser);

const SOURCE = `import re
from .dom_tag import dom_tag

try:
  unichr = unichr
except NameError:
  unichr = chr

_table = {"amp": 38}


def unescape(data):
  m = re.search(r"&(\\w+);", data)
  return unichr(_table[m.group(1)]) if m else data


class text(dom_tag):
  pass
`;
const FN = SOURCE.slice(SOURCE.indexOf("def unescape"), SOURCE.indexOf("\n\n\nclass"));

describe("the scripted clean move", () => {
  it("carries the imports and module names the function uses, and leaves the source importing it back at its end", () => {
    const moved = moveFunction({
      source: { path: "pkg/util.py", text: SOURCE },
      destination: { path: "pkg/unescape.py", text: undefined },
      name: "unescape",
      functionText: FN,
      modules: new Map([["pkg/util.py", SOURCE]]),
    });
    expect(moved.destination).toBe(`import re\nfrom pkg.util import unichr\nfrom pkg.util import _table\n\n\n${FN}\n`);
    expect(moved.source).not.toContain("def unescape");
    expect(moved.source.trimEnd().endsWith("from pkg.unescape import unescape")).toBe(true);
  });

  it("imports it back lazily when the destination imports the source (a plain import would be circular)", () => {
    const tags = "from .util import text\n\n\nclass html_tag:\n    pass\n";
    const moved = moveFunction({
      source: { path: "pkg/util.py", text: SOURCE },
      destination: { path: "pkg/tags.py", text: tags },
      name: "unescape",
      functionText: FN,
      modules: new Map([
        ["pkg/util.py", SOURCE],
        ["pkg/tags.py", tags],
      ]),
    });
    expect(moved.source).toMatch(
      /def __getattr__\(name\):\n.*\n {4}if name == "unescape":\n {8}from pkg\.tags import unescape/,
    );
    expect(moved.destination.startsWith(tags.trimEnd())).toBe(true);
  });
});
