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
import path from "node:path";
import { z } from "zod";
import { createDb, databasePathFromEnv } from "@/db/client";
import { planRuns, runBatchStore } from "@/db/queries/run-plan";
import { agentConfigId } from "@/db/queries/run-import";
import { agentSpecOf } from "@/lib/agents/agent-file";
import { AGENT_FRAMEWORKS, PROVIDERS } from "@/lib/agents/agent-spec";
import { SubtaskIdSchema } from "@/lib/benchmark/subtasks";
import { parseCliArgs } from "@/lib/cli/args";
import { loadEnv } from "@/lib/config/env";
import { createProgress } from "@/lib/cli/progress";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";
import { prepareAgent } from "@/lib/runner/agent-setup";
import { runBatch } from "@/lib/runner/run-batch";
import { bubblewrapAvailable } from "@/lib/runner/sandbox";
import { sandboxUnavailableReason } from "@/lib/setup/system-packages";
import { createRunStopper } from "./run-agents-stop";

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
  if (!args["allow-unsandboxed"]) {
    const reason = await sandboxUnavailableReason(bubblewrapAvailable, io.env);
    if (reason) throw new AppError("UNAVAILABLE", reason);
  }
  const env = loadEnv(io.env);
  const db = createDb(databasePathFromEnv(io.env));
  const stopper = createRunStopper(io.stderr);
  const setup = await prepareAgent(spec, { mock: args.mock, env: io.env, cwd: process.cwd() }).catch((error) => {
    stopper.dispose();
    db.$client.close();
    throw error;
  });
  try {
    const { agent } = setup;
    const plan = planRuns(db, {
      benchmarkId: args.benchmark,
      subtask: args.subtask,
      splitOnly: args.split === "eval",
      configId: agentConfigId(agent),
      perSubtask: args["per-subtask"],
      limit: args.limit,
    });
    const todo = plan.todo.map(({ instance, runId }) => ({ instanceId: instance.id, runId }));
    io.stderr.write(
      `${plan.matched} instance(s) match, ${plan.alreadyRun} already run by this configuration; running ${todo.length} with ${agent.name}\n`,
    );
    const progress = createProgress("runs", todo.length, io.stderr);
    const outcomes = await runBatch(setup, todo, runBatchStore(db), {
      runsDir: args["runs-dir"],
      // Beside the runs by default (data/cache), so a run folder elsewhere brings its own cache.
      cacheDir: args["cache-dir"] ?? path.join(args["runs-dir"], "..", "cache"),
      concurrency: args.concurrency,
      seed: args.seed,
      keepWorkspaces: args["keep-workspaces"],
      allowUnsandboxed: args["allow-unsandboxed"],
      maxStoredFileBytes: env.STUDIO_MAX_STORED_FILE_BYTES,
      stop: stopper,
      onRun: (instanceId, { failed, error }) => {
        if (error) io.stderr.write(`error: ${instanceId}: ${error}\n`);
        progress.tick(failed);
      },
    });
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
    await setup.close();
    db.$client.close();
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
