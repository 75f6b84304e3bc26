import { z } from "zod";
import { explainUnsafeRelativePath } from "./paths";

export const SafeRelativePathSchema = z
  .string()
  .max(1024)
  .superRefine((value, ctx) => {
    const problem = explainUnsafeRelativePath(value);
    if (problem) ctx.addIssue({ code: "custom", message: `path "${value}" ${problem}` });
  });

export const Sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, "a sha256 as 64 lowercase hex digits");

export const IsoTimeSchema = z.iso.datetime({ offset: true });
