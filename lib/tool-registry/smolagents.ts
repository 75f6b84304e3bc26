/**
 * smolagents: a CodeAgent's action is Python code (`python_interpreter`, or the step's
 * `code_action`); its tools are Python functions called inside that code (`read_file("x.py")`),
 * or, for a ToolCallingAgent, tool calls. The functions below are the file tools harnesses
 * commonly give it; `final_answer` ends the run.
 */
import { list, other, pythonTool, read, write, type FrameworkTools } from "./types";

const FILE_FUNCTIONS = {
  read_file: read("path", "file_path", "filename"),
  write_file: write("path", "file_path", "filename"),
  list_files: list("path", "directory"),
  list_dir: list("path", "directory"),
};

export const SMOLAGENTS_TOOLS: FrameworkTools = {
  id: "smolagents",
  aliases: ["smolagent", "codeagent"],
  persistentShell: false,
  tools: {
    python_interpreter: pythonTool("code", "input"),
    final_answer: other(),
    web_search: other(),
    visit_webpage: other(),
    ...FILE_FUNCTIONS,
  },
  pythonFunctions: { ...FILE_FUNCTIONS, final_answer: other() },
};
