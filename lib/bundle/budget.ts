/**
 * The byte budget of one archive's decompression. Every byte that comes out of gunzip (a tar's
 * blocks) or out of a zip member's inflater is counted as it arrives, and reading stops with a
 * "too large" error the moment the count passes the budget, so a bomb costs at most the budget,
 * never its inflated size: 4 GiB of zeros are a 4.2 MB upload.
 */
import { BundleError } from "./errors";
import type { ReadLimits } from "./read";

/** What a read consumed; tests and benchmarks pass one in to see that a bomb was not inflated. */
export interface ReadStats {
  /** Bytes of the archive itself (compressed). */
  archiveBytes: number;
  /** Bytes that came out of the decompressor (or of the file, for a plain .tar). */
  inflatedBytes: number;
}

/**
 * Inflated bytes per archive byte allowed. Bundles are JSON and source text: the runner's own
 * gzip 4-7x, synthetic ones 10x, a 37 MB trajectory of 200,000 similar tool calls 21x; zeros
 * gzip 1,000x. An import holds what it inflates (its members are buffers), so this is also what
 * an upload may cost the server per byte: 100 let a 6.4 MB upload of 85x members hold 480 MiB.
 * Only a bundle of over RATIO_FLOOR_BYTES made of one line repeated (257x) needs a higher setting.
 */
export const DEFAULT_MAX_RATIO = 32;

/** Below this many inflated bytes the ratio is not checked: tiny archives are mostly padding. */
export const RATIO_FLOOR_BYTES = 16 * 1024 * 1024;

/** A tar member costs a 512-byte header and up to 511 bytes of padding besides its content. */
const TAR_BLOCK_OVERHEAD_PER_MEMBER = 1536;
const TAR_END_BYTES = 1024 * 1024;

export class InflateBudget {
  /** Most member bytes the archive may declare: its size times the ratio (or the floor). */
  readonly declaredCap: number;
  /** Most bytes the decompressor may produce, members plus tar headers and padding. */
  readonly streamCap: number;
  readonly stats: ReadStats;

  constructor(
    private readonly label: string,
    private readonly limits: ReadLimits,
    archiveBytes: number,
    stats?: ReadStats,
  ) {
    this.stats = stats ?? { archiveBytes: 0, inflatedBytes: 0 };
    this.stats.archiveBytes = archiveBytes;
    this.stats.inflatedBytes = 0;
    this.declaredCap = Math.max(RATIO_FLOOR_BYTES, this.maxRatio * archiveBytes);
    this.streamCap =
      Math.min(limits.maxBundleBytes, this.declaredCap) +
      limits.maxMembers * TAR_BLOCK_OVERHEAD_PER_MEMBER +
      TAR_END_BYTES;
  }

  private get maxRatio(): number {
    return this.limits.maxRatio ?? DEFAULT_MAX_RATIO;
  }

  /** Counts `bytes` more out of the decompressor; throws once past the stream cap. */
  add(bytes: number): void {
    this.stats.inflatedBytes += bytes;
    if (this.stats.inflatedBytes > this.streamCap) {
      const ratioBound = this.declaredCap < this.limits.maxBundleBytes;
      throw new BundleError(
        { bundle: this.label },
        ratioBound
          ? `archive inflates past ${this.streamCap} bytes, over ${this.maxRatio} times its ${this.stats.archiveBytes} bytes (STUDIO_BUNDLE_MAX_RATIO)`
          : `archive inflates past ${this.streamCap} bytes (STUDIO_BUNDLE_MAX_BYTES)`,
        "TOO_LARGE",
      );
    }
  }

  /** The members' declared sizes so far, checked before the next one is inflated. */
  checkDeclared(total: number, member: string): void {
    if (total <= this.declaredCap) return;
    throw new BundleError(
      { bundle: this.label, member },
      `members declare ${total} bytes from an archive of ${this.stats.archiveBytes}: over ${this.maxRatio} times its size (STUDIO_BUNDLE_MAX_RATIO)`,
      "TOO_LARGE",
    );
  }
}
