import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  allIssues,
  fieldErrorsOf,
  fieldIssue,
  firstIssue,
  formatIssue,
  formatIssuePath,
  parseForm,
} from "./zod-issues";

const Files = z.object({ files: z.array(z.object({ path: z.string() })), limit: z.number() });

function errorOf(schema: z.ZodType, value: unknown): z.ZodError {
  const result = schema.safeParse(value);
  if (result.success) throw new Error("expected a zod error");
  return result.error;
}

describe("zod issues as people read them", () => {
  it("writes array indices in brackets", () => {
    expect(formatIssuePath(["files", 3, "path"])).toBe("files[3].path");
    expect(formatIssuePath([0, "a"])).toBe("[0].a");
    expect(formatIssuePath([])).toBe("");
  });

  it("words one issue as <path>: <message>, naming the whole value when the path is empty", () => {
    const error = errorOf(Files, { files: [{ path: 1 }], limit: 2 });
    expect(formatIssue(error.issues[0]!)).toBe("files[0].path: Invalid input: expected string, received number");
    expect(firstIssue(errorOf(z.number(), "x"), "query")).toBe(
      "query: Invalid input: expected number, received string",
    );
  });

  it("joins every issue with '; '", () => {
    const error = errorOf(Files, { files: [{ path: 1 }], limit: "2" });
    expect(allIssues(error)).toBe(
      "files[0].path: Invalid input: expected string, received number; limit: Invalid input: expected number, received string",
    );
  });

  it('words the tail of a located message as field "<path>": <message>', () => {
    const error = errorOf(Files, { files: [{ path: 1 }], limit: 2 });
    expect(fieldIssue(error)).toBe('field "files[0].path": Invalid input: expected string, received number');
    expect(fieldIssue(errorOf(z.object({}), 3), "(root)")).toBe(
      'field "(root)": Invalid input: expected object, received number',
    );
  });

  it("gives a form the first message of each field", () => {
    const Form = z.object({ name: z.string().min(3, "at least 3").regex(/^a/, "starts with a"), age: z.number() });
    expect(fieldErrorsOf(errorOf(Form, { name: "b", age: 1 }))).toEqual({ name: "at least 3" });
    expect(parseForm(Form, { name: "abc", age: 4 })).toEqual({ ok: true, value: { name: "abc", age: 4 } });
    expect(parseForm(Form, { name: "abc" })).toEqual({
      ok: false,
      fieldErrors: { age: "Invalid input: expected number, received undefined" },
    });
  });
});
