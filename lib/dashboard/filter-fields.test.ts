import { describe, expect, it } from "vitest";
import { armField, benchmarkField, judgeField } from "./filter-fields";

describe("the shared dashboard filter fields", () => {
  it("offer every benchmark, with an optional first choice for all of them", () => {
    const benchmarks = [{ id: "b1", name: "Sample" }];
    expect(benchmarkField(benchmarks, "b1").options).toEqual([{ value: "b1", label: "Sample" }]);
    expect(benchmarkField(benchmarks, "", { value: "", label: "all benchmarks" }).options).toEqual([
      { value: "", label: "all benchmarks" },
      { value: "b1", label: "Sample" },
    ]);
  });

  it("name a judge by its id, and no judge as the empty choice", () => {
    const judges = [{ id: 3, label: "rules" }];
    expect(judgeField(judges, 3)).toEqual({
      name: "judge",
      label: "Judge",
      value: "3",
      options: [{ value: "3", label: "rules" }],
    });
    expect(judgeField(judges, null).value).toBe("");
  });

  it("offer the arms stored by their labels, all of them first, and keep an arm asked for that none has", () => {
    expect(armField(["none", "codekit"], undefined)).toEqual({
      name: "arm",
      label: "Arm",
      value: "",
      options: [
        { value: "", label: "all arms" },
        { value: "none", label: "none (vanilla)" },
        { value: "codekit", label: "Code-KIT (selector)" },
      ],
    });
    expect(armField(["none"], "guard").options.map((o) => o.value)).toEqual(["", "none", "guard"]);
    expect(armField(["none"], "guard").value).toBe("guard");
  });
});
