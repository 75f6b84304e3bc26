import { isUtf8 } from "node:buffer";
import { printParseErrorCode, visit, type ParseErrorCode } from "jsonc-parser";
import type { z } from "zod";
import { FIRST_ISSUE } from "./common-schema";
import { BundleError, bundleErrorFromZod, type BundleLocation } from "./errors";

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Decodes strict UTF-8 (a UTF-8 BOM is tolerated), naming the first bad line otherwise. */
export function decodeUtf8(data: Buffer, location: BundleLocation): string {
  if ((data[0] === 0xff && data[1] === 0xfe) || (data[0] === 0xfe && data[1] === 0xff)) {
    throw new BundleError(location, "encoded as UTF-16; expected UTF-8");
  }
  const body = data.subarray(0, 3).equals(UTF8_BOM) ? data.subarray(3) : data;
  if (!isUtf8(body)) {
    throw new BundleError({ ...location, line: firstNonUtf8Line(body) }, "not valid UTF-8");
  }
  return body.toString("utf8");
}

function firstNonUtf8Line(data: Buffer): number {
  let line = 1;
  let start = 0;
  while (start <= data.length) {
    const end = data.indexOf(0x0a, start);
    const stop = end === -1 ? data.length : end;
    if (!isUtf8(data.subarray(start, stop))) return line;
    if (end === -1) break;
    start = end + 1;
    line += 1;
  }
  return line;
}

/**
 * Deepest nesting of arrays and objects accepted in a JSON member or trajectory line. JSON.parse
 * itself copes with a million levels, but what handles the value next recurses: JSON.stringify
 * overflowed the stack at about 6,000 levels when an import wrote a step's arguments, a 500 over
 * HTTP. Real tool arguments nest under 20.
 */
export const MAX_JSON_DEPTH = 256;

/**
 * Offset of the bracket that opens level `max + 1`, or -1. String bodies are skipped with
 * indexOf (37 MB of trajectory scanned in 230 ms here, a tenth of what JSON.parse takes).
 */
export function overDepthOffset(text: string, max: number): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) i = endOfString(text, i);
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return -1;
}

/** The quote closing the string opened at `open`: the next one not escaped by an odd run of `\`. */
function endOfString(text: string, open: number): number {
  for (let close = text.indexOf('"', open + 1); close !== -1; close = text.indexOf('"', close + 1)) {
    let slashes = 0;
    while (text.charCodeAt(close - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return close;
  }
  return text.length;
}

/** Line (counted from the location's line) and column of an offset in `text`. */
function positionOf(text: string, offset: number, location: BundleLocation): { line: number; column: number } {
  // Counted with indexOf, not split: 24 MiB of newlines split into a 192 MB array.
  let line = location.line ?? 1;
  let lineStart = 0;
  for (let nl = text.indexOf("\n"); nl !== -1 && nl < offset; nl = text.indexOf("\n", nl + 1)) {
    line++;
    lineStart = nl + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** JSON.parse with the line of a syntax error in the location; too deep a nesting is refused first. */
export function parseJsonText(text: string, location: BundleLocation): unknown {
  const deep = overDepthOffset(text, MAX_JSON_DEPTH);
  if (deep !== -1) {
    const { line, column } = positionOf(text, deep, location);
    throwBundle({ ...location, line }, `JSON nested deeper than ${MAX_JSON_DEPTH} levels at column ${column}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    // V8's message has no position for many errors and may quote raw source across lines;
    // jsonc-parser (in strict JSON mode) gives the offset and a code instead. Its visitor builds
    // nothing, where parseTree made a node object per value of the text before the error.
    let first: { error: ParseErrorCode; offset: number } | undefined;
    visit(
      text,
      { onError: (error, offset) => void (first ??= { error, offset }) },
      {
        allowTrailingComma: false,
        disallowComments: true,
      },
    );
    const { line, column } = positionOf(text, first?.offset ?? text.length, location);
    const what = first ? printParseErrorCode(first.error) : "InvalidJSON";
    return throwBundle({ ...location, line }, `invalid JSON: ${what} at column ${column}`);
  }
}

function throwBundle(location: BundleLocation, problem: string): never {
  throw new BundleError(location, problem);
}

/** Decode, parse and validate one JSON member. */
export function parseJsonMember<S extends z.ZodType>(data: Buffer, schema: S, location: BundleLocation): z.infer<S> {
  const value = parseJsonText(decodeUtf8(data, location), location);
  return validateJson(value, schema, location);
}

/** schema.safeParse stopping at the first bad array element (FIRST_ISSUE), as a BundleError. */
export function validateJson<S extends z.ZodType>(value: unknown, schema: S, location: BundleLocation): z.infer<S> {
  const result = schema.safeParse(value, FIRST_ISSUE);
  if (!result.success) throw bundleErrorFromZod(result.error, location);
  return result.data;
}
