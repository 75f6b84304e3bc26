import { describe, expect, it } from "vitest";
import { LoginThrottle, type SignInAttempt } from "./login-throttle";

const SEC = 1000;
const attacker = (account: string): SignInAttempt => ({ account, client: "203.0.113.9" });
const owner = (account: string): SignInAttempt => ({ account, client: "198.51.100.4" });

/**
 * `n` failed attempts (begun, never succeeded) from `start`, each as soon as the throttle allows
 * it (a patient attacker); returns the time of the last one.
 */
function fail(throttle: LoginThrottle, attempt: SignInAttempt, n: number, start = 0): number {
  let t = start;
  for (let i = 0; i < n; i++) {
    if (i > 0) t += 1;
    for (let d = throttle.begin(attempt, t); !d.allowed; d = throttle.begin(attempt, t)) t += d.retryAfterMs;
  }
  return t;
}

describe("login throttle", () => {
  it("backs off 1 s, 2 s, 4 s ... after five failures, capped at 60 s", () => {
    const throttle = new LoginThrottle();
    expect([4, 5, 6, 7, 8, 10, 11, 30].map((n) => throttle.delayAfter(n))).toEqual([
      0, 1000, 2000, 4000, 8000, 32_000, 60_000, 60_000,
    ]);
    let t = fail(throttle, attacker("admin"), 5);
    expect(throttle.begin(attacker("admin"), t + 999)).toEqual({ allowed: false, retryAfterMs: 1, scope: "client" });
    for (const wait of [1, 2, 4, 8, 16, 32, 60, 60]) {
      t += wait * SEC;
      expect(throttle.begin(attacker("admin"), t - 1).allowed).toBe(false);
      expect(throttle.begin(attacker("admin"), t).allowed).toBe(true);
    }
  });

  it("lets the right password in from a clean client while a stranger is failing on the account", () => {
    const throttle = new LoginThrottle();
    const t = fail(throttle, attacker("admin"), 12);
    expect(throttle.statusOf("admin", t)).toEqual({ failures: 12, retryAfterMs: 60 * SEC });
    expect(throttle.begin(owner("admin"), t + 1)).toEqual({ allowed: true });
    throttle.succeed(owner("admin"));
    expect(throttle.statusOf("admin", t + 2)).toBeNull();
  });

  it("holds the account's backoff for clients that have been failing, and for unknown clients", () => {
    const throttle = new LoginThrottle();
    const typo = { account: "admin", client: "192.0.2.1" };
    fail(throttle, typo, 1);
    const t = fail(throttle, attacker("admin"), 5, 10);
    // The account failed 6 times: 2 s from its last failure, for a client with a failure of its own.
    expect(throttle.begin(typo, t + 500)).toEqual({ allowed: false, retryAfterMs: 1500, scope: "account" });
    expect(throttle.begin({ account: "admin", client: null }, t + 500)).toMatchObject({ scope: "account" });
    expect(throttle.begin(typo, t + 2000).allowed).toBe(true);
  });

  it("a clean client gets one attempt past an account's backoff, not a burst of parallel ones", () => {
    const throttle = new LoginThrottle();
    const t = fail(throttle, attacker("admin"), 8);
    const burst = Array.from({ length: 20 }, () => throttle.begin(owner("admin"), t + 1).allowed);
    expect(burst.filter(Boolean)).toHaveLength(1);
  });

  it("counts an attempt from its start: a parallel burst from one client gets five through", () => {
    const throttle = new LoginThrottle();
    const burst = Array.from({ length: 20 }, (_, i) => throttle.begin(attacker(`user${i}`), 0).allowed);
    expect(burst.filter(Boolean)).toHaveLength(5);
  });

  it("throttles a client spraying many accounts by its own count", () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 5; i++) throttle.begin(attacker(`user${i}`), i);
    expect(throttle.begin(attacker("user99"), 10)).toMatchObject({ allowed: false, scope: "client" });
    expect(throttle.begin(owner("user99"), 10).allowed).toBe(true);
  });

  it("a success clears the account but gives the client back only its own failure", () => {
    const throttle = new LoginThrottle();
    const mine = attacker("mallory");
    fail(throttle, attacker("admin"), 4);
    expect(throttle.begin(mine, 10).allowed).toBe(true);
    throttle.succeed(mine); // mallory's own account, right password
    expect(throttle.statusOf("mallory", 11)).toBeNull();
    // Still four failures on record for this client: the fifth is free, the sixth waits.
    expect(throttle.begin(attacker("admin"), 12).allowed).toBe(true);
    expect(throttle.begin(attacker("admin"), 13)).toMatchObject({ allowed: false, scope: "client" });
  });

  it("forgets a count fifteen minutes after its last failure", () => {
    const throttle = new LoginThrottle();
    const t = fail(throttle, attacker("bob"), 9);
    expect(throttle.begin(attacker("bob"), t + 1).allowed).toBe(false);
    expect(throttle.statusOf("bob", t + 15 * 60 * SEC)).toBeNull();
    expect(throttle.begin(attacker("bob"), t + 15 * 60 * SEC)).toEqual({ allowed: true });
  });

  it("an admin's unlock clears the account's backoff", () => {
    const throttle = new LoginThrottle();
    const typo = { account: "carol", client: null };
    const t = fail(throttle, typo, 9);
    expect(throttle.begin(typo, t + 1).allowed).toBe(false);
    expect(throttle.unlock("carol")).toBe(true);
    expect(throttle.unlock("carol")).toBe(false);
    expect(throttle.begin(typo, t + 1)).toEqual({ allowed: true });
  });

  it("bounds its memory, dropping the least recently touched keys of each map", () => {
    const throttle = new LoginThrottle({ maxEntries: 3 });
    for (const [i, name] of ["a", "b", "c", "d"].entries()) throttle.begin({ account: name, client: `10.0.0.${i}` }, 0);
    expect(throttle.size).toEqual({ accounts: 3, clients: 3 });
    expect(throttle.statusOf("a", 1)).toBeNull();
    expect(throttle.statusOf("d", 1)).toEqual({ failures: 1, retryAfterMs: 0 });
  });
});
