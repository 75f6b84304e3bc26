/**
 * Anthropic's client tools, as a harness that calls the Messages API directly names them in
 * `tool_use` blocks (Anthropic's "Text editor tool" and "Bash tool" documentation): the text
 * editor is `str_replace_based_edit_tool` from `text_editor_20250429` on (no `undo_edit`) and
 * `str_replace_editor` in `text_editor_20241022` / `text_editor_20250124`, both with `command` and
 * `path`; `bash` (`command`, `restart`) is one persistent session.
 */
import { shellTool, strReplaceEditor, type FrameworkTools } from "./types";

export const ANTHROPIC_TOOLS: FrameworkTools = {
  id: "anthropic",
  aliases: ["anthropic-api", "claude-api"],
  persistentShell: true,
  tools: {
    str_replace_based_edit_tool: strReplaceEditor(),
    str_replace_editor: strReplaceEditor(),
    bash: shellTool(["command"]),
  },
};
