/**
 * Sign-in rate limit per username: after `maxFailures` failed attempts within `windowMs`, every
 * attempt for that username is refused for `lockMs` (correct password or not).
 *
 * An attempt counts as failed from the moment it starts (`begin`) until it succeeds (`succeed`
 * clears the username): so a burst of parallel guesses cannot all slip past the check while the
 * slow password hash runs. Keyed by the username as typed (lower-cased), whether or not the
 * account exists, so the limit says nothing about which accounts exist.
 *
 * State lives in memory: it is per server process and forgotten on restart, which suits one
 * `next start` on a lab machine. A shared store would be needed behind several processes.
 */
export interface ThrottleOptions {
  maxFailures: number;
  windowMs: number;
  lockMs: number;
  /** Entries kept at most; the oldest are dropped first (bounds memory under a username spray). */
  maxEntries: number;
}

export const LOGIN_THROTTLE_DEFAULTS: Readonly<ThrottleOptions> = {
  maxFailures: 5,
  windowMs: 10 * 60_000,
  lockMs: 10 * 60_000,
  maxEntries: 10_000,
};

interface Entry {
  /** Start times of failed (or still running) attempts within the window, oldest first. */
  failures: number[];
  lockedUntil: number;
}

export type ThrottleDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

export class LoginThrottle {
  private readonly entries = new Map<string, Entry>();
  private readonly options: ThrottleOptions;

  constructor(options: Partial<ThrottleOptions> = {}) {
    this.options = { ...LOGIN_THROTTLE_DEFAULTS, ...options };
  }

  /** Checks `key` and, when allowed, counts the attempt as failed until `succeed` says otherwise. */
  begin(key: string, now: number): ThrottleDecision {
    const entry = this.current(key, now);
    if (entry.lockedUntil > now) return { allowed: false, retryAfterMs: entry.lockedUntil - now };
    entry.failures.push(now);
    if (entry.failures.length >= this.options.maxFailures) {
      entry.lockedUntil = now + this.options.lockMs;
      entry.failures = [];
    }
    this.store(key, entry);
    return { allowed: true };
  }

  /** The attempt was right: its username starts afresh. */
  succeed(key: string): void {
    this.entries.delete(key);
  }

  /** Usernames tracked now (for tests). */
  get size(): number {
    return this.entries.size;
  }

  private current(key: string, now: number): Entry {
    const entry = this.entries.get(key) ?? { failures: [], lockedUntil: 0 };
    const since = now - this.options.windowMs;
    entry.failures = entry.failures.filter((t) => t > since);
    return entry;
  }

  private store(key: string, entry: Entry): void {
    // Re-inserted last: Map order is then oldest-touched first.
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}
