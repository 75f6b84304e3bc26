import Link from "next/link";
import { connection } from "next/server";
import { getAppDb } from "@/db/app-db";
import { requireReader } from "@/app/session";
import { listBenchmarks } from "@/db/queries/benchmarks";

/** The benchmarks; admins and viewers only once a study is active (lib/auth/access.ts). */
export default async function BenchmarksPage() {
  await connection();
  await requireReader("dashboard", "/benchmarks");
  const benchmarks = listBenchmarks(getAppDb());
  return (
    <section>
      <h1>Benchmarks</h1>
      {benchmarks.length === 0 ? (
        <p data-testid="benchmarks-empty">
          No benchmark yet. Build one with <code>npm run build-benchmark</code> or run the demo.
        </p>
      ) : (
        <div className="table-wrap">
          <table className="grid" data-testid="benchmarks-table">
            <thead>
              <tr>
                <th>Benchmark</th>
                <th>Source</th>
                <th className="num">Instances</th>
              </tr>
            </thead>
            <tbody>
              {benchmarks.map((b) => (
                <tr key={b.id} data-testid="benchmark-row">
                  <td>
                    <Link href={`/benchmarks/${encodeURIComponent(b.id)}`}>{b.name}</Link>
                  </td>
                  <td>{b.source}</td>
                  <td className="num">{b.instances}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
