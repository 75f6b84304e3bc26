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
  it("with a declared length, fills one buffer of its own (moved to the worker without a copy)", async () => {
    const body = await readBodyCapped(bodyOf([Buffer.from("ab"), Buffer.from("cd")]), 10, { declaredLength: 4 });
    expect(body.toString()).toBe("abcd");
    expect(body.byteOffset === 0 && body.byteLength === body.buffer.byteLength).toBe(true);
    // A body longer or shorter than said is still read whole and right.
    expect(
      (await readBodyCapped(bodyOf([Buffer.from("ab"), Buffer.from("cd")]), 10, { declaredLength: 3 })).toString(),
    ).toBe("abcd");
    expect((await readBodyCapped(bodyOf([Buffer.from("ab")]), 10, { declaredLength: 5 })).toString()).toBe("ab");
  });

  it("refuses a declared length over the limit before reading anything", async () => {
    const error = await rejectionOf(readBodyCapped(bodyOf([Buffer.alloc(1)]), 10, { declaredLength: 11 }), AppError);
    expect(error.code).toBe("TOO_LARGE");
  });
  it("refuses a body that trickles in past its deadline, and stops reading it", async () => {
    let cancelled = false;
    const trickle = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(Buffer.from("a")); // then nothing more
      },
      cancel() {
        cancelled = true;
      },
    });
    const error = await rejectionOf(readBodyCapped(trickle, 10, { timeoutMs: 50 }), AppError);
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toBe("the request body did not arrive within 0.05 s (STUDIO_IMPORT_TIMEOUT_SECONDS)");
    expect(cancelled).toBe(true);
  });
});
