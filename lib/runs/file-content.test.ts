import { describe, expect, it } from "vitest";
import { decodeText, diffPlan, languageOf } from "./file-content";

const text = (size: number) => ({ state: "stored" as const, size, isText: true });

describe("diffPlan", () => {
  it("loads text sides, an absent side counting as empty", () => {
    expect(diffPlan(text(10), text(20))).toEqual({ status: "load", bytes: 30 });
    expect(diffPlan({ state: "absent" }, text(5))).toEqual({ status: "load", bytes: 5 });
    expect(diffPlan(text(5), { state: "absent" })).toEqual({ status: "load", bytes: 5 });
  });

  it("shows a note for binary, oversized and missing contents", () => {
    expect(diffPlan(text(10), { state: "stored", size: 10, isText: false })).toEqual({ status: "binary" });
    expect(diffPlan(text(10), text(101), 100)).toEqual({ status: "too_large", limitBytes: 100 });
    expect(diffPlan({ state: "missing" }, text(10))).toEqual({ status: "missing" });
    const notKept = { status: "not_kept", beforeSha256: null, afterSha256: null };
    expect(diffPlan(text(10), { state: "not_kept" })).toEqual(notKept);
    expect(diffPlan({ state: "not_kept" }, { state: "missing" })).toEqual(notKept);
  });
});

describe("decodeText and languageOf", () => {
  it("decodes UTF-8 text and refuses NULs and invalid bytes", () => {
    expect(decodeText(Buffer.from("naïve = 1\n"))).toBe("naïve = 1\n");
    expect(decodeText(Buffer.from([0x61, 0x00, 0x62]))).toBeNull();
    expect(decodeText(Buffer.from([0xff, 0xfe, 0x41]))).toBeNull();
  });

  it("highlights Python files as Python and the rest as plain text", () => {
    expect(languageOf("pkg/a.py")).toBe("python");
    expect(languageOf("stubs/a.PYI")).toBe("python");
    expect(languageOf("README.md")).toBe("plaintext");
  });
});
