/** Test helper: a loopback server answering every POST with one canned JSON body, recording requests. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface StubServer {
  url: string;
  bodies: unknown[];
  close(): Promise<void>;
}

export async function startStubServer(answer: (index: number) => unknown): Promise<StubServer> {
  const bodies: unknown[] = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (raw += chunk));
    req.on("end", () => {
      bodies.push(JSON.parse(raw) as unknown);
      const text = JSON.stringify(answer(bodies.length - 1));
      res.writeHead(200, { "content-type": "application/json" }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
