import { connection } from "next/server";
import { z } from "zod";
import { getAppDb } from "@/db/app-db";
import { listRuns } from "@/db/queries/runs";
import { RunsTable } from "@/components/runs/runs-table";
import { Pager } from "@/components/ui/pager";

const PAGE_SIZE = 50;

const SearchSchema = z.object({ page: z.coerce.number().int().min(1).catch(1).default(1) });

export default async function RunsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[]>> }) {
  await connection();
  const { page } = SearchSchema.parse(await searchParams);
  const { rows, total } = listRuns(getAppDb(), { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  return (
    <section>
      <h1>Runs</h1>
      <p className="muted" data-testid="runs-total">
        {total} run{total === 1 ? "" : "s"}
      </p>
      {total === 0 ? (
        <p data-testid="runs-empty">
          No runs yet. Import bundles with <code>npm run ingest -- PATH</code> or run the demo.
        </p>
      ) : (
        <>
          <RunsTable rows={rows} />
          <Pager page={page} pageSize={PAGE_SIZE} total={total} basePath="/runs" />
        </>
      )}
    </section>
  );
}
