import { describe, expect, it } from "vitest";
import { httpStatusOf } from "@/lib/errors/app-error";
import { parseBundle } from "./parse";
import { bundleErrorOf as refusal, generatedBundle, withMember } from "./test-support";

const BASE = generatedBundle({ index: 3, seed: 9 });
const jsonBytes = (files: Map<string, Buffer>) =>
  [...files].filter(([name]) => !/^(files|native)\//.test(name)).reduce((sum, [, data]) => sum + data.length, 0);
describe("the JSON budget of a bundle", () => {
  it("parses a bundle whose JSON members sum to exactly the limit, and refuses one byte less (413)", () => {
    const total = jsonBytes(BASE);

    expect(parseBundle(BASE, "b", total).steps.length).toBeGreaterThan(0);
    const error = refusal(() => parseBundle(BASE, "b", total - 1));
    expect(error.message).toMatch(
      new RegExp(
        `^b: \\S+: JSON members reach ${total} bytes with this one, over the limit of ${total - 1} \\(STUDIO_BUNDLE_MAX_JSON_BYTES\\)$`,
      ),
    );
    expect(httpStatusOf(error)).toBe(413);
  });

  it("does not count files/ or native/, which stay bytes", () => {
    const files = withMember(BASE, "native/agent.log", Buffer.alloc(1024 * 1024, 0x7b));

    expect(parseBundle(files, "b", jsonBytes(BASE)).members.some((m) => m.path === "native/agent.log")).toBe(true);
  });

  it("names the first bad element of a large array with no count of the others (validation stops there)", () => {
    const files = withMember(BASE, "workspace/after.json", `{"files":[${"{},".repeat(100_000)}{}]}`);

    expect(refusal(() => parseBundle(files, "b")).message).toBe(
      'b: workspace/after.json, field "files[0].path": Invalid input: expected string, received undefined',
    );
  });

  it("names the first bad entry of reports/ast.json's files, and only it", () => {
    const report = `{"files":{${Array.from({ length: 50_000 }, (_, i) => `"f${i}.py":{}`).join(",")}}}`;

    expect(refusal(() => parseBundle(withMember(BASE, "reports/ast.json", report), "b")).message).toMatch(
      /^b: reports\/ast\.json, field "files\.f0\.py\.\w+": [^(]+$/,
    );
  });

  it("reads a trajectory ending in a million newlines line by line", () => {
    const trajectory = Buffer.concat([BASE.get("trajectory.jsonl")!, Buffer.alloc(1_000_000, 0x0a)]);

    expect(parseBundle(withMember(BASE, "trajectory.jsonl", trajectory), "b").steps).toEqual(
      parseBundle(BASE, "b").steps,
    );
  });
});
