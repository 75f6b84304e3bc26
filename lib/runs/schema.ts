import { z } from "zod";
import { SafeRelativePathSchema } from "@/lib/util/relative-path";

/** `GET /api/runs/<id>/files?path=...`: one changed file of a run, by its workspace path. */
export const RunFileQuerySchema = z.object({ path: SafeRelativePathSchema });
export type RunFileQuery = z.infer<typeof RunFileQuerySchema>;

/**
 * What the page (or the route) hands the diff viewer for one changed file. A side that did not
 * exist (created or deleted file) is the empty string: the diff is against empty.
 */
export const FileDiffContentSchema = z.discriminatedUnion("status", [
  z.object({ status: z.literal("inline"), before: z.string(), after: z.string() }).strict(),
  /** Past the page's budget: the client fetches it from the route when the file scrolls into view. */
  z.object({ status: z.literal("deferred") }).strict(),
  z.object({ status: z.literal("binary") }).strict(),
  z.object({ status: z.literal("too_large"), limitBytes: z.number().int().positive() }).strict(),
  /** The change names a content hash the store does not hold (a metadata-only import). */
  z.object({ status: z.literal("missing") }).strict(),
  /** The runner kept only the file's size and sha256 (over its size cap, STUDIO_MAX_STORED_FILE_BYTES). */
  z
    .object({
      status: z.literal("not_kept"),
      /** The hash of each side kept by reference (null: that side is stored, or absent). */
      beforeSha256: z.string().nullable(),
      afterSha256: z.string().nullable(),
    })
    .strict(),
]);
export type FileDiffContent = z.infer<typeof FileDiffContentSchema>;
