/**
 * The boundary contract of a run made elsewhere (DESIGN.md 2c), from a file the import is given.
 *
 * A contract file (`--contract FILE`) is one JSON object, either one contract for every run:
 *   {"mustRead": ["pkg/a.py"], "mayChange": ["pkg/a.py"], "expectedCreate": [], "expectedDelete": []}
 * or contracts by the instance id the runs' logs name:
 *   {"django__django-11163": {"mayChange": ["django/forms/models.py"]}, "astropy__astropy-12907": {...}}
 * Each field is optional (empty when absent) and a list of relative POSIX paths inside the
 * repository; any other field, or a file mixing both forms, is refused.
 *
 * A gold dataset (`--gold FILE`) is an SWE-bench-format dataset, JSON Lines or one JSON list of
 * records `{instance_id, patch, ...}` (other fields, test_patch included, are ignored). An
 * instance's contract is its gold `patch`: every file it touches may change, the files it creates
 * are expected created, those it deletes expected deleted (a rename: both), must-read is empty.
 *
 * Either way a run whose instance the file does not name has no contract from it (null): the
 * caller decides whether that is an error or NO_CONTRACT.
 */
import path from "node:path";
import { z } from "zod";
import { BoundaryContractSchema, InstanceIdSchema, type BoundaryContract } from "@/lib/benchmark/schema";
import { readUntrusted } from "@/lib/util/untrusted-files";
import { parseJsonDocument, parseShape } from "./formats/json-lines";
import { sweBenchRecords } from "./formats/swe-bench-predictions";
import { parseUnifiedDiff } from "./patch";
import { ForeignFormatError, type ForeignFile } from "./types";

/** A contract file or gold dataset larger than this is refused (a JSON list: the JSON document limit applies first). */
export const MAX_CONTRACT_FILE_BYTES = 256 * 1024 * 1024;

/** A contract with nothing in it: only the metrics that need none are decided (DESIGN.md 2c). */
export const NO_CONTRACT: BoundaryContract = {
  mustRead: [],
  mayChange: [],
  expectedCreate: [],
  expectedDelete: [],
  origin: "none",
};

export interface ContractSource {
  /** Shown in messages: `contract file c.json (one for every run)`, `gold patches of verified.jsonl (500 instances)`. */
  describe: string;
  /** The contract of a run on `instanceId`, or null when the file has none for it. */
  contractFor(instanceId: string | null): BoundaryContract | null;
}

const ContractFieldsSchema = BoundaryContractSchema.omit({ origin: true });
const CONTRACT_FIELDS = new Set(Object.keys(ContractFieldsSchema.shape));

/** A contract file's text (`--contract`): one contract for every run, or contracts by instance id. */
export function readContractFile(data: Buffer, name: string): ContractSource {
  const file: ForeignFile = { name, data };
  const value = parseJsonDocument(file);
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ForeignFormatError(name, null, "is not a JSON object (a contract, or contracts by instance id)");
  }
  const keys = Object.keys(value);
  const fields = keys.filter((k) => CONTRACT_FIELDS.has(k));
  if (fields.length === keys.length) {
    const contract = { ...parseShape(ContractFieldsSchema, value, name, null), origin: "contract_file" as const };
    return { describe: `contract file ${name} (one for every run)`, contractFor: () => contract };
  }
  if (fields.length > 0) {
    const other = keys.find((k) => !CONTRACT_FIELDS.has(k));
    throw new ForeignFormatError(
      name,
      null,
      `has "${other}", not a contract field (${[...CONTRACT_FIELDS].join(", ")}); contracts by instance id have only instance ids as keys`,
    );
  }
  const byInstance = new Map<string, BoundaryContract>();
  for (const [id, fieldsOf] of Object.entries(value as Record<string, unknown>)) {
    parseShape(InstanceIdSchema, id, name, `key "${id.slice(0, 100)}"`);
    byInstance.set(id, { ...parseShape(ContractFieldsSchema, fieldsOf, name, id), origin: "contract_file" });
  }
  return {
    describe: `contract file ${name} (${byInstance.size} instances)`,
    contractFor: (id) => (id === null ? null : (byInstance.get(id) ?? null)),
  };
}

const GoldRecordSchema = z.object({ instance_id: InstanceIdSchema, patch: z.string() });

/** An SWE-bench-format dataset (`--gold`): each instance's contract from its gold patch. */
export function readGoldDataset(data: Buffer, name: string): ContractSource {
  const byInstance = new Map<string, BoundaryContract>();
  const seenAt = new Map<string, string>();
  for (const { where, value } of sweBenchRecords({ name, data })) {
    const record = parseShape(GoldRecordSchema, value, name, where);
    const earlier = seenAt.get(record.instance_id);
    if (earlier !== undefined)
      throw new ForeignFormatError(name, where, `instance ${record.instance_id} is also at ${earlier}`);
    seenAt.set(record.instance_id, where);
    byInstance.set(record.instance_id, goldContract(record.patch, `${name} ${where} patch`));
  }
  return {
    describe: `gold patches of ${name} (${byInstance.size} instances)`,
    contractFor: (id) => (id === null ? null : (byInstance.get(id) ?? null)),
  };
}

/** The contract a gold patch implies: what it touches may change; what it creates or deletes is expected. */
export function goldContract(patch: string, source: string): BoundaryContract {
  const mayChange = new Set<string>();
  const expectedCreate = new Set<string>();
  const expectedDelete = new Set<string>();
  for (const file of parseUnifiedDiff(patch, source)) {
    mayChange.add(file.path);
    if (file.oldPath !== null && file.kind === "renamed") {
      mayChange.add(file.oldPath);
      expectedDelete.add(file.oldPath);
    }
    if (file.kind === "created" || file.kind === "renamed") expectedCreate.add(file.path);
    if (file.kind === "deleted") expectedDelete.add(file.path);
  }
  const sorted = (paths: Set<string>) => [...paths].sort();
  return {
    mustRead: [],
    mayChange: sorted(mayChange),
    expectedCreate: sorted(expectedCreate),
    expectedDelete: sorted(expectedDelete),
    origin: "gold_patch",
  };
}

/** `--contract FILE` or `--gold FILE`: the file read (a regular file, no link followed, bounded) and parsed. */
export async function readContractSource(kind: "contract" | "gold", filePath: string): Promise<ContractSource> {
  const read = await readUntrusted(path.dirname(filePath), path.basename(filePath), {
    maxBytes: MAX_CONTRACT_FILE_BYTES,
    refuseLarger: true,
  });
  if (!read.ok) throw new ForeignFormatError(filePath, null, `cannot be read as a --${kind} file: ${read.reason}`);
  return kind === "contract" ? readContractFile(read.data, filePath) : readGoldDataset(read.data, filePath);
}
