/**
 * An external agent program (Claude Code, Codex CLI, Gemini CLI, or a contract command) on one
 * instance. The program runs inside the sandbox with no network; its only way out is the model
 * gateway (model-gateway.ts), reached through a forwarder on the sandbox's own loopback. HOME is
 * the run's home/, so the agent's configuration and session files stay in the run folder and are
 * kept under native/. Its stdout transcript is normalized into our trajectory.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { ExternalAgentAdapter } from "@/lib/agents/external";
import type { AgentConfig, RunManifest } from "@/lib/bundle/schema";
import type { RunRecord } from "@/lib/bundle/write";
import type { NormalizedTranscript } from "@/lib/agents/external/transcript";
import { mitigationInstructions } from "@/lib/codekit/plan";
import { codekitMcpBundle, codekitMcpLaunch } from "./codekit-mcp";
import { collectAgentFiles, OUTPUT_DIR, STDERR_FILE, STUDIO_DIR } from "./agent-files";
import { FORWARDER_SOURCE, startModelGateway, type ModelGateway } from "./model-gateway";
import { recordRun, type AgentOutcome, type RecordRunOptions, type RunLimits } from "./record-run";
import { resourceLimitMessage, resourceLimitsOf } from "./resource-limits";
import type { CommandResult } from "@/lib/agents/sandbox";
import { quote as quoteArgv } from "shell-quote";

/** Where the gateway's socket folder appears inside the sandbox (on its private /tmp). */
const SOCKET_MOUNT = "/tmp/.studio-gateway";
/** The forwarder's port on the sandbox's own loopback (its network namespace has nothing else). */
const FORWARD_PORT = 18431;
/** The agent's stdout transcript is capped here; past it the run stops with output_limit. */
export const TRANSCRIPT_MAX_BYTES = 64 * 1024 * 1024;
/** The key the agent sees; the gateway swaps in the real one. */
const PLACEHOLDER_KEY = "studio-gateway-placeholder-key";

export interface ModelUpstream {
  /** Base URL the gateway forwards to (a provider's API, or the local mock server). */
  baseUrl: string;
  /** The real credentials, as headers (e.g. `x-api-key`); never shown to the agent. */
  auth: Record<string, string>;
}

export interface RunExternalOptions extends Omit<RecordRunOptions, "act" | "sandbox"> {
  agent: AgentConfig;
  adapter: ExternalAgentAdapter;
  upstream: ModelUpstream;
  /** The agent's program (absolute path). */
  binary: string;
  /** Folders the program needs read-only inside the sandbox (the project's node_modules for npm CLIs). */
  programDirs: string[];
}

function exitReasonOf(
  result: Pick<CommandResult, "timedOut" | "outputTruncated" | "limitHit">,
  gateway: ModelGateway,
  cancelled: boolean,
): RunManifest["exitReason"] | null {
  if (cancelled) return "cancelled";
  if (gateway.limitReached()) return "step_limit";
  if (result.limitHit) return result.limitHit;
  if (result.timedOut) return "timeout";
  if (result.outputTruncated) return "output_limit";
  return null;
}

export async function runExternalAgent(options: RunExternalOptions): Promise<RunRecord> {
  const { adapter, agent, instance } = options;
  // A short host path: Unix socket paths are limited to 108 bytes.
  const tools = options.mitigation?.tools ?? [];
  // Before the sandbox: a bundle that cannot be built fails the run here, with esbuild's message.
  const mcpBundle = tools.length > 0 ? await codekitMcpBundle() : null;
  const socketDir = await fs.mkdtemp(path.join(os.tmpdir(), "studio-gw-"));
  try {
    return await recordRun({
      ...options,
      // The runner's own files in HOME (.studio: forwarder, stderr, outputs) and the program's state
      // (its configuration, the Code-KIT instructions and MCP registration included).
      agentStateInHome: [".studio", ...adapter.stateInHome],
      sandbox: {
        readOnlyBinds: [...options.programDirs, ...(mcpBundle ? [mcpBundle.dir] : [])],
        binds: [{ source: socketDir, target: SOCKET_MOUNT }],
      },
      async act({ sandbox, workspaceDir, limits, signal }): Promise<AgentOutcome> {
        const gateway = await startModelGateway({
          upstream: options.upstream.baseUrl,
          protocol: adapter.protocol,
          auth: options.upstream.auth,
          socketPath: path.join(socketDir, "gateway.sock"),
          maxModelCalls: limits.maxSteps,
          onLimit: () => void sandbox.killAll(),
        });
        const onAbort = () => void sandbox.killAll();
        signal?.addEventListener("abort", onAbort);
        try {
          const studioDir = path.join(sandbox.homeDir, STUDIO_DIR);
          const outputDir = path.join(sandbox.homeDir, OUTPUT_DIR);
          await fs.mkdir(outputDir, { recursive: true });
          await fs.writeFile(path.join(studioDir, "forwarder.cjs"), FORWARDER_SOURCE);
          const baseUrl = sandbox.isolated ? `http://127.0.0.1:${FORWARD_PORT}` : gateway.loopbackUrl;
          const launch = await adapter.prepare({
            homeDir: sandbox.homeDir,
            workspaceDir,
            baseUrl,
            apiKey: PLACEHOLDER_KEY,
            model: agent.model,
            task: instance.prompt,
            maxSteps: limits.maxSteps,
            guidelines: agent.guidelines,
            instructions: mitigationInstructions(options.mitigation ?? null),
            mcpServer: mcpBundle ? codekitMcpLaunch(mcpBundle, workspaceDir, tools) : null,
            binary: options.binary,
            command: typeof agent.options.command === "string" ? agent.options.command : undefined,
            outputDir,
          });
          const stderrFile = path.join(sandbox.homeDir, STDERR_FILE);
          const ready = path.join(studioDir, "gateway-ready");
          const script = [
            ...(sandbox.isolated
              ? [
                  `node ${quoteArgv([path.join(studioDir, "forwarder.cjs"), String(FORWARD_PORT), `${SOCKET_MOUNT}/gateway.sock`, ready])} >/dev/null 2>&1 &`,
                  `i=0; while [ ! -e ${quoteArgv([ready])} ] && [ $i -lt 250 ]; do sleep 0.02; i=$((i+1)); done`,
                ]
              : []),
            `exec ${quoteArgv(launch.argv)} 2>${quoteArgv([stderrFile])}`,
          ].join("\n");
          const result = await sandbox.run(
            script,
            {
              timeoutMs: limits.wallTimeSeconds * 1000,
              maxOutputBytes: TRANSCRIPT_MAX_BYTES,
              ...resourceLimitsOf(limits),
            },
            launch.env,
          );
          // Everything under HOME is the agent's: read without following links, bounded (agent-files.ts).
          const files = await collectAgentFiles({
            homeDir: sandbox.homeDir,
            adapter,
            maxStoredFileBytes: options.maxStoredFileBytes,
          });
          const { stderr } = files;
          const native = new Map<string, Buffer>([
            ["stdout.jsonl", Buffer.from(result.output)],
            ...files.native,
            ["gateway-calls.json", Buffer.from(`${JSON.stringify(gateway.calls, null, 1)}\n`)],
          ]);

          let transcript: NormalizedTranscript | null = null;
          let transcriptError: string | null = null;
          try {
            transcript = await adapter.normalize({
              stdout: result.output,
              task: instance.prompt,
              homeDir: sandbox.homeDir,
              outputDir,
            });
          } catch (error) {
            transcriptError = error instanceof Error ? error.message : String(error);
          }
          const limitReason = exitReasonOf(result, gateway, signal?.aborted === true);
          const stderrTail = stderr.trim().split("\n").slice(-5).join("\n");
          let exitReason: RunManifest["exitReason"] = limitReason ?? "finished";
          let error: string | null = null;
          if (limitReason) error = limitMessage(limitReason, limits, result.peakRssBytes);
          else if (result.exitCode !== 0) {
            exitReason = "error";
            error = `${adapter.framework} exited with status ${String(result.exitCode)}${stderrTail ? `: ${stderrTail}` : ""}`;
          } else if (transcriptError) {
            exitReason = "error";
            error = `cannot read the ${adapter.framework} transcript: ${transcriptError}`;
          } else if (transcript?.error) {
            exitReason = "error";
            error = transcript.error;
          }
          const steps = transcript?.steps ?? [];
          return {
            steps,
            exitReason,
            error,
            // The gateway saw every model call; the transcript's own count is a fallback.
            modelCalls: gateway.modelCalls() || (transcript?.usage.modelCalls ?? 0),
            inputTokens: transcript?.usage.inputTokens ?? 0,
            outputTokens: transcript?.usage.outputTokens ?? 0,
            costUsd: transcript?.usage.costUsd ?? null,
            native,
            notes: files.notes,
          };
        } finally {
          signal?.removeEventListener("abort", onAbort);
          await gateway.close();
        }
      },
    });
  } finally {
    await fs.rm(socketDir, { recursive: true, force: true });
  }
}

function limitMessage(reason: RunManifest["exitReason"], limits: RunLimits, peak: number | null): string {
  switch (reason) {
    case "step_limit":
      return `stopped at the limit of ${limits.maxSteps} model calls`;
    case "timeout":
      return `stopped at the wall-time limit of ${limits.wallTimeSeconds} s`;
    case "memory_limit":
    case "process_limit":
    case "disk_limit":
      return resourceLimitMessage(reason, limits, peak);
    case "output_limit":
      return `stopped: the transcript passed ${TRANSCRIPT_MAX_BYTES} bytes`;
    case "cancelled":
      return "cancelled";
    default:
      return reason;
  }
}
