/**
 * Every CLI's options, declared once with commander: the flag, its value's type, default,
 * description and validation make the parser, the `--help` text and the typed values.
 * Bad values and unknown flags become one INVALID_INPUT line (exit 2, lib/cli/run-cli.ts).
 */
import {
  Command,
  CommanderError,
  Help,
  Option,
  type CommandUnknownOpts,
  type OptionValues,
} from "@commander-js/extra-typings";
import type { z } from "zod";
import { AppError } from "@/lib/errors/app-error";
import type { CliIo } from "./run-cli";

export { Command, Option };

/** A CLI named as it is typed (`npm run ingest --`), with the one line --help says it does. */
export function cliCommand(usageName: string, description: string): Command {
  return new Command(usageName)
    .description(description)
    .helpOption("-h, --help", "show this help and exit")
    .configureHelp({
      // Commander's help does not say which options are required (subcommands inherit this).
      optionDescription(option) {
        const text = Help.prototype.optionDescription.call(this, option);
        return option.mandatory ? `${text} (required)` : text;
      },
    });
}

/** The one form of a bad value: `--limit: expected a positive integer, got "abc"`. */
function badValue(option: Option<string>, expected: string, raw: string): AppError {
  return new AppError(
    "INVALID_INPUT",
    `${option.long ?? option.flags}: expected ${expected}, got ${JSON.stringify(raw)}`,
  );
}

function describeRange(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `an integer from ${min} to ${max}`;
  if (min === 1) return "a positive integer";
  if (min === 0) return "a non-negative integer";
  if (min !== undefined) return `an integer of at least ${min}`;
  if (max !== undefined) return `an integer of at most ${max}`;
  return "an integer";
}

/** An integer option; `--n 1.5`, `--n 1e3` and `--n ""` are refused, not rounded or coerced. */
export function integerOption<const U extends string>(
  flags: U,
  description: string,
  range: { min?: number; max?: number } = {},
) {
  const option = new Option(flags, description);
  const expected = describeRange(range.min, range.max);
  return option.argParser((raw: string): number => {
    const value = /^-?\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
    const inRange =
      Number.isSafeInteger(value) &&
      (range.min === undefined || value >= range.min) &&
      (range.max === undefined || value <= range.max);
    if (!inRange) throw badValue(option, expected, raw);
    return value;
  });
}

/** One of a fixed list of words; --help lists them. */
export function choiceOption<const U extends string, const T extends readonly string[]>(
  flags: U,
  description: string,
  choices: T,
) {
  const option = new Option(flags, description);
  const parsed = option.argParser((raw: string): T[number] => {
    if (!choices.includes(raw)) throw badValue(option, `one of ${choices.join(", ")}`, raw);
    return raw;
  });
  parsed.argChoices = [...choices];
  return parsed;
}

/** A comma-separated list of distinct words from a fixed list (`--arms none,codekit`), in the order given. */
export function choiceListOption<const U extends string, const T extends readonly string[]>(
  flags: U,
  description: string,
  choices: T,
) {
  const option = new Option(flags, description);
  return option.argParser((raw: string): T[number][] => {
    const items = raw.split(",").map((item) => item.trim());
    const expected = `a comma-separated list of ${choices.join(", ")}, each once`;
    const valid = items.every((item) => choices.includes(item)) && new Set(items).size === items.length;
    if (!valid) throw badValue(option, expected, raw);
    return items;
  });
}

/** A non-empty string (a path, a name, a pattern), optionally of a given form. */
export function textOption<const U extends string>(
  flags: U,
  description: string,
  form: { pattern: RegExp; expected: string } = { pattern: /./, expected: "a non-empty value" },
) {
  const option = new Option(flags, description);
  return option.argParser((raw: string): string => {
    if (!form.pattern.test(raw)) throw badValue(option, form.expected, raw);
    return raw;
  });
}

/**
 * A comma-separated list of non-empty values (`--instances a,b`). Not a repeatable flag: commander
 * reads the options twice (unknownFlagFirst), and an accumulating parser would see every value twice.
 */
export function textListOption<const U extends string>(flags: U, description: string) {
  const option = new Option(flags, description);
  return option.argParser((raw: string): string[] => {
    const items = raw.split(",").map((item) => item.trim());
    if (items.some((item) => item === "")) throw badValue(option, "a comma-separated list of non-empty values", raw);
    return items;
  });
}

/** A value checked by a domain schema (a username, a benchmark id); its message is the expected form. */
export function schemaOption<const U extends string, S extends z.ZodType<unknown, string>>(
  flags: U,
  description: string,
  schema: S,
) {
  const option = new Option(flags, description);
  return option.argParser((raw: string): z.infer<S> => {
    const result = schema.safeParse(raw);
    if (!result.success) throw badValue(option, result.error.issues[0]?.message ?? "a valid value", raw);
    return result.data;
  });
}

/** Commander's own messages (unknown option, missing value, excess argument) as one line. */
function usageError(error: CommanderError): AppError {
  const [first = error.message, ...rest] = error.message.replace(/^error: /, "").split("\n");
  const hint = rest.map((line) => line.trim().replace(/^\((.*)\)$/, "$1")).filter(Boolean);
  const suggestion = hint.length > 0 ? ` (${hint.join(" ").replace(/^Did/, "did")})` : "";
  return new AppError("INVALID_INPUT", `${first}${suggestion}; see --help`, { cause: error });
}

function configure(command: CommandUnknownOpts, io: CliIo): void {
  command.exitOverride().configureOutput({
    writeOut: (text) => io.stdout.write(text),
    // Errors are thrown as an AppError instead, printed once by runMain; the only other text
    // commander writes there is the whole help after a missing subcommand, which the error replaces.
    writeErr: () => {},
    outputError: () => {},
  });
  for (const sub of command.commands) configure(sub, io);
}

const HELP_FLAGS = new Set(["-h", "--help"]);

/**
 * Commander reports a missing required option before an unknown one, so a typo of a required
 * flag (`--orignal`) would read "required option '--original' not specified". When the command
 * that will run was given an unknown flag, its options stop being required for this parse, and
 * commander refuses the flag itself, with its suggestion. Commands are built per parse.
 */
function unknownFlagFirst(command: CommandUnknownOpts, argv: readonly string[]): void {
  const { operands, unknown } = command.parseOptions([...argv]);
  const sub = operands[0] === undefined ? undefined : command.commands.find((c) => c.name() === operands[0]);
  if (sub) return unknownFlagFirst(sub, [...operands.slice(1), ...unknown]);
  if (unknown.some((arg) => HELP_FLAGS.has(arg))) return;
  if (unknown.some((arg) => arg.startsWith("-") && arg.length > 1))
    for (const option of command.options) option.mandatory = false;
}

const HELP_SHOWN = new Set(["commander.helpDisplayed", "commander.version"]);

/**
 * Runs commander and translates how it ends: `true` when --help was shown (exit 0, on stdout),
 * an AppError for bad usage, anything else rethrown.
 */
async function settle(
  command: CommandUnknownOpts,
  argv: readonly string[],
  io: CliIo,
  parse: () => unknown,
): Promise<boolean> {
  configure(command, io);
  try {
    unknownFlagFirst(command, argv);
    await parse();
    return false;
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (HELP_SHOWN.has(error.code)) return true;
    if (error.code === "commander.help") {
      const names = command.commands.map((sub) => sub.name()).join(", ");
      throw new AppError("INVALID_INPUT", `no command given (one of ${names}); see --help`);
    }
    throw usageError(error);
  }
}

/**
 * Parses `argv` (without node and the script) against `command`: its typed options and
 * arguments, or null when --help was asked for (the caller exits 0).
 */
export async function parseCli<A extends unknown[], O extends OptionValues>(
  command: Command<A, O>,
  argv: readonly string[],
  io: CliIo,
): Promise<{ options: O; args: A } | null> {
  const helped = await settle(command as unknown as CommandUnknownOpts, argv, io, () =>
    command.parse(argv, { from: "user" }),
  );
  return helped ? null : { options: command.opts(), args: command.processedArgs };
}

/** For a command of subcommands with (async) actions: false when only --help was shown. */
export async function dispatchCli(command: CommandUnknownOpts, argv: readonly string[], io: CliIo): Promise<boolean> {
  return !(await settle(command, argv, io, () => command.parseAsync(argv, { from: "user" })));
}
