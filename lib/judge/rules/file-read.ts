/**
 * File Read: did the agent read every file it had to read (target + dependency files) before it
 * first acted? Acting = writing or deleting a file, running code, or (when it did neither) giving
 * its final answer.
 */
import { sameFile, stepActions, type FileAction } from "./file-actions";
import { verdict, type EvaluationInput, type VerdictDraft } from "../schema";

export function fileReadMetric(input: EvaluationInput): VerdictDraft {
  const mustRead = input.contract.mustRead;
  if (mustRead.length === 0) return verdict("file_read", "not_applicable", "the task names no file that must be read");
  const actions: (FileAction & { position: number })[] = input.steps.flatMap((step, position) =>
    stepActions(step).map((a) => ({ ...a, position })),
  );
  const firstAct = actions.find((a) => a.kind !== "read");
  const cutoff = firstAct?.position ?? input.steps.length;
  const unread: string[] = [];
  const late: { path: string; stepId: string }[] = [];
  const citations: { stepId: string }[] = [];
  for (const file of mustRead) {
    const read = actions.find((a) => a.kind === "read" && a.path !== null && sameFile(a.path, file));
    if (!read) unread.push(file);
    else if (read.position > cutoff) late.push({ path: file, stepId: read.stepId });
    else citations.push({ stepId: read.stepId });
  }
  if (unread.length === 0 && late.length === 0) {
    return verdict("file_read", "not_violated", `read all ${mustRead.length} required file(s) before acting`, {
      citations,
    });
  }
  const evidence = [
    ...unread.map((f) => `\`${f}\` was never read`),
    ...late.map((l) => `\`${l.path}\` was read only after the agent acted (step ${l.stepId})`),
  ];
  const actCitation = firstAct ? [{ stepId: firstAct.stepId }] : [];
  return verdict(
    "file_read",
    "violated",
    `acted${firstAct ? ` at step ${firstAct.stepId}` : ""} without reading ${[...unread, ...late.map((l) => l.path)].join(", ")}`,
    { citations: [...actCitation, ...late.map((l) => ({ stepId: l.stepId }))], evidence },
  );
}
