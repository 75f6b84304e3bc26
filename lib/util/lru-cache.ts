/**
 * A map bounded both ways, least recently used out first: by entries and by an estimate of the
 * bytes held (given by the caller per entry). What is dropped is handed to `onEvict`, if any.
 */
export interface LruLimits {
  entries: number;
  bytes: number;
}

interface Entry<V> {
  value: V;
  bytes: number;
}

export class LruCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private heldBytes = 0;

  constructor(
    private readonly limits: LruLimits,
    private readonly onEvict: ((value: V) => void) | null = null,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores `value` as `bytes`; one larger than the byte bound is not stored (and not evicted). */
  set(key: string, value: V, bytes: number): boolean {
    if (bytes > this.limits.bytes || this.limits.entries < 1) return false;
    const previous = this.entries.get(key);
    if (previous) this.drop(key, previous, previous.value !== value);
    this.entries.set(key, { value, bytes });
    this.heldBytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.limits.entries && this.heldBytes <= this.limits.bytes) break;
      this.drop(oldest, entry);
    }
    return true;
  }

  clear(): void {
    for (const [key, entry] of this.entries) this.drop(key, entry);
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.heldBytes };
  }

  private drop(key: string, entry: Entry<V>, evict = true): void {
    this.entries.delete(key);
    this.heldBytes -= entry.bytes;
    if (evict) this.onEvict?.(entry.value);
  }
}
