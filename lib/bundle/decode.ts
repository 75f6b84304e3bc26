import { isUtf8 } from "node:buffer";
import { parseTree, printParseErrorCode, type ParseError } from "jsonc-parser";
import type { z } from "zod";
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

/** JSON.parse with the line of a syntax error in the location. */
export function parseJsonText(text: string, location: BundleLocation): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // V8's message has no position for many errors and may quote raw source across lines;
    // jsonc-parser (in strict JSON mode) gives the offset and a code instead.
    const errors: ParseError[] = [];
    parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
    const first = errors[0];
    const offset = first?.offset ?? text.length;
    const before = text.slice(0, offset);
    const lineInText = before.split("\n").length;
    const column = offset - before.lastIndexOf("\n");
    const line = (location.line ?? 1) + lineInText - 1;
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
  const result = schema.safeParse(value);
  if (!result.success) throw bundleErrorFromZod(result.error, location);
  return result.data;
}
