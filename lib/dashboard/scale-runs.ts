/**
 * Synthetic runs for load-testing the dashboard (`npm run seed:scale`). They look like real runs
 * (trajectories that read, edit and run things; file changes; verdicts of a rule judge and an LLM
 * judge whose rates differ by framework, model and task family) but are never agent runs: every
 * one is stored with `synthetic = true` and shown with a "synthetic" badge.
 */
import type { FamilyId, SubtaskId } from "@/lib/benchmark/subtasks";
import type { Mitigation } from "@/lib/codekit/arms";
import { METRIC_IDS, metricsJudgedBy, type MetricId } from "@/lib/metrics/catalog";
import { pick, seededRandom } from "@/lib/util/random";

export interface ScaleAgent {
  name: string;
  framework: string;
  model: string;
  /** The configuration's arm (its `options.mitigation`). */
  mitigation: Mitigation;
  /** Multiplies every misbehavior rate (Code-KIT variants below 1). */
  factor: number;
}

const FRAMEWORKS = [
  { framework: "openhands", factor: 1.3 },
  { framework: "smolagents", factor: 1.0 },
  { framework: "agno", factor: 1.15 },
  { framework: "claude-code", factor: 0.8 },
  { framework: "gemini-cli", factor: 0.95 },
  { framework: "codex", factor: 0.85 },
] as const;
const MODELS = [
  { model: "gpt-5", factor: 0.8 },
  { model: "gemini-2.5-flash", factor: 1.0 },
  { model: "qwen3-coder-30b-a3b-instruct", factor: 1.35 },
] as const;

/** 6 frameworks x 3 models, plus the Code-KIT arm (the selector) of smolagents and OpenHands on Gemini. */
export const SCALE_AGENTS: readonly ScaleAgent[] = [
  ...FRAMEWORKS.flatMap((f) =>
    MODELS.map((m) => ({
      name: `${f.framework}`,
      framework: f.framework,
      model: m.model,
      mitigation: "none" as const,
      factor: f.factor * m.factor,
    })),
  ),
  {
    name: "smolagents+code-kit",
    framework: "smolagents",
    model: "gemini-2.5-flash",
    mitigation: "codekit",
    factor: 0.48,
  },
  {
    name: "openhands+code-kit",
    framework: "openhands",
    model: "gemini-2.5-flash",
    mitigation: "codekit",
    factor: 0.87,
  },
];

/** Base violation rate per metric and family, in the range the published study reports. */
const BASE_RATE: Record<FamilyId, Partial<Record<MetricId, number>>> = {
  code_generation: {
    syntax: 0.03,
    signature: 0.05,
    body_change: 0.12,
    context: 0.18,
    file_create: 0.15,
    file_read: 0.1,
    file_update: 0.06,
    file_delete: 0.01,
    environment_integrity: 0.04,
    resource_exhaustion: 0.05,
    instruction_following: 0.2,
  },
  file_management: {
    syntax: 0.02,
    signature: 0.04,
    body_change: 0.1,
    context: 0.14,
    file_create: 0.12,
    file_read: 0.22,
    file_update: 0.1,
    file_delete: 0.07,
    environment_integrity: 0.03,
    resource_exhaustion: 0.06,
    instruction_following: 0.25,
  },
  system_interaction: {
    file_create: 0.3,
    file_read: 0.12,
    file_update: 0.09,
    file_delete: 0.02,
    environment_integrity: 0.14,
    resource_exhaustion: 0.12,
    instruction_following: 0.15,
  },
};

export const SCALE_LLM_METRICS: readonly MetricId[] = metricsJudgedBy("llm");

export interface ScaleInstance {
  id: string;
  subtaskId: SubtaskId;
  family: FamilyId;
  targetFile: string;
}

export interface ScaleStep {
  stepId: string;
  kind: "message" | "tool_call" | "observation" | "shell";
  role: string | null;
  text: string | null;
  toolName: string | null;
  toolArguments: Record<string, unknown> | null;
  command: string | null;
  exitCode: number | null;
  path: string | null;
}

export interface ScaleVerdict {
  metric: MetricId;
  value: "violated" | "not_violated" | "not_applicable";
  rationale: string;
  citations: { stepId: string }[];
}

export interface ScaleRun {
  id: string;
  instanceId: string;
  agent: ScaleAgent;
  startedAt: string;
  durationMs: number;
  status: "completed" | "failed";
  exitReason: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  taskCompleted: boolean;
  steps: ScaleStep[];
  changes: { path: string; kind: "created" | "updated" | "deleted" }[];
  ruleVerdicts: ScaleVerdict[];
  llmVerdicts: ScaleVerdict[];
}

const START = Date.parse("2026-09-01T00:00:00.000Z");

function applies(metric: MetricId, family: FamilyId): boolean {
  return BASE_RATE[family][metric] !== undefined;
}

function steps(random: () => number, instance: ScaleInstance, violated: Set<MetricId>): ScaleStep[] {
  const out: ScaleStep[] = [];
  // Every step is built whole, in one object shape: spreading a template of nulls into each step
  // (and the step into one with its id) made a run in 75 us, this in 10.
  const add = (
    kind: ScaleStep["kind"],
    {
      role = null,
      text = null,
      toolName = null,
      toolArguments = null,
      command = null,
      exitCode = null,
      path = null,
    }: Partial<ScaleStep>,
  ) => out.push({ stepId: `s${out.length + 1}`, kind, role, text, toolName, toolArguments, command, exitCode, path });
  const turns = 4 + Math.floor(random() * 18);
  add("message", { role: "user", text: `Task on ${instance.targetFile} (${instance.subtaskId}).` });
  if (!violated.has("file_read")) {
    add("tool_call", { toolName: "read_file", toolArguments: { path: instance.targetFile } });
    add("observation", { text: `def target(...):\n    """..."""\n` });
  }
  for (let i = 0; i < turns; i++) {
    add("message", { role: "assistant", text: pick(random, THOUGHTS) });
    const command = pick(random, COMMANDS);
    const failing = random() < 0.2;
    add("shell", {
      command,
      exitCode: failing ? 1 : 0,
      text: failing ? "Traceback (most recent call last): ..." : "ok",
    });
  }
  if (violated.has("environment_integrity"))
    add("shell", { command: "pip install requests", exitCode: 0, text: "Successfully installed requests" });
  if (violated.has("resource_exhaustion"))
    for (let i = 0; i < 4; i++) add("shell", { command: "python -m pytest -x", exitCode: 1, text: "FAILED" });
  if (violated.has("file_create"))
    add("tool_call", { toolName: "write_file", toolArguments: { path: "scratch_test.py" } });
  add("tool_call", { toolName: "write_file", toolArguments: { path: instance.targetFile } });
  add("message", { role: "assistant", text: "Done: the function is implemented." });
  return out;
}

const THOUGHTS = [
  "Let me look at how the helper is used before changing anything.",
  "The tests import the module directly; I will run them.",
  "I need to check the dependencies of this function.",
  "The docstring says the limit must be respected.",
  "Running the unit tests to confirm the behaviour.",
];
const COMMANDS = [
  "python -m pytest tests/ -q",
  "grep -rn 'def ' src/",
  "ls -la",
  "python -c 'import pkg; print(pkg.__version__)'",
  "cat setup.cfg",
  "git status",
];

/** The id of the run with this index; ids sort in index order (up to 9,999,999 runs). */
export function scaleRunId(index: number, seed: number): string {
  return `synthetic-scale-${seed}-${String(index).padStart(7, "0")}`;
}

/** The run with this index; the same (index, seed) always gives the same run. */
export function scaleRun(index: number, seed: number, instances: readonly ScaleInstance[]): ScaleRun {
  const random = seededRandom(seed * 1_000_003 + index);
  // Every configuration runs each instance in turn, as in a real sweep, so compare has pairs.
  const agent = SCALE_AGENTS[index % SCALE_AGENTS.length]!;
  const round = Math.floor(index / SCALE_AGENTS.length);
  const instance = pick(seededRandom(seed * 7_919 + round), instances);
  const violated = new Set<MetricId>();
  for (const metric of METRIC_IDS) {
    const base = BASE_RATE[instance.family][metric];
    if (base !== undefined && random() < Math.min(0.95, base * agent.factor)) violated.add(metric);
  }
  const trajectory = steps(random, instance, violated);
  const lastStep = trajectory[trajectory.length - 1]!.stepId;
  const verdictOf = (metric: MetricId, isViolated: boolean): ScaleVerdict =>
    !applies(metric, instance.family)
      ? { metric, value: "not_applicable", rationale: "not applicable to this subtask", citations: [] }
      : {
          metric,
          value: isViolated ? "violated" : "not_violated",
          rationale: isViolated ? `synthetic: ${metric} violated` : `synthetic: no ${metric} violation`,
          citations: isViolated ? [{ stepId: lastStep }] : [],
        };
  // The LLM judge agrees with the rules about nine times in ten.
  const llmVerdicts = SCALE_LLM_METRICS.map((m) => verdictOf(m, random() < 0.9 ? violated.has(m) : !violated.has(m)));
  const changes: ScaleRun["changes"] = [{ path: instance.targetFile, kind: "updated" }];
  if (violated.has("file_create")) changes.push({ path: "scratch_test.py", kind: "created" });
  if (violated.has("file_delete")) changes.push({ path: "README.md", kind: "deleted" });
  const inputTokens = 2_000 + Math.floor(random() * 60_000);
  const outputTokens = 200 + Math.floor(random() * 6_000);
  const stepLimit = violated.has("resource_exhaustion") && random() < 0.4;
  return {
    id: scaleRunId(index, seed),
    instanceId: instance.id,
    agent,
    startedAt: new Date(START + index * 37_000).toISOString(),
    durationMs: 5_000 + Math.floor(random() * 600_000),
    status: stepLimit ? "failed" : "completed",
    exitReason: stepLimit ? "step_limit" : "finished",
    inputTokens,
    outputTokens,
    costUsd: Math.round((inputTokens * 0.3 + outputTokens * 2.5) / 10) / 100_000,
    taskCompleted: !violated.has("instruction_following") && random() < 0.85,
    steps: trajectory,
    changes,
    ruleVerdicts: METRIC_IDS.map((m) => verdictOf(m, violated.has(m))),
    llmVerdicts,
  };
}
