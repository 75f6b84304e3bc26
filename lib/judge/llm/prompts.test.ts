import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors/app-error";
import { loadPrompt, parsePromptFile, PLACEHOLDERS, PROMPT_VERSION, renderTemplate, type Placeholder } from "./prompts";
import { LLM_JUDGED_METRICS } from "./schema";

/**
 * The versioning rule, enforced: a prompt file is never edited once it exists. Changing a prompt
 * means a new `<metric>.v<n+1>.md`, PROMPT_VERSION moved to it, and a new line here.
 */
const PINNED_SHA256: Record<string, string> = {
  "file_read.v1": "4b3c1aa19f61b4c3be1b721bd2eee959ed147f24d70e477c1c900675dda1799c",
  "environment_integrity.v1": "06f178885223b1b9b4b34f9d6f7c9f4d9bdf90aac1b05b9550837084f38cc56d",
  "resource_exhaustion.v1": "82f7877e48ed9f9a7e5a686ba249bb38eaf1be00639278ce6fefe9cf95a61ad8",
  "instruction_following.v1": "545d9bdfbdf521ccdfae3bb9a784eaf441a018a6663f1154d0c62f88086a55fa",
  "file_read.v2": "1cab27899e64c964d966e0faaff3ce748ffb56e4d1e0754cf74ee45cb94ad5a3",
  "environment_integrity.v2": "e03c3c83244116cad739c1efc04707bff88fffb5bcf01b16b431ef6e3babc79d",
  "resource_exhaustion.v2": "0c3bae0c0bb1c072cc9a2b7a70c2023680eb662341b089fdb90d2f8a5250c82d",
  "instruction_following.v2": "d440ede93b02d277906e6b9f8e18494abfae4702765562f5bb56f9baa8287a28",
};

const LABELS = {
  file_read: "File Read",
  environment_integrity: "Environment Integrity",
  resource_exhaustion: "Resource Exhaustion",
  instruction_following: "Instruction Following",
};

describe("judge prompt files", () => {
  it.each(LLM_JUDGED_METRICS)(
    "%s loads, with its header, sections, placeholders and output contract",
    async (metric) => {
      const prompt = await loadPrompt(metric);
      expect(prompt.metric).toBe(metric);
      expect(prompt.id).toBe(`judge.${metric}`);
      expect(prompt.promptVersion).toBe(PROMPT_VERSION[metric]);
      expect(prompt.promptVersion).toBe(`${metric}.v${prompt.version}`);
      expect(prompt.system).toContain(`**${LABELS[metric]}**`);
      expect(prompt.system).toContain("## Definition");
      expect(prompt.system).toContain("cited_steps");
      expect(prompt.system).toMatch(/"verdict": "violated \| not_violated \| not_applicable"/);
      expect(prompt.system).not.toMatch(/\{\{/);
      for (const name of PLACEHOLDERS) expect(prompt.user.split(`{{${name}}}`)).toHaveLength(2);
      expect(prompt.user).toContain(`# Metric: ${metric} (prompt ${prompt.promptVersion})`);
    },
  );

  it.each(Object.entries(PINNED_SHA256))("%s is unchanged since it was published", async (version, sha256) => {
    const metric = version.replace(/\.v\d+$/, "") as (typeof LLM_JUDGED_METRICS)[number];
    const prompt = await loadPrompt(metric, version);
    expect(prompt.sha256, `${version}.md was edited: add a new version file instead`).toBe(sha256);
  });

  it("pins every current version", () => {
    for (const version of Object.values(PROMPT_VERSION)) expect(PINNED_SHA256[version]).toBeDefined();
  });
});

describe("parsePromptFile", () => {
  const valid = async () => readFile(new URL("./prompts/file_read.v1.md", import.meta.url), "utf8");

  it("rejects a file whose name disagrees with its version", async () => {
    expect(() => parsePromptFile("no header", "file_read.v1.md")).toThrow(/header/);
    const text = await valid();
    expect(() => parsePromptFile(text, "file_read.v2.md")).toThrow(/file name disagrees/);
  });

  it("rejects unknown, missing or repeated placeholders", async () => {
    const text = await valid();
    expect(() => parsePromptFile(text.replace("{{final_answer}}", "{{final_answr}}"), "file_read.v1.md")).toThrow(
      /unknown placeholder/,
    );
    expect(() => parsePromptFile(text.replace("{{trajectory}}", ""), "file_read.v1.md")).toThrow(
      /\{\{trajectory\}\} used 0 times/,
    );
    expect(() => parsePromptFile(text.replace("{{subtask}}", "{{subtask}}{{subtask}}"), "file_read.v1.md")).toThrow(
      /used 2 times/,
    );
  });

  it("rejects a file without its two sections", async () => {
    const text = await valid();
    expect(() => parsePromptFile(text.replace("<!-- user -->", ""), "file_read.v1.md")).toThrow(/section/);
  });

  it("refuses a version of another metric", async () => {
    const error = await loadPrompt("file_read", "resource_exhaustion.v1").catch((e: unknown) => e);
    expect(isAppError(error, "INVALID_INPUT")).toBe(true);
    const missing = await loadPrompt("file_read", "file_read.v99").catch((e: unknown) => e);
    expect(isAppError(missing, "NOT_FOUND")).toBe(true);
  });
});

describe("renderTemplate", () => {
  it("fills placeholders in one pass, leaving placeholder-like text in values alone", () => {
    const values = Object.fromEntries(PLACEHOLDERS.map((p) => [p, `<${p}>`])) as Record<Placeholder, string>;
    values.final_answer = "I wrote {{trajectory}} literally";
    expect(renderTemplate("A {{subtask}} B {{final_answer}} C {{ trajectory }}", values)).toBe(
      "A <subtask> B I wrote {{trajectory}} literally C <trajectory>",
    );
  });
});
