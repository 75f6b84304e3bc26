import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, newNonce } from "./content-security-policy";

const directives = (policy: string): Record<string, string[]> =>
  Object.fromEntries(policy.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1)]));

describe("content security policy", () => {
  it("lets only this response's scripts run, frames nothing, and keeps what Monaco needs", () => {
    const policy = directives(contentSecurityPolicy({ nonce: "abc123==", dev: false }));
    expect(policy["script-src"]).toEqual(["'self'", "'nonce-abc123=='", "'strict-dynamic'"]);
    expect(policy["frame-ancestors"]).toEqual(["'none'"]);
    expect(policy["object-src"]).toEqual(["'none'"]);
    expect(policy["worker-src"]).toEqual(["'self'", "blob:"]);
    expect(policy["style-src"]).toEqual(["'self'", "'unsafe-inline'"]);
    expect(Object.values(policy).flat()).not.toContain("'unsafe-eval'");
    expect(
      Object.values(policy)
        .flat()
        .filter((s) => /^https?:/.test(s)),
    ).toEqual([]);
  });

  it("allows eval and the reload socket only under next dev", () => {
    const policy = directives(contentSecurityPolicy({ nonce: "n", dev: true }));
    expect(policy["script-src"]).toContain("'unsafe-eval'");
    expect(policy["connect-src"]).toContain("ws:");
  });

  it("makes a new 128-bit nonce each time", () => {
    const nonces = new Set(Array.from({ length: 50 }, newNonce));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });
});
