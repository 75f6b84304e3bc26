/**
 * Agno: the tools of its toolkits as `RunOutput.tools[].tool_name` / `tool_args` name them
 * (FileTools, LocalFileSystemTools, ShellTools with an argv list, PythonTools).
 */
import { list, other, pythonTool, read, shellTool, write, type FrameworkTools } from "./types";

export const AGNO_TOOLS: FrameworkTools = {
  id: "agno",
  aliases: ["phidata"],
  persistentShell: false,
  tools: {
    read_file: read("file_name", "filename", "path"),
    save_file: write("file_name", "filename"),
    write_file: write("filename", "file_name", "path"),
    list_files: list("directory"),
    run_shell_command: shellTool(["args", "command"]),
    run_python_code: pythonTool("code"),
    save_to_file_and_run: { ...pythonTool("code"), pathArgs: ["file_name"] },
    run_python_file_return_variable: { effect: "python", pathArgs: ["file_name"], codeArgs: [] },
    pip_install_package: other(),
  },
};
