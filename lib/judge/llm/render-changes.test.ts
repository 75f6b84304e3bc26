/**
 * The target file's diff as the Instruction Following judge reads it (instruction_following.v3):
 * in full, not cut at 40 lines, so a whole-file reformat cannot hide the implementation; elided in
 * the middle under a counting marker only beyond its share of the budget.
 */
import { describe, expect, it } from "vitest";
import { evaluationInput } from "@/lib/judge/input.fixture";
import type { EvaluatedChange } from "@/lib/judge/schema";
import { loadPrompt } from "./prompts";
import { elideLines, renderChanges, renderTargetDiff } from "./render-changes";
import { renderRun } from "./render-run";

const helpers = (quote: string) =>
  Array.from({ length: 150 }, (_, i) => `def helper_${i}(x):\n    return ${quote}value_${i}${quote} + x\n`).join("\n");
const IMPLEMENTATION = "    return sum(values) / len(values)";

/** The target file reformatted whole (every quote changed) with `f` implemented at its end. */
function reformatted(): EvaluatedChange {
  const stub = 'def f(values):\n    """Return the mean."""\n';
  return {
    path: "pkg/a.py",
    kind: "updated",
    before: Buffer.from(`${helpers("'")}\n\n${stub}`),
    after: Buffer.from(`${helpers('"')}\n\n${stub}${IMPLEMENTATION}\n`),
  };
}

describe("the target file's full diff", () => {
  it("shows the implementation behind a whole-file reformat, which 40 lines per file hid (v2)", async () => {
    const input = evaluationInput({ changes: [reformatted()] });
    const v3 = await renderRun((await loadPrompt("instruction_following", "instruction_following.v3")).user, input, {
      budgetChars: 120_000,
    });
    expect(v3.values.target_diff).toContain(`+${IMPLEMENTATION}`);
    expect(v3.values.target_diff).not.toContain("elided for length");
    expect(v3.values.changed_files).toBe(
      "updated pkg/a.py (+151 -150; 6873 bytes -> 6910 bytes); its full diff is in the target_diff block",
    );
    const v2 = await renderRun((await loadPrompt("instruction_following", "instruction_following.v2")).user, input, {
      budgetChars: 120_000,
    });
    expect(v2.user).not.toContain(IMPLEMENTATION);
    expect(v2.values.changed_files).toMatch(/\.\.\. \d+ more diff lines$/);
  });

  it("is elided in the middle beyond its share of the budget, under a marker counting what it hides", async () => {
    const input = evaluationInput({ changes: [reformatted()] });
    const text = renderTargetDiff(input, 3_000);
    expect(text.length).toBeLessThanOrEqual(3_000);
    expect(text).toMatch(/^updated pkg\/a\.py \(\+151 -150; 6873 bytes -> 6910 bytes\)\n@@ -1 \+1 @@/);
    expect(text).toMatch(/\n\[\.\.\. \d+ diff lines \([\d,]+ chars\) elided for length \.\.\.\]\n/);
    expect(text).toContain(`+${IMPLEMENTATION}`);
  });

  it("shows a move's source and destination, a created destination in full, and an unchanged file as such", () => {
    const gt = evaluationInput().groundTruth;
    const moved = evaluationInput({
      subtask: "add_new_file",
      groundTruth: { ...gt, destinationFile: "pkg/new.py" },
      changes: [{ path: "pkg/new.py", kind: "created", before: null, after: Buffer.from("def f(x):\n    return x\n") }],
    });
    expect(renderTargetDiff(moved, 10_000)).toBe(
      "pkg/a.py: unchanged\n\ncreated pkg/new.py (2 lines, 23 bytes)\n+def f(x):\n+    return x",
    );
  });

  it("keeps the short diffs of the other files in changed_files", () => {
    const other: EvaluatedChange = {
      path: "b.py",
      kind: "updated",
      before: Buffer.from("a\n"),
      after: Buffer.from("b\n"),
    };
    const text = renderChanges([reformatted(), other], 10_000, { diffElsewhere: new Set(["pkg/a.py"]) });
    expect(text).toContain("updated b.py (+1 -1; 2 bytes -> 2 bytes)\n@@ -1 +1 @@\n-a\n+b");
  });
});

describe("elideLines", () => {
  it("keeps the head and the tail within the limit", () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i}`);
    const kept = elideLines(lines, 300, "diff lines");
    expect(kept.join("\n").length).toBeLessThanOrEqual(300);
    expect(kept[0]).toBe("line 0");
    expect(kept.at(-1)).toBe("line 99");
    expect(kept.find((l) => l.startsWith("[..."))).toMatch(
      /^\[\.\.\. \d+ diff lines \(\d+ chars\) elided for length \.\.\.\]$/,
    );
    expect(elideLines(lines.slice(0, 3), 300, "diff lines")).toEqual(["line 0", "line 1", "line 2"]);
  });
});
