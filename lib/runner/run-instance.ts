/**
 * A built-in agent (file tools, or terminal + editor) on one instance: its tool-calling loop runs
 * here, every tool acting through the sandbox; recordRun does the workspace, snapshots and record.
 */
import { builtinToolbox, SYSTEM_PROMPTS, type BuiltinFramework } from "@/lib/agents/builtin";
import type { ChatProvider } from "@/lib/llm/chat";
import { runAgentLoop } from "@/lib/agents/loop";
import { mitigationInstructions } from "@/lib/codekit/plan";
import type { AgentConfig } from "@/lib/bundle/schema";
import type { RunRecord } from "@/lib/bundle/write";
import { recordRun, type RecordRunOptions } from "./record-run";
import { resourceLimitMessage, resourceLimitsOf } from "./resource-limits";

export { DEFAULT_LIMITS } from "./record-run";

export interface RunInstanceOptions extends Omit<RecordRunOptions, "act" | "agent"> {
  agent: AgentConfig & { framework: BuiltinFramework };
  provider: ChatProvider;
  /** Per command run by a tool. */
  commandTimeoutMs?: number;
}

export async function runInstance(options: RunInstanceOptions): Promise<RunRecord> {
  const { agent } = options;
  return recordRun({
    ...options,
    async act({ sandbox, workspaceDir, limits, signal }) {
      const toolbox = await builtinToolbox(
        agent.framework,
        {
          workspaceDir,
          sandbox,
          limits: {
            timeoutMs: options.commandTimeoutMs ?? 60_000,
            maxOutputBytes: limits.maxOutputBytes,
            ...(limits.memoryBytes !== undefined ? { memoryBytes: limits.memoryBytes } : {}),
            ...resourceLimitsOf(limits),
          },
        },
        options.mitigation?.tools ?? [],
      );
      const loop = await runAgentLoop({
        provider: options.provider,
        model: agent.model,
        system: [SYSTEM_PROMPTS[agent.framework], agent.guidelines, mitigationInstructions(options.mitigation ?? null)]
          .filter(Boolean)
          .join("\n\n"),
        task: options.instance.prompt,
        toolbox,
        limits: { maxSteps: limits.maxSteps, wallTimeMs: limits.wallTimeSeconds * 1000, maxObservationChars: 16_000 },
        signal,
      });
      const limitHit =
        loop.exitReason === "memory_limit" || loop.exitReason === "process_limit" || loop.exitReason === "disk_limit"
          ? loop.exitReason
          : null;
      return { ...loop, error: limitHit ? resourceLimitMessage(limitHit, limits, null) : loop.error };
    },
  });
}
