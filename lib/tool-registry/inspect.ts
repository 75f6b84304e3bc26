/**
 * Inspect AI's standard tools: `bash(cmd)` and `python(code)` run each call in a fresh process
 * in the sandbox; `text_editor` is the str_replace_editor family; `bash_session` and `think`
 * touch no file we can see.
 */
import { other, pythonTool, shellTool, strReplaceEditor, type FrameworkTools } from "./types";

export const INSPECT_TOOLS: FrameworkTools = {
  id: "inspect",
  aliases: ["inspect_ai", "inspect-ai"],
  persistentShell: false,
  tools: {
    bash: shellTool(["cmd", "command"]),
    python: pythonTool("code"),
    text_editor: strReplaceEditor(),
    bash_session: other(),
    think: other(),
    submit: other(),
  },
};
