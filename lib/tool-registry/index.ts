/**
 * What the tools of the known agent frameworks do to files and the environment: one module per
 * framework in this folder (each says where its tool names come from), merged here. Readers of
 * foreign logs (lib/foreign) and the rule judge (lib/judge/rules) share it, so a tool is
 * described once.
 *
 * Lookup: a known framework's own table first (exact spelling, then ignoring case); otherwise, or
 * when it lacks the tool, the merged table of every framework (names compared ignoring case). A
 * name two frameworks describe differently is resolved by MERGE_WINNERS (tested: no other conflict).
 */
import { AGNO_TOOLS } from "./agno";
import { ANTHROPIC_TOOLS } from "./anthropic";
import { BUILTIN_TOOLS } from "./builtin";
import { CLAUDE_CODE_TOOLS } from "./claude-code";
import { CODEKIT_REGISTRY_TOOLS } from "./codekit";
import { CODEX_TOOLS } from "./codex";
import { GEMINI_CLI_TOOLS } from "./gemini-cli";
import { INSPECT_TOOLS } from "./inspect";
import { MINI_SWE_AGENT_TOOLS } from "./mini-swe-agent";
import { OPENHANDS_TOOLS } from "./openhands";
import { SMOLAGENTS_TOOLS } from "./smolagents";
import { SWE_AGENT_TOOLS } from "./swe-agent";
import type { FrameworkTools, ToolDescription } from "./types";

export type { FrameworkTools, ToolDescription, ToolEffect } from "./types";
export { fileActionOf } from "./types";

export const FRAMEWORKS: readonly FrameworkTools[] = [
  BUILTIN_TOOLS,
  OPENHANDS_TOOLS,
  SWE_AGENT_TOOLS,
  MINI_SWE_AGENT_TOOLS,
  CLAUDE_CODE_TOOLS,
  CODEX_TOOLS,
  GEMINI_CLI_TOOLS,
  SMOLAGENTS_TOOLS,
  AGNO_TOOLS,
  INSPECT_TOOLS,
  ANTHROPIC_TOOLS,
  CODEKIT_REGISTRY_TOOLS,
];

/** The framework a configuration or log names (`file-tools`, `Claude-Code`, `inspect_ai`), or null when unknown. */
export function frameworkTools(framework: string | null | undefined): FrameworkTools | null {
  if (!framework) return null;
  const key = framework.trim().toLowerCase();
  return FRAMEWORKS.find((f) => f.id === key || f.aliases.includes(key)) ?? null;
}

/**
 * For names that two frameworks describe differently: which framework's description the merged
 * table keeps (the framework-specific lookup still gives each its own).
 */
export const MERGE_WINNERS: Record<string, string> = {
  // SWE-agent's `edit` acts on the open file; OpenHands' edit action and Claude Code's Edit name a path.
  edit: "openhands",
};

function lookup(tools: Record<string, ToolDescription>, tool: string): ToolDescription | null {
  if (Object.hasOwn(tools, tool)) return tools[tool]!;
  const lower = tool.toLowerCase();
  const key = Object.keys(tools).find((k) => k.toLowerCase() === lower);
  return key === undefined ? null : tools[key]!;
}

const union = (a: string[] | undefined, b: string[] | undefined): string[] | undefined =>
  a === undefined && b === undefined ? undefined : [...new Set([...(a ?? []), ...(b ?? [])])];

/** Two descriptions of one name merged, or null when they disagree on what the tool does. */
export function mergeDescriptions(a: ToolDescription, b: ToolDescription): ToolDescription | null {
  if (a.effect !== b.effect) return null;
  if (a.subcommandArg !== b.subcommandArg && a.subcommandArg !== undefined && b.subcommandArg !== undefined)
    return null;
  const subcommands = { ...a.subcommands };
  for (const [value, effect] of Object.entries(b.subcommands ?? {})) {
    if (subcommands[value] !== undefined && subcommands[value] !== effect) return null;
    subcommands[value] = effect;
  }
  if (Boolean(a.actsOnOpenFile) !== Boolean(b.actsOnOpenFile)) return null;
  const merged: ToolDescription = { effect: a.effect, pathArgs: union(a.pathArgs, b.pathArgs)! };
  const lists = ["commandArgs", "codeArgs", "globArgs", "patchArgs", "workdirArgs"] as const;
  for (const key of lists) {
    const value = union(a[key], b[key]);
    if (value !== undefined) merged[key] = value;
  }
  const subcommandArg = a.subcommandArg ?? b.subcommandArg;
  if (subcommandArg !== undefined) merged.subcommandArg = subcommandArg;
  if (Object.keys(subcommands).length > 0) merged.subcommands = subcommands;
  return merged;
}

/** The merged table (lower-cased names) and the names whose descriptions conflict, with their frameworks. */
export function mergedTools(frameworks: readonly FrameworkTools[] = FRAMEWORKS): {
  tools: Map<string, ToolDescription>;
  conflicts: Map<string, string[]>;
} {
  const tools = new Map<string, ToolDescription>();
  const owners = new Map<string, string[]>();
  const conflicts = new Map<string, string[]>();
  for (const framework of frameworks) {
    for (const [name, description] of Object.entries(framework.tools)) {
      const key = name.toLowerCase();
      owners.set(key, [...(owners.get(key) ?? []), framework.id]);
      const known = tools.get(key);
      if (!known) {
        tools.set(key, description);
        continue;
      }
      const merged = mergeDescriptions(known, description);
      if (merged) tools.set(key, merged);
      else conflicts.set(key, []);
    }
  }
  for (const key of conflicts.keys()) conflicts.set(key, owners.get(key)!);
  for (const [key, winner] of Object.entries(MERGE_WINNERS)) {
    const framework = frameworks.find((f) => f.id === winner);
    const winning = framework ? lookup(framework.tools, key) : null;
    if (!winning) continue;
    let description: ToolDescription = winning;
    // The winner's description, widened by every other one that agrees with it.
    for (const other of frameworks) {
      const theirs = other === framework ? null : lookup(other.tools, key);
      const merged: ToolDescription | null = theirs ? mergeDescriptions(description, theirs) : null;
      if (merged) description = merged;
    }
    tools.set(key, description);
  }
  return { tools, conflicts };
}

const MERGED = mergedTools().tools;

/**
 * What a tool does: the framework's own description when the framework is known and has the
 * tool, else the merged description of every framework; null for a tool nobody describes.
 */
export function toolEffect(framework: string | null | undefined, tool: string): ToolDescription | null {
  const own = frameworkTools(framework);
  const found = (own ? lookup(own.tools, tool) : null) ?? MERGED.get(tool.toLowerCase()) ?? null;
  if (found) return found;
  // An MCP server's tool (`mcp__filesystem__read_file`) is described by its own name.
  const mcp = /^mcp__[^_]+(?:_[^_]+)*__(.+)$/.exec(tool);
  if (mcp) return toolEffect(framework, mcp[1]!);
  // Gemini CLI names it `mcp_<server>_<tool>`, either part with underscores: the longest described tail.
  if (/^mcp_[^_]/.test(tool)) {
    const words = tool.split("_");
    for (let i = 2; i < words.length; i++) {
      const tail = toolEffect(framework, words.slice(i).join("_"));
      if (tail) return tail;
    }
  }
  return null;
}

/** A Python function callable inside a code action (smolagents' `read_file`), for the framework or any. */
export function pythonFunctionEffect(framework: string | null | undefined, name: string): ToolDescription | null {
  const own = frameworkTools(framework);
  if (own) return own.pythonFunctions?.[name] ?? null;
  for (const f of FRAMEWORKS) if (f.pythonFunctions?.[name]) return f.pythonFunctions[name]!;
  return null;
}

/** Names of the Python functions of code actions (every framework's when the framework is unknown). */
export function pythonFunctionNames(framework: string | null | undefined): string[] {
  const own = frameworkTools(framework);
  const tables = own ? [own] : FRAMEWORKS;
  return [...new Set(tables.flatMap((f) => Object.keys(f.pythonFunctions ?? {})))];
}

/**
 * Whether the framework's shell keeps its working directory between calls: true or false for a
 * known framework, null when unknown (the rules then try both readings, DESIGN.md decision 3-5).
 */
export function persistentShell(framework: string | null | undefined): boolean | null {
  return frameworkTools(framework)?.persistentShell ?? null;
}

/**
 * A tool typed as a command in the shell (SWE-agent's `open`, `edit`): its description, for
 * SWE-agent runs and runs of unknown framework only (elsewhere `open` is just a program).
 */
export function shellCommandTool(framework: string | null | undefined, program: string): ToolDescription | null {
  const own = frameworkTools(framework);
  if (own && own.id !== SWE_AGENT_TOOLS.id) return null;
  const description = SWE_AGENT_TOOLS.tools[program];
  return description?.positional ? description : null;
}

/**
 * The markers of the harness's own submission line (FrameworkTools.submissionMarkers): the
 * framework's when it is known (none for most), every framework's when it is unknown.
 */
export function submissionMarkers(framework: string | null | undefined): string[] {
  const own = frameworkTools(framework);
  return own ? (own.submissionMarkers ?? []) : FRAMEWORKS.flatMap((f) => f.submissionMarkers ?? []);
}

/** A description's argument names by what they carry: files (paths, globs, subcommand), then command, code, patch, directory. */
function argumentNamesOf(d: ToolDescription): string[] {
  return [
    ...d.pathArgs,
    ...(d.globArgs ?? []),
    ...(d.subcommandArg === undefined ? [] : [d.subcommandArg]),
    ...(d.commandArgs ?? []),
    ...(d.codeArgs ?? []),
    ...(d.patchArgs ?? []),
    ...(d.workdirArgs ?? []),
  ];
}

/**
 * Every argument name some tool of some framework carries a path, glob, subcommand, command, code,
 * patch or working directory in, paths first: what a judge prompt shows first of a tool call's
 * arguments (lib/judge/llm/render-step.ts), whatever the tool.
 */
export const DESCRIBED_ARGUMENT_NAMES: readonly string[] = (() => {
  const descriptions = FRAMEWORKS.flatMap((f) => [
    ...Object.values(f.tools),
    ...Object.values(f.pythonFunctions ?? {}),
  ]);
  const byRole = (pick: (d: ToolDescription) => string[]) => descriptions.flatMap(pick);
  return [...new Set([...byRole((d) => [...d.pathArgs, ...(d.globArgs ?? [])]), ...byRole(argumentNamesOf)])];
})();
