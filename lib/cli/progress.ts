/** Progress lines for long CLI work: counts, rate and ETA. Redraws in place on a terminal. */
export interface ProgressSnapshot {
  done: number;
  total: number;
  failed: number;
  elapsedMs: number;
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "?";
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}m`;
}

export function formatProgress(label: string, p: ProgressSnapshot): string {
  const percent = p.total === 0 ? 100 : Math.floor((p.done / p.total) * 100);
  const rate = p.elapsedMs > 0 ? (p.done / p.elapsedMs) * 1000 : 0;
  const eta = rate > 0 ? formatDuration(((p.total - p.done) / rate) * 1000) : "?";
  const failed = p.failed > 0 ? `, ${p.failed} failed` : "";
  return `${label} ${p.done}/${p.total} (${percent}%${failed}) ${rate.toFixed(1)}/s, elapsed ${formatDuration(p.elapsedMs)}, ETA ${eta}`;
}

export interface ProgressReporter {
  tick(failed?: boolean): void;
  /** `count` items done at once (a batch): the rate counts them together, not the first alone. */
  add(count: number): void;
  finish(): void;
}

export function createProgress(
  label: string,
  total: number,
  stream: NodeJS.WriteStream = process.stderr,
  now: () => number = Date.now,
): ProgressReporter {
  const start = now();
  let done = 0;
  let failed = 0;
  let lastPrint = 0;
  const interactive = Boolean(stream.isTTY);
  const snapshot = () => ({ done, total, failed, elapsedMs: now() - start });
  const print = (final: boolean) => {
    const line = formatProgress(label, snapshot());
    if (interactive) stream.write(`\r\x1b[2K${line}${final ? "\n" : ""}`);
    else stream.write(`${line}\n`);
  };
  // A terminal redraws often; a log file gets a line every 2 seconds.
  const maybePrint = () => {
    const t = now();
    if (t - lastPrint >= (interactive ? 100 : 2000) && done < total) {
      lastPrint = t;
      print(false);
    }
  };
  return {
    tick(didFail = false) {
      done += 1;
      if (didFail) failed += 1;
      maybePrint();
    },
    add(count) {
      done += count;
      maybePrint();
    },
    finish() {
      print(true);
    },
  };
}
