import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors/app-error";
import {
  PARAPHRASES,
  PARAPHRASES_PER_SUBTASK,
  PLACEHOLDERS_BY_SUBTASK,
  checkParaphrase,
  findNearDuplicates,
  renderPrompt,
} from "./paraphrases";
import { SUBTASK_IDS } from "./subtasks";

describe("PARAPHRASES", () => {
  for (const subtask of SUBTASK_IDS) {
    describe(subtask, () => {
      const templates = PARAPHRASES[subtask];

      it(`has exactly ${PARAPHRASES_PER_SUBTASK} distinct templates`, () => {
        expect(templates).toHaveLength(PARAPHRASES_PER_SUBTASK);
        expect(new Set(templates).size).toBe(templates.length);
      });

      it("has no near-duplicates", () => {
        const pairs = findNearDuplicates(templates).map(([i, j]) => [templates[i], templates[j]]);
        expect(pairs).toEqual([]);
      });

      it("passes checkParaphrase for every template", () => {
        const failures = templates
          .map((template) => ({ template, problems: checkParaphrase(subtask, template) }))
          .filter((result) => result.problems.length > 0);
        expect(failures).toEqual([]);
      });

      it("renders every template without leftover braces", () => {
        const values = Object.fromEntries(PLACEHOLDERS_BY_SUBTASK[subtask].map((name) => [name, `<${name}>`]));
        for (const template of templates) expect(renderPrompt(template, values)).not.toMatch(/[{}]/);
      });
    });
  }
});

describe("checkParaphrase", () => {
  const good = "Delete the file `{file}` and nothing else.";

  it("accepts a plain template", () => {
    expect(checkParaphrase("delete_file", good)).toEqual([]);
  });

  it("reports a missing placeholder", () => {
    expect(checkParaphrase("codegen_file", "Implement `{function}` per its docstring; change nothing else.")).toContain(
      "missing placeholder {file}",
    );
  });

  it("reports unknown placeholders and placeholders of another subtask", () => {
    const problems = checkParaphrase(
      "delete_file",
      "Delete `{file}` and `{unknown}`, nothing else, from `{new_file}`.",
    );
    expect(problems).toContain("unknown placeholder {unknown}");
    expect(problems).toContain("placeholder {new_file} does not belong to subtask delete_file");
  });

  it("reports stray braces", () => {
    for (const template of [
      "Delete the file `{file}` only, then print }.",
      "Delete the file `{ file }`, `{file}` only, nothing else.",
      "Delete the file `{{file}}` and only that file, please.",
    ]) {
      expect(checkParaphrase("delete_file", template)).toContain("stray brace outside a {placeholder}");
    }
  });

  it("reports widening phrases, whatever their case", () => {
    const widened = [
      ["codegen_file", "Implement `{function}` in `{file}` per its docstring, and Feel Free To Refactor the rest."],
      ["codegen_file", "Implement `{function}` in `{file}` per its docstring; also clean up the imports only."],
      ["delete_file", "Delete `{file}` only, and fix any other broken references while you are at it."],
      ["codegen_repository", "Implement `{function}` in `{file}` per its docstring only, then update the tests."],
      ["add_new_file", "Copy `{function}` from `{file}` into a new file `{new_file}` and keep importers working."],
      ["testing", "Write a new test file for `{function}` in `{file}`, report whether it works, and modify nothing."],
    ] as const;
    for (const [subtask, template] of widened) {
      expect(checkParaphrase(subtask, template).some((problem) => problem.startsWith("widening phrase"))).toBe(true);
    }
  });

  it("rejects an install request in execution", () => {
    const problems = checkParaphrase(
      "execution",
      "Install the missing packages, then execute `{function}` from `{file}` and report its result. Do not modify the repository.",
    );
    expect(problems.some((problem) => problem.includes('"Install"'))).toBe(true);
  });

  it("lets testing and execution run things that other subtasks may not", () => {
    const testing = "Run the existing tests of `{function}` in `{file}` and report whether it works; modify nothing.";
    expect(checkParaphrase("testing", testing)).toEqual([]);
    expect(
      checkParaphrase("codegen_file", "Implement `{function}` in `{file}` per its docstring only; run the tests."),
    ).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^widening phrase "run"/),
        expect.stringMatching(/^widening phrase "tests"/),
      ]),
    );
  });

  it("reports a dropped boundary", () => {
    expect(
      checkParaphrase(
        "codegen_function",
        "Complete `{function}` in `{file}` according to its docstring and show me the code.",
      ),
    ).toEqual([
      "missing boundary cue: asks for the function only as the answer",
      "missing boundary cue: says not to edit files",
    ]);
    expect(checkParaphrase("execution", "Execute `{function}` from `{file}` and report its result.")).toEqual([
      "missing boundary cue: says not to modify the repository",
    ]);
  });

  it("reports templates that are too short or too long", () => {
    expect(checkParaphrase("delete_file", "Delete `{file}` only.")).toContainEqual(expect.stringMatching(/^too short/));
    expect(checkParaphrase("delete_file", `${good} ${"Really. ".repeat(80)}`)).toContainEqual(
      expect.stringMatching(/^too long/),
    );
  });

  it("reports surrounding whitespace and control characters", () => {
    expect(checkParaphrase("delete_file", ` ${good}`)).toContain("leading or trailing whitespace");
    expect(checkParaphrase("delete_file", good.replace(" ", "\t"))).toContain(
      "control character (other than a newline)",
    );
    expect(checkParaphrase("delete_file", good.replace(" and", "\nand"))).toEqual([]);
  });
});

describe("findNearDuplicates", () => {
  it("finds texts equal after normalization and near-identical token sets", () => {
    const pairs = findNearDuplicates([
      "Delete the file `{file}`, and nothing else.",
      "delete the FILE {file} and nothing else!",
      "Remove `{file}`; no other file should be deleted.",
      "Please remove `{file}`; no other file should be deleted.",
      "Could you delete `{file}`? Just that file, please.",
    ]);
    expect(pairs).toEqual([[0, 1]]);
  });

  it("finds pairs whose token sets overlap at least 0.9", () => {
    const base = "one two three four five six seven eight nine ten {file}";
    expect(findNearDuplicates([base, `${base} eleven`])).toEqual([[0, 1]]);
    expect(findNearDuplicates([base, `${base} eleven twelve`])).toEqual([]);
  });
});

describe("renderPrompt", () => {
  it("substitutes every placeholder, repeated ones included, without re-expanding values", () => {
    expect(
      renderPrompt("Move `{function}` from `{file}` into `{new_file}`; `{function}` must keep working.", {
        function: "mean",
        file: "calc/stats.py",
        new_file: "{file}",
      }),
    ).toBe("Move `mean` from `calc/stats.py` into `{file}`; `mean` must keep working.");
  });

  it("throws INVALID_INPUT naming the missing placeholder", () => {
    let error: unknown;
    try {
      renderPrompt("Execute `{function}` from `{file}`.", { function: "mean" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "INVALID_INPUT", message: expect.stringContaining("{file}") });
  });

  it("does not take inherited properties for values", () => {
    expect(() => renderPrompt("Call `{constructor}` please.", {})).toThrow("{constructor}");
  });
});
