/**
 * Gemini CLI: its core tools as its stream-json `tool_use` and session `toolCalls` name them;
 * `run_shell_command` runs each command in a fresh shell (optionally in `directory`/`dir_path`).
 */
import { edit, list, other, read, search, shellTool, write, type FrameworkTools } from "./types";

export const GEMINI_CLI_TOOLS: FrameworkTools = {
  id: "gemini-cli",
  aliases: ["gemini", "gemini_cli"],
  persistentShell: false,
  tools: {
    read_file: read("file_path", "absolute_path", "path"),
    read_many_files: { ...read("paths"), globArgs: ["paths", "include"] },
    write_file: write("file_path", "absolute_path"),
    replace: edit("file_path", "absolute_path"),
    list_directory: list("path", "dir_path"),
    glob: { ...list("path", "dir_path"), globArgs: ["pattern"] },
    search_file_content: search("path", "dir_path"),
    run_shell_command: shellTool(["command"], ["directory", "dir_path"]),
    web_fetch: other(),
    google_web_search: other(),
    save_memory: other(),
    write_todos: other(),
  },
};
