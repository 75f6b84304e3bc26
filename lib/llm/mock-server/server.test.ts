import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { scriptFromTurns, startMockModelServer, type MockModelServer, type MockScript } from "./index";
import { postRaw } from "./sse.fixture";

let server: MockModelServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});
async function start(script: MockScript) {
  server = await startMockModelServer({ script });
  return server;
}

const chatBody = (assistantTurns: number, stream = false) => ({
  model: "m",
  stream,
  messages: [
    { role: "user", content: "go" },
    ...Array.from({ length: assistantTurns }, () => [
      { role: "assistant", content: "step" },
      { role: "user", content: "next" },
    ]).flat(),
  ],
});

describe("mock model server", () => {
  it("closes the connection after an SSE answer even when the client keeps connections alive", async () => {
    const s = await start(() => ({ text: "hello" }));
    const { port } = new URL(s.url);
    const outcome = await new Promise<{ connection: string | undefined; body: string; socketClosed: boolean }>(
      (resolve, reject) => {
        const req = request(
          {
            host: "127.0.0.1",
            port,
            path: "/v1/chat/completions",
            method: "POST",
            headers: { connection: "keep-alive" },
          },
          (res) => {
            let body = "";
            res.setEncoding("utf8");
            res.on("data", (chunk: string) => (body += chunk));
            res.on("end", () => {
              req.socket?.once("close", () =>
                resolve({ connection: res.headers.connection, body, socketClosed: true }),
              );
              if (req.socket?.destroyed) resolve({ connection: res.headers.connection, body, socketClosed: true });
            });
          },
        );
        req.on("error", reject);
        req.end(JSON.stringify(chatBody(0, true)));
      },
    );
    expect(outcome.connection).toBe("close");
    expect(outcome.socketClosed).toBe(true);
    expect(outcome.body.endsWith("data: [DONE]\n\n")).toBe(true);
  });

  it("serves interleaved conversations from one script without them interfering", async () => {
    const s = await start(scriptFromTurns([{ text: "t0" }, { text: "t1" }, { text: "t2" }]));
    const answers = await Promise.all(
      [2, 0, 1, 2, 0].map(async (turns) => {
        const { text } = await postRaw(`${s.url}/v1/chat/completions`, chatBody(turns));
        return (JSON.parse(text) as { choices: { message: { content: string } }[] }).choices[0]?.message.content;
      }),
    );
    expect(answers).toEqual(["t2", "t0", "t1", "t2", "t0"]);
    expect(s.requests).toHaveLength(5);
  });

  it("waits for delayMs; a client giving up meanwhile does not disturb the server", async () => {
    const s = await start(() => ({ text: "late", delayMs: 300 }));
    const started = Date.now();
    const aborted = await fetch(`${s.url}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify(chatBody(0)),
      signal: AbortSignal.timeout(50),
    }).catch((e: unknown) => e);
    expect((aborted as Error).name).toBe("TimeoutError");
    const { text } = await postRaw(`${s.url}/v1/chat/completions`, chatBody(0));
    expect(text).toContain("late");
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });

  it("answers 500 in the protocol's shape when the script throws, and 404 off its routes", async () => {
    const s = await start(() => {
      throw new Error("bad script");
    });
    const failed = await postRaw(`${s.url}/v1/messages`, { model: "m", messages: [{ role: "user", content: "x" }] });
    expect(failed.response.status).toBe(500);
    expect(JSON.parse(failed.text)).toMatchObject({
      type: "error",
      error: { type: "api_error", message: expect.stringContaining("bad script") },
    });
    expect((await postRaw(`${s.url}/v2/anything`, {})).response.status).toBe(404);
    const get = await fetch(`${s.url}/v1/responses`);
    expect(get.status).toBe(405);
  });
});
