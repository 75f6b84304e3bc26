import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors/app-error";
import { readBodyCapped } from "./import-request";
import { rejectionOf } from "./test-support";

function bodyOf(chunks: Uint8Array[], failAtEnd?: Error): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      if (failAtEnd) controller.error(failAtEnd);
      else controller.close();
    },
  });
}

describe("reading an import's body", () => {
  it("joins the chunks", async () => {
    const body = await readBodyCapped(bodyOf([Buffer.from("ab"), Buffer.from("cd")]), 10);
    expect(body.toString()).toBe("abcd");
  });

  it("stops once over the limit", async () => {
    const error = await rejectionOf(readBodyCapped(bodyOf([Buffer.alloc(8), Buffer.alloc(8)]), 10), AppError);
    expect(error.code).toBe("TOO_LARGE");
  });

  it("answers a body cut off by the client with a 400, not an internal error", async () => {
    const aborted = Object.assign(new Error("aborted"), { code: "ECONNRESET" });

    const error = await rejectionOf(readBodyCapped(bodyOf([Buffer.alloc(4)], aborted), 10), AppError);

    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toBe("the request body was cut off before its end");
  });
});
