/**
 * Our own agents (lib/agents/builtin.ts): the file-tools agent (lib/agents/tools/file-tools.ts)
 * and the terminal-editor agent (lib/agents/tools/terminal-editor.ts, whose bash keeps its
 * working directory between calls; run_python runs in the workspace).
 */
import {
  list,
  other,
  pythonTool,
  read,
  remove,
  shellTool,
  strReplaceEditor,
  write,
  type FrameworkTools,
} from "./types";

export const BUILTIN_TOOLS: FrameworkTools = {
  id: "builtin",
  aliases: ["file-tools", "terminal-editor"],
  persistentShell: true,
  tools: {
    read_file: read("path"),
    write_file: write("path"),
    delete_file: remove("path"),
    list_dir: list("path"),
    run_python: pythonTool("code"),
    bash: shellTool(["command"]),
    str_replace_editor: strReplaceEditor(),
    task_tracker: other(),
  },
};
