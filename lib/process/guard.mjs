/**
 * node guard.mjs GRACE_MS -- FILE [ARG...]
 * Runs FILE in a process group of its own and ends that whole group (SIGTERM, then SIGKILL after
 * GRACE_MS) when this guard is told to stop (SIGTERM, SIGINT, SIGHUP) or when its stdin closes.
 * Its parent holds the other end of stdin: when the parent dies, even by SIGKILL, the kernel
 * closes it and the group goes too (Node has no prctl(PR_SET_PDEATHSIG), and that would reach
 * the direct child only, not `next start`'s or a CLI's own children). When FILE exits, whatever
 * it left in its group is killed and the guard exits with FILE's status (128 + signal number).
 * Plain JavaScript, so it starts in ~40 ms with no TypeScript loader.
 */
import { spawn } from "node:child_process";
import { constants } from "node:os";

const [graceArg, separator, file, ...args] = process.argv.slice(2);
const graceMs = Number(graceArg);
if (!Number.isFinite(graceMs) || separator !== "--" || !file) {
  process.stderr.write("usage: node guard.mjs GRACE_MS -- FILE [ARG...]\n");
  process.exit(2);
}

const child = spawn(file, args, { detached: true, stdio: ["ignore", "inherit", "inherit"] });
let stopping = false;
let escalation;

const signalGroup = (signal) => {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group is gone already.
  }
};

const stop = () => {
  if (stopping || child.pid === undefined) return;
  stopping = true;
  signalGroup("SIGTERM");
  escalation = setTimeout(() => signalGroup("SIGKILL"), graceMs);
};

for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, stop);
process.stdin.on("end", stop);
process.stdin.on("error", stop);
process.stdin.resume();

child.on("error", (error) => {
  process.stderr.write(`guard: cannot start ${file}: ${error.message}\n`);
  process.exit(127);
});
child.on("exit", (code, signal) => {
  clearTimeout(escalation);
  signalGroup("SIGKILL");
  process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
});
