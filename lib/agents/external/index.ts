/** The external agents by framework name. */
import { claudeCodeAdapter } from "./claude-code";
import { codexAdapter } from "./codex";
import { commandAdapter } from "./command";
import { geminiCliAdapter } from "./gemini-cli";
import type { ExternalAgentAdapter, ExternalFramework, ModelProtocol } from "./types";

export { EXTERNAL_FRAMEWORKS, type ExternalAgentAdapter, type ExternalFramework, type ModelProtocol } from "./types";

export function externalAdapter(
  framework: ExternalFramework,
  commandProtocol: ModelProtocol = "openai",
): ExternalAgentAdapter {
  switch (framework) {
    case "claude-code":
      return claudeCodeAdapter;
    case "codex":
      return codexAdapter;
    case "gemini-cli":
      return geminiCliAdapter;
    case "command":
      return commandAdapter(commandProtocol);
  }
}
