/**
 * AST reports of recently analyzed sources, by content hash: every run of an instance compares
 * against the same original file, so its report is made once per process instead of once per run
 * (on real ~300-line files one report costs tens of milliseconds, most of a pair's time).
 *
 * Bounded both ways, least recently used out first: by entries and by an estimate of the bytes
 * held (the source's and the report's JSON length). Cached reports are frozen: a caller that
 * tried to change one would change every later run's original.
 */
import { createHash } from "node:crypto";
import type { DecodedSource } from "./ast-report";
import type { AstReport } from "./schema";

export interface ReportCacheLimits {
  entries: number;
  bytes: number;
}

/** 256 originals of a few hundred lines, or fewer larger ones: tens of MB at most. */
export const REPORT_CACHE_LIMITS: ReportCacheLimits = { entries: 256, bytes: 64 * 1024 * 1024 };

interface Entry {
  report: AstReport;
  bytes: number;
}

export class ReportCache {
  private readonly entries = new Map<string, Entry>();
  private heldBytes = 0;

  constructor(private readonly limits: ReportCacheLimits = REPORT_CACHE_LIMITS) {}

  /** The key of a decoded source: its text and what decoding found (a BOM, an encoding error). */
  static keyOf(decoded: DecodedSource): string {
    const hash = createHash("sha256").update(decoded.text).digest("hex");
    const encoding = decoded.encodingError ? `e${decoded.encodingError.offset}` : "";
    return `${decoded.hasBom ? "b" : ""}${encoding}:${hash}`;
  }

  get(key: string): AstReport | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.report;
  }

  /** Stores a report (frozen) and returns it; one larger than the byte bound is returned unstored. */
  set(key: string, report: AstReport, sourceLength: number): AstReport {
    const frozen = deepFreeze(report);
    const bytes = sourceLength + JSON.stringify(report).length;
    if (bytes > this.limits.bytes || this.limits.entries < 1) return frozen;
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.heldBytes -= previous.bytes;
    }
    this.entries.set(key, { report: frozen, bytes });
    this.heldBytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.limits.entries && this.heldBytes <= this.limits.bytes) break;
      this.entries.delete(oldest);
      this.heldBytes -= entry.bytes;
    }
    return frozen;
  }

  clear(): void {
    this.entries.clear();
    this.heldBytes = 0;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.heldBytes };
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** The process's cache, used by evaluateCodeLevel. */
export const reportCache = new ReportCache();

/** Empties the process's cache (a benchmark's repetitions each start as a fresh process would). */
export function clearReportCache(): void {
  reportCache.clear();
}
