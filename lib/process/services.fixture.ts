/**
 * Test support for services.test.ts: a starter like the demo's serving stage, with two stand-in
 * services instead of `next start` and the worker. Each stand-in starts a grandchild (as `next
 * start` starts next-server) and prints one line of JSON with both pids; the
 * second ignores SIGTERM, so only the SIGKILL after the grace ends it.
 * node --import tsx lib/process/services.fixture.ts
 */
import { serveUntilStopped, type ServiceSpec } from "./services";

const standIn = (name: string, ignoreTerm: boolean) => `
  const { spawn } = require("node:child_process");
  ${ignoreTerm ? 'process.on("SIGTERM", () => {});' : ""}
  const child = spawn(process.execPath, ["-e", ${JSON.stringify(`${ignoreTerm ? 'process.on("SIGTERM", () => {});' : ""} setInterval(() => {}, 1000)`)}], { stdio: "ignore" });
  process.stdout.write(JSON.stringify({ service: ${JSON.stringify(name)}, pid: process.pid, child: child.pid }) + "\\n");
  setInterval(() => {}, 1000);
`;

const specs: ServiceSpec[] = [
  { name: "server", file: process.execPath, args: ["-e", standIn("server", false)] },
  { name: "worker", file: process.execPath, args: ["-e", standIn("worker", true)] },
];

process.stdout.write(`${JSON.stringify({ starter: process.pid })}\n`);
process.exitCode = await serveUntilStopped(specs, {
  graceMs: 300,
  parentPollMs: 100,
  onStop: (why) => process.stdout.write(`${JSON.stringify({ stopped: why })}\n`),
});
