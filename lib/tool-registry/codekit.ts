/**
 * Code-KIT's five tools (lib/codekit), as any agent given them calls them: built-in agents by
 * these names, the agent CLIs through our MCP server (`mcp__codekit__extract_snippet`, Gemini CLI
 * `mcp_codekit_extract_snippet`; described by its own name: toolEffect). The two analysis tools show references and import lists, not file
 * contents, so they read no file; extract_snippet shows a definition's source; the two write tools
 * edit the file they name.
 */
import { edit, other, read, type FrameworkTools } from "./types";

export const CODEKIT_REGISTRY_TOOLS: FrameworkTools = {
  id: "codekit",
  aliases: [],
  persistentShell: false,
  tools: {
    trace_references: other(),
    analyze_dependencies: other(),
    extract_snippet: read("path"),
    modify_function: edit("path"),
    remove_function: edit("path"),
  },
};
