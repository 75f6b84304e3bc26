import { describe, expect, it } from "vitest";
import { MAX_SCRIPT_CHARS, prepareScript, simpleCommands } from "./shell-parse";

describe("prepareScript", () => {
  it("takes a here-document only where its `<<` is outside quotes, escapes and earlier quotes counted", () => {
    const { text, heredocs } = prepareScript(`cat <<A "x <<B" \\"<<C '<<D' <<'E'\na\nA\nc\nC\ne\nE`);
    expect(heredocs).toEqual(["a\n", "c\n", "e\n"]);
    expect(text).toContain('"x <<B"');
    expect(text).toContain("'<<D'");
  });

  it("reads a line of 50 000 `<<` in one pass (was: the line rescanned for each, 16 s)", () => {
    const line = "<<A ".repeat(MAX_SCRIPT_CHARS / 4);
    const [command] = simpleCommands(line);
    expect(command?.stdin).toBe("");
    expect(prepareScript(line).heredocs).toHaveLength(MAX_SCRIPT_CHARS / 4);
  });
});

describe("simpleCommands", () => {
  it("parses a command line once for all the rules that read it, and shares the result frozen", () => {
    const first = simpleCommands("cat a.py | grep x > out");
    expect(simpleCommands("cat a.py | grep x > out")).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first[0]) && Object.isFrozen(first[1]?.redirects)).toBe(true);
  });

  it("keeps only the lines parsed last", () => {
    const first = simpleCommands("cat first.py");
    for (let i = 0; i < 100; i++) simpleCommands(`cat other${i}.py`);
    const again = simpleCommands("cat first.py");
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});
