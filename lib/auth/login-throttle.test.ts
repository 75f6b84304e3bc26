import { describe, expect, it } from "vitest";
import { LoginThrottle } from "./login-throttle";

const MIN = 60_000;

describe("login throttle", () => {
  it("allows five failed attempts, then refuses for ten minutes", () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 5; i++) expect(throttle.begin("alice", i * 1000)).toEqual({ allowed: true });
    expect(throttle.begin("alice", 5000)).toEqual({ allowed: false, retryAfterMs: 10 * MIN - 1000 });
    expect(throttle.begin("alice", 4000 + 10 * MIN - 1)).toEqual({ allowed: false, retryAfterMs: 1 });
    expect(throttle.begin("alice", 4000 + 10 * MIN)).toEqual({ allowed: true });
  });

  it("counts only failures within the last ten minutes", () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 4; i++) throttle.begin("bob", 0);
    // the four old ones have left the window: four more are allowed, the fifth locks
    for (let i = 0; i < 5; i++) expect(throttle.begin("bob", 10 * MIN + 1 + i).allowed).toBe(true);
    expect(throttle.begin("bob", 10 * MIN + 10).allowed).toBe(false);
  });

  it("a success clears the username's failures", () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 4; i++) throttle.begin("carol", i);
    throttle.begin("carol", 10);
    throttle.succeed("carol"); // the fifth attempt was right
    for (let i = 0; i < 5; i++) expect(throttle.begin("carol", 20 + i).allowed).toBe(true);
    expect(throttle.begin("carol", 30).allowed).toBe(false);
  });

  it("counts an attempt from its start: a parallel burst cannot outrun the check", () => {
    const throttle = new LoginThrottle();
    const decisions = Array.from({ length: 20 }, () => throttle.begin("dave", 0).allowed);
    expect(decisions.filter(Boolean)).toHaveLength(5);
  });

  it("keeps usernames apart", () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 5; i++) throttle.begin("erin", 0);
    expect(throttle.begin("erin", 1).allowed).toBe(false);
    expect(throttle.begin("frank", 1).allowed).toBe(true);
  });

  it("bounds its memory, dropping the least recently touched usernames", () => {
    const throttle = new LoginThrottle({ maxEntries: 3 });
    for (const name of ["a", "b", "c", "d"]) throttle.begin(name, 0);
    expect(throttle.size).toBe(3);
  });
});
