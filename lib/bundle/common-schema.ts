import { z } from "zod";

export const Sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, "a sha256 as 64 lowercase hex digits");

export const IsoTimeSchema = z.iso.datetime({ offset: true });

/**
 * How a bundle's members are validated: stop at the first bad element of an array instead of
 * collecting an issue for each. Without it a 4 MiB `{"files":[{},{},...]}` made 4 million zod
 * issues and needed 2.7 GB of heap, enough to kill the import worker's whole process. Zod 4 reads
 * `abortEarly` from the parse context (what its own `validate` sets) but does not type it there.
 */
export const FIRST_ISSUE = { abortEarly: true } as z.core.ParseContext<z.core.$ZodIssue>;

/**
 * z.record(z.string(), value) that stops at the first bad entry: zod's record checks every entry
 * even with abortEarly, and a million `"k1":{}` keys in reports/ast.json took 805 MB of issues.
 */
export function recordOf<V extends z.ZodType>(value: V) {
  return z.preprocess(
    (input, ctx) => {
      if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
      for (const [key, entry] of Object.entries(input)) {
        const result = value.safeParse(entry, FIRST_ISSUE);
        if (result.success) continue;
        const issue = result.error.issues[0];
        ctx.addIssue({ code: "custom", message: issue?.message ?? "invalid", path: [key, ...(issue?.path ?? [])] });
        return input;
      }
      return input;
    },
    z.record(z.string(), value),
  );
}
