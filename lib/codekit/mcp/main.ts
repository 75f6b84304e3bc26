/**
 * The entry of the self-contained Code-KIT MCP server bundle (built by lib/runner/codekit-mcp.ts):
 * `node codekit-mcp.cjs --root WORKSPACE TOOL...`. The tree-sitter .wasm files lie beside the
 * bundle; diagnostics go to stderr, stdout is the protocol's.
 */
import { loadPythonWasmFrom } from "@/lib/analysis/python-parser";
import { serveCodekitMcp } from "./server";

loadPythonWasmFrom(__dirname);
serveCodekitMcp(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
});
