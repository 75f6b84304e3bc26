/**
 * mini-swe-agent: bash only, each command in a fresh subprocess (`cd` does not carry over), the
 * action being the bash block of each assistant message (readers make it a `shell` step). The
 * agent submits by printing a marker and then the diff the harness takes as the patch, `echo
 * COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached` (its SWE-bench
 * config; older configurations print `MINI_SWE_AGENT_FINAL_OUTPUT`).
 */
import { shellTool, type FrameworkTools } from "./types";

export const MINI_SWE_AGENT_TOOLS: FrameworkTools = {
  id: "mini-swe-agent",
  aliases: ["mini", "minisweagent", "mini_swe_agent"],
  persistentShell: false,
  tools: { bash: shellTool(["command"]) },
  submissionMarkers: ["COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT", "MINI_SWE_AGENT_FINAL_OUTPUT"],
};
