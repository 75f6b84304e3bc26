/**
 * SWE-bench predictions, the file the SWE-bench harness evaluates (`--predictions_path`): JSON
 * Lines, or one JSON list, of records `{instance_id, model_name_or_path, model_patch}` (other
 * fields are ignored; `model_patch` may be null or empty for an instance the model gave up on).
 * Each record is one run with no trajectory whose patch is `model_patch` and whose model is
 * `model_name_or_path` (a submission's name as often as a model's; a litellm `provider/` prefix is
 * the provider). The benchmark (SWE-bench, Verified, Lite, Multi-SWE-bench) is not in the records:
 * the file name may say it (`preds_swe-bench-verified.jsonl`), else the import's flags. The patches are
 * not parsed here; a malformed one is reported when the run's files are rebuilt from it.
 */
import { z } from "zod";
import { InstanceIdSchema } from "@/lib/benchmark/schema";
import { MAX_PATCH_BYTES } from "../patch";
import { ForeignFormatError, type ForeignFile, type ForeignFormat } from "../types";
import { benchmarkFromNames, contentProbe, parseJsonDocument, parseJsonLines, parseShape } from "./json-lines";
import { providerOf } from "./openhands-events";
import { repoDiffRun } from "./unified-diff";

const PredictionSchema = z.object({
  instance_id: InstanceIdSchema,
  model_name_or_path: z.string().nullish(),
  model_patch: z.string().nullable(),
});

/**
 * The records of a file as SWE-bench writes them (predictions, datasets): JSON Lines, or one JSON
 * list; each with where it is (`line 3`, `[2]`), unchecked.
 */
export function sweBenchRecords(file: ForeignFile): { where: string; value: unknown }[] {
  if (contentProbe(file).firstChar !== "[") {
    return parseJsonLines(file).map(({ line, value }) => ({ where: `line ${line}`, value }));
  }
  const list = parseJsonDocument(file);
  if (!Array.isArray(list)) throw new ForeignFormatError(file.name, null, "is not a JSON list");
  if (list.length === 0) throw new ForeignFormatError(file.name, null, "is an empty list");
  return list.map((value, i) => ({ where: `[${i}]`, value }));
}

export const sweBenchPredictions: ForeignFormat = {
  id: "swe-bench-predictions",
  label: "SWE-bench predictions (JSON Lines or a JSON list of instance_id, model_name_or_path, model_patch)",
  readerVersion: 1,
  detect(file) {
    const keys = firstRecordKeys(contentProbe(file).head);
    return keys.has("instance_id") && keys.has("model_patch");
  },
  read(file) {
    const benchmark = benchmarkFromNames([file.name]);
    return sweBenchRecords(file).map(({ where, value }, index) => {
      const record = parseShape(PredictionSchema, value, file.name, where);
      const patch = record.model_patch ?? "";
      if (Buffer.byteLength(patch) > MAX_PATCH_BYTES) {
        throw new ForeignFormatError(file.name, `${where}, model_patch`, `is over ${MAX_PATCH_BYTES} bytes`);
      }
      const model = record.model_name_or_path ?? null;
      const nonEmpty = patch.trim() === "" ? null : patch;
      return repoDiffRun({
        index,
        patch: nonEmpty,
        benchmark,
        instanceId: record.instance_id,
        model,
        provider: providerOf(model),
      });
    });
  },
};

/**
 * The keys of the first record of a JSON list or JSON Lines text, scanned from the text's start
 * without parsing it (a record may be cut off by the probe): `{"django__...": {...}}`, a map of
 * predictions by instance, has instance ids for keys, not `model_patch`.
 */
export function firstRecordKeys(head: string): Set<string> {
  const keys = new Set<string>();
  const text = head.trimStart();
  const recordDepth = text.startsWith("[") ? 2 : 1;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      if (end >= text.length) break;
      const name = text.slice(i + 1, end);
      i = end;
      if (depth === recordDepth && /^\s*:/.test(text.slice(end + 1, end + 64))) keys.add(name);
    } else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth < recordDepth) break;
    }
  }
  return keys;
}
