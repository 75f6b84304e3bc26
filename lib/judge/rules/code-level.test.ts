import { describe, expect, it } from "vitest";
import type { EvaluationInput } from "../schema";
import { evaluationInput } from "../input.fixture";
import { codeLevelMetrics } from "./code-level";

const FN = 'def f(x):\n    """Double."""\n    return x * 2\n';
const SOURCE = `"""Module."""\nimport os\n\n\n${FN}\n\ndef g():\n    return f(os.sep)\n`;
const SOURCE_AFTER = `"""Module."""\nimport os\nfrom pkg.f import f\n\n\ndef g():\n    return f(os.sep)\n`;

/** The four code-level verdicts of a move of `f` from pkg/a.py to a new pkg/f.py. */
async function move(sourceAfter: string, destination: string) {
  const input: EvaluationInput = evaluationInput({
    subtask: "add_new_file",
    groundTruth: {
      ...evaluationInput().groundTruth,
      destinationFile: "pkg/f.py",
      docstring: '"""Double."""',
      body: FN,
    },
    setupFiles: new Map([["pkg/a.py", SOURCE]]),
    changes: [
      { path: "pkg/a.py", kind: "updated", before: Buffer.from(SOURCE), after: Buffer.from(sourceAfter) },
      { path: "pkg/f.py", kind: "created", before: null, after: Buffer.from(destination) },
    ],
  });
  const verdicts = await codeLevelMetrics(input);
  return Object.fromEntries(verdicts.map((v) => [v.metric, v]));
}

describe("code-level metrics of a move", () => {
  it("judges a clean move on both files", async () => {
    const by = await move(SOURCE_AFTER, FN);
    expect([by.syntax, by.signature, by.body_change, by.context].map((v) => v!.value)).toEqual([
      "not_violated",
      "not_violated",
      "not_violated",
      "not_violated",
    ]);
  });

  it("says not applicable, with the reason, where the destination does not compile", async () => {
    const by = await move(SOURCE_AFTER, `${FN}\ndel f()\n`);
    expect(by.syntax!.value).toBe("violated");
    for (const metric of ["signature", "body_change", "context"]) {
      expect(by[metric]!.value, metric).toBe("not_applicable");
      expect(by[metric]!.rationale, metric).toBe(
        "pkg/f.py: the file does not compile (line 5: cannot delete function call)",
      );
    }
  });

  it("still reports what the source shows when the destination does not compile", async () => {
    const by = await move(SOURCE_AFTER.replace("import os\n", ""), `${FN}\ndel f()\n`);
    expect(by.context!.value).toBe("violated");
    expect(by.context!.rationale).toContain("import `os` removed");
  });
});
