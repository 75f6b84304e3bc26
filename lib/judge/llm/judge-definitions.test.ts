import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { availableJudges, builtinJudges, findJudge, readJudgesFile } from "./judge-definitions";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "judges-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const write = (name: string, content: unknown) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
};

describe("judge definitions", () => {
  it("has one built-in judge per provider, Gemini's model from the setting", () => {
    expect(builtinJudges("gemini-3-flash").map((j) => [j.id, j.provider, j.model])).toEqual([
      ["gemini", "gemini", "gemini-3-flash"],
      ["openai", "openai", "gpt-5"],
      ["anthropic", "anthropic", "claude-sonnet-4-5"],
    ]);
  });

  it("reads the shipped examples/judges.json: the study's three judges", () => {
    const judges = readJudgesFile("examples/judges.json");
    expect(judges.map((j) => `${j.provider}/${j.model}`)).toEqual([
      "gemini/gemini-3-flash-preview",
      "anthropic/claude-sonnet-4-5",
      "openai/deepseek-chat",
    ]);
    expect(judges[2]).toMatchObject({
      baseUrl: "https://api.deepseek.com",
      apiKeyEnv: "DEEPSEEK_API_KEY",
      jsonMode: "object",
      temperature: 0,
    });
  });

  it("lets a file replace a built-in id and add its own, and names an unknown id with the choices", () => {
    const file = write("ok.json", {
      judges: [
        { id: "gemini", provider: "gemini", model: "gemini-2.5-pro" },
        { id: "local", provider: "openai", model: "qwen3", baseUrl: "http://127.0.0.1:11434/v1" },
      ],
    });
    const judges = availableJudges({ file });
    expect(judges.map((j) => j.id)).toEqual(["openai", "anthropic", "gemini", "local"]);
    expect(findJudge(judges, "gemini").model).toBe("gemini-2.5-pro");
    expect(() => findJudge(judges, "claude")).toThrow(
      /unknown judge "claude": choose rule or one of openai, anthropic, gemini, local/,
    );
  });

  it("refuses a bad file naming the file and the problem", () => {
    expect(() => readJudgesFile(write("bad.json", "{ not json"))).toThrow(/bad\.json: not JSON/);
    expect(() => readJudgesFile(write("p.json", { judges: [{ id: "x", provider: "mistral", model: "m" }] }))).toThrow(
      /p\.json: .*provider/,
    );
    expect(() =>
      readJudgesFile(
        write("d.json", {
          judges: [
            { id: "a", provider: "gemini", model: "m" },
            { id: "a", provider: "openai", model: "m" },
          ],
        }),
      ),
    ).toThrow(/judges\[1\]\.id: "a" is taken/);
    expect(() => readJudgesFile(write("r.json", { judges: [{ id: "rule", provider: "gemini", model: "m" }] }))).toThrow(
      /"rule" is taken/,
    );
    expect(() =>
      readJudgesFile(write("e.json", { judges: [{ id: "x", provider: "gemini", model: "m", apiKeyEnv: "lower" }] })),
    ).toThrow(/apiKeyEnv/);
    expect(() => readJudgesFile(dir)).toThrow(/not a regular file/);
    expect(() => readJudgesFile(path.join(dir, "missing.json"))).toThrow(/cannot read the judges file/);
  });
});
