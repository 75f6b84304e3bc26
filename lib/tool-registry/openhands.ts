/**
 * OpenHands (CodeActAgent): its function-calling tools, and the action names of its event
 * streams (`run`, `read`, `edit`, `write`, `run_ipython`), as readers keep them
 * (field notes: SOURCES.md in $STUDIO_TEST_DATA/fixtures/trajectories). The bash session is persistent.
 */
import { edit, other, pythonTool, read, shellTool, strReplaceEditor, write, type FrameworkTools } from "./types";

export const OPENHANDS_TOOLS: FrameworkTools = {
  id: "openhands",
  aliases: ["codeactagent", "open-hands"],
  persistentShell: true,
  tools: {
    execute_bash: shellTool(["command"]),
    terminal: shellTool(["command"]),
    str_replace_editor: strReplaceEditor(),
    file_editor: strReplaceEditor(),
    edit_file: edit("path"),
    execute_ipython_cell: pythonTool("code"),
    think: other(),
    finish: other(),
    browser: other(),
    web_read: other(),
    task_tracker: other(),
    // Event-stream actions.
    run: shellTool(["command"]),
    run_ipython: pythonTool("code"),
    read: read("path"),
    write: write("path"),
    edit: strReplaceEditor(),
    message: other(),
    browse: other(),
    browse_interactive: other(),
  },
};
