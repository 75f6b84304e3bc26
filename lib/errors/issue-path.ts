/** `files[3].path`, the dotted path zod reports, as people write it. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) => (typeof part === "number" ? `[${part}]` : `${i === 0 ? "" : "."}${String(part)}`))
    .join("");
}
