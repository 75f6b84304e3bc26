/**
 * SWE-agent: its bash tool, the str_replace_editor of its newer tool bundles, and the commands of
 * its older bundles (windowed file viewer, `edit`, search), which are typed in its persistent
 * bash session (`open pkg/a.py 20`) as well as called as tools. Argument names follow the bundles'
 * config.yaml; `edit` and `goto` act on the file last opened. `submit` is the harness's own
 * submission (its `git add -A && git diff --cached` runs inside the tool), so it touches nothing
 * the agent did.
 */
import { other, read, search, shellTool, strReplaceEditor, write, type FrameworkTools } from "./types";

export const SWE_AGENT_TOOLS: FrameworkTools = {
  id: "swe-agent",
  aliases: ["sweagent", "swe_agent"],
  persistentShell: true,
  tools: {
    bash: shellTool(["command"]),
    // Typed in the shell as `str_replace_editor view /repo/a.py` as well as called as a tool.
    str_replace_editor: { ...strReplaceEditor(), positional: ["command", "path"] },
    open: { ...read("path"), positional: ["path", "line_number"], opensFile: true },
    goto: { ...read(), positional: ["line_number"], actsOnOpenFile: true },
    scroll_up: { ...read(), positional: [], actsOnOpenFile: true },
    scroll_down: { ...read(), positional: [], actsOnOpenFile: true },
    create: { ...write("filename"), positional: ["filename"], opensFile: true },
    edit: { effect: "edit", pathArgs: [], positional: ["lines"], actsOnOpenFile: true },
    find_file: { ...search(), positional: ["file_name", "dir"] },
    search_file: { ...search("file"), positional: ["search_term", "file"] },
    search_dir: { ...search(), positional: ["search_term", "dir"] },
    submit: { ...other(), positional: [] },
  },
};
