/**
 * The registry of foreign log formats: one module per format in this folder, one line here.
 * Detection tries them in this order (the more specific first); `--format ID` forces one.
 */
import type { ForeignFile, ForeignFormat } from "../types";

export const FOREIGN_FORMATS: readonly ForeignFormat[] = [];

export function foreignFormat(id: string): ForeignFormat | undefined {
  return FOREIGN_FORMATS.find((f) => f.id === id);
}

/** The first format whose detector accepts the file, or null. */
export function detectFormat(file: ForeignFile): ForeignFormat | null {
  return FOREIGN_FORMATS.find((f) => f.detect(file)) ?? null;
}
