import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { z } from "zod";
import { getAppDb } from "@/db/app-db";
import { requireReader } from "@/app/session";
import { getBenchmarkSummary, listInstances } from "@/db/queries/benchmarks";
import { InstanceSubtaskSchema } from "@/lib/benchmark/subtasks";
import { safeDecode } from "@/lib/util/decode";

const PAGE_SIZE = 100;
const SearchSchema = z.object({
  subtask: InstanceSubtaskSchema.optional().catch(undefined),
  split: z.enum(["eval", "all"]).catch("all").default("all"),
  page: z.coerce.number().int().min(1).catch(1).default(1),
});

export default async function InstancesPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[]>>;
}) {
  await connection();
  const rawId = (await params).id;
  await requireReader("dashboard", `/benchmarks/${rawId}/instances`);
  const benchmarkId = safeDecode(rawId) ?? "";
  const search = SearchSchema.parse(await searchParams);
  const db = getAppDb();
  const summary = getBenchmarkSummary(db, benchmarkId);
  if (!summary) notFound();
  const { rows, total } = listInstances(db, {
    benchmarkId,
    subtask: search.subtask,
    splitOnly: search.split === "eval",
    limit: PAGE_SIZE,
    offset: (search.page - 1) * PAGE_SIZE,
  });
  const query = (page: number) =>
    `?${new URLSearchParams({ ...(search.subtask ? { subtask: search.subtask } : {}), split: search.split, page: String(page) })}`;
  return (
    <section>
      <h1>
        <Link href={`/benchmarks/${encodeURIComponent(benchmarkId)}`}>{summary.name}</Link> instances
      </h1>
      <p className="muted" data-testid="instances-total">
        {total} instance{total === 1 ? "" : "s"}
        {search.subtask ? ` of ${search.subtask}` : ""}
        {search.split === "eval" ? " in the evaluation split" : ""}
      </p>
      <div className="table-wrap">
        <table className="grid" data-testid="instances-table">
          <thead>
            <tr>
              <th>Instance</th>
              <th>Subtask</th>
              <th>Repository</th>
              <th>Split</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-testid="instance-row">
                <td>
                  <Link href={`/instances/${r.id.split("/").map(encodeURIComponent).join("/")}`}>{r.id}</Link>
                </td>
                <td>{r.subtaskId}</td>
                <td>{r.projectPath}</td>
                <td>{r.inEvalSplit ? "eval" : ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav className="pager">
        {search.page > 1 ? <Link href={query(search.page - 1)}>← Previous</Link> : <span />}
        <span>
          Page {search.page} of {Math.max(1, Math.ceil(total / PAGE_SIZE))}
        </span>
        {search.page * PAGE_SIZE < total ? <Link href={query(search.page + 1)}>Next →</Link> : <span />}
      </nav>
    </section>
  );
}
