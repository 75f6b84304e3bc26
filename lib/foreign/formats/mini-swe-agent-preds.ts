/**
 * SWE-bench predictions as one JSON object keyed by instance (`preds.json`, written by
 * mini-swe-agent's and SWE-agent's batch runners): `{"<instance_id>": {model_name_or_path,
 * instance_id, model_patch}}`. Each entry is one run with its patch and no trajectory (steps [],
 * hasTrajectory false). Both tools write the same shape, so the framework is not known ("unknown");
 * the benchmark is SWE-bench, which is what both runners write these files for, unless the file
 * name says a more specific one (`preds_swe-bench-verified.json`).
 */
import { z } from "zod";
import type { ForeignFile, ForeignFormat, ForeignRun } from "../types";
import { benchmarkFromNames, contentProbe, parseJsonDocument, parseShape } from "./json-lines";
import { providerOf } from "./openhands-events";
import { repoDiffRun } from "./unified-diff";

const PredictionSchema = z.looseObject({
  model_name_or_path: z.string().nullish(),
  instance_id: z.string().nullish(),
  model_patch: z.string().nullish(),
});
const PredictionsSchema = z.record(z.string(), PredictionSchema);

export const miniSweAgentPreds: ForeignFormat = {
  id: "mini-swe-agent-preds",
  label: "SWE-bench predictions by instance (preds.json)",
  readerVersion: 1,
  detect(file: ForeignFile): boolean {
    const probe = contentProbe(file);
    // An object whose first value is an object: the JSON Lines predictions start `{"instance_id": "...`.
    return /^\s*\{\s*"[^"]+"\s*:\s*\{/.test(probe.head) && /"model_patch"\s*:/.test(probe.head);
  },
  read(file: ForeignFile): ForeignRun[] {
    const predictions = parseShape(PredictionsSchema, parseJsonDocument(file), file.name, null);
    const benchmark = benchmarkFromNames([file.name]) ?? "swe-bench";
    return Object.entries(predictions).map(([key, prediction], index) => {
      const model = prediction.model_name_or_path ?? null;
      return repoDiffRun({
        index,
        patch: prediction.model_patch ? prediction.model_patch : null,
        benchmark,
        instanceId: prediction.instance_id ?? key,
        model,
        provider: providerOf(model),
      });
    });
  },
};
