/**
 * Unlock requests from a shell (`npm run users -- unlock`) to the running web server.
 *
 * Sign-in throttling lives in the server's memory (login-throttle.ts), which a CLI process
 * cannot reach; so the CLI appends `{"username","at"}` lines to a small file beside the
 * database, and the server looks at that file (one stat, re-read only when it changed) before
 * each sign-in and whenever the Accounts page is drawn, unlocking every account requested since
 * it last looked. The file keeps only the last hour of requests: an older one has nothing left
 * to unlock, since throttle counts are forgotten after fifteen minutes.
 */
import fs from "node:fs";
import { z } from "zod";

const KEEP_MS = 60 * 60_000;

const UnlockRequestSchema = z.object({ username: z.string().min(1).max(200), at: z.number().int().nonnegative() });
type UnlockRequest = z.infer<typeof UnlockRequestSchema>;

/** Where the requests for the database at `databasePath` go; null for an in-memory database. */
export function unlockRequestsPath(databasePath: string): string | null {
  return databasePath === ":memory:" ? null : `${databasePath}.login-unlocks.jsonl`;
}

function readRequests(file: string): UnlockRequest[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const requests: UnlockRequest[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const parsed = UnlockRequestSchema.safeParse(JSON.parse(line));
      if (parsed.success) requests.push(parsed.data);
    } catch {
      // A torn or foreign line: skipped, the others still count.
    }
  }
  return requests;
}

/** Records a request to unlock `username` (rewrites the file atomically, dropping requests older than an hour). */
export function requestUnlock(file: string, username: string, now: number): void {
  const kept = readRequests(file).filter((r) => now - r.at < KEEP_MS);
  kept.push({ username, at: now });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, kept.map((r) => `${JSON.stringify(r)}\n`).join(""), { mode: 0o600 });
  fs.renameSync(temporary, file);
}

/** The server's side: which accounts were asked to be unlocked since it last looked. */
export class UnlockInbox {
  private seenAt: number;
  private lastStamp = "";

  /** Requests from before `startedAt` are ignored: this process had no throttle state then. */
  constructor(
    private readonly file: string | null,
    startedAt: number,
  ) {
    this.seenAt = startedAt;
  }

  /** Calls `unlock` for each newly requested username. Cheap when nothing changed (one stat). */
  poll(unlock: (username: string) => void): void {
    if (this.file === null) return;
    let stamp: string;
    try {
      const stat = fs.statSync(this.file);
      stamp = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
    } catch {
      return;
    }
    if (stamp === this.lastStamp) return;
    this.lastStamp = stamp;
    let newest = this.seenAt;
    for (const request of readRequests(this.file)) {
      if (request.at <= this.seenAt) continue;
      unlock(request.username);
      newest = Math.max(newest, request.at);
    }
    this.seenAt = newest;
  }
}
