/**
 * Test support, run as a child process (heap-fill.test.ts) so a crash cannot take the test
 * runner with it: parses a heap-filling bundle (hostile-archives.fixture.ts) in an import worker with the
 * JSON budget lifted, and prints what the pool answered. Arguments: heap cap in MB, MiB of `{},`,
 * MiB of newlines.
 */
import { httpStatusOf } from "@/lib/errors/app-error";
import { withHeapFilling } from "./hostile-archives.fixture";
import { sourceImportPool } from "./import-pool.fixture";
import { DEFAULT_READ_LIMITS } from "./read";
import { generatedBundle, tarBuffer, tarEntriesOf } from "./test-support";

const [capMb, fillMib, newlineMib] = process.argv.slice(2).map(Number) as [number, number, number];
const MiB = 1024 * 1024;
const files = withHeapFilling(generatedBundle({ index: 6, seed: 4 }), fillMib * MiB, newlineMib * MiB);
const pool = sourceImportPool({ maxConcurrent: 1, workerMemoryMb: capMb, timeoutMs: 120_000 });
const limits = { ...DEFAULT_READ_LIMITS, maxJsonBytes: Number.MAX_SAFE_INTEGER };

const reply = await pool.parse({ data: tarBuffer(tarEntriesOf(files)), kind: "tar", label: "heap.tar", limits }).then(
  () => ({ answer: 200, message: "" }),
  (error: unknown) => ({
    answer: httpStatusOf(error),
    message: error instanceof Error ? error.message : String(error),
  }),
);
process.stdout.write(`${JSON.stringify(reply)}\n`);
