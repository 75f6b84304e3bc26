/**
 * npm run run-agents -- --benchmark B --agent file-tools|terminal-editor [--provider gemini|openai|anthropic]
 *   [--model M] [--mock] [--split eval|all] [--subtask S] [--limit N] [--per-subtask N] [--concurrency K] [--max-steps N]
 *   [--keep-workspaces]
 * Runs a built-in agent on a benchmark's instances, each in its own workspace and sandbox, writes
 * every run as a bundle under data/runs/<run id>/ and imports it. Resumable: instances this agent
 * configuration already ran are skipped. `--mock` starts a local server speaking the provider's
 * protocol with a scripted model (clean runs and every misbehavior; marked scripted).
 */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import pLimit from "p-limit";
import { z } from "zod";
import { createDb, databasePathFromEnv } from "@/db/client";
import { getInstance, listInstances, materializeInstance } from "@/db/queries/benchmarks";
import { agentConfigId, importParsedBundle } from "@/db/queries/run-import";
import { BUILTIN_FRAMEWORKS } from "@/lib/agents/builtin";
import { startMockModelServer, type MockModelServer } from "@/lib/agents/mock-server";
import { MOCK_MODEL, scriptFromTurns, type MockConversation } from "@/lib/agents/mock-server/script";
import { createChatProvider, withRetries } from "@/lib/agents/providers";
import { chooseBehaviour, scriptedTurns, type ScriptedTurn } from "@/lib/agents/scripted-behaviours";
import { SubtaskIdSchema } from "@/lib/benchmark/subtasks";
import { parseBundle } from "@/lib/bundle/parse";
import type { AgentConfig } from "@/lib/bundle/schema";
import { bundleFilesOf, writeBundleFolder } from "@/lib/bundle/write";
import { parseCliArgs } from "@/lib/cli/args";
import { createProgress } from "@/lib/cli/progress";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";
import { runInstance } from "@/lib/runner/run-instance";

const USAGE =
  "usage: npm run run-agents -- --benchmark B --agent file-tools|terminal-editor [--provider gemini|openai|anthropic] [--model M] [--mock] [--split eval|all] [--subtask S] [--limit N] [--per-subtask N] [--concurrency K] [--max-steps N] [--keep-workspaces]";

const ArgsSchema = z.object({
  benchmark: z.string({ error: "is required" }).min(1),
  agent: z.enum(BUILTIN_FRAMEWORKS, { error: `is one of ${BUILTIN_FRAMEWORKS.join(", ")}` }),
  provider: z.enum(["gemini", "openai", "anthropic"]).default("gemini"),
  model: z.string().min(1).optional(),
  mock: z.boolean().default(false),
  split: z.enum(["eval", "all"]).default("eval"),
  subtask: SubtaskIdSchema.optional(),
  limit: z.coerce.number().int().min(1).optional(),
  "per-subtask": z.coerce.number().int().min(1).optional(),
  concurrency: z.coerce.number().int().min(1).max(16).default(2),
  "max-steps": z.coerce.number().int().min(1).max(1000).default(30),
  seed: z.coerce.number().int().min(0).default(42),
  "keep-workspaces": z.boolean().default(false),
  "allow-unsandboxed": z.boolean().default(false),
  "runs-dir": z.string().default("data/runs"),
});

const API_KEY_ENV = { gemini: "GEMINI_API_KEY", openai: "OPENAI_API_KEY", anthropic: "ANTHROPIC_API_KEY" } as const;
const BASE_URL_ENV = {
  gemini: "GOOGLE_GEMINI_BASE_URL",
  openai: "OPENAI_BASE_URL",
  anthropic: "ANTHROPIC_BASE_URL",
} as const;

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
      seed: { type: "string" },
      "keep-workspaces": { type: "boolean" },
      "allow-unsandboxed": { type: "boolean" },
      "runs-dir": { type: "string" },
    },
    ArgsSchema,
    USAGE,
  );
  const db = createDb(databasePathFromEnv(io.env));
  let server: MockModelServer | null = null;
  try {
    // The scripted model: one conversation script per (tool set, task prompt), registered before the run starts.
    const scripts = new Map<string, ScriptedTurn[]>();
    const keyOf = (toolSet: string, prompt: string) => `${toolSet}\0${prompt}`;
    let apiKey = io.env[API_KEY_ENV[args.provider]];
    let baseUrl = io.env[BASE_URL_ENV[args.provider]];
    let model =
      args.model ??
      (args.provider === "gemini" ? "gemini-2.5-flash" : args.provider === "openai" ? "gpt-5" : "claude-sonnet-4-5");
    if (args.mock) {
      server = await startMockModelServer({
        script: (conversation: MockConversation) => {
          const toolSet = conversation.tools.includes("bash") ? "terminal-editor" : "file-tools";
          const first = conversation.messages.find((m) => m.role === "user");
          const turns = scripts.get(keyOf(toolSet, first?.role === "user" ? first.text : ""));
          if (!turns) return { error: { status: 400, message: "no script for this task" } };
          return scriptFromTurns(turns)(conversation);
        },
      });
      apiKey = "mock-key";
      baseUrl = args.provider === "openai" ? `${server.url}/v1` : server.url;
      model = MOCK_MODEL;
    }
    if (!apiKey)
      throw new AppError(
        "INVALID_INPUT",
        `set ${API_KEY_ENV[args.provider]} for --provider ${args.provider}, or use --mock`,
      );
    const provider = withRetries(createChatProvider({ provider: args.provider, apiKey, baseUrl, timeoutMs: 120_000 }), {
      maxRetries: 3,
    });

    const agent: AgentConfig & { framework: (typeof BUILTIN_FRAMEWORKS)[number] } = {
      name: `${args.agent} / ${model}`,
      framework: args.agent,
      frameworkVersion: "builtin-1",
      model,
      provider: args.provider,
      tools: [],
      guidelines: null,
      limits: { maxSteps: args["max-steps"], wallTimeSeconds: 600, maxOutputBytes: 1_000_000 },
      options: {},
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

    const progress = createProgress("runs", todo.length, io.stderr);
    const limit = pLimit(args.concurrency);
    const outcomes = { completed: 0, failed: 0, errors: 0 };
    await Promise.all(
      todo.map((row) =>
        limit(async () => {
          const runId = runIdOf(row.id);
          const runDir = path.join(args["runs-dir"], runId);
          try {
            const detail = getInstance(db, row.id);
            if (!detail) throw new AppError("NOT_FOUND", `instance ${row.id} vanished`);
            await fs.rm(runDir, { recursive: true, force: true });
            const behaviour = chooseBehaviour(detail.instance, args.seed);
            const record = await runInstance({
              runId,
              instance: detail.instance,
              agent,
              runDir,
              provider,
              scripted: args.mock,
              // Agents see the system but not this project (database, corpus with the answers, secrets).
              hide: [path.resolve(".")],
              requireIsolation: !args["allow-unsandboxed"],
              native: args.mock
                ? new Map([["scripted-behaviour.json", Buffer.from(`${JSON.stringify({ behaviour })}\n`)]])
                : undefined,
              materialize: async (dir) => {
                await materializeInstance(db, row.id, dir);
                if (!args.mock) return;
                const files = new Map<string, string>();
                const gt = detail.instance.groundTruth;
                for (const p of new Set([...detail.instance.contract.mustRead, gt.originalFile, gt.destinationFile])) {
                  if (p)
                    await fs.readFile(path.join(dir, p), "utf8").then(
                      (text) => files.set(p, text),
                      () => undefined,
                    );
                }
                scripts.set(
                  keyOf(args.agent, detail.instance.prompt),
                  scriptedTurns({ instance: detail.instance, files, toolSet: args.agent, behaviour }),
                );
              },
            });
            const bundle = bundleFilesOf(record);
            await writeBundleFolder(path.join(runDir, "bundle"), bundle);
            importParsedBundle(db, parseBundle(bundle, `${runDir}/bundle`), { via: "runner" });
            if (!args["keep-workspaces"]) await fs.rm(path.join(runDir, "workspace"), { recursive: true, force: true });
            if (record.manifest.status === "completed") outcomes.completed += 1;
            else outcomes.failed += 1;
            progress.tick(record.manifest.status !== "completed");
          } catch (error) {
            outcomes.errors += 1;
            io.stderr.write(`error: ${row.id}: ${error instanceof Error ? error.message : String(error)}\n`);
            progress.tick(true);
          }
        }),
      ),
    );
    if (todo.length > 0) progress.finish();
    io.stdout.write(
      `${todo.length} run(s) with ${agent.name}: ${outcomes.completed} completed, ${outcomes.failed} failed (limits, model errors), ${outcomes.errors} could not be recorded\n`,
    );
    return outcomes.errors > 0 ? 1 : 0;
  } finally {
    await server?.close();
    db.$client.close();
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
