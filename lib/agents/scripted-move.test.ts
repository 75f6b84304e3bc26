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
  it("carries the imports and module names the function uses, and leaves the source importing it back, lazily since the destination now imports the source", () => {
    const moved = moveFunction({
      source: { path: "pkg/util.py", text: SOURCE },
      destination: { path: "pkg/unescape.py", text: undefined },
      name: "unescape",
      functionText: FN,
      modules: new Map([["pkg/util.py", SOURCE]]),
    });
    expect(moved.destination).toBe(`import re\nfrom pkg.util import unichr\nfrom pkg.util import _table\n\n\n${FN}\n`);
    expect(moved.source).not.toContain("def unescape");
    // The destination imports unichr and _table from the source: a plain import back at the source's
    // end would fail whenever the destination is imported first (the source would ask a half-imported
    // destination for the function).
    expect(moved.source).toMatch(
      /def __getattr__\(name\):\n.*\n {4}if name == "unescape":\n {8}from pkg\.unescape import unescape/,
    );
  });

  it("imports it back plainly when nothing makes a cycle", () => {
    const plain = "import re\n\n\ndef strip(data):\n    return re.sub(r'\\s+', ' ', data)\n\n\nX = 1\n";
    const fn = plain.slice(plain.indexOf("def strip"), plain.indexOf("\n\n\nX"));
    const moved = moveFunction({
      source: { path: "pkg/util.py", text: plain },
      destination: { path: "pkg/strip.py", text: undefined },
      name: "strip",
      functionText: fn,
      modules: new Map([["pkg/util.py", plain]]),
    });
    expect(moved.destination).toBe(`import re\n\n\n${fn}\n`);
    expect(moved.source.trimEnd().endsWith("from pkg.strip import strip")).toBe(true);
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
