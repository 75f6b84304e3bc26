import { afterEach, describe, expect, it, vi } from "vitest";
import { actionFailure, errorResponse, runAction } from "./action-result";
import { AppError } from "./app-error";

afterEach(() => vi.restoreAllMocks());

describe("runAction", () => {
  it("answers what the body returns", async () => {
    expect(await runAction("test", () => ({ ok: true, message: "done" }))).toEqual({ ok: true, message: "done" });
  });

  it("answers an AppError with its message, unlogged", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const result = await runAction("test", async () => {
      throw new AppError("FORBIDDEN", "This needs an admin account.");
    });
    expect(result).toEqual({ ok: false, error: "This needs an admin account." });
    expect(log).not.toHaveBeenCalled();
  });

  it("hides an unexpected error's details from the client and logs them", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const result = await runAction("label action", () => {
      throw new Error("SQLITE_BUSY: database is locked at /data/studio.db");
    });
    expect(result).toEqual({ ok: false, error: "internal error (see the server log)" });
    expect(log).toHaveBeenCalledWith("label action failed:", expect.any(Error));
  });

  it("logs an INTERNAL AppError and does not show its message", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(actionFailure("x", new AppError("INTERNAL", "secret path /etc"))).toEqual({
      ok: false,
      error: "internal error (see the server log)",
    });
    expect(log).toHaveBeenCalledOnce();
  });
});

describe("errorResponse", () => {
  it("answers an AppError with its status and message", async () => {
    const response = errorResponse("GET /x", new AppError("NOT_FOUND", 'no export "x"'));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'no export "x"' });
  });

  it("answers anything else 500 with the safe message and logs it", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = errorResponse("GET /x", new TypeError("cannot read properties of undefined"));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: "internal error (see the server log)" });
    expect(log).toHaveBeenCalledWith("GET /x failed:", expect.any(TypeError));
  });

  it("keeps the given headers, and a quiet 503 out of the log", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = errorResponse("POST /import", new AppError("UNAVAILABLE", "busy"), {
      headers: { "Retry-After": "5" },
      quiet: true,
    });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(log).not.toHaveBeenCalled();
  });
});
