import { describe, expect, it } from "vitest";
import { agentSpecOf } from "@/lib/agents/agent-file";
import { MOCK_MODEL } from "@/lib/llm/mock-server/script";
import { prepareAgent } from "./agent-setup";

describe("prepareAgent", () => {
  it("records a built-in agent's configuration with the default limits under its own, on the scripted model with mock", async () => {
    const spec = await agentSpecOf("terminal-editor", { provider: "openai", maxSteps: 7 });
    const setup = await prepareAgent(spec, { mock: true, env: {}, cwd: process.cwd() });
    try {
      expect(setup.agent).toEqual({
        name: `terminal-editor / ${MOCK_MODEL}`,
        framework: "terminal-editor",
        frameworkVersion: "builtin-1",
        model: MOCK_MODEL,
        provider: "openai",
        tools: [],
        guidelines: null,
        limits: { maxSteps: 7, wallTimeSeconds: 600, maxOutputBytes: 1_000_000 },
        options: {},
      });
      expect(setup.mock?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
    } finally {
      await setup.close();
    }
  });

  it("needs the provider's key unless mocked, and takes the model from the agent", async () => {
    const spec = await agentSpecOf("file-tools", { provider: "anthropic", model: "claude-x" });
    await expect(prepareAgent(spec, { mock: false, env: {}, cwd: process.cwd() })).rejects.toThrow(
      "set ANTHROPIC_API_KEY for provider anthropic, or use --mock",
    );
    const setup = await prepareAgent(spec, { mock: false, env: { ANTHROPIC_API_KEY: "k" }, cwd: process.cwd() });
    expect(setup.agent).toMatchObject({ model: "claude-x", provider: "anthropic", name: "file-tools / claude-x" });
    expect(setup.mock).toBeNull();
    await setup.close();
  });

  it("refuses, when the agent is named, a provider the agent cannot speak", async () => {
    await expect(agentSpecOf("claude-code", { provider: "gemini" })).rejects.toThrow(
      'agent claude-code speaks the anthropic protocol only (got provider "gemini")',
    );
  });
});
