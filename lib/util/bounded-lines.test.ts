import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { boundedLines, type BoundedLine } from "./bounded-lines";

async function linesOf(chunks: string[], max: number): Promise<BoundedLine[]> {
  const out: BoundedLine[] = [];
  for await (const line of boundedLines(Readable.from(chunks.map((c) => Buffer.from(c))), max)) out.push(line);
  return out;
}

describe("boundedLines", () => {
  it("splits lines across chunks, drops CR, and keeps a last line without newline", async () => {
    expect(await linesOf(["ab", "c\r\nd", "e\n\nf"], 10)).toEqual([
      { text: "abc", tooLong: false },
      { text: "de", tooLong: false },
      { text: "", tooLong: false },
      { text: "f", tooLong: false },
    ]);
  });

  it("reports a line over the limit by its length without holding it, and goes on", async () => {
    expect(await linesOf(["12345", "6789\nok\n", "x".repeat(20)], 8)).toEqual([
      { bytes: 9, tooLong: true },
      { text: "ok", tooLong: false },
      { bytes: 20, tooLong: true },
    ]);
  });
});
