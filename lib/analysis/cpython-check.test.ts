import { execFile, spawnSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors/app-error";
import { compileCheck, compileHelperCommand, CPYTHON_CHECK_LIMITS, stopCompileHelper } from "./cpython-check";

const limits = { ...CPYTHON_CHECK_LIMITS };
afterEach(() => Object.assign(CPYTHON_CHECK_LIMITS, limits));

/** Runs a probe program the way the helper is run, and returns what it printed. */
async function probe(code: string): Promise<string> {
  const command = await compileHelperCommand(code);
  const result = spawnSync(command.file, command.args, { env: command.env, cwd: "/", encoding: "utf8" });
  return `${result.stdout}${result.stderr}`.trim();
}

describe("compileCheck", () => {
  it("answers pipelined requests, each with its own verdict", async () => {
    const sources = Array.from({ length: 50 }, (_, i) => (i % 2 ? `x = ${i}\n` : `return ${i}\n`));
    const verdicts = await Promise.all(sources.map((source) => compileCheck(source)));
    expect(verdicts.map((v) => v.ok)).toEqual(sources.map((_, i) => i % 2 === 1));
    expect(verdicts[0]).toEqual({ ok: false, line: 1, column: 1, message: "'return' outside function" });
  });

  it("refuses a source over the size limit, naming its size", async () => {
    CPYTHON_CHECK_LIMITS.maxRequestBytes = 1000;
    const error = await compileCheck("x = 1\n".repeat(500), "big.py").catch((e: unknown) => e);
    expect(isAppError(error, "TOO_LARGE")).toBe(true);
    expect(String(error)).toMatch(/big\.py is too large to compile-check \(\d+ bytes/);
  });

  it("stops a request over its time limit and answers the next from a fresh helper", async () => {
    CPYTHON_CHECK_LIMITS.requestMs = 1;
    const slow = `x = [${"1, ".repeat(200_000)}]\n`;
    const error = await compileCheck(slow, "slow.py").catch((e: unknown) => e);
    expect(isAppError(error, "TOO_LARGE")).toBe(true);
    expect(String(error)).toContain("CPython did not finish compiling slow.py within");
    CPYTHON_CHECK_LIMITS.requestMs = limits.requestMs;
    await expect(compileCheck("x = 1\n")).resolves.toEqual({ ok: true });
  });

  it("starts again after the helper is stopped", async () => {
    stopCompileHelper();
    await expect(compileCheck("del f()\n")).resolves.toMatchObject({
      ok: false,
      message: "cannot delete function call",
    });
  });

  it("does not keep Node alive, and names python3 when it is missing", async () => {
    const script =
      'import { compileCheck } from "./lib/analysis/cpython-check.ts";\n' +
      'compileCheck("x = 1\\n").then((v) => console.log(JSON.stringify(v)), (e) => console.log(e.message));\n';
    const run = (env: NodeJS.ProcessEnv) =>
      new Promise<string>((resolve) => {
        execFile(
          process.execPath,
          ["--import", "tsx", "--input-type=module", "-e", script],
          { env, timeout: 20_000 },
          (error, stdout) => resolve(error ? `failed: ${error.message}` : stdout.trim()),
        );
      });
    expect(await run(process.env)).toBe('{"ok":true}');
    expect(await run({ ...process.env, PATH: "/nonexistent" })).toContain(
      "python3 is not on PATH: the Syntax metric asks CPython's own compiler",
    );
  }, 30_000);
});

describe("the helper's sandbox", async () => {
  const isolated = (await compileHelperCommand("")).isolated;

  it.runIf(isolated)("shows no project folder, no writable path and no network", async () => {
    const output = await probe(
      [
        "import os, socket",
        `print("project", os.path.exists(${JSON.stringify(process.cwd())}))`,
        "for where in ['/', '/tmp', '/usr']:",
        "    try:",
        "        open(os.path.join(where, 'probe'), 'w')",
        "        print('wrote', where)",
        "    except OSError:",
        "        pass",
        "try:",
        "    socket.create_connection(('1.1.1.1', 53), timeout=2)",
        "    print('network')",
        "except OSError:",
        "    print('no network')",
      ].join("\n"),
    );
    expect(output).toBe("project False\nno network");
  });

  it("scrubs the environment it starts in", async () => {
    const env = await probe("import os; print(sorted(k for k in os.environ if 'KEY' in k or 'TOKEN' in k))");
    expect(env).toBe("[]");
  });

  it("limits its own memory: a compile past the limit is answered, not a crash", async () => {
    stopCompileHelper();
    CPYTHON_CHECK_LIMITS.memoryBytes = 128 * 1024 * 1024;
    try {
      const verdict = await compileCheck(`x = [${"(1, 2), ".repeat(400_000)}]\n`);
      expect(verdict).toEqual({
        ok: false,
        line: 1,
        column: 1,
        message: "CPython ran out of memory compiling the file",
      });
    } finally {
      stopCompileHelper();
    }
  });
});
