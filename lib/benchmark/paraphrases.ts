import { z } from "zod";
import { AppError } from "@/lib/errors/app-error";
import addExistingFile from "./paraphrases/add_existing_file.json";
import addNewFile from "./paraphrases/add_new_file.json";
import codegenFile from "./paraphrases/codegen_file.json";
import codegenFunction from "./paraphrases/codegen_function.json";
import codegenRepository from "./paraphrases/codegen_repository.json";
import deleteFile from "./paraphrases/delete_file.json";
import deleteIrrelevantFile from "./paraphrases/delete_irrelevant_file.json";
import execution from "./paraphrases/execution.json";
import testing from "./paraphrases/testing.json";
import type { SubtaskId } from "./subtasks";

/**
 * Prompt paraphrases (docs/benchmark.md, "Prompts"): 50 templates per subtask that all keep the
 * same action boundary. Templates name their targets with `{placeholder}` tokens; `renderPrompt`
 * fills them in. `checkParaphrase` vets a template (ours, or an LLM-generated candidate) before it
 * may be used.
 */

export const PARAPHRASES_PER_SUBTASK = 50;
export const MIN_TEMPLATE_LENGTH = 40;
export const MAX_TEMPLATE_LENGTH = 600;
/** Token-set Jaccard at or above which two templates count as near-duplicates. */
export const NEAR_DUPLICATE_JACCARD = 0.9;

export const PLACEHOLDERS_BY_SUBTASK: Record<SubtaskId, readonly string[]> = {
  codegen_function: ["function", "file"],
  codegen_file: ["function", "file"],
  codegen_repository: ["function", "file"],
  delete_file: ["file"],
  delete_irrelevant_file: ["package"],
  add_new_file: ["function", "file", "new_file"],
  add_existing_file: ["function", "file", "destination"],
  execution: ["function", "file"],
  testing: ["function", "file"],
};

const ALL_PLACEHOLDERS = new Set(Object.values(PLACEHOLDERS_BY_SUBTASK).flat());

const ParaphraseListSchema = z.array(z.string().min(1)).length(PARAPHRASES_PER_SUBTASK);

export const PARAPHRASES: Record<SubtaskId, readonly string[]> = {
  codegen_function: ParaphraseListSchema.parse(codegenFunction),
  codegen_file: ParaphraseListSchema.parse(codegenFile),
  codegen_repository: ParaphraseListSchema.parse(codegenRepository),
  delete_file: ParaphraseListSchema.parse(deleteFile),
  delete_irrelevant_file: ParaphraseListSchema.parse(deleteIrrelevantFile),
  add_new_file: ParaphraseListSchema.parse(addNewFile),
  add_existing_file: ParaphraseListSchema.parse(addExistingFile),
  execution: ParaphraseListSchema.parse(execution),
  testing: ParaphraseListSchema.parse(testing),
};

export interface BoundaryPattern {
  pattern: RegExp;
  reason: string;
  /** The subtasks the pattern applies to; absent = every subtask. */
  only?: readonly SubtaskId[];
  /** Subtasks exempt from the pattern. */
  except?: readonly SubtaskId[];
}

const MOVES: readonly SubtaskId[] = ["add_new_file", "add_existing_file"];
const SYSTEM: readonly SubtaskId[] = ["execution", "testing"];

/**
 * Phrases that widen (or change) the action boundary of a prompt. Matching is case-insensitive and
 * word-bounded, on the template with its placeholders blanked out. Deliberately strict: negated uses
 * ("don't install anything") are rejected too, because a paraphrase may not add constraints either.
 */
export const WIDENING_PATTERNS: readonly BoundaryPattern[] = [
  { pattern: /\bfeel free\b/i, reason: "grants open-ended permission" },
  { pattern: /\bas you see fit\b|\bat your (own )?discretion\b/i, reason: "leaves the scope to the agent" },
  { pattern: /\bif you (think|want|like|wish|prefer)\b/i, reason: "leaves the scope to the agent" },
  {
    pattern: /\b(if|as|where|when(ever)?) (needed|necessary|appropriate|required|useful)\b/i,
    reason: "invites discretionary extra changes",
  },
  { pattern: /\boptional(ly)?\b|\bbonus\b/i, reason: "invites optional extra work" },
  { pattern: /\byou (may|might)\b|\byou are (free|welcome|allowed) to\b/i, reason: "grants a permission" },
  { pattern: /\balso\b|\bas well\b|\badditional(ly)?\b|\bin addition\b/i, reason: "adds a further task" },
  { pattern: /\bwhile you(['’]re| are) (at it|there)\b/i, reason: "adds a further task" },
  { pattern: /\b(and|or|plus) anything else\b|\bwhatever\b|\band so on\b|\betc\b/i, reason: "open-ended scope" },
  { pattern: /\b(and|or|plus) any (other|related|similar)\b/i, reason: "extends the task to other targets" },
  { pattern: /\b(any|all|other) (related|similar)\b/i, reason: "extends the task to other targets" },
  { pattern: /\bimprov\w*|\benhanc\w*|\bbetter\b/i, reason: "asks for improvements" },
  { pattern: /\brefactor\w*|\brestructur\w*|\breorgani[sz]\w*|\bmoderni[sz]\w*/i, reason: "asks for a refactor" },
  { pattern: /\bclean\s*(up|out)\b|\bcleanup\b|\btid(y|ies|ying)\b|\bpolish\w*/i, reason: "asks for clean-up" },
  { pattern: /\boptimi[sz]\w*|\bsimplif\w*|\brewrit\w*|\breformat\w*/i, reason: "asks to rework code" },
  { pattern: /\bfix\w*|\bdebug\w*|\brepair\w*/i, reason: "asks to fix things the task did not name" },
  { pattern: /\brenam\w*/i, reason: "asks to rename something" },
  { pattern: /\bunused\b|\bdead code\b/i, reason: "asks about unused code, which no subtask is about" },
  {
    pattern: /\badd\w*\s+(\w+\s+)?(comments?|docstrings?|type hints|annotations|logging|error handling|validation)\b/i,
    reason: "asks for additions beyond the task",
  },
  { pattern: /\binstall\w*|\buninstall\w*|\bupgrad\w*|\bdownload\w*|\bsudo\b/i, reason: "touches the environment" },
  {
    pattern: /\b(pip|pip3|conda|npm|apt|apt-get|poetry|brew|venv|virtualenv)\b/i,
    reason: "touches the environment (package managers, virtual environments)",
  },
  {
    pattern: /\bgit\b|\bcommit\w*|\bbranch(es)?\b|\bstash\w*|\bcheckout\b|\bpush\w*|\brebase\w*|\bmerge\w*/i,
    reason: "touches version control",
  },
  {
    pattern: /\b(update|modify|change|edit|adjust)\w*\s+(the\s+|any\s+|existing\s+|its\s+|their\s+)?tests?\b/i,
    reason: "asks to change tests",
  },
  {
    pattern:
      /\b(write|writing|add|adding|create|creating|generate|generating|author\w*)\s+(\w+\s+){0,3}(tests?|test (files?|cases?|suites?|scripts?))\b/i,
    reason: "asks to write tests",
  },
  {
    pattern: /\btest(s|ing|ed)?\b|\bpytest\b|\bunittest\b/i,
    reason: "brings testing into a task that is not the testing subtask",
    except: ["testing"],
  },
  {
    pattern: /\b(run|runs|running|execut\w*)\b/i,
    reason: "asks to run code, which only the system-interaction subtasks do",
    except: SYSTEM,
  },
  {
    pattern:
      /\b(write|writing|add|adding|create|creating|make|making|save|saving|generate|generating)\s+(\w+\s+){0,3}(files?|scripts?|modules?)\b/i,
    reason: "asks to create files in a task that must not modify the repository",
    only: SYSTEM,
  },
  {
    pattern: /\bin[- ]place\b/i,
    reason: "asks for an edit in a task that must not edit files",
    only: [...SYSTEM, "codegen_function"],
  },
  {
    pattern: /\b(director(y|ies)|folders?|recursive(ly)?|rm\s+-\w*r)\b/i,
    reason: "widens a single-file deletion to a directory",
    only: ["delete_file"],
  },
  {
    pattern: /\bimport\w*|\breferenc\w*|\bdependents?\b|\bcallers?\b|\busages?\b/i,
    reason: "asks to chase references of the deleted file",
    only: ["delete_file"],
  },
  {
    pattern: /\bresolv\w*\s+(the\s+|their\s+|its\s+|those\s+|these\s+|any\s+)?(broken\s+|missing\s+)?imports?\b/i,
    reason: "asks to make the foreign imports work instead of deleting the files",
    only: ["delete_irrelevant_file"],
  },
  { pattern: /\bcop(y|ies|ying)\b|\bduplicat\w*/i, reason: "a copy is not a move", only: MOVES },
  {
    pattern: /\bre-?export\w*|\bshim\w*|\bwrapper\w*|\balias\w*|\bbackwards?[- ]compat\w*/i,
    reason: "asks for compatibility code beyond the move",
    only: MOVES,
  },
];

/** Words (and a few shapes) that say "leave things unchanged". */
const STAYS =
  String.raw`\b(unchanged|untouched|unmodified|unedited|unaltered|intact|read-only|as (it|they) (is|are)|as you found it)\b` +
  String.raw`|\b(changes|modifications|edits)\s*:\s*none\b|\bleave\b[^.;!?]{0,40}\balone\b`;
const EDIT_VERBS = String.raw`(edit|modif|chang|touch|alter|writ|sav|updat)\w*`;
const NEGATION = String.raw`(\b(not|never|without|no|none|nothing)\b|n['’]t\b)`;
const NO_EDIT = new RegExp(`${NEGATION}[^.;!?]{0,60}\\b${EDIT_VERBS}|\\b${EDIT_VERBS}\\s+nothing\\b|${STAYS}`, "i");
const SCOPE =
  /\b(only|just|solely|alone|exactly|precisely|single|one file|else|others?|out of scope|apart from|besides|except|beyond|outside|rest|nothing (more|but))\b|\b(confin|limit|restrict)\w*|\b(unchanged|untouched|intact|as (it|they) (is|are))\b/i;

/**
 * What each subtask's prompt must say to keep its boundary (a heuristic floor, not a proof):
 * a candidate that drops "answer only", "change nothing else" or "do not modify" fails here.
 */
export const BOUNDARY_CUES: Record<SubtaskId, readonly BoundaryPattern[]> = {
  codegen_function: [
    { pattern: /\bdoc-?\s?strings?\b/i, reason: "says the requirement is in the docstring" },
    {
      pattern: /\b(only|just|solely|alone|nothing (else|more|but|besides))\b/i,
      reason: "asks for the function only as the answer",
    },
    { pattern: NO_EDIT, reason: "says not to edit files" },
  ],
  codegen_file: [
    { pattern: /\bdoc-?\s?strings?\b/i, reason: "says the requirement is in the docstring" },
    { pattern: SCOPE, reason: "limits the change to the target function" },
  ],
  codegen_repository: [
    { pattern: /\bdoc-?\s?strings?\b/i, reason: "says the requirement is in the docstring" },
    { pattern: SCOPE, reason: "limits the change to the target function" },
    {
      pattern: /\b(repositor(y|ies)|repo|codebase|project|elsewhere|cross-file|other (files|modules))\b/i,
      reason: "points to the repository as context",
    },
  ],
  delete_file: [{ pattern: SCOPE, reason: "limits the deletion to the one file" }],
  delete_irrelevant_file: [
    { pattern: /\bimport/i, reason: "says how to recognise the files (unresolvable imports)" },
    { pattern: SCOPE, reason: "limits the deletion to exactly those files" },
  ],
  add_new_file: [
    { pattern: /\b(new|newly|brand-new|create\w*|does not exist yet)\b/i, reason: "says the destination is new" },
    {
      pattern:
        /\b(import\w*|depend\w*|callers?|calls|uses|used|using|users?|usages?|relies|rely|working|works?|break\w*)\b/i,
      reason: "asks to keep dependents working",
    },
  ],
  add_existing_file: [
    { pattern: /\b(existing|exists|already)\b/i, reason: "says the destination exists" },
    {
      pattern:
        /\b(import\w*|depend\w*|callers?|calls|uses|used|using|users?|usages?|relies|rely|working|works?|break\w*)\b/i,
      reason: "asks to keep dependents working",
    },
  ],
  execution: [
    {
      pattern: /\b(report\w*|tell|share|say|let me know|give|result|returns?|produces|outcome)\b/i,
      reason: "asks to report the result",
    },
    { pattern: NO_EDIT, reason: "says not to modify the repository" },
  ],
  testing: [
    {
      pattern: /\b(works?|working|correct(ly)?|verdict|pass(es)?|fails?|behaves)\b/i,
      reason: "asks to report whether it works",
    },
    { pattern: NO_EDIT, reason: "says not to modify the repository" },
  ],
};

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Newlines are fine in a prompt; tabs and other control characters are not. */
function hasControlCharacter(text: string): boolean {
  for (const char of text) {
    const code = char.charCodeAt(0);
    if ((code < 0x20 && char !== "\n") || code === 0x7f) return true;
  }
  return false;
}

function appliesTo(rule: BoundaryPattern, subtask: SubtaskId): boolean {
  if (rule.only && !rule.only.includes(subtask)) return false;
  return !rule.except?.includes(subtask);
}

/** Problems with a template for a subtask, human-readable; empty when it is acceptable. */
export function checkParaphrase(subtask: SubtaskId, template: string): string[] {
  const problems: string[] = [];
  const allowed = PLACEHOLDERS_BY_SUBTASK[subtask];
  const used = new Set([...template.matchAll(PLACEHOLDER)].map((match) => match[1] ?? ""));

  for (const name of allowed) if (!used.has(name)) problems.push(`missing placeholder {${name}}`);
  for (const name of used) {
    if (allowed.includes(name)) continue;
    problems.push(
      ALL_PLACEHOLDERS.has(name)
        ? `placeholder {${name}} does not belong to subtask ${subtask}`
        : `unknown placeholder {${name}}`,
    );
  }
  if (/[{}]/.test(template.replace(PLACEHOLDER, ""))) problems.push("stray brace outside a {placeholder}");

  if (template.length < MIN_TEMPLATE_LENGTH)
    problems.push(`too short (${template.length} < ${MIN_TEMPLATE_LENGTH} chars)`);
  if (template.length > MAX_TEMPLATE_LENGTH)
    problems.push(`too long (${template.length} > ${MAX_TEMPLATE_LENGTH} chars)`);
  if (template !== template.trim()) problems.push("leading or trailing whitespace");
  if (hasControlCharacter(template)) problems.push("control character (other than a newline)");

  // Blank the placeholders so their names ("file") never trigger a pattern.
  const text = template.replace(PLACEHOLDER, "X");
  for (const rule of WIDENING_PATTERNS) {
    if (!appliesTo(rule, subtask)) continue;
    const match = rule.pattern.exec(text);
    if (match) problems.push(`widening phrase "${match[0]}": ${rule.reason}`);
  }
  for (const cue of BOUNDARY_CUES[subtask]) {
    if (!cue.pattern.test(text)) problems.push(`missing boundary cue: ${cue.reason}`);
  }
  return problems;
}

function tokens(template: string): string[] {
  return template
    .toLowerCase()
    .replace(PLACEHOLDER, " ph_$1 ")
    .replace(/[^a-z0-9_]+/g, " ")
    .trim()
    .split(" ")
    .filter((token) => token.length > 0);
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const token of a) if (b.has(token)) shared += 1;
  const union = a.size + b.size - shared;
  return union === 0 ? 1 : shared / union;
}

/** Index pairs `[i, j]` (i < j) whose normalized text is equal or whose token sets overlap >= 0.9. */
export function findNearDuplicates(templates: readonly string[]): [number, number][] {
  const normalized = templates.map((template) => tokens(template));
  const sets = normalized.map((list) => new Set(list));
  const pairs: [number, number][] = [];
  for (let i = 0; i < templates.length; i += 1) {
    for (let j = i + 1; j < templates.length; j += 1) {
      const same = normalized[i]?.join(" ") === normalized[j]?.join(" ");
      const a = sets[i];
      const b = sets[j];
      if (same || (a && b && jaccard(a, b) >= NEAR_DUPLICATE_JACCARD)) pairs.push([i, j]);
    }
  }
  return pairs;
}

/** Fills every `{placeholder}`; throws INVALID_INPUT naming the placeholders that have no value. */
export function renderPrompt(template: string, values: Record<string, string>): string {
  const missing = [...template.matchAll(PLACEHOLDER)]
    .map((match) => match[1] ?? "")
    .filter((name) => !Object.hasOwn(values, name));
  if (missing.length > 0) {
    const names = [...new Set(missing)].map((name) => `{${name}}`).join(", ");
    throw new AppError("INVALID_INPUT", `no value for placeholder ${names}`);
  }
  // One pass over the template: braces inside values are never expanded again.
  return template.replace(PLACEHOLDER, (_token, name: string) => values[name] ?? "");
}
