import { describe, expect, it } from "vitest";
import { benchmarkField, judgeField } from "./filter-fields";

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
});
