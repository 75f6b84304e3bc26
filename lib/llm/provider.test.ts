import { describe, expect, it } from "vitest";
import { normalizeLlmError } from "./provider";

describe("normalizeLlmError", () => {
  it("maps HTTP statuses and network failures to AppError codes", () => {
    const status = (s: number) => Object.assign(new Error(`{"error":{"code":${s}}}`), { status: s });
    expect(normalizeLlmError("p", status(429)).code).toBe("UNAVAILABLE");
    expect(normalizeLlmError("p", status(408)).code).toBe("UNAVAILABLE");
    expect(normalizeLlmError("p", status(502)).code).toBe("UNAVAILABLE");
    expect(normalizeLlmError("p", status(404)).code).toBe("INVALID_INPUT");
    expect(normalizeLlmError("p", status(401)).code).toBe("INVALID_INPUT");
    const refused = new TypeError("fetch failed", { cause: Object.assign(new Error("x"), { code: "ECONNREFUSED" }) });
    expect(normalizeLlmError("p", refused).code).toBe("UNAVAILABLE");
    expect(normalizeLlmError("p", new Error("something odd")).code).toBe("INTERNAL");
  });
});
