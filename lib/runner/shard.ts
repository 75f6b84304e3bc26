/**
 * Static sharding of a batch of runs (`run-agents --shard i/n`): n machines given shards 1/n .. n/n
 * of the same request run every instance exactly once between them, with no queue.
 */
import { z } from "zod";
import { AppError } from "@/lib/errors/app-error";

/** Shard `index` (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

const EXPECTED = "i/n with 1 <= i <= n (e.g. 2/4)";

/** `2/4` as a Shard; what --shard accepts. */
export const ShardSchema = z
  .string()
  .regex(/^\d{1,6}\/\d{1,6}$/, EXPECTED)
  .transform((raw) => {
    const [index, count] = raw.split("/").map(Number) as [number, number];
    return { index, count };
  })
  .refine((shard) => shard.index >= 1 && shard.index <= shard.count, EXPECTED);

/**
 * The rows of one shard: the k-th row by id (0-based) is in shard (k mod n) + 1. Deterministic and
 * balanced (shard sizes differ by at most one), and independent of what already ran, so a shard
 * resumed later is the same shard.
 */
export function inShard<T extends { id: string }>(rows: readonly T[], shard: Shard): T[] {
  const valid = Number.isInteger(shard.index) && Number.isInteger(shard.count) && shard.index >= 1;
  if (!valid || shard.index > shard.count)
    throw new AppError("INVALID_INPUT", `shard ${shard.index}/${shard.count}: expected ${EXPECTED}`);
  const byId = [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return byId.filter((_, k) => k % shard.count === shard.index - 1);
}
