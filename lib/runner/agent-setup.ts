/**
 * An agent as run-agents runs it: the configuration recorded with its runs (whose digest names
 * them, so a changed model, limit or program is another configuration), the provider or program
 * behind it, and with `mock` the local scripted model standing in for the provider.
 */
import { DEFAULT_MODELS, isBuiltin, isExternal, providerFor, type AgentSpec } from "@/lib/agents/agent-spec";
import { programOf } from "@/lib/agents/agent-file";
import type { BuiltinFramework } from "@/lib/agents/builtin";
import { externalAdapter } from "@/lib/agents/external";
import { authHeaders, PROVIDER_BASE_URLS, resolveAgentProgram } from "@/lib/agents/external/program";
import { API_KEY_ENV, BASE_URL_ENV, mockBaseUrl } from "@/lib/llm/endpoints";
import { MOCK_MODEL } from "@/lib/llm/mock-server/script";
import { createChatProvider, withRetries } from "@/lib/llm/providers";
import { scriptToolSetOf, startScriptedModel, type ScriptedModel } from "@/lib/agents/scripted-model";
import type { AgentConfig } from "@/lib/bundle/schema";
import type { Instance } from "@/lib/benchmark/schema";
import { mitigationOf } from "@/lib/codekit/mitigation";
import { planMitigation } from "@/lib/codekit/plan";
import type { SelectorModel } from "@/lib/codekit/selector";
import { PROVIDER_IDS, type ProviderId } from "@/lib/llm/chat";
import type { ResponseCache } from "@/lib/llm/response-cache";
import type { RunRecord } from "@/lib/bundle/write";
import { AppError } from "@/lib/errors/app-error";
import type { RecordRunOptions } from "./record-run";
import { runExternalAgent } from "./run-external";
import { runInstance } from "./run-instance";

export interface AgentSetup {
  agent: AgentConfig;
  /** The scripted model (`mock`): each instance's script is registered as its workspace is made. */
  mock: ScriptedModel | null;
  /** Runs one instance with this agent, built-in or external. */
  run(options: Omit<RecordRunOptions, "act" | "agent" | "sandbox">): Promise<RunRecord>;
  close(): Promise<void>;
}

export interface AgentSetupOptions {
  /** A local server speaking the provider's protocol with a scripted model, instead of the provider. */
  mock: boolean;
  /** Where the provider's key and base URL are read (GEMINI_API_KEY, OPENAI_BASE_URL, ...). */
  env: Record<string, string | undefined>;
  /** Where an external agent's program is looked for (the project's node_modules/.bin). */
  cwd: string;
  /** Where the Code-KIT selector's answers are cached (the database's response cache); none by default. */
  selectorCache?: ResponseCache | null;
}

/**
 * The Code-KIT selector's model: the scripted model with --mock; else STUDIO_SELECTOR_PROVIDER
 * (default gemini) and STUDIO_SELECTOR_MODEL (default the provider's) with that provider's key and
 * base URL; null without a key (the deterministic choice by subtask then decides, and says so).
 */
function selectorModelOf(options: AgentSetupOptions, mock: ScriptedModel | null): SelectorModel | null {
  const cache = options.selectorCache ?? null;
  if (mock) {
    const provider = createChatProvider({
      provider: "gemini",
      apiKey: "mock-key",
      baseUrl: mockBaseUrl("gemini", mock.url),
    });
    return { provider, model: MOCK_MODEL, cache };
  }
  const named = options.env.STUDIO_SELECTOR_PROVIDER ?? "gemini";
  if (!(PROVIDER_IDS as readonly string[]).includes(named))
    throw new AppError(
      "INVALID_INPUT",
      `STUDIO_SELECTOR_PROVIDER must be one of ${PROVIDER_IDS.join(", ")} (got "${named}")`,
    );
  const providerName = named as ProviderId;
  const apiKey = options.env[API_KEY_ENV[providerName]];
  if (!apiKey) return null;
  const provider = withRetries(
    createChatProvider({
      provider: providerName,
      apiKey,
      baseUrl: options.env[BASE_URL_ENV[providerName]],
      timeoutMs: 60_000,
    }),
    { maxRetries: 3 },
  );
  return { provider, model: options.env.STUDIO_SELECTOR_MODEL ?? DEFAULT_MODELS[providerName], cache };
}

export async function prepareAgent(spec: AgentSpec, options: AgentSetupOptions): Promise<AgentSetup> {
  const mock = options.mock ? await startScriptedModel(scriptToolSetOf(spec.framework)) : null;
  try {
    return await setUp(spec, options, mock);
  } catch (error) {
    await mock?.close();
    throw error;
  }
}

function withoutMitigation(options: Record<string, unknown> | undefined): Record<string, unknown> {
  const { mitigation: _mitigation, ...rest } = options ?? {};
  return rest;
}

async function setUp(spec: AgentSpec, options: AgentSetupOptions, mock: ScriptedModel | null): Promise<AgentSetup> {
  const providerName = providerFor(spec);
  const arm = spec.mitigation ?? mitigationOf(spec.options);
  let apiKey = options.env[API_KEY_ENV[providerName]];
  let baseUrl = options.env[BASE_URL_ENV[providerName]];
  let model = spec.model ?? DEFAULT_MODELS[providerName];
  if (mock) {
    apiKey = "mock-key";
    // External agents reach the mock through the gateway, which forwards their own `/v1/...` paths.
    baseUrl = isBuiltin(spec.framework) ? mockBaseUrl(providerName, mock.url) : mock.url;
    model = MOCK_MODEL;
  }
  if (!apiKey)
    throw new AppError("INVALID_INPUT", `set ${API_KEY_ENV[providerName]} for provider ${providerName}, or use --mock`);

  const external = isExternal(spec.framework) ? externalAdapter(spec.framework, providerName) : null;
  const program = external ? await resolveAgentProgram(options.cwd, external, spec.binary) : null;
  const agent: AgentConfig = {
    name: spec.name ?? `${spec.framework} / ${model}`,
    framework: spec.framework,
    frameworkVersion: isBuiltin(spec.framework) ? "builtin-1" : (program?.version ?? null),
    model,
    provider: providerName,
    tools: [],
    guidelines: spec.guidelines ?? null,
    limits: { maxSteps: 30, wallTimeSeconds: 600, maxOutputBytes: 1_000_000, ...spec.limits },
    options: {
      ...withoutMitigation(spec.options),
      ...(spec.command ? { command: spec.command } : {}),
      ...(await programOf(spec)),
      // Absent for none, so a configuration made before the arms existed keeps its id.
      ...(arm !== "none" ? { mitigation: arm } : {}),
    },
  };
  const close = async () => mock?.close();
  const selector = arm === "codekit" || arm === "guard" ? selectorModelOf(options, mock) : null;
  const planFor = (instance: Instance) => planMitigation(arm, instance, selector);

  if (external) {
    if (!program) throw new AppError("INTERNAL", `no program resolved for ${spec.framework}`);
    const upstream = {
      // The gateway forwards paths as the agents send them (`/v1/...` included).
      baseUrl: (baseUrl ?? PROVIDER_BASE_URLS[providerName]).replace(/\/v1\/?$/, ""),
      auth: mock ? {} : authHeaders(providerName, apiKey),
    };
    return {
      agent,
      mock,
      close,
      run: async (run) =>
        runExternalAgent({
          ...run,
          mitigation: await planFor(run.instance),
          agent,
          adapter: external,
          upstream,
          binary: program.binary,
          programDirs: program.programDirs,
        }),
    };
  }
  const provider = withRetries(createChatProvider({ provider: providerName, apiKey, baseUrl, timeoutMs: 120_000 }), {
    maxRetries: 3,
  });
  const builtin = { ...agent, framework: spec.framework as BuiltinFramework };
  return {
    agent,
    mock,
    close,
    run: async (run) => runInstance({ ...run, agent: builtin, provider, mitigation: await planFor(run.instance) }),
  };
}
