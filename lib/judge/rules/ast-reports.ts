import { analyzeDecoded, analyzeEdit, decodePythonSource } from "@/lib/analysis/ast-report";
import type { CompiledBase } from "@/lib/analysis/compile-edit";
import type { ParsedSource } from "@/lib/analysis/python-parser";
import { ReportCache, reportCache } from "@/lib/analysis/report-cache";
import type { DefinitionMemo } from "@/lib/analysis/report-definitions";
import type { AstReport } from "@/lib/analysis/schema";
import type { AstReportFile } from "@/lib/bundle/schema";
import type { EvaluatedChange } from "../schema";

/**
 * The report cache as one run's code-level metrics see it: the reports already made for this run
 * (its AST report's, by content), then the process's cache, which keeps what they store (the
 * originals) and what edits of them reuse (trees, definitions, compiled bases). The agent's files
 * are then analyzed once per run instead of twice (once for the AST report, once for the metrics),
 * and their reports stay out of the process's cache.
 */
export class RunReportCache extends ReportCache {
  private readonly made = new Map<string, AstReport>();

  constructor(readonly shared: ReportCache = reportCache) {
    super({ entries: 0, bytes: 0 }, { entries: 0, bytes: 0 });
  }

  override get definitions(): DefinitionMemo {
    return this.shared.definitions;
  }

  override tree(key: string): ParsedSource | undefined {
    return this.shared.tree(key);
  }

  override keepTree(key: string, parsed: ParsedSource, kind: "original" | "edit" = "original"): void {
    this.shared.keepTree(key, parsed, kind);
  }

  override compiledBase(key: string): CompiledBase | undefined {
    return this.shared.compiledBase(key);
  }

  override keepCompiledBase(key: string, base: CompiledBase): void {
    this.shared.keepCompiledBase(key, base);
  }

  /** A report made for this run, under its content key. */
  add(key: string, report: AstReport): void {
    this.made.set(key, report);
  }

  override get(key: string): AstReport | undefined {
    return this.made.get(key) ?? this.shared.get(key);
  }

  override set(key: string, report: AstReport, sourceLength: number): AstReport {
    return this.shared.set(key, report, sourceLength);
  }
}

/**
 * The AST report of every changed Python file as the agent left it (the run's `reports/ast.json`);
 * with `run`, each report is also added to the run's cache, and a file the agent edited is analyzed
 * as an edit of the version it started from (report-cache.ts: the same report, sooner).
 */
export async function astReportsOf(changes: readonly EvaluatedChange[], run?: RunReportCache): Promise<AstReportFile> {
  const files: AstReportFile["files"] = {};
  for (const change of changes) {
    if (!change.after || !change.path.endsWith(".py")) continue;
    const decoded = decodePythonSource(change.after);
    const report =
      run && change.before
        ? await analyzeEdit(decoded, decodePythonSource(change.before), run.shared)
        : await analyzeDecoded(decoded);
    run?.add(ReportCache.keyOf(decoded), report);
    files[change.path] = report;
  }
  return { files };
}
