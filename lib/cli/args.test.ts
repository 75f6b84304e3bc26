import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors/app-error";
import {
  choiceListOption,
  choiceOption,
  cliCommand,
  dispatchCli,
  integerOption,
  parseCli,
  schemaOption,
  textListOption,
  textOption,
} from "./args";
import { captureIo } from "./cli-io.fixture";

const io = () => captureIo();

const example = () =>
  cliCommand("npm run example --", "Does an example thing.")
    .argument("[paths...]", "files to read")
    .addOption(integerOption("--limit <n>", "at most this many", { min: 1 }))
    .addOption(integerOption("--port <n>", "port", { min: 1024, max: 65535 }).default(3190))
    .addOption(choiceOption("--mode <mode>", "how", ["fast", "slow"] as const).default("fast"))
    .addOption(textOption("--name <name>", "a name").makeOptionMandatory())
    .addOption(schemaOption("--id <id>", "an id", z.string().regex(/^[a-z]+$/, "lowercase letters")))
    .option("--json", "print JSON");

async function failure(argv: string[]): Promise<string> {
  const error = await parseCli(example(), argv, io().io).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe("INVALID_INPUT");
  return (error as AppError).message;
}

describe("list options", () => {
  const lists = () =>
    cliCommand("npm run lists --", "Lists.")
      .addOption(choiceListOption("--arms <arms>", "arms", ["none", "rules", "codekit"] as const))
      .addOption(textListOption("--instances <ids>", "instances"));

  it("reads comma-separated lists in the order given", async () => {
    const parsed = await parseCli(lists(), ["--arms", "codekit,none", "--instances", "a,b/c"], io().io);
    expect(parsed?.options).toEqual({ arms: ["codekit", "none"], instances: ["a", "b/c"] });
  });

  it.each([["none,guard"], ["none,none"], [""]])("refuses --arms %j, naming the choices", async (raw) => {
    const error = await parseCli(lists(), ["--arms", raw], io().io).catch((e: unknown) => e);
    expect((error as AppError).message).toBe(
      `--arms: expected a comma-separated list of none, rules, codekit, each once, got ${JSON.stringify(raw)}`,
    );
  });

  it("refuses an empty item in a list", async () => {
    const error = await parseCli(lists(), ["--instances", "a,,b"], io().io).catch((e: unknown) => e);
    expect((error as AppError).message).toBe(
      '--instances: expected a comma-separated list of non-empty values, got "a,,b"',
    );
  });
});

describe("parseCli", () => {
  it("gives typed values with defaults, and the positional arguments", async () => {
    const parsed = await parseCli(example(), ["a.txt", "--name", "x", "--limit", "3", "--json", "b.txt"], io().io);
    expect(parsed).toEqual({
      options: { name: "x", limit: 3, port: 3190, mode: "fast", json: true },
      args: [["a.txt", "b.txt"]],
    });
  });

  it("answers --help on stdout with every option, its default and choices, and returns null", async () => {
    const run = io();
    expect(await parseCli(example(), ["--help"], run.io)).toBeNull();
    const help = run.out();
    expect(help).toMatch(/^Usage: npm run example -- \[options\] \[paths\.\.\.\]/);
    for (const flag of ["--limit <n>", "--port <n>", "--mode <mode>", "--name <name>", "--id <id>", "--json", "--help"])
      expect(help).toContain(flag);
    expect(help).toContain("(default: 3190)");
    expect(help).toMatch(/--name <name> +a name \(required\)/);
    expect(help).toContain('(choices: "fast", "slow", default: "fast")');
    expect(run.err()).toBe("");
  });

  it.each([
    [["--name", "x", "--limit", "abc"], '--limit: expected a positive integer, got "abc"'],
    [["--name", "x", "--limit", "1.5"], '--limit: expected a positive integer, got "1.5"'],
    [["--name", "x", "--limit", "0"], '--limit: expected a positive integer, got "0"'],
    [["--name", "x", "--limit", ""], '--limit: expected a positive integer, got ""'],
    [["--name", "x", "--port", "80"], '--port: expected an integer from 1024 to 65535, got "80"'],
    [["--name", "x", "--mode", "medium"], '--mode: expected one of fast, slow, got "medium"'],
    [["--name", ""], '--name: expected a non-empty value, got ""'],
    [["--name", "x", "--id", "A1"], '--id: expected lowercase letters, got "A1"'],
  ])("names the flag and the expected form of a bad value: %j", async (argv, message) => {
    expect(await failure(argv)).toBe(message);
  });

  it("refuses an unknown flag with commander's suggestion, a missing value and a missing required option", async () => {
    expect(await failure(["--name", "x", "--jsn"])).toBe("unknown option '--jsn' (did you mean --json?); see --help");
    expect(await failure(["--name", "x", "--frobnicate"])).toBe("unknown option '--frobnicate'; see --help");
    // A typo of a required flag is named as the unknown flag, not as the required one missing.
    expect(await failure(["--nme", "x"])).toBe("unknown option '--nme' (did you mean --name?); see --help");
    expect(await failure(["--name"])).toMatch(/^option '--name <name>' argument missing; see --help$/);
    expect(await failure([])).toBe("required option '--name <name>' not specified; see --help");
  });

  it("refuses an argument a command without arguments does not take", async () => {
    const error = await parseCli(cliCommand("npm run none --", "Nothing."), ["extra"], io().io).catch((e) => e);
    expect((error as AppError).message).toMatch(/^too many arguments.*; see --help$/);
  });
});

describe("dispatchCli", () => {
  const program = (ran: string[]) => {
    const command = cliCommand("npm run tool --", "Subcommands.");
    command
      .command("greet")
      .description("say hello")
      .addOption(integerOption("--times <n>", "how often", { min: 1 }).default(1))
      .action(async (options) => {
        ran.push(`greet x${options.times}`);
      });
    return command;
  };

  it("runs the subcommand's action with its typed options", async () => {
    const ran: string[] = [];
    expect(await dispatchCli(program(ran), ["greet", "--times", "2"], io().io)).toBe(true);
    expect(ran).toEqual(["greet x2"]);
  });

  it("answers a subcommand's --help on stdout without running it", async () => {
    const ran: string[] = [];
    const run = io();
    expect(await dispatchCli(program(ran), ["greet", "--help"], run.io)).toBe(false);
    expect(run.out()).toMatch(/^Usage: npm run tool -- greet \[options\]/);
    expect(ran).toEqual([]);
  });

  it("refuses no command and an unknown command", async () => {
    const none = await dispatchCli(program([]), [], io().io).catch((e: unknown) => e);
    expect((none as AppError).message).toBe("no command given (one of greet); see --help");
    const unknown = await dispatchCli(program([]), ["greeet"], io().io).catch((e: unknown) => e);
    expect((unknown as AppError).message).toBe("unknown command 'greeet' (did you mean greet?); see --help");
    const bad = await dispatchCli(program([]), ["greet", "--times", "x"], io().io).catch((e: unknown) => e);
    expect((bad as AppError).message).toBe('--times: expected a positive integer, got "x"');
  });
});
