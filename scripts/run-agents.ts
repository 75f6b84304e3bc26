/**
 * npm run run-agents: --agent is a built-in agent (file-tools, terminal-editor), an agent CLI
 * (claude-code, codex, gemini-cli) or a JSON agent file (lib/agents/agent-spec.ts; a `command`
 * agent follows docs/external-agents.md). Runs it on a benchmark's instances, each in its own
 * workspace and sandbox, writes every run as a bundle under data/runs/<run id>/ and imports it.
 * Resumable: instances this agent configuration already ran are skipped. `--mock` starts a local
 * server speaking the provider's protocol with a scripted model (clean runs and every misbehavior;
 * marked scripted). Workspaces come from a cache of each repository under --cache-dir (default:
 * `cache` beside --runs-dir, so data/cache; lib/runner/workspace-cache.ts), which also keeps the
 * host's package lists.
 */
import path from "node:path";
import { createDb, databasePathFromEnv } from "@/db/client";
import type { Db } from "@/db/client";
import { planRuns, runBatchStore, type RunPlanRequest } from "@/db/queries/run-plan";
import { agentConfigId } from "@/db/queries/run-import";
import { createDbJudgeCache } from "@/db/queries/judge-cache";
import { MITIGATIONS } from "@/lib/codekit/arms";
import { agentSpecOf } from "@/lib/agents/agent-file";
import { AGENT_FRAMEWORKS, PROVIDERS, providerFor } from "@/lib/agents/agent-spec";
import { SUBTASK_IDS } from "@/lib/benchmark/subtasks";
import {
  choiceOption,
  cliCommand,
  integerOption,
  parseCli,
  schemaOption,
  textListOption,
  textOption,
} from "@/lib/cli/args";
import { loadEnv } from "@/lib/config/env";
import { createProgress } from "@/lib/cli/progress";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";
import { prepareAgent } from "@/lib/runner/agent-setup";
import { runBatch } from "@/lib/runner/run-batch";
import { ShardSchema } from "@/lib/runner/shard";
import { remoteBatchStore, remotePlan } from "@/lib/remote/remote-store";
import { createStudioClient } from "@/lib/remote/studio-client";
import { bubblewrapAvailable } from "@/lib/runner/sandbox";
import { signalExitCode } from "@/lib/process/signals";
import { sandboxUnavailableReason } from "@/lib/setup/system-packages";
import { createRunStopper } from "./run-agents-stop";
import { runQueuedBatch } from "./run-agents-queue";

export const cli = () =>
  cliCommand(
    "npm run run-agents --",
    "Runs an agent on a benchmark's instances, each in its own workspace and sandbox; every run is written as a bundle and imported. Resumable.",
  )
    .addOption(textOption("--benchmark <id>", "the benchmark whose instances are run").makeOptionMandatory())
    .addOption(
      textOption(
        "--agent <agent>",
        `${AGENT_FRAMEWORKS.join(", ")}, or an agent file (.json; docs/external-agents.md)`,
      ).makeOptionMandatory(),
    )
    .addOption(choiceOption("--provider <provider>", "the model provider (default: the agent's)", PROVIDERS))
    .addOption(textOption("--model <model>", "the model (default: the provider's default)"))
    .addOption(
      choiceOption(
        "--mitigation <arm>",
        "the Code-KIT arm: none, rules, tools, codekit (the selector's choice) or guard (codekit + the sandbox enforcing the contract); default: the agent file's, else none",
        MITIGATIONS,
      ),
    )
    .option("--mock", "a local scripted model speaking the provider's protocol (offline; runs marked scripted)")
    .addOption(
      choiceOption("--split <split>", "eval: the evaluation split only; all: every instance", ["eval", "all"]).default(
        "eval",
      ),
    )
    .addOption(choiceOption("--subtask <subtask>", "only this subtask's instances", SUBTASK_IDS))
    .addOption(integerOption("--limit <n>", "at most this many runs", { min: 1 }))
    .addOption(integerOption("--per-subtask <n>", "at most this many instances per subtask", { min: 1 }))
    .addOption(
      textListOption(
        "--instances <ids>",
        "only these instances, comma-separated (npm run ablation passes the ones it chose)",
      ),
    )
    .addOption(
      schemaOption(
        "--shard <i/n>",
        "only shard i of n of the matching instances (the k-th by id is in shard k mod n + 1): n machines, every instance once",
        ShardSchema,
      ),
    )
    .addOption(integerOption("--concurrency <n>", "runs at once", { min: 1, max: 16 }).default(2))
    .addOption(integerOption("--max-steps <n>", "step limit per run (default: the agent's)", { min: 1, max: 1000 }))
    .addOption(
      integerOption("--wall-time <seconds>", "time limit per run (default: the agent's)", { min: 1, max: 86_400 }),
    )
    .addOption(integerOption("--seed <n>", "seed of the scripted model's choices", { min: 0 }).default(42))
    .option("--keep-workspaces", "keep each run's workspace in its run folder")
    .option(
      "--allow-unsandboxed",
      "run without the sandbox's isolation when bubblewrap is unavailable (workspaces removed, not pooled)",
    )
    .addOption(
      textOption(
        "--push <url>",
        "a studio (e.g. http://studio:3000): plan there, take instances and workspaces from there and push each run there, instead of this machine's database",
        { pattern: /^https?:\/\/\S+$/, expected: "an http:// or https:// URL" },
      ),
    )
    .addOption(
      textOption(
        "--queue <url>",
        "queue each run on this Redis for workers on any machine (npm run worker -- --queue ...) and follow the batch (default: $STUDIO_QUEUE_URL)",
        { pattern: /^rediss?:\/\/\S+$/, expected: "a redis:// or rediss:// URL" },
      ),
    )
    .addOption(
      textOption("--token <token>", "the studio's STUDIO_INGEST_TOKEN, with --push (default: $STUDIO_INGEST_TOKEN)"),
    )
    .addOption(textOption("--runs-dir <dir>", "where run folders are written").default("data/runs"))
    .addOption(
      textOption("--cache-dir <dir>", "the workspace and package-list cache (default: cache beside --runs-dir)"),
    );

function localPlan(db: Db, request: RunPlanRequest) {
  const plan = planRuns(db, request);
  return { ...plan, todo: plan.todo.map(({ instance, runId }) => ({ instanceId: instance.id, runId })) };
}

function studioClientOf(url: string, token: string | undefined, io: CliIo) {
  if (!token) throw new AppError("INVALID_INPUT", "--push needs the studio's token: --token or $STUDIO_INGEST_TOKEN");
  return createStudioClient({
    url,
    token,
    onRetry: (what, attempt, reason, waitMs) =>
      io.stderr.write(`retry ${attempt}: ${reason}; again in ${(waitMs / 1000).toFixed(1)} s (${what})\n`),
  });
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  return (await runAgents(argv, io)).code;
}

/** main, and the configuration it ran (null after --help): npm run ablation evaluates each arm's runs by it. */
export async function runAgents(argv: string[], io: CliIo): Promise<{ code: number; configId: string | null }> {
  const parsed = await parseCli(cli(), argv, io);
  if (!parsed) return { code: 0, configId: null };
  const args = parsed.options;
  const spec = await agentSpecOf(args.agent, {
    provider: args.provider,
    model: args.model,
    maxSteps: args.maxSteps,
    wallTime: args.wallTime,
    mitigation: args.mitigation,
  });
  const env = loadEnv(io.env);
  const queueUrl = args.queue ?? (args.push ? undefined : env.STUDIO_QUEUE_URL);
  if (queueUrl && args.push)
    throw new AppError("INVALID_INPUT", "--queue and --push do not go together: a queue's workers push");
  // Queued runs are made by the workers, in their sandboxes.
  if (!args.allowUnsandboxed && !queueUrl) {
    const reason = await sandboxUnavailableReason(bubblewrapAvailable, io.env);
    if (reason) throw new AppError("UNAVAILABLE", reason);
  }
  const studio = args.push ? studioClientOf(args.push, args.token ?? env.STUDIO_INGEST_TOKEN, io) : null;
  if (!studio && args.token) throw new AppError("INVALID_INPUT", "--token goes with --push");
  // With --push the local database only caches the Code-KIT selector's answers.
  const db = createDb(databasePathFromEnv(io.env));
  const stopper = createRunStopper(io.stderr);
  const setup = await prepareAgent(spec, {
    mock: args.mock === true,
    env: io.env,
    cwd: process.cwd(),
    selectorCache: createDbJudgeCache(db),
  }).catch((error) => {
    stopper.dispose();
    db.$client.close();
    throw error;
  });
  try {
    const { agent } = setup;
    const configId = agentConfigId(agent);
    const request = {
      benchmarkId: args.benchmark,
      subtask: args.subtask,
      configId,
      perSubtask: args.perSubtask,
      limit: args.limit,
      instanceIds: args.instances,
      shard: args.shard,
    };
    const runsDir = args.runsDir;
    // Beside the runs by default (data/cache), so a run folder elsewhere brings its own cache.
    const cacheDir = args.cacheDir ?? path.join(runsDir, "..", "cache");
    const { todo, matched, alreadyRun } = studio
      ? await remotePlan(studio, { ...request, split: args.split === "eval" ? "eval" : "all" })
      : localPlan(db, { ...request, splitOnly: args.split === "eval" });
    const store = studio
      ? remoteBatchStore(studio, { cacheDir, unpushedDir: path.join(runsDir, "..", "unpushed") })
      : runBatchStore(db);
    const where = studio ? ` (studio ${studio.url})` : "";
    io.stderr.write(
      `${matched} instance(s) match, ${alreadyRun} already run by this configuration${where}; running ${todo.length} with ${agent.name}\n`,
    );
    const progress = createProgress("runs", todo.length, io.stderr);
    if (queueUrl) {
      const queued = await runQueuedBatch({
        url: queueUrl,
        provider: providerFor(spec),
        jobs: todo.map(({ instanceId, runId }) => ({
          benchmark: args.benchmark,
          agent: spec,
          mock: args.mock === true,
          seed: args.seed,
          instanceId,
          runId,
          configId,
        })),
        rateLimit: env.STUDIO_QUEUE_RATE_LIMITS?.get(providerFor(spec)),
        signal: stopper.signal,
        onQueued: (batch, added, following) =>
          io.stderr.write(`batch ${batch}: ${added} run(s) queued on ${queueUrl}, ${following} already on the queue\n`),
        onRun: (runId, { failed, note }) => {
          if (failed) io.stderr.write(`${runId}: ${note}\n`);
          progress.tick(failed);
        },
      });
      if (todo.length > 0) progress.finish();
      io.stdout.write(
        `${todo.length} queued run(s) with ${agent.name}: ${queued.completed} completed, ${queued.failed} failed (limits, model errors), ` +
          `${queued.already} already in the studio, ${queued.errors} could not be recorded, ${queued.cancelled} cancelled\n`,
      );
      const stoppedBy = stopper.stoppedBy();
      return { code: stoppedBy ? signalExitCode(stoppedBy) : queued.errors > 0 ? 1 : 0, configId };
    }
    const outcomes = await runBatch(setup, todo, store, {
      runsDir,
      cacheDir,
      concurrency: args.concurrency,
      seed: args.seed,
      keepWorkspaces: args.keepWorkspaces === true,
      allowUnsandboxed: args.allowUnsandboxed === true,
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
      return { code: stopped.code, configId };
    }
    io.stdout.write(
      `${todo.length} run(s) with ${agent.name}: ${outcomes.completed} completed, ${outcomes.failed} failed (limits, model errors), ${outcomes.errors} could not be recorded\n`,
    );
    return { code: outcomes.errors > 0 ? 1 : 0, configId };
  } finally {
    stopper.dispose();
    await setup.close();
    db.$client.close();
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
