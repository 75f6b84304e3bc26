/**
 * The lines of a stream, each at most `maxBytes`: a longer line is reported as too long (its
 * length counted, its bytes dropped as they come) instead of being held whole, so one 600 MB line
 * without a newline costs `maxBytes` of memory, not a crash.
 */
export type BoundedLine = { text: string; tooLong: false } | { bytes: number; tooLong: true };

export async function* boundedLines(
  stream: AsyncIterable<Buffer | string>,
  maxBytes: number,
): AsyncGenerator<BoundedLine> {
  let parts: Buffer[] = [];
  let held = 0;
  let dropped = 0;
  const finish = (): BoundedLine => {
    const line: BoundedLine =
      dropped > 0
        ? { bytes: held + dropped, tooLong: true }
        : { text: Buffer.concat(parts).toString("utf8").replace(/\r$/, ""), tooLong: false };
    parts = [];
    held = 0;
    dropped = 0;
    return line;
  };
  const take = (piece: Buffer) => {
    if (dropped > 0 || held + piece.length > maxBytes) {
      dropped += piece.length;
      return;
    }
    parts.push(piece);
    held += piece.length;
  };
  for await (const chunk of stream) {
    let data = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    for (let end = data.indexOf(10); end !== -1; end = data.indexOf(10)) {
      take(data.subarray(0, end));
      yield finish();
      data = data.subarray(end + 1);
    }
    if (data.length > 0) take(data);
  }
  if (held > 0 || dropped > 0) yield finish();
}
