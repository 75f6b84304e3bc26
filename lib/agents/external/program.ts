/**
 * Where an agent CLI's program is: `agent-clis/node_modules/.bin` (the pinned CLIs `npm run
 * setup:agents` installs, kept out of the project's own install so the Quick start and worker
 * machines stay small), the project's node_modules/.bin (a CLI installed there by hand), or a
 * configured path.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { AppError } from "@/lib/errors/app-error";
import type { ExternalAgentAdapter } from "./types";

export interface AgentProgram {
  binary: string;
  /** The npm package's version, or null for a configured binary or a command. */
  version: string | null;
  /** Folders the program needs read-only inside the sandbox. */
  programDirs: string[];
}

export async function resolveAgentProgram(
  projectRoot: string,
  adapter: ExternalAgentAdapter,
  configuredBinary?: string,
): Promise<AgentProgram> {
  if (configuredBinary) {
    const binary = path.resolve(configuredBinary);
    // A command agent's program is a file its command line runs (a script): readable is enough.
    const needed = adapter.framework === "command" ? fs.constants.R_OK : fs.constants.X_OK;
    try {
      await fs.access(binary, needed);
    } catch {
      throw new AppError(
        "NOT_FOUND",
        `agent binary ${binary} is missing or not ${needed === fs.constants.R_OK ? "readable" : "executable"}`,
      );
    }
    // Its folder is shown read-only in the sandbox, even inside the hidden project.
    return { binary, version: null, programDirs: [path.dirname(await fs.realpath(binary))] };
  }
  if (adapter.framework === "command") return { binary: "bash", version: null, programDirs: [] };
  for (const nodeModules of AGENT_CLI_FOLDERS.map((folder) => path.join(projectRoot, folder))) {
    const binary = path.join(nodeModules, ".bin", adapter.binName ?? "");
    const version = await installedVersion(binary, path.join(nodeModules, adapter.npmPackage ?? "", "package.json"));
    // The whole node_modules: npm CLIs load their dependencies from it (the rest of the project stays hidden).
    if (version !== undefined) return { binary, version, programDirs: [nodeModules] };
  }
  throw new AppError(
    "NOT_FOUND",
    `${adapter.framework} is not installed: run \`npm run setup:agents\` (the pinned Claude Code, Codex CLI and Gemini CLI, into agent-clis/), or set "binary" in the agent file`,
  );
}

/** Where the agent CLIs are looked for, in order, under the project. */
export const AGENT_CLI_FOLDERS = ["agent-clis/node_modules", "node_modules"];

/** The package's version when its program is there and executable; undefined when it is not. */
async function installedVersion(binary: string, packageJson: string): Promise<string | null | undefined> {
  try {
    await fs.access(binary, fs.constants.X_OK);
    const pkg = JSON.parse(await fs.readFile(packageJson, "utf8")) as { version?: string };
    return pkg.version ?? null;
  } catch {
    return undefined;
  }
}

/** The provider's public API, for runs against the real service. */
export const PROVIDER_BASE_URLS = {
  gemini: "https://generativelanguage.googleapis.com",
  openai: "https://api.openai.com",
  anthropic: "https://api.anthropic.com",
} as const;

/** The headers that carry a real key, per provider (the gateway adds them). */
export function authHeaders(provider: keyof typeof PROVIDER_BASE_URLS, apiKey: string): Record<string, string> {
  switch (provider) {
    case "gemini":
      return { "x-goog-api-key": apiKey };
    case "openai":
      return { authorization: `Bearer ${apiKey}` };
    case "anthropic":
      return { "x-api-key": apiKey };
  }
}
