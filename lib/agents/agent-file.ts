/**
 * What `run-agents --agent` names, resolved: a framework name or a JSON agent file
 * (lib/agents/agent-spec.ts), with the command-line flags over the file; and the program file of
 * a command agent, which is part of its configuration.
 */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import { AGENT_FRAMEWORKS, parseAgentSpecFile, providerFor, type AgentSpec, type ProviderName } from "./agent-spec";
import { AppError } from "@/lib/errors/app-error";
import type { Mitigation } from "@/lib/codekit/arms";

/** `--agent`: a framework name, or a JSON agent file; flags override the file. */
export async function agentSpecOf(
  value: string,
  flags: { provider?: ProviderName; model?: string; maxSteps?: number; wallTime?: number; mitigation?: Mitigation },
): Promise<AgentSpec> {
  let spec: AgentSpec;
  if ((AGENT_FRAMEWORKS as readonly string[]).includes(value)) {
    spec = { framework: value as AgentSpec["framework"] };
  } else if (value.endsWith(".json")) {
    let text: string;
    try {
      text = await fs.readFile(value, "utf8");
    } catch {
      throw new AppError("NOT_FOUND", `agent file ${value} cannot be read`);
    }
    spec = parseAgentSpecFile(text, value);
  } else {
    throw new AppError(
      "INVALID_INPUT",
      `--agent "${value}" is neither an agent (${AGENT_FRAMEWORKS.join(", ")}) nor an agent file (.json)`,
    );
  }
  if (spec.framework === "command" && !spec.command)
    throw new AppError("INVALID_INPUT", "a command agent needs an agent file with its command line");
  const resolved: AgentSpec = {
    ...spec,
    ...(flags.provider ? { provider: flags.provider } : {}),
    ...(flags.model ? { model: flags.model } : {}),
    ...(flags.mitigation ? { mitigation: flags.mitigation } : {}),
    limits: {
      ...spec.limits,
      ...(flags.maxSteps !== undefined ? { maxSteps: flags.maxSteps } : {}),
      ...(flags.wallTime !== undefined ? { wallTimeSeconds: flags.wallTime } : {}),
    },
  };
  providerFor(resolved); // refuses a provider the agent cannot speak, before anything is started
  return resolved;
}

/** A command agent's program file, by path and content: another script is another configuration. */
export async function programOf(spec: AgentSpec): Promise<Record<string, string>> {
  if (spec.framework !== "command" || !spec.binary) return {};
  const content = await fs.readFile(spec.binary).catch(() => null);
  if (!content) throw new AppError("NOT_FOUND", `agent program ${spec.binary} cannot be read`);
  return { program: spec.binary, programSha256: createHash("sha256").update(content).digest("hex") };
}
