/**
 * mini-swe-agent: bash only, each command in a fresh subprocess (`cd` does not carry over), the
 * action being the bash block of each assistant message (readers make it a `shell` step).
 */
import { shellTool, type FrameworkTools } from "./types";

export const MINI_SWE_AGENT_TOOLS: FrameworkTools = {
  id: "mini-swe-agent",
  aliases: ["mini", "minisweagent", "mini_swe_agent"],
  persistentShell: false,
  tools: { bash: shellTool(["command"]) },
};
