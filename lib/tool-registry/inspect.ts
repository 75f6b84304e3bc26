/**
 * Inspect AI's standard tools: `bash(cmd)` and `python(code)` run each call in a fresh process
 * in the sandbox; `text_editor` is the str_replace_editor family; `bash_session`, `think` and
 * the web tools (`web_browser_*`, inspect_ai/tool/_tools/_web_browser; `web_search`) touch no file
 * we can see.
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
    web_browser_go: other(),
    web_browser_click: other(),
    web_browser_type: other(),
    web_browser_type_submit: other(),
    web_browser_scroll: other(),
    web_browser_back: other(),
    web_browser_forward: other(),
    web_browser_refresh: other(),
    web_search: other(),
  },
};
