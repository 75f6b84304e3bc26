/**
 * The Code-KIT MCP server as the CLIs get it: the self-contained bundle, started with node from a
 * folder far from the project (no node_modules to fall back on), spoken to with the SDK's client.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRepo, read, SMALL_REPO } from "@/lib/codekit/repo.fixture";
import { codekitMcpBundle, codekitMcpLaunch } from "./codekit-mcp";

const textOf = (result: Awaited<ReturnType<Client["callTool"]>>) =>
  (result.content as { type: string; text?: string }[]).map((c) => c.text ?? "").join("\n");

describe("the Code-KIT MCP server bundle", () => {
  const root = makeRepo(SMALL_REPO);
  const client = new Client({ name: "codekit-mcp-test", version: "1" });

  beforeAll(async () => {
    const bundle = await codekitMcpBundle();
    expect(fs.readdirSync(bundle.dir).sort()).toEqual([
      "codekit-mcp.cjs",
      "tree-sitter-python.wasm",
      "web-tree-sitter.wasm",
    ]);
    // Built once per process: the same folder again.
    expect(await codekitMcpBundle()).toEqual(bundle);
    const launch = codekitMcpLaunch(bundle, root, ["extract_snippet", "modify_function"]);
    await client.connect(
      new StdioClientTransport({ command: launch.command, args: launch.args, cwd: os.tmpdir(), stderr: "pipe" }),
    );
  });
  afterAll(async () => {
    await client.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("lists exactly the tools it was started with, with their JSON schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["extract_snippet", "modify_function"]);
    expect(tools[0]!.inputSchema).toMatchObject({ type: "object", required: ["path", "qualname"] });
  });

  it("extracts a snippet from the workspace it names", async () => {
    const result = await client.callTool({
      name: "extract_snippet",
      arguments: { path: "pkg/util.py", qualname: "helper" },
    });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toBe('pkg/util.py:5-7\ndef helper(x):\n    """Double x."""\n    return x * 2');
  });

  it("returns a refused change, an unknown tool and bad arguments as error results; the file stays", async () => {
    const before = read(root, "pkg/util.py");
    const refused = await client.callTool({
      name: "modify_function",
      arguments: { path: "pkg/util.py", qualname: "helper", new_body: "def other(y):\n    pass" },
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^Refused/);
    expect(read(root, "pkg/util.py")).toBe(before);
    const unknown = await client.callTool({
      name: "remove_function",
      arguments: { path: "pkg/util.py", qualname: "unused" },
    });
    expect(unknown).toMatchObject({ isError: true });
    expect(textOf(unknown)).toContain("this server offers extract_snippet, modify_function");
    const invalid = await client.callTool({ name: "extract_snippet", arguments: { path: "pkg/util.py" } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toContain("qualname");
  });
});

describe("the bundle's command line", () => {
  it("refuses to start without a workspace or with an unknown tool, on stderr with status 2", async () => {
    const { script } = await codekitMcpBundle();
    const run = (...args: string[]) => spawnSync("node", [script, ...args], { encoding: "utf8", timeout: 20_000 });
    expect(run("extract_snippet")).toMatchObject({ status: 2, stderr: expect.stringContaining("usage: codekit-mcp") });
    expect(run("--root", os.tmpdir(), "rm_rf")).toMatchObject({
      status: 2,
      stderr: expect.stringContaining("unknown tool rm_rf"),
    });
  });
});
