import { describe, expect, it } from "vitest";
import { CODEKIT_TOOLS, isCodekitTool, runCodekitTool } from "./index";
import {
  AnalyzeDependenciesArgsSchema,
  ExtractSnippetArgsSchema,
  ModifyFunctionArgsSchema,
  RemoveFunctionArgsSchema,
  TraceReferencesArgsSchema,
} from "./schema";

const SCHEMAS = {
  trace_references: TraceReferencesArgsSchema,
  analyze_dependencies: AnalyzeDependenciesArgsSchema,
  extract_snippet: ExtractSnippetArgsSchema,
  modify_function: ModifyFunctionArgsSchema,
  remove_function: RemoveFunctionArgsSchema,
};

describe("Code-KIT tool specs", () => {
  it("declares the five tools, each spec's parameters matching the zod schema that checks them", () => {
    expect(CODEKIT_TOOLS.map((t) => t.name)).toEqual(Object.keys(SCHEMAS));
    for (const spec of CODEKIT_TOOLS) {
      const schema = SCHEMAS[spec.name as keyof typeof SCHEMAS];
      const shape = schema.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>;
      const properties = spec.parameters.properties as Record<string, unknown>;
      expect(Object.keys(properties).sort()).toEqual(Object.keys(shape).sort());
      const required = Object.keys(shape).filter((k) => !shape[k]!.safeParse(undefined).success);
      expect((spec.parameters.required as string[]).sort()).toEqual(required.sort());
      expect(spec.description.length).toBeGreaterThan(40);
      expect(isCodekitTool(spec.name)).toBe(true);
    }
  });

  it("reports a missing workspace and unknown fields as errors, never throwing", async () => {
    const missing = await runCodekitTool("/nonexistent/codekit-root", "extract_snippet", {
      path: "a.py",
      qualname: "f",
    });
    expect(missing).toEqual({ isError: true, text: "The workspace /nonexistent/codekit-root does not exist." });
    const extra = await runCodekitTool("/tmp", "extract_snippet", { path: "a.py", qualname: "f", force: true });
    expect(extra.isError).toBe(true);
    expect(extra.text).toContain("force");
  });
});
