/**
 * `native/sandbox.json`: what the runner records of the sandbox a run had. Written by recordRun
 * after the agent's sandbox has ended (from the runner's own plan and the workspace snapshots, over
 * anything the agent left under that name), and read back by the run page for the guard's gaps and
 * breaches, through this schema: a bundle imported from elsewhere may carry anything there.
 */
import { z } from "zod";
import { GuardRecordSchema } from "@/lib/codekit/mitigation";

export const SANDBOX_RECORD_FILE = "sandbox.json";

export const SandboxRecordSchema = z.strictObject({
  isolated: z.boolean(),
  description: z.string().max(100_000),
  guard: GuardRecordSchema.optional(),
});
export type SandboxRecord = z.infer<typeof SandboxRecordSchema>;

/** The record as stored: one JSON object, indented by one space, and a newline. */
export function sandboxRecordFile(record: SandboxRecord): Buffer {
  return Buffer.from(`${JSON.stringify(record, null, 1)}\n`);
}
