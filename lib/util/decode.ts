/** decodeURIComponent that answers null for a malformed escape instead of throwing (a 404, not a 500). */
export function safeDecode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}
