import { AppError } from "@/lib/errors/app-error";

/** A rating label: "violated", "not_violated", "cannot_tell", or any code the caller uses. */
export type Label = string | number;

/**
 * Position of each category in a table. Duplicates are rejected because they would make two rows
 * of a confusion matrix mean the same thing and split its counts arbitrarily.
 */
export function categoryIndex<L extends Label>(categories: readonly L[], fn: string): Map<L, number> {
  const index = new Map<L, number>();
  categories.forEach((category, i) => {
    if (typeof category !== "string" && !(typeof category === "number" && Number.isFinite(category))) {
      throw new AppError("INVALID_INPUT", `${fn}: categories[${i}] must be a string or a finite number`);
    }
    if (index.has(category)) {
      throw new AppError("INVALID_INPUT", `${fn}: categories[${i}] ${JSON.stringify(category)} is listed twice`);
    }
    index.set(category, i);
  });
  return index;
}

/** The position of `label`, or an error naming it: an unknown label is a mapping bug upstream. */
export function positionOf<L extends Label>(index: Map<L, number>, label: L, fn: string, where: string): number {
  const position = index.get(label);
  if (position === undefined) {
    const known = [...index.keys()].map((key) => JSON.stringify(key)).join(", ");
    throw new AppError(
      "INVALID_INPUT",
      `${fn}: ${where} is ${JSON.stringify(label)}, not one of the categories (${known})`,
    );
  }
  return position;
}
