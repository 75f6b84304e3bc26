import { spawn, spawnSync } from "node:child_process";
import { freePort } from "@/lib/util/free-port";

/** Whether redis-server is installed (Debian: apt-get install redis-server; `npm run setup -- --for test`). */
export const hasRedisServer = spawnSync("sh", ["-c", "command -v redis-server"]).status === 0;

/** A throwaway Redis on a free loopback port, nothing saved; `stop` ends it. */
export async function startRedis(dir: string): Promise<{ url: string; stop(): void }> {
  const port = await freePort();
  const server = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    server.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) resolve();
    });
    server.once("exit", () => reject(new Error(`redis-server exited: ${output}`)));
  });
  return { url: `redis://127.0.0.1:${port}`, stop: () => server.kill("SIGTERM") };
}
