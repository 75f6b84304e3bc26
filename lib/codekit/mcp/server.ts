/**
 * Code-KIT's tools as an MCP server (the official TypeScript SDK, stdio transport), for the agent
 * CLIs: Claude Code, Codex and Gemini CLI start it inside the sandbox from their own MCP
 * configuration. It serves the tools named on its command line, on the workspace named there too
 * (the CLIs differ in the working directory they give a server); a refused or invalid call is a tool result with `isError`, as the
 * built-in agents get it.
 */
// The low-level Server: McpServer.registerTool wants zod shapes, while the tools are declared with
// JSON schemas (CODEKIT_TOOLS), which this server hands over as they are.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { codekitToolSpecs, isCodekitTool, runCodekitTool } from "../index";
import { CODEKIT_MCP_SERVER, type CodekitToolName } from "../mitigation";

const VERSION = "1";

/** A server offering `tools` on the workspace at `root` (not yet connected). */
export function codekitMcpServer(root: string, tools: readonly CodekitToolName[]): Server {
  const specs = codekitToolSpecs(tools);
  const server = new Server({ name: CODEKIT_MCP_SERVER, version: VERSION }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: specs.map((spec) => ({
      name: spec.name,
      description: spec.description,
      inputSchema: { ...spec.parameters, type: "object" as const },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    // Only the plan's tools: a call of another one is refused like an unknown tool.
    const result = specs.some((spec) => spec.name === name)
      ? await runCodekitTool(root, name, args ?? {})
      : { text: `Unknown tool ${name}; this server offers ${tools.join(", ")}.`, isError: true };
    return { content: [{ type: "text" as const, text: result.text }], isError: result.isError };
  });
  return server;
}

export interface CodekitMcpArgs {
  root: string;
  tools: CodekitToolName[];
}

/** `--root WORKSPACE TOOL...` (the launch the CLIs' configuration holds); anything else throws. */
export function parseCodekitMcpArgs(argv: readonly string[]): CodekitMcpArgs {
  const [flag, root, ...tools] = argv;
  if (flag !== "--root" || !root) throw new Error("usage: codekit-mcp --root WORKSPACE TOOL...");
  const unknown = tools.filter((name) => !isCodekitTool(name));
  if (unknown.length > 0) throw new Error(`codekit-mcp: unknown tool ${unknown.join(", ")}`);
  if (tools.length === 0) throw new Error("codekit-mcp: name the tools to serve");
  return { root, tools: tools.filter(isCodekitTool) };
}

/** Serves the tools on stdin/stdout until stdin closes. */
export async function serveCodekitMcp(argv: readonly string[]): Promise<void> {
  const { root, tools } = parseCodekitMcpArgs(argv);
  await codekitMcpServer(root, tools).connect(new StdioServerTransport());
}
