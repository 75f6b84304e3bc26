/**
 * Whether CPython compiles a module, asked of CPython itself: one long-lived `python3` helper per
 * Node process (cpython/compile_check.py), started on first use and reused, requests pipelined
 * over its stdin and answered in order as JSON lines. Tree-sitter's grammar accepts programs
 * CPython refuses (`async = 1`, `del f()`, `0777`, `return` outside a function ...), so the Syntax
 * metric takes CPython's word; tree-sitter stays for positions and structure.
 *
 * The source is untrusted, though it is only compiled, never run. With bubblewrap the helper sees
 * the host's system folders read-only and nothing else (no project, no home, no writable path), no
 * network, its own PID namespace, and dies with this process (--die-with-parent). Without
 * bubblewrap it runs with a scrubbed environment in `/`, Python's isolated mode, and
 * PR_SET_PDEATHSIG. Either way it limits itself before reading input: address space, CPU time per
 * request, no file writes. Each request has a time limit here too (the helper is killed and
 * restarted on a hang), the source size is bounded and so is the answer line read back.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { AppError } from "@/lib/errors/app-error";
import { hostView } from "@/lib/util/sandbox-view";

export type CompileVerdict = { ok: true } | { ok: false; line: number; column: number; message: string };

export const CPYTHON_CHECK_LIMITS = {
  /** Address space of the helper (RLIMIT_AS). */
  memoryBytes: 1024 * 1024 * 1024,
  /** CPU seconds one request may use inside the helper (RLIMIT_CPU, raised per request). */
  cpuSecondsPerRequest: 10,
  /** Wall time of one request, from the moment the helper starts on it. */
  requestMs: 15_000,
  /** The request line (the source as JSON): larger sources are refused, naming their size. */
  maxRequestBytes: 16 * 1024 * 1024,
  /** One answer line read back (a verdict is a few hundred bytes). */
  maxAnswerBytes: 64 * 1024,
};

const SCRIPT = new URL("./cpython/compile_check.py", import.meta.url);

interface Request {
  id: number;
  line: string;
  filename: string;
  resolve: (verdict: CompileVerdict) => void;
  reject: (error: unknown) => void;
}

let pythonProbe: Promise<void> | null = null;

/** python3 must exist: without it there is no verdict to give (never a silent fallback). */
function ensurePython(): Promise<void> {
  pythonProbe ??= new Promise((resolve, reject) => {
    execFile("python3", ["-I", "-S", "-c", "import sys; print(sys.version)"], { timeout: 30_000 }, (error) => {
      if (!error) return resolve();
      pythonProbe = null;
      const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
      reject(
        new AppError(
          "UNAVAILABLE",
          missing
            ? "python3 is not on PATH: the Syntax metric asks CPython's own compiler whether a file compiles (the set-up installs python3)"
            : `python3 does not start (${error.message.split("\n")[0]}): the Syntax metric needs CPython's compiler`,
          { cause: error },
        ),
      );
    });
  });
  return pythonProbe;
}

export interface HelperCommand {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Under bubblewrap (else a plain process: see the module comment). */
  isolated: boolean;
}

/**
 * How the helper is started: under bubblewrap when it works, else as a plain process. `code` is
 * the Python program to run (compile_check.py; tests pass a probe to see what it can reach).
 */
export async function compileHelperCommand(code = fs.readFileSync(SCRIPT, "utf8")): Promise<HelperCommand> {
  // First, so that a missing python3 is said as such (a thread given this command does not probe).
  await ensurePython();
  const python = [
    "python3",
    "-I",
    "-S",
    "-c",
    code,
    String(CPYTHON_CHECK_LIMITS.memoryBytes),
    String(CPYTHON_CHECK_LIMITS.cpuSecondsPerRequest),
  ];
  // What python3 needs to start and speak UTF-8; keys and tokens of the host stay out.
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (!/^(PATH|LANG|LC_[A-Z_]+)$/.test(name)) delete env[name];
  const bwrap = await bubblewrapArgs();
  if (!bwrap) return { file: python[0]!, args: python.slice(1), env, isolated: false };
  return { file: "bwrap", args: [...bwrap.args, ...python], env: { ...env, PATH: bwrap.path }, isolated: true };
}

/** The command set by setCompileHelperCommand, when another thread probed it. */
let givenCommand: HelperCommand | null = null;

/**
 * Starts this thread's helper with `command`, compileHelperCommand's answer in another thread of
 * the process (evaluate-workers.ts): a worker thread then skips the probes (python3, node and
 * bubblewrap started once each), which took about a second per thread.
 */
export function setCompileHelperCommand(command: HelperCommand): void {
  givenCommand = command;
}

let bubblewrapProbe: Promise<{ args: string[]; path: string } | null> | null = null;

/**
 * The bubblewrap arguments of the helper (the host's system folders and python3's prefix
 * read-only, nothing writable, every namespace unshared), or null when bwrap cannot run them
 * (not installed, or not allowed here): checked once per process by starting `python3 -c pass`.
 */
function bubblewrapArgs(): Promise<{ args: string[]; path: string } | null> {
  bubblewrapProbe ??= hostView().then((view) => {
    const depth = (target: string) => target.split("/").filter(Boolean).length;
    const mounts = [...view.mounts].sort((a, b) => depth(a.target) - depth(b.target)).flatMap((m) => m.args);
    const args = [
      ...mounts,
      ...["--dev", "/dev", "--remount-ro", "/", "--chdir", "/"],
      ...["--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL"],
    ];
    return new Promise((resolve) => {
      execFile(
        "bwrap",
        [...args, "python3", "-I", "-S", "-c", "pass"],
        { env: { ...process.env, PATH: view.path }, timeout: 10_000 },
        (error) => resolve(error ? null : { args, path: view.path }),
      );
    });
  });
  return bubblewrapProbe;
}

class CompileHelper {
  private child: ChildProcess | null = null;
  private starting: Promise<ChildProcess> | null = null;
  /** Sent and not yet answered, in the order the helper answers them. */
  private readonly inFlight: Request[] = [];
  private buffered = "";
  private timer: NodeJS.Timeout | null = null;
  private nextId = 1;
  private stderr = "";
  /** Answers from the current process: a helper that dies before its first cannot be restarted usefully. */
  private answered = 0;

  async check(source: string, filename: string): Promise<CompileVerdict> {
    const id = this.nextId++;
    const line = `${JSON.stringify({ id, source, filename })}\n`;
    const bytes = Buffer.byteLength(line);
    if (bytes > CPYTHON_CHECK_LIMITS.maxRequestBytes) {
      throw new AppError(
        "TOO_LARGE",
        `${filename} is too large to compile-check (${bytes} bytes as a request, limit ${CPYTHON_CHECK_LIMITS.maxRequestBytes})`,
      );
    }
    if (!givenCommand) await ensurePython();
    return new Promise((resolve, reject) => {
      this.inFlight.push({ id, line, filename, resolve, reject });
      void this.send(this.inFlight.at(-1)!);
    });
  }

  /** Ends the helper (the next request starts a new one). */
  stop(): void {
    this.kill(new AppError("UNAVAILABLE", "the CPython compile helper was stopped"));
  }

  private async send(request: Request): Promise<void> {
    let child: ChildProcess;
    try {
      child = await this.process();
    } catch (error) {
      this.fail(request, error);
      return;
    }
    if (!this.inFlight.includes(request)) return;
    this.keepAlive(true);
    child.stdin!.write(request.line);
    if (this.inFlight[0] === request) this.armTimer();
  }

  private process(): Promise<ChildProcess> {
    if (this.child) return Promise.resolve(this.child);
    this.starting ??= (givenCommand ? Promise.resolve(givenCommand) : compileHelperCommand()).then((command) => {
      const child = spawn(command.file, command.args, { env: command.env, cwd: "/", stdio: ["pipe", "pipe", "pipe"] });
      this.child = child;
      this.starting = null;
      this.buffered = "";
      this.stderr = "";
      this.answered = 0;
      child.stdin!.on("error", () => {});
      child.stdout!.setEncoding("utf8");
      child.stdout!.on("data", (chunk: string) => this.onData(child, chunk));
      child.stderr!.setEncoding("utf8");
      child.stderr!.on("data", (chunk: string) => {
        if (this.stderr.length < 4096) this.stderr += chunk.slice(0, 4096 - this.stderr.length);
      });
      child.on("error", (error) => this.onExit(child, error.message));
      child.on("exit", (code, signal) => this.onExit(child, `exit ${signal ?? code}`));
      return child;
    });
    return this.starting;
  }

  /** The helper holds this process alive only while a request waits for it. */
  private keepAlive(on: boolean): void {
    const child = this.child;
    if (!child) return;
    const handles = [child, child.stdout, child.stderr, child.stdin] as unknown as { ref(): void; unref(): void }[];
    for (const handle of handles) {
      if (on) handle?.ref?.();
      else handle?.unref?.();
    }
  }

  private armTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const head = this.inFlight[0];
    if (!head) return;
    this.timer = setTimeout(() => {
      const seconds = CPYTHON_CHECK_LIMITS.requestMs / 1000;
      this.kill(
        new AppError(
          "TOO_LARGE",
          `CPython did not finish compiling ${head.filename} within ${seconds} s (the check was stopped)`,
        ),
        true,
      );
    }, CPYTHON_CHECK_LIMITS.requestMs);
  }

  private onData(child: ChildProcess, chunk: string): void {
    if (child !== this.child) return;
    this.buffered += chunk;
    let newline: number;
    while ((newline = this.buffered.indexOf("\n")) >= 0) {
      const line = this.buffered.slice(0, newline);
      this.buffered = this.buffered.slice(newline + 1);
      this.onAnswer(line);
      if (child !== this.child) return;
    }
    if (this.buffered.length > CPYTHON_CHECK_LIMITS.maxAnswerBytes) {
      this.kill(new AppError("INTERNAL", "the CPython compile helper answered a line over the size limit"));
    }
  }

  private onAnswer(line: string): void {
    const head = this.inFlight[0];
    let answer: { id?: unknown; ok?: unknown; line?: unknown; column?: unknown; message?: unknown };
    try {
      answer = JSON.parse(line) as typeof answer;
    } catch {
      answer = {};
    }
    if (!head || answer.id !== head.id || typeof answer.ok !== "boolean") {
      this.kill(new AppError("INTERNAL", `the CPython compile helper answered out of protocol: ${line.slice(0, 200)}`));
      return;
    }
    this.inFlight.shift();
    this.answered += 1;
    const whole = (value: unknown) => (typeof value === "number" && Number.isInteger(value) && value >= 1 ? value : 1);
    head.resolve(
      answer.ok
        ? { ok: true }
        : { ok: false, line: whole(answer.line), column: whole(answer.column), message: String(answer.message) },
    );
    if (this.inFlight.length === 0) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.keepAlive(false);
    } else this.armTimer();
  }

  private onExit(child: ChildProcess, how: string): void {
    if (child !== this.child) return;
    const detail = this.stderr.trim().split("\n").at(-1) ?? "";
    this.kill(
      new AppError("INTERNAL", `the CPython compile helper ended (${how})${detail ? `: ${detail}` : ""}`),
      this.answered > 0,
    );
  }

  /**
   * Ends the current helper. The request it was working on fails with `error`; with `retryRest`
   * the ones queued behind it go to a fresh helper, else they fail too.
   */
  private kill(error: AppError, retryRest = false): void {
    const child = this.child;
    this.child = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    const [head, ...rest] = this.inFlight.splice(0);
    if (head) head.reject(error);
    for (const request of rest) {
      if (retryRest) {
        this.inFlight.push(request);
        void this.send(request);
      } else request.reject(error);
    }
  }

  private fail(request: Request, error: unknown): void {
    const i = this.inFlight.indexOf(request);
    if (i >= 0) this.inFlight.splice(i, 1);
    request.reject(error);
  }
}

const helper = new CompileHelper();

/** CPython's verdict on `source` as a module (`filename` only names it in messages). */
export function compileCheck(source: string, filename = "<module>"): Promise<CompileVerdict> {
  return helper.check(source, filename);
}

/** Stops the helper process (tests; the next check starts a new one). */
export function stopCompileHelper(): void {
  helper.stop();
}
