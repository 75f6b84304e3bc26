import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, overDepthOffset, parseJsonText } from "./decode";
import { withDeepArguments } from "./hostile-archives.fixture";
import { parseBundle } from "./parse";
import { bundleErrorOf as bundleError, generatedBundle, withMember } from "./test-support";

const BASE = generatedBundle({ index: 2, seed: 8 });

describe("JSON nesting depth", () => {
  it("finds the bracket that opens one level too many, skipping strings and escaped quotes", () => {
    expect(overDepthOffset("[[[]]]", 3)).toBe(-1);
    expect(overDepthOffset("[[[[]]]]", 3)).toBe(3);
    expect(overDepthOffset('{"a":[{"b":[]}]}', 3)).toBe(11);
    expect(overDepthOffset('["[[[[", "\\"[[[["]', 1)).toBe(-1);
    expect(overDepthOffset('["\\\\", [[', 2)).toBe(8);
    expect(overDepthOffset('"unterminated [[[[', 0)).toBe(-1);
  });

  it("accepts JSON nested to the limit", () => {
    const text = `${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}`;
    expect(() => parseJsonText(text, { bundle: "b", member: "m.json" })).not.toThrow();
  });

  it("refuses a trajectory line nested 10,000 deep, naming the member, line and column", () => {
    // `{"arguments":` is level 1 and 13 characters: the 256th `[` opens level 257.
    const { files, line } = withDeepArguments(BASE, 10_000);

    const error = bundleError(() => parseBundle(files, "deep.tgz"));

    expect(error.code).toBe("BUNDLE_INVALID");
    expect(error.location).toEqual({ bundle: "deep.tgz", member: "trajectory.jsonl", line });
    expect(error.message).toBe(
      `deep.tgz: trajectory.jsonl line ${line}: JSON nested deeper than ${MAX_JSON_DEPTH} levels at column ${MAX_JSON_DEPTH + 13}`,
    );
  });

  it("refuses a deep value in a JSON member, naming the line inside it", () => {
    const manifest = (BASE.get("manifest.json") ?? Buffer.alloc(0)).toString("utf8");
    const deep = manifest.replace(/\n/, `\n"options": ${'{"a":'.repeat(6000)}1${"}".repeat(6000)},\n`);

    const error = bundleError(() => parseBundle(withMember(BASE, "manifest.json", deep), "deep.zip"));

    expect(error.location).toEqual({ bundle: "deep.zip", member: "manifest.json", line: 2 });
    expect(error.message).toMatch(/^deep\.zip: manifest\.json line 2: JSON nested deeper than 256 levels/);
  });
});
