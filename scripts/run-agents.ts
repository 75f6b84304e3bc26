/**
 * npm run run-agents -- --benchmark B --agent CONFIG [--provider gemini|openai|anthropic] [--model M] [--mock]
 *   [--split eval|all] [--subtask S] [--limit N] [--per-subtask N] [--concurrency K] [--max-steps N]
 *   [--wall-time SECONDS] [--keep-workspaces] [--cache-dir DIR]
 * CONFIG is a built-in agent (file-tools, terminal-editor), an agent CLI (claude-code, codex,
 * gemini-cli) or a JSON agent file (lib/agents/agent-spec.ts; a `command` agent follows
 * docs/external-agents.md). Runs it on a benchmark's instances, each in its own workspace and
 * sandbox, writes every run as a bundle under data/runs/<run id>/ and imports it. Resumable:
 * instances this agent configuration already ran are skipped. `--mock` starts a local server
 * speaking the provider's protocol with a scripted model (clean runs and every misbehavior;
 * marked scripted). Workspaces come from a cache of each repository under --cache-dir (default:
 * `cache` beside --runs-dir, so data/cache; lib/runner/workspace-cache.ts), which also keeps the
 * host's package lists.
 */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import pLimit from "p-limit";
import { z } from "zod";
import { createDb, databasePathFromEnv } from "@/db/client";
import { getInstance, listInstances } from "@/db/queries/benchmarks";
import { agentConfigId } from "@/db/queries/run-import";
import {
  AGENT_FRAMEWORKS,
  DEFAULT_MODELS,
  isBuiltin,
  isExternal,
  providerFor,
  PROVIDERS,
} from "@/lib/agents/agent-spec";
import type { BuiltinFramework } from "@/lib/agents/builtin";
import { externalAdapter } from "@/lib/agents/external";
import { authHeaders, PROVIDER_BASE_URLS, resolveAgentProgram } from "@/lib/agents/external/program";
import { MOCK_MODEL } from "@/lib/agents/mock-server/script";
import { createChatProvider, withRetries } from "@/lib/agents/providers";
import { chooseBehaviour } from "@/lib/agents/scripted-behaviours";
import { SubtaskIdSchema } from "@/lib/benchmark/subtasks";
import type { AgentConfig } from "@/lib/bundle/schema";
import { parseCliArgs } from "@/lib/cli/args";
import { loadEnv } from "@/lib/config/env";
import { createProgress } from "@/lib/cli/progress";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";
import { removeTree } from "@/lib/runner/copy-tree";
import { runExternalAgent } from "@/lib/runner/run-external";
import { runInstance } from "@/lib/runner/run-instance";
import { bubblewrapAvailable } from "@/lib/runner/sandbox";
import { createWorkspaceCache } from "@/lib/runner/workspace-cache";
import { sandboxUnavailableReason } from "@/lib/setup/system-packages";
import { agentSpecOf, programOf } from "./run-agents-agent";
import { scriptToolSetOf, startScriptedModel, type ScriptedModel } from "./run-agents-mock";
import { discardRun, storeRun } from "./run-agents-record";
import { createRunStopper } from "./run-agents-stop";
import { instanceWorkspaceSource } from "@/db/queries/instance-workspace";

const USAGE =
  "usage: npm run run-agents -- --benchmark B --agent file-tools|terminal-editor|claude-code|codex|gemini-cli|FILE.json [--provider gemini|openai|anthropic] [--model M] [--mock] [--split eval|all] [--subtask S] [--limit N] [--per-subtask N] [--concurrency K] [--max-steps N] [--wall-time SECONDS] [--keep-workspaces] [--cache-dir DIR]";

const ArgsSchema = z.object({
  benchmark: z.string({ error: "is required" }).min(1),
  agent: z.string({ error: `is required: ${AGENT_FRAMEWORKS.join(", ")} or an agent file (.json)` }).min(1),
  provider: z.enum(PROVIDERS).optional(),
  model: z.string().min(1).optional(),
  mock: z.boolean().default(false),
  split: z.enum(["eval", "all"]).default("eval"),
  subtask: SubtaskIdSchema.optional(),
  limit: z.coerce.number().int().min(1).optional(),
  "per-subtask": z.coerce.number().int().min(1).optional(),
  concurrency: z.coerce.number().int().min(1).max(16).default(2),
  "max-steps": z.coerce.number().int().min(1).max(1000).optional(),
  "wall-time": z.coerce.number().int().min(1).max(86_400).optional(),
  seed: z.coerce.number().int().min(0).default(42),
  "keep-workspaces": z.boolean().default(false),
  "allow-unsandboxed": z.boolean().default(false),
  "runs-dir": z.string().default("data/runs"),
  "cache-dir": z.string().min(1).optional(),
});

const API_KEY_ENV = { gemini: "GEMINI_API_KEY", openai: "OPENAI_API_KEY", anthropic: "ANTHROPIC_API_KEY" } as const;
const BASE_URL_ENV = {
  gemini: "GOOGLE_GEMINI_BASE_URL",
  openai: "OPENAI_BASE_URL",
  anthropic: "ANTHROPIC_BASE_URL",
} as const;

const unreachable = (what: string): never => {
  throw new AppError("INTERNAL", `unreachable: ${what}`);
};

export async function main(argv: string[], io: CliIo): Promise<number> {
  const { values: args } = parseCliArgs(
    argv,
    {
      benchmark: { type: "string" },
      agent: { type: "string" },
      provider: { type: "string" },
      model: { type: "string" },
      mock: { type: "boolean" },
      split: { type: "string" },
      subtask: { type: "string" },
      limit: { type: "string" },
      "per-subtask": { type: "string" },
      concurrency: { type: "string" },
      "max-steps": { type: "string" },
      "wall-time": { type: "string" },
      seed: { type: "string" },
      "keep-workspaces": { type: "boolean" },
      "allow-unsandboxed": { type: "boolean" },
      "runs-dir": { type: "string" },
      "cache-dir": { type: "string" },
    },
    ArgsSchema,
    USAGE,
  );
  const spec = await agentSpecOf(args.agent, {
    provider: args.provider,
    model: args.model,
    maxSteps: args["max-steps"],
    wallTime: args["wall-time"],
  });
  const providerName = providerFor(spec);
  if (!args["allow-unsandboxed"]) {
    const reason = await sandboxUnavailableReason(bubblewrapAvailable, io.env);
    if (reason) throw new AppError("UNAVAILABLE", reason);
  }
  const env = loadEnv(io.env);
  const db = createDb(databasePathFromEnv(io.env));
  let mock: ScriptedModel | null = null;
  const stopper = createRunStopper(io.stderr);
  try {
    let apiKey = io.env[API_KEY_ENV[providerName]];
    let baseUrl = io.env[BASE_URL_ENV[providerName]];
    let model = spec.model ?? DEFAULT_MODELS[providerName];
    if (args.mock) {
      mock = await startScriptedModel(scriptToolSetOf(spec.framework));
      apiKey = "mock-key";
      baseUrl = providerName === "openai" && isBuiltin(spec.framework) ? `${mock.url}/v1` : mock.url;
      model = MOCK_MODEL;
    }
    if (!apiKey)
      throw new AppError(
        "INVALID_INPUT",
        `set ${API_KEY_ENV[providerName]} for provider ${providerName}, or use --mock`,
      );

    const external = isExternal(spec.framework) ? externalAdapter(spec.framework, providerName) : null;
    const program = external ? await resolveAgentProgram(process.cwd(), external, spec.binary) : null;
    const provider = isBuiltin(spec.framework)
      ? withRetries(createChatProvider({ provider: providerName, apiKey, baseUrl, timeoutMs: 120_000 }), {
          maxRetries: 3,
        })
      : null;
    const upstream = {
      // The gateway forwards paths as the agents send them (`/v1/...` included).
      baseUrl: (baseUrl ?? PROVIDER_BASE_URLS[providerName]).replace(/\/v1\/?$/, ""),
      auth: args.mock ? {} : authHeaders(providerName, apiKey),
    };

    const agent: AgentConfig = {
      name: spec.name ?? `${spec.framework} / ${model}`,
      framework: spec.framework,
      frameworkVersion: isBuiltin(spec.framework) ? "builtin-1" : (program?.version ?? null),
      model,
      provider: providerName,
      tools: [],
      guidelines: spec.guidelines ?? null,
      limits: { maxSteps: 30, wallTimeSeconds: 600, maxOutputBytes: 1_000_000, ...spec.limits },
      options: { ...spec.options, ...(spec.command ? { command: spec.command } : {}), ...(await programOf(spec)) },
    };
    const configId = agentConfigId(agent);

    const { rows } = listInstances(db, {
      benchmarkId: args.benchmark,
      subtask: args.subtask,
      splitOnly: args.split === "eval",
      limit: 1_000_000,
      offset: 0,
    });
    if (rows.length === 0)
      throw new AppError(
        "INVALID_INPUT",
        `benchmark "${args.benchmark}" has no such instances (split ${args.split}${args.subtask ? `, ${args.subtask}` : ""})`,
      );
    const runIdOf = (instanceId: string) =>
      `${configId}-${createHash("sha256").update(instanceId).digest("hex").slice(0, 16)}`;
    const existing = new Set(
      (db.$client.prepare("SELECT id FROM runs WHERE agent_config_id = ?").all(configId) as { id: string }[]).map(
        (r) => r.id,
      ),
    );
    const pending = rows.filter((r) => !existing.has(runIdOf(r.id)));
    // --per-subtask N takes the first N pending instances of each subtask (a spread for demos).
    const taken = new Map<string, number>();
    const spread = pending.filter((r) => {
      const n = taken.get(r.subtaskId) ?? 0;
      taken.set(r.subtaskId, n + 1);
      return args["per-subtask"] === undefined || n < args["per-subtask"];
    });
    const todo = spread.slice(0, args.limit ?? spread.length);
    io.stderr.write(
      `${rows.length} instance(s) match, ${rows.length - pending.length} already run by this configuration; running ${todo.length} with ${agent.name}\n`,
    );

    // Beside the runs by default (data/cache), so a run folder elsewhere brings its own cache.
    const cacheDir = path.resolve(args["cache-dir"] ?? path.join(args["runs-dir"], "..", "cache"));
    const workspaces = createWorkspaceCache(path.join(cacheDir, "workspaces"));
    const progress = createProgress("runs", todo.length, io.stderr);
    const limit = pLimit(args.concurrency);
    const outcomes = { completed: 0, failed: 0, errors: 0, dropped: 0, notStarted: 0 };
    await Promise.all(
      todo.map((row) =>
        limit(async () => {
          const runId = runIdOf(row.id);
          const runDir = path.join(args["runs-dir"], runId);
          if (stopper.signal.aborted) return void (outcomes.notStarted += 1);
          try {
            const detail = getInstance(db, row.id);
            if (!detail) throw new AppError("NOT_FOUND", `instance ${row.id} vanished`);
            await removeTree(runDir);
            const behaviour = chooseBehaviour(detail.instance, args.seed);
            const common = {
              runId,
              instance: detail.instance,
              runDir,
              scripted: args.mock,
              // Agents see the system but not this project (database, corpus with the answers, secrets)
              // nor the workspace cache (the original files, answers included).
              hide: [...new Set([path.resolve("."), cacheDir])],
              packageCacheFile: path.join(cacheDir, "packages.json"),
              requireIsolation: !args["allow-unsandboxed"],
              maxStoredFileBytes: env.STUDIO_MAX_STORED_FILE_BYTES,
              signal: stopper.signal,
              native: args.mock
                ? new Map([["scripted-behaviour.json", Buffer.from(`${JSON.stringify({ behaviour })}\n`)]])
                : undefined,
              materialize: async (dir: string) => {
                const before = await workspaces.materialize(instanceWorkspaceSource(db, row.id), dir);
                const workspaceDir = await fs.realpath(dir);
                mock?.register({ instance: detail.instance, files: before, behaviour, workspaceDir });
                return before;
              },
            };
            const record =
              external && program
                ? await runExternalAgent({
                    ...common,
                    agent,
                    adapter: external,
                    upstream,
                    binary: program.binary,
                    programDirs: program.programDirs,
                  })
                : await runInstance({
                    ...common,
                    agent: { ...agent, framework: spec.framework as BuiltinFramework },
                    provider: provider ?? unreachable("a built-in agent without a provider"),
                  });
            if (await stopper.dropIfStopped(runDir)) return void (outcomes.dropped += 1);
            const stored = await storeRun(db, record, runDir);
            // A bubblewrap run leaves no process behind that could still write to its workspace, so
            // the workspace is reset and pooled for the next run on this repository.
            const workspaceDir = path.join(runDir, "workspace");
            if (!args["keep-workspaces"]) {
              await (args["allow-unsandboxed"] ? removeTree(workspaceDir) : workspaces.release(workspaceDir));
              // HOME and TMPDIR hold what the agent wrote outside its workspace (up to its disk
              // quota); the files the run needs from there are in the bundle's native/ already.
              await Promise.all(["home", "tmp"].map((dir) => removeTree(path.join(runDir, dir))));
            }
            if (stored.status === "completed") outcomes.completed += 1;
            else outcomes.failed += 1;
            progress.tick(stored.status !== "completed");
          } catch (error) {
            if (await stopper.dropIfStopped(runDir)) return void (outcomes.dropped += 1);
            outcomes.errors += 1;
            // Nothing stays behind (unless asked to keep workspaces): the workspace is pooled or removed.
            if (!args["keep-workspaces"])
              await discardRun(runDir, (dir) =>
                args["allow-unsandboxed"] ? removeTree(dir) : workspaces.release(dir),
              );
            io.stderr.write(`error: ${row.id}: ${error instanceof Error ? error.message : String(error)}\n`);
            progress.tick(true);
          }
        }),
      ),
    );
    if (todo.length > 0) progress.finish();
    const stopped = stopper.summary(outcomes);
    if (stopped) {
      io.stdout.write(`${stopped.line}\n`);
      return stopped.code;
    }
    io.stdout.write(
      `${todo.length} run(s) with ${agent.name}: ${outcomes.completed} completed, ${outcomes.failed} failed (limits, model errors), ${outcomes.errors} could not be recorded\n`,
    );
    return outcomes.errors > 0 ? 1 : 0;
  } finally {
    stopper.dispose();
    await mock?.close();
    db.$client.close();
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
