/**
 * Test support for sandbox-orphan.test.ts: a runner process that starts one sandboxed command
 * (`sleep` with a marker) and prints "started"; the test then kills this process with SIGKILL.
 * node --import tsx lib/runner/sandbox-orphan.fixture.ts WORKSPACE RUN_DIR MARKER
 */
import { createSandbox } from "./sandbox";

const [workspaceDir, runDir, marker] = process.argv.slice(2);
const sandbox = await createSandbox({ workspaceDir: workspaceDir!, runDir: runDir! });
void sandbox.run(`sleep ${marker}`, { timeoutMs: 60_000, maxOutputBytes: 1_000 });
process.stdout.write("started\n");
