/**
 * The Code-KIT MCP server (lib/codekit/mcp) as the agent CLIs start it inside the sandbox, where
 * the project is hidden: one self-contained .cjs built with esbuild, with the two tree-sitter
 * .wasm files beside it, in a content-addressed folder under the host's temporary folder. It is
 * built once per process and shown read-only in the sandbox at the same path.
 */
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { PYTHON_PARSER_WASM } from "@/lib/analysis/python-parser";
import { CODEKIT_MCP_SERVER, type CodekitToolName } from "@/lib/codekit/mitigation";
import { AppError } from "@/lib/errors/app-error";
import type { McpServerLaunch } from "@/lib/agents/external";

const SCRIPT = "codekit-mcp.cjs";
/** esbuild finishes in about a second here; far past that it is stuck, not slow. */
const BUILD_TIMEOUT_MS = 60_000;

export interface CodekitMcpBundle {
  /** The folder to show read-only in the sandbox. */
  dir: string;
  script: string;
}

let built: Promise<CodekitMcpBundle> | null = null;

/** The bundle, built on the first call of this process (a failed build is tried again next time). */
export function codekitMcpBundle(): Promise<CodekitMcpBundle> {
  built ??= withTimeout(buildBundle(), BUILD_TIMEOUT_MS).catch((error: unknown) => {
    built = null;
    throw new AppError(
      "INTERNAL",
      `cannot build the Code-KIT MCP server: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  });
  return built;
}

/** How a CLI starts the server for one run: the bundle, the workspace, the plan's tools. */
export function codekitMcpLaunch(
  bundle: CodekitMcpBundle,
  workspaceDir: string,
  tools: readonly CodekitToolName[],
): McpServerLaunch {
  return { name: CODEKIT_MCP_SERVER, command: "node", args: [bundle.script, "--root", workspaceDir, ...tools] };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`esbuild did not finish in ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function buildBundle(): Promise<CodekitMcpBundle> {
  const entry = fileURLToPath(new URL("../codekit/mcp/main.ts", import.meta.url));
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    write: false,
    logLevel: "silent",
    // web-tree-sitter's ESM build finds its .wasm from import.meta.url, which a .cjs lacks.
    define: { "import.meta.url": "__codekitBundleUrl" },
    banner: { js: 'var __codekitBundleUrl = require("node:url").pathToFileURL(__filename).href;' },
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error("esbuild wrote no output");
  const require = createRequire(import.meta.url);
  const files = new Map<string, Buffer>([[SCRIPT, Buffer.from(output.contents)]]);
  for (const wasm of Object.values(PYTHON_PARSER_WASM))
    files.set(wasm.file, await fs.readFile(require.resolve(wasm.module)));
  const hash = createHash("sha256");
  for (const [name, data] of files) hash.update(`${name}\0${data.length}\0`).update(data);
  const dir = path.join(await cacheRoot(), hash.digest("hex").slice(0, 16));
  if (!(await holds(dir, files))) await writeFolder(dir, files);
  return { dir, script: path.join(dir, SCRIPT) };
}

/** Our own folder under the temporary folder: made private, refused when someone else's or a link. */
async function cacheRoot(): Promise<string> {
  const root = path.join(os.tmpdir(), `studio-codekit-mcp-${process.getuid?.() ?? "user"}`);
  await fs.mkdir(root, { recursive: true, mode: 0o700 });
  const stat = await fs.lstat(root);
  if (!stat.isDirectory() || (process.getuid && stat.uid !== process.getuid()))
    throw new Error(`${root} is not a folder of this user`);
  return root;
}

/** Whether `dir` holds exactly these files (a folder of the same name from an interrupted write does not). */
async function holds(dir: string, files: ReadonlyMap<string, Buffer>): Promise<boolean> {
  for (const [name, data] of files) {
    try {
      if (!(await fs.readFile(path.join(dir, name))).equals(data)) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/** Written beside and renamed into place, so a concurrent process never sees half a bundle. */
async function writeFolder(dir: string, files: ReadonlyMap<string, Buffer>): Promise<void> {
  const staging = await fs.mkdtemp(`${dir}.tmp-`);
  try {
    for (const [name, data] of files) await fs.writeFile(path.join(staging, name), data, { mode: 0o644 });
    await fs.chmod(staging, 0o755);
    await fs.rm(dir, { recursive: true, force: true });
    await fs.rename(staging, dir);
  } catch (error) {
    await fs.rm(staging, { recursive: true, force: true });
    // Another process put the same bundle in place first.
    if (await holds(dir, files)) return;
    throw error;
  }
}
