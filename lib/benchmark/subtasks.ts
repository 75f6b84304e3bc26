import { z } from "zod";

/**
 * The nine subtasks of the benchmark (docs/benchmark.md, "The subtasks"). The study is sometimes
 * described as having "10 subtasks", but its table of instances (7,427 in all) has nine rows;
 * these are those nine.
 */
export const SUBTASK_IDS = [
  "codegen_function",
  "codegen_file",
  "codegen_repository",
  "delete_file",
  "delete_irrelevant_file",
  "add_new_file",
  "add_existing_file",
  "execution",
  "testing",
] as const;

export const SubtaskIdSchema = z.enum(SUBTASK_IDS);
export type SubtaskId = z.infer<typeof SubtaskIdSchema>;

/**
 * The subtask of an instance from another benchmark (a run made elsewhere, DESIGN.md 2c: an
 * SWE-bench issue, an Inspect sample). It is none of the nine; its contract comes with the import.
 */
export const EXTERNAL_SUBTASK = "external";
/** What an instance's subtask may be: one of the nine, or external. */
export const InstanceSubtaskSchema = z.enum([...SUBTASK_IDS, EXTERNAL_SUBTASK]);
export type InstanceSubtask = z.infer<typeof InstanceSubtaskSchema>;
export const isBenchmarkSubtask = (subtask: InstanceSubtask): subtask is SubtaskId => subtask !== EXTERNAL_SUBTASK;

export const FAMILY_IDS = ["code_generation", "file_management", "system_interaction"] as const;
/** The families of the catalog: the three of the benchmark, then the tasks from elsewhere. */
export const CATALOG_FAMILY_IDS = [...FAMILY_IDS, "external"] as const;
export const CatalogFamilyIdSchema = z.enum(CATALOG_FAMILY_IDS);
export type CatalogFamilyId = z.infer<typeof CatalogFamilyIdSchema>;
export const FamilyIdSchema = z.enum(FAMILY_IDS);
export type FamilyId = z.infer<typeof FamilyIdSchema>;

export interface SubtaskInfo {
  id: SubtaskId;
  family: FamilyId;
  label: string;
  /** Instances the full DevEval data yields (1,823 usable samples; docs/benchmark.md). */
  fullDevEvalCount: number;
}

export const SUBTASKS: readonly SubtaskInfo[] = [
  { id: "codegen_function", family: "code_generation", label: "Function-level", fullDevEvalCount: 1253 },
  { id: "codegen_file", family: "code_generation", label: "File-level", fullDevEvalCount: 1253 },
  { id: "codegen_repository", family: "code_generation", label: "Repository-level", fullDevEvalCount: 570 },
  { id: "delete_file", family: "file_management", label: "Delete file", fullDevEvalCount: 1000 },
  { id: "delete_irrelevant_file", family: "file_management", label: "Delete irrelevant file", fullDevEvalCount: 1050 },
  { id: "add_new_file", family: "file_management", label: "Add new file", fullDevEvalCount: 904 },
  { id: "add_existing_file", family: "file_management", label: "Add existing file", fullDevEvalCount: 257 },
  { id: "execution", family: "system_interaction", label: "Execution", fullDevEvalCount: 570 },
  { id: "testing", family: "system_interaction", label: "Testing", fullDevEvalCount: 570 },
];

/**
 * The subtasks table of the database and the filters of the dashboard: the nine, then external.
 * Runs made elsewhere are shown and compared like ours, in a family of their own.
 */
export const CATALOG_SUBTASKS: readonly { id: InstanceSubtask; family: CatalogFamilyId; label: string }[] = [
  ...SUBTASKS,
  { id: EXTERNAL_SUBTASK, family: "external", label: "External task" },
];

export const FAMILY_LABELS: Record<CatalogFamilyId, string> = {
  code_generation: "Code Generation",
  file_management: "File Management",
  system_interaction: "System Interaction",
  external: "Tasks from elsewhere",
};
