import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import readline from "node:readline";
import { afterEach, describe, expect, it } from "vitest";

const FIXTURE = "lib/process/services.fixture.ts";

/** A process that exists and is not a zombie (an orphan's zombie lingers until init reaps it). */
function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  // A bound for a hung test, not a speed check: stopping takes well under a second here.
  for (let i = 0; i < 200; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`still waiting for ${what}`);
}

interface Started {
  process: ChildProcess;
  starter: number;
  /** Every pid below the starter: the guards' commands and their children. */
  services: number[];
  lines: string[];
}

const spawned: ChildProcess[] = [];
afterEach(() => {
  for (const child of spawned.splice(0)) if (child.pid && running(child.pid)) child.kill("SIGKILL");
});

/** Starts the fixture (directly, or under `sh` so the test can kill the starter's parent). */
async function start(viaShell: boolean): Promise<Started> {
  const script = viaShell ? `node --import tsx ${FIXTURE} & wait` : `exec node --import tsx ${FIXTURE}`;
  const child = spawn("sh", ["-c", script], { stdio: ["ignore", "pipe", "inherit"] });
  spawned.push(child);
  const lines: string[] = [];
  const reader = readline.createInterface({ input: child.stdout! });
  let starter = 0;
  const services: number[] = [];
  await new Promise<void>((resolve, reject) => {
    reader.on("line", (line) => {
      lines.push(line);
      const message = JSON.parse(line) as { starter?: number; pid?: number; child?: number };
      if (message.starter) starter = message.starter;
      if (message.pid && message.child) services.push(message.pid, message.child);
      if (starter && services.length === 4) resolve();
    });
    child.once("exit", () => reject(new Error(`the starter exited early: ${lines.join("\n")}`)));
  });
  return { process: child, starter, services, lines };
}

describe("services started together stop together", () => {
  it("SIGTERM to the starter stops every service and its children, the stubborn one after the grace", async () => {
    const started = await start(false);
    expect(started.services.every(running)).toBe(true);
    const exit = new Promise<number | null>((resolve) => started.process.once("exit", (code) => resolve(code)));
    process.kill(started.starter, "SIGTERM");
    expect(await exit).toBe(143);
    expect(started.lines).toContain(JSON.stringify({ stopped: "SIGTERM" }));
    await until(() => !started.services.some(running), "the services to stop");
  });

  it("SIGKILL of the starter: each guard sees its pipe close and stops its service", async () => {
    const started = await start(false);
    process.kill(started.starter, "SIGKILL");
    await until(() => !running(started.starter), "the starter to die");
    await until(() => !started.services.some(running), "the services to stop");
  });

  it("the starter's parent dying: the starter notices, stops the services and exits", async () => {
    const started = await start(true);
    process.kill(started.process.pid!, "SIGKILL");
    await until(() => !running(started.starter), "the starter to exit");
    await until(() => !started.services.some(running), "the services to stop");
  });
});
