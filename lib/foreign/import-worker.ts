/**
 * The foreign-log import worker's entry: detects the format of one log (or takes the forced one),
 * reads its runs into parsed bundles and posts them back with their warnings and per-run errors.
 * Started by import-in-worker.ts, one worker per import; docs/foreign-runs.md, section "HTTP".
 */
import { parentPort, workerData } from "node:worker_threads";
import { memberBuffersOf, postedError } from "@/lib/bundle/import-pool";
import { AppError } from "@/lib/errors/app-error";
import { detectFormat, FOREIGN_FORMATS } from "./formats";
import { foreignBundles } from "./import";
import type { ForeignJob, ForeignReply } from "./import-in-worker";

async function run(job: ForeignJob): Promise<ForeignReply> {
  try {
    const file = { name: job.label, data: Buffer.from(job.data.buffer, job.data.byteOffset, job.data.byteLength) };
    if (job.format === null && !detectFormat(file)) {
      throw new AppError(
        "INVALID_INPUT",
        `the body is neither a run bundle archive (.tar.gz, .tar, .zip) nor a log of a known agent (${FOREIGN_FORMATS.map((f) => f.id).join(", ")}); say which with ?format=`,
      );
    }
    const ours = new Map(job.ourInstances.map((ref) => [ref.id, ref]));
    const outcomes = await foreignBundles([file], {
      format: job.format,
      benchmark: job.benchmark,
      ourInstance: (id) => ours.get(id) ?? null,
    });
    return { ok: true, outcomes };
  } catch (error) {
    return { ok: false, error: postedError(error) };
  }
}

function transferablesOf(reply: ForeignReply): ArrayBuffer[] {
  if (!reply.ok) return [];
  return memberBuffersOf(reply.outcomes.flatMap((outcome) => (outcome.ok ? [outcome.bundle] : [])));
}

void run(workerData as ForeignJob).then((reply) => parentPort?.postMessage(reply, transferablesOf(reply)));
