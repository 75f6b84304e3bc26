/**
 * Codex CLI: `shell` (an argv array, usually `["bash", "-lc", "..."]`) and `exec_command` (a
 * command string or argv), each run in a fresh process in `workdir` (the session's cwd when
 * absent); `apply_patch` carries its `*** Begin Patch` / `*** Add|Update|Delete File:` envelope
 * in `input` (a custom tool call in rollouts); `update_plan` touches no file.
 */
import { other, read, shellTool, type FrameworkTools } from "./types";

export const CODEX_TOOLS: FrameworkTools = {
  id: "codex",
  aliases: ["codex-cli", "openai-codex"],
  persistentShell: false,
  tools: {
    shell: shellTool(["command", "cmd"], ["workdir"]),
    exec_command: shellTool(["cmd", "command"], ["workdir"]),
    local_shell: shellTool(["command", "cmd"], ["workdir", "working_directory"]),
    "container.exec": shellTool(["cmd", "command"], ["workdir"]),
    apply_patch: { effect: "patch", pathArgs: [], patchArgs: ["input", "patch"] },
    update_plan: other(),
    view_image: read("path"),
    web_search: other(),
    write_stdin: other(),
  },
};
