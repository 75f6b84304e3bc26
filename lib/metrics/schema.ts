/** The zod schemas of a metric id and a verdict value (./catalog.ts declares both). */
import { z } from "zod";
import { METRIC_IDS, VERDICT_VALUES } from "./catalog";

export const MetricIdSchema = z.enum(METRIC_IDS);
export const VerdictValueSchema = z.enum(VERDICT_VALUES);
