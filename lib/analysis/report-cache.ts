/**
 * AST reports of recently analyzed sources, by content hash: every run of an instance compares
 * against the same original file, so its report is made once per process instead of once per run
 * (on real ~300-line files one report costs tens of milliseconds, most of a pair's time).
 *
 * Bounded both ways, least recently used out first: by entries and by an estimate of the bytes
 * held (the source's and the report's JSON length). Cached reports are frozen: a caller that
 * tried to change one would change every later run's original. Beside the reports, the
 * definitions they were made of (by text): the agent's version of a file, analyzed afresh, reuses
 * those it shares with the original.
 */
import { createHash } from "node:crypto";
import type { DecodedSource } from "./ast-report";
import type { CompiledBase } from "./compile-edit";
import { LruCache, type LruLimits } from "@/lib/util/lru-cache";
import { clearOutlineCache } from "./python-definitions";
import { DEFINITION_MEMO_LIMITS, newDefinitionMemo, type DefinitionMemo } from "./report-definitions";
import type { ParsedSource } from "./python-parser";
import type { AstReport } from "./schema";
import { deepFreeze } from "@/lib/util/deep-freeze";

export type ReportCacheLimits = LruLimits;

/** 256 originals of a few hundred lines, or fewer larger ones: tens of MB at most. */
export const REPORT_CACHE_LIMITS: ReportCacheLimits = { entries: 256, bytes: 64 * 1024 * 1024 };

/** Trees live in WebAssembly memory, which never shrinks: a few, for the originals in use. */
const TREE_LIMITS: LruLimits = { entries: 32, bytes: 64 * 1024 * 1024 };
/** The agents' versions' trees, for the rules that read a run's file again: the last few only. */
const EDIT_TREE_LIMITS: LruLimits = { entries: 8, bytes: 16 * 1024 * 1024 };
/** A rough bound of a tree's size per character of its source. */
const TREE_BYTES_PER_CHARACTER = 16;

/** ReportCache.keyOf's answers, by source object (decoded sources are never changed). */
const sourceKeys = new WeakMap<DecodedSource, string>();

export class ReportCache {
  private readonly reports: LruCache<AstReport>;
  /**
   * What each definition analyzed through this cache gave (report-definitions.ts): a file that
   * shares definitions with one analyzed before (an agent's version with its original) reuses them.
   */
  private readonly definitionMemo: DefinitionMemo;
  /** Parse trees of the reports' sources, fewer of them: an agent's version is parsed as an edit of its original. */
  private readonly trees = new LruCache<ParsedSource>(TREE_LIMITS, (parsed) => parsed.tree.delete());
  /**
   * Trees of edits (an agent's version of a file), apart: a run's edits must not push out the
   * originals' trees, which every later run of the instance is parsed from.
   */
  private readonly editTrees = new LruCache<ParsedSource>(EDIT_TREE_LIMITS, (parsed) => parsed.tree.delete());
  /** What CPython compiled of the reports' sources (compile-edit.ts): an agent's version is compiled by its changed chunk. */
  private readonly compiled: LruCache<CompiledBase>;

  constructor(limits: ReportCacheLimits = REPORT_CACHE_LIMITS, definitionLimits = DEFINITION_MEMO_LIMITS) {
    this.reports = new LruCache(limits);
    this.compiled = new LruCache(limits);
    this.definitionMemo = newDefinitionMemo(definitionLimits);
  }

  get definitions(): DefinitionMemo {
    return this.definitionMemo;
  }

  /** The compiled base of the source with this key, if CPython compiled it and it is still held. */
  compiledBase(key: string): CompiledBase | undefined {
    return this.compiled.get(key);
  }

  /** Holds what an edit of a source CPython compiled needs of it. */
  keepCompiledBase(key: string, base: CompiledBase): void {
    this.compiled.set(key, base, base.text.length + 16 * base.statements.length);
  }

  /** The tree of the source with this key, if still held (valid until the next call that stores one). */
  tree(key: string): ParsedSource | undefined {
    return this.trees.get(key) ?? this.editTrees.get(key);
  }

  /**
   * Holds a source's tree (the cache deletes it when it lets it go; at once when it is too large):
   * an original's, which edits are parsed from, or an edit's, held a short while (see editTrees).
   */
  keepTree(key: string, parsed: ParsedSource, kind: "original" | "edit" = "original"): void {
    const trees = kind === "original" ? this.trees : this.editTrees;
    if (!trees.set(key, parsed, TREE_BYTES_PER_CHARACTER * parsed.text.length)) parsed.tree.delete();
  }

  /**
   * The key of a decoded source: its text and what decoding found (a BOM, an encoding error).
   * Kept per source object: a pair's two sources are keyed several times on their way through.
   */
  static keyOf(decoded: DecodedSource): string {
    const known = sourceKeys.get(decoded);
    if (known !== undefined) return known;
    const hash = createHash("sha256").update(decoded.text).digest("hex");
    const encoding = decoded.encodingError ? `e${decoded.encodingError.offset}` : "";
    const key = `${decoded.hasBom ? "b" : ""}${encoding}:${hash}`;
    sourceKeys.set(decoded, key);
    return key;
  }

  get(key: string): AstReport | undefined {
    return this.reports.get(key);
  }

  /** Stores a report (frozen) and returns it; one larger than the byte bound is returned unstored. */
  set(key: string, report: AstReport, sourceLength: number): AstReport {
    const frozen = deepFreeze(report);
    this.reports.set(key, frozen, sourceLength + JSON.stringify(report).length);
    return frozen;
  }

  clear(): void {
    this.reports.clear();
    this.definitionMemo.clear();
    this.trees.clear();
    this.editTrees.clear();
    this.compiled.clear();
  }

  /** The reports held. */
  get size(): { entries: number; bytes: number } {
    return this.reports.size;
  }
}

/** The process's cache, used by evaluateCodeLevel. */
export const reportCache = new ReportCache();

/** Empties the process's cache, and the outlines of python-definitions.ts (a benchmark's repetitions each start as a fresh process would). */
export function clearReportCache(): void {
  reportCache.clear();
  clearOutlineCache();
}
