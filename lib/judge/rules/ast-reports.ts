import { analyzeDecoded, decodePythonSource } from "@/lib/analysis/ast-report";
import { ReportCache, reportCache } from "@/lib/analysis/report-cache";
import type { AstReport } from "@/lib/analysis/schema";
import type { AstReportFile } from "@/lib/bundle/schema";
import type { EvaluatedChange } from "../schema";

/**
 * The report cache as one run's code-level metrics see it: the reports already made for this run
 * (its AST report's, by content), then the process's cache, which keeps what they store (the
 * originals). The agent's files are then analyzed once per run instead of twice (once for the AST
 * report, once for the metrics), and stay out of the process's cache.
 */
export class RunReportCache extends ReportCache {
  private readonly made = new Map<string, AstReport>();

  constructor(private readonly shared: ReportCache = reportCache) {
    super();
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
 * with `run`, each report is also added to the run's cache.
 */
export async function astReportsOf(changes: readonly EvaluatedChange[], run?: RunReportCache): Promise<AstReportFile> {
  const files: AstReportFile["files"] = {};
  for (const change of changes) {
    if (!change.after || !change.path.endsWith(".py")) continue;
    const decoded = decodePythonSource(change.after);
    const report = await analyzeDecoded(decoded);
    run?.add(ReportCache.keyOf(decoded), report);
    files[change.path] = report;
  }
  return { files };
}
