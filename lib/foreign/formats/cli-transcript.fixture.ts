/** Test support for the CLI readers: the files the real CLIs wrote for the runner's runs (lib/agents/external/fixtures/README.md). */
import path from "node:path";
import type { ForeignFile } from "../types";
import { fileAt } from "./reader.fixture";

export function runnerFixture(agent: "claude-code" | "codex" | "gemini-cli", name: string): ForeignFile {
  return fileAt(path.join(import.meta.dirname, "../../agents/external/fixtures", agent, name));
}
