/** The five tools on real DevEval repositories; every write goes to a temporary copy. */
import { afterAll, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { describeWithTestData } from "@/lib/test-support/test-data";
import { runCodekitTool } from "./index";
import { copyRepo, read } from "./repo.fixture";

const copies: string[] = [];
const copy = (source: string) => {
  const root = copyRepo(source);
  copies.push(root);
  return root;
};
afterAll(() => copies.forEach((root) => fs.rmSync(root, { recursive: true, force: true })));

describeWithTestData("Code-KIT tools on dominate", "deveval/Source_Code/Text-Processing/dominate", (dominate) => {
  it("traces util.escape through the module attribute chain", async () => {
    const result = await runCodekitTool(dominate, "trace_references", { symbol: "dominate.util.escape" });
    expect(result.text.split("\n")).toEqual([
      "3 reference(s) to escape (defined in dominate/util.py:55):",
      "dominate/dom_tag.py:190 attribute: obj = util.escape(obj)",
      "dominate/dom_tag.py:347 attribute: val = unicode(value) if isinstance(value, util.text) and not value.escape else util.escape(unicode(value), True)",
      "dominate/util.py:82 use: str_escape = escape",
    ]);
  });

  it("refuses a class name defined in two modules until one is named", async () => {
    const ambiguous = await runCodekitTool(dominate, "trace_references", { symbol: "text" });
    expect(ambiguous).toEqual({
      isError: true,
      text: "text is defined in 2 files (dominate/svg.py, dominate/util.py); say which one with path, or use its dotted module path.",
    });
    const named = await runCodekitTool(dominate, "trace_references", { symbol: "text", path: "dominate/util.py" });
    expect(named.isError).toBe(false);
    expect(named.text).toContain("dominate/dom_tag.py:347 attribute:");
  });

  it("resolves a module's imports and extracts a method verbatim", async () => {
    const deps = await runCodekitTool(dominate, "analyze_dependencies", { path: "dominate/document.py" });
    expect(deps.text).toContain(
      "Files to read before editing: dominate/document.py, dominate/tags.py, dominate/util.py",
    );
    const snippet = await runCodekitTool(dominate, "extract_snippet", {
      path: "dominate/dom_tag.py",
      qualname: "dom_tag.__getitem__",
    });
    const lines = read(dominate, "dominate/dom_tag.py").split("\n").slice(258, 278).join("\n");
    expect(snippet.text).toBe(`dominate/dom_tag.py:259-278\n${lines}`);
  });

  it("removes url_unescape only once its last reference, in a test, is gone", async () => {
    const root = copy(dominate);
    const original = read(root, "dominate/util.py");
    const refused = await runCodekitTool(root, "remove_function", {
      path: "dominate/util.py",
      qualname: "url_unescape",
    });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain(
      "tests/test_utils.py:37 attribute: assert util.url_unescape('hi%20there%3f') == 'hi there?'",
    );
    expect(read(root, "dominate/util.py")).toBe(original);
    const edited = await runCodekitTool(root, "modify_function", {
      path: "tests/test_utils.py",
      qualname: "test_url",
      new_body: "assert util.url_escape('hi there?') == 'hi%20there%3F'",
    });
    expect(edited.isError).toBe(false);
    const removed = await runCodekitTool(root, "remove_function", {
      path: "dominate/util.py",
      qualname: "url_unescape",
    });
    expect(removed.text).toBe("Removed url_unescape (lines 118-120) from dominate/util.py; no references remained.");
    const lines = original.split("\n");
    expect(read(root, "dominate/util.py")).toBe([...lines.slice(0, 117), ...lines.slice(122)].join("\n"));
  });

  it("refuses a body change that touches the signature", async () => {
    const root = copy(dominate);
    const result = await runCodekitTool(root, "modify_function", {
      path: "dominate/util.py",
      qualname: "url_escape",
      new_body: "def url_escape(data, safe=''):\n  return ''.join(_replace_map.get(c, c) for c in data)",
    });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("parameter `safe`");
    expect(read(root, "dominate/util.py")).toBe(read(dominate, "dominate/util.py"));
  });
});

describeWithTestData("Code-KIT tools on sqlitedict", "deveval/Source_Code/Database/sqlitedict", (sqlitedict) => {
  it("traces a static method through its class, and a default argument as a use", async () => {
    const method = await runCodekitTool(sqlitedict, "trace_references", {
      symbol: "SqliteDict.get_tablenames",
      path: "sqlitedict.py",
    });
    expect(method.text).toMatch(/^7 reference\(s\)/);
    expect(method.text).toContain("tests/test_core.py:219 attribute:");
    const encode = await runCodekitTool(sqlitedict, "trace_references", { symbol: "sqlitedict.encode" });
    expect(encode.text).toContain('sqlitedict.py:149 use: autocommit=False, journal_mode="DELETE", encode=encode,');
  });

  it("lists what SqliteDict.__init__ uses", async () => {
    const result = await runCodekitTool(sqlitedict, "analyze_dependencies", {
      path: "sqlitedict.py",
      function: "SqliteDict.__init__",
    });
    expect(result.text).toContain("encode -> sqlitedict.py:120 (same file)");
    expect(result.text).toContain("os -> standard library (imported at line 30)");
  });

  it("refuses removing a function the tests still use, and a docstring change", async () => {
    const root = copy(sqlitedict);
    const removal = await runCodekitTool(root, "remove_function", { path: "sqlitedict.py", qualname: "decode_key" });
    expect(removal.text).toContain("tests/test_core.py:377 attribute:");
    const docstring = await runCodekitTool(root, "modify_function", {
      path: "sqlitedict.py",
      qualname: "encode",
      new_body: '"""Serialize anything."""\nreturn dumps(obj)',
    });
    expect(docstring.text).toContain("the docstring altered");
    expect(read(root, "sqlitedict.py")).toBe(read(sqlitedict, "sqlitedict.py"));
  });

  it("asks for name#n once a function is defined twice, then modifies the one named", async () => {
    const root = copy(sqlitedict);
    fs.appendFileSync(path.join(root, "sqlitedict.py"), "\n\ndef encode(obj):\n    return obj\n");
    const ambiguous = await runCodekitTool(root, "modify_function", {
      path: "sqlitedict.py",
      qualname: "encode",
      new_body: "return None",
    });
    expect(ambiguous.text).toContain("encode is defined 2 times in sqlitedict.py");
    const second = await runCodekitTool(root, "modify_function", {
      path: "sqlitedict.py",
      qualname: "encode#2",
      new_body: "return None",
    });
    expect(second.isError).toBe(false);
    expect(read(root, "sqlitedict.py").endsWith("def encode(obj):\n    return None\n")).toBe(true);
  });
});
