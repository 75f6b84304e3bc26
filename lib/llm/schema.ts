/** Model prices: what a price table given to the provider layer must look like. */
import { z } from "zod";

/** USD per one million tokens. */
export const ModelPriceSchema = z
  .object({
    inputPerMillion: z.number().min(0),
    outputPerMillion: z.number().min(0),
  })
  .strict();
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

export const PriceTableSchema = z.record(z.string().min(1), ModelPriceSchema);
export type PriceTable = z.infer<typeof PriceTableSchema>;
