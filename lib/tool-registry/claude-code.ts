/**
 * Claude Code: its built-in tools as its transcripts name them (`tool_use{name,input}`); the
 * file tools take absolute paths; the Bash tool keeps its working directory between calls.
 */
import { edit, list, other, read, search, shellTool, write, type FrameworkTools } from "./types";

export const CLAUDE_CODE_TOOLS: FrameworkTools = {
  id: "claude-code",
  aliases: ["claude", "claude_code"],
  persistentShell: true,
  tools: {
    Read: read("file_path"),
    Write: write("file_path"),
    Edit: edit("file_path"),
    MultiEdit: edit("file_path"),
    NotebookEdit: edit("notebook_path"),
    NotebookRead: read("notebook_path"),
    Glob: { ...list("path"), globArgs: ["pattern"] },
    Grep: search("path"),
    LS: list("path"),
    Bash: shellTool(["command"]),
    BashOutput: other(),
    KillBash: other(),
    KillShell: other(),
    // Starts a subagent, whose own steps run on a sidechain (`Agent` in later versions).
    Task: other(),
    Agent: other(),
    TodoWrite: other(),
    TodoRead: other(),
    WebFetch: other(),
    WebSearch: other(),
    ExitPlanMode: other(),
    SlashCommand: other(),
  },
};
