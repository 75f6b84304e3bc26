/**
 * The per-file AST report: what a Python module defines and says, normalized so that two
 * versions of a file can be compared element by element (lib/analysis/code-metrics.ts), and
 * stored as a run artifact (`reports/ast.json`, `files[path]`). Deterministic and JSON-only.
 */
import { compileCheckEdited, compiledBaseOf } from "./compile-edit";
import { compileCheck, type CompileVerdict } from "./cpython-check";
import { parsePython, parsePythonEdited, type ParsedSource } from "./python-parser";
import { ReportCache } from "./report-cache";
import { readScope } from "./python-scope";
import { definitionEntries } from "./report-definitions";
import { extentOf, spliceReport, topLevelStatements } from "./report-splice";
import type { AstReport, PythonSyntaxError } from "./schema";
import { listSyntaxErrors } from "./syntax-errors";

export interface DecodedSource {
  /** The text as analyzed: BOM removed, line endings as LF. */
  text: string;
  encodingError: { offset: number } | null;
  /** Where the first undecodable byte sits in `text` (1-based). */
  encodingErrorAt?: { line: number; column: number };
  hasBom: boolean;
}

/** Offset of the first byte that does not belong to a well-formed UTF-8 sequence, or -1. */
export function firstInvalidUtf8(data: Uint8Array): number {
  let i = 0;
  while (i < data.length) {
    const b = data[i]!;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    let point = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const next = data[i + k];
      if (next === undefined || (next & 0xc0) !== 0x80) return i;
      point = (point << 6) | (next & 0x3f);
    }
    if (point < min || point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/** PEP 263: `# -*- coding: latin-1 -*-` on one of the first two lines. */
function declaredEncoding(data: Uint8Array): string | null {
  const head = Buffer.from(data.subarray(0, 400))
    .toString("latin1")
    .split(/\r?\n|\r/)
    .slice(0, 2);
  for (const line of head) {
    const match = /^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)/.exec(line);
    if (match) return match[1]!.toLowerCase();
  }
  return null;
}

const LATIN_1 = new Set(["latin-1", "latin1", "latin", "l1", "iso-8859-1", "iso8859-1", "8859", "cp819"]);

/** Python codec names as WHATWG labels; ISO-8859-1 by hand (WHATWG's "latin1" is windows-1252). */
function decodeAs(codec: string, bytes: Uint8Array): string | null {
  const name = codec.replace(/_/g, "-");
  if (LATIN_1.has(name)) return Buffer.from(bytes).toString("latin1");
  try {
    return new TextDecoder(name, { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Bytes as CPython reads a source file: UTF-8 (a BOM allowed), or the PEP 263 declared encoding.
 * Anything else is decoded with U+FFFD replacements and reported, so the rest can still be analyzed.
 */
export function decodePythonSource(data: Uint8Array): DecodedSource {
  const hasBom = data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf;
  const bytes = hasBom ? data.subarray(3) : data;
  const invalid = firstInvalidUtf8(bytes);
  let text: string | null = null;
  if (invalid >= 0) {
    const declared = declaredEncoding(bytes);
    if (declared && !/^utf[-_]?8/.test(declared)) text = decodeAs(declared, bytes);
  }
  const encodingError = invalid >= 0 && text === null ? { offset: invalid + (hasBom ? 3 : 0) } : null;
  text ??= new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(bytes);
  if (!encodingError) return { text: toLf(text), encodingError, hasBom };
  const before = toLf(new TextDecoder("utf-8").decode(bytes.subarray(0, invalid)));
  const lineStart = before.lastIndexOf("\n") + 1;
  const encodingErrorAt = { line: before.split("\n").length, column: before.length - lineStart + 1 };
  return { text: toLf(text), encodingError, encodingErrorAt, hasBom };
}

const toLf = (text: string) => text.replace(/\r\n?/g, "\n");

/** A source already decoded (read as UTF-8 by the caller): BOM dropped, line endings as LF. */
export function decodePythonText(source: string): DecodedSource {
  const hasBom = source.startsWith("\uFEFF");
  return { text: toLf(hasBom ? source.slice(1) : source), encodingError: null, hasBom };
}

export async function analyzePython(source: string): Promise<AstReport> {
  return analyzeDecoded(decodePythonText(source));
}

export async function analyzePythonBytes(data: Uint8Array): Promise<AstReport> {
  return analyzeDecoded(decodePythonSource(data));
}

/**
 * `analyzeDecoded` through a report cache: the cached report (frozen) when the same content was
 * analyzed before, else a new one, stored. Without a cache, a new one.
 */
export async function analyzeDecodedCached(decoded: DecodedSource, cache: ReportCache | null): Promise<AstReport> {
  if (!cache) return analyzeDecoded(decoded);
  const key = ReportCache.keyOf(decoded);
  return (
    cache.get(key) ?? cache.set(key, await analyzeDecoded(decoded, { cache, keepTreeAs: key }), decoded.text.length)
  );
}

/**
 * The report of `decoded`, an edit of `original` (an agent's version of a file): `analyzeDecoded`'s
 * report, made sooner. The original is analyzed through `cache` (kept there for every run that
 * starts from it); the edit is then parsed from its tree, reuses its definitions, and CPython
 * compiles only the chunk the edit changed (compile-edit.ts), and the top-level statements the
 * edit did not touch keep the original's entries (report-splice.ts).
 */
export async function analyzeEdit(
  decoded: DecodedSource,
  original: DecodedSource,
  cache: ReportCache,
): Promise<AstReport> {
  const baseKey = ReportCache.keyOf(original);
  if (ReportCache.keyOf(decoded) === baseKey) return analyzeDecodedCached(original, cache);
  // By its changed chunk, against the original's compiled base: asked for at once when the
  // original was analyzed before, else once it is (the whole edit compiled beside the whole
  // original would take CPython as long again, and the original's analysis waits for both).
  const known = cache.compiledBase(baseKey);
  let compiled = known ? compileCheckEdited(decoded.text, known) : null;
  compiled?.catch(() => {}); // awaited below, unless the original fails first
  await analyzeDecodedCached(original, cache);
  compiled ??= compileCheckEdited(decoded.text, cache.compiledBase(baseKey) ?? null);
  // Its tree is kept too: the rules that read the agent's file again (instruction-following.ts)
  // take it instead of parsing the file once more.
  return analyzeDecoded(decoded, { cache, baseKey, compiled, keepTreeAs: ReportCache.keyOf(decoded) });
}

/**
 * The report of one decoded source. Whether it compiles is CPython's verdict (cpython-check.ts):
 * its error comes first, then tree-sitter's errors after it (the rest of what is wrong). When
 * CPython compiles what tree-sitter's tree has ERROR or MISSING nodes in, the file parses and
 * tree-sitter's errors are kept as `structureErrors`: the structure read from that tree is
 * incomplete. (Tree-sitter's other findings, a `print >> f` read as a Python 2 statement, leave
 * the tree whole: CPython's word settles them.)
 */
export async function analyzeDecoded(decoded: DecodedSource, reuse: Reuse = {}): Promise<AstReport> {
  const { text } = decoded;
  const { cache = null, baseKey = null, keepTreeAs = null } = reuse;
  // An edit's tree is kept a short while, for the rules that read it again; only an original's
  // compiled base is kept (edits of edits are not compiled by their chunk).
  const isEdit = baseKey !== null;
  const compiled = reuse.compiled ?? compileCheck(text);
  const base = cache && baseKey !== null ? cache.tree(baseKey) : undefined;
  // Read before the parse: the cache may let the original's tree go at any await.
  const spliceBase = base && !decoded.encodingError ? spliceBaseOf(cache!, baseKey!, base) : null;
  const tree = await (base ? parsePythonEdited(text, base) : parsePython(text));
  let kept = false;
  const keep = () => {
    // Kept once nothing here reads it (the cache may delete it at any later await), and only
    // whole: edits are parsed from trees without errors.
    if (cache && keepTreeAs !== null && !tree.rootNode.hasError) {
      cache.keepTree(keepTreeAs, { text, tree }, isEdit ? "edit" : "original");
      kept = true;
    }
  };
  try {
    // An edit of a report's source: its untouched statements' entries are the original's.
    const spliced = spliceBase ? spliceReport({ ...spliceBase, text, tree, memo: cache!.definitions }) : null;
    if (spliced && (await compiled).ok) {
      if (cache && keepTreeAs !== null && !isEdit) cache.keepCompiledBase(keepTreeAs, compiledBaseOf(tree, text));
      keep();
      const { version, ...rest } = spliced;
      return { version, parses: true, errors: [], encodingError: null, hasBom: decoded.hasBom, ...rest };
    }
    // The structure first, while CPython compiles; tree-sitter's own error list only when it is
    // used (CPython refused the file, or the tree has ERROR nodes): a walk of the whole tree, it
    // was an eighth of a clean file's analysis time.
    const scope = readScope(tree.rootNode, text, true);
    const { classes, functions } = definitionEntries(tree, text, cache?.definitions ?? null);
    const verdict = await compiled;
    const hasError = tree.rootNode.hasError;
    const treeErrors = !verdict.ok || hasError ? listSyntaxErrors(tree, text) : [];
    const errors: PythonSyntaxError[] = verdict.ok
      ? []
      : [
          { line: verdict.line, column: verdict.column, message: verdict.message },
          ...treeErrors.filter((e) => e.line > verdict.line),
        ];
    if (decoded.encodingError) {
      errors.unshift({
        ...(decoded.encodingErrorAt ?? { line: 1, column: 1 }),
        message: `not valid UTF-8 (byte offset ${decoded.encodingError.offset}) and no coding declaration`,
      });
    }
    if (cache && keepTreeAs !== null && !isEdit && !hasError && verdict.ok) {
      cache.keepCompiledBase(keepTreeAs, compiledBaseOf(tree, text));
    }
    keep();
    return {
      version: 1,
      parses: errors.length === 0,
      errors,
      ...(verdict.ok && hasError ? { structureErrors: treeErrors } : {}),
      encodingError: decoded.encodingError,
      hasBom: decoded.hasBom,
      lineCount: text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0),
      moduleDocstring: scope.docstring?.value ?? null,
      moduleDocstringSpan: scope.docstring
        ? { startLine: scope.docstring.startLine, endLine: scope.docstring.endLine }
        : null,
      imports: scope.imports,
      classes,
      functions,
      variables: scope.variables,
      otherStatements: scope.statements,
    };
  } finally {
    if (!kept) tree.delete();
  }
}

/** What an analysis may reuse of analyses before it, all in `cache`: the same report, sooner. */
export interface Reuse {
  /** Its definitions (report-definitions.ts) and trees. */
  cache?: ReportCache | null;
  /** The key (ReportCache.keyOf) of a source this one is an edit of: parsed from its tree when the cache holds it. */
  baseKey?: string | null;
  /** Hands this source's tree to the cache under this key (its own), for later edits of it. */
  keepTreeAs?: string | null;
  /** CPython's verdict on this source (compileCheck), when the caller has asked for it already. */
  compiled?: Promise<CompileVerdict>;
}

/** What spliceReport needs of the original: its report (when still cached) and its top-level statements. */
function spliceBaseOf(cache: ReportCache, baseKey: string, base: ParsedSource) {
  const report = cache.get(baseKey);
  if (!report) return null;
  base.statements ??= topLevelStatements(base.tree).map(extentOf);
  return { base: report, baseText: base.text, baseStatements: base.statements };
}
