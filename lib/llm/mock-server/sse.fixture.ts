/** Test helpers: read a server-sent event stream exactly as it came over the wire. */

export interface SseEvent {
  /** The `event:` line, or null when the event had none. */
  event: string | null;
  /** The `data:` payload as sent (JSON text, or `[DONE]`). */
  data: string;
}

/** Splits an SSE body into events; every event must end with a blank line. */
export function parseSse(body: string): SseEvent[] {
  if (body !== "" && !body.endsWith("\n\n")) throw new Error("the stream does not end with a blank line");
  return body
    .split("\n\n")
    .filter((block) => block !== "")
    .map((block) => {
      let event: string | null = null;
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) event = line.slice("event: ".length);
        else if (line.startsWith("data: ")) data.push(line.slice("data: ".length));
        else throw new Error(`unexpected SSE line: ${line}`);
      }
      return { event, data: data.join("\n") };
    });
}

/** The JSON payloads of the events (a `[DONE]` marker is skipped). */
export const sseJson = (events: SseEvent[]) =>
  events.filter((e) => e.data !== "[DONE]").map((e) => JSON.parse(e.data) as Record<string, unknown>);

export async function postRaw(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { response, text: await response.text() };
}
