/** npm run db:migrate: creates the database (STUDIO_DB, default data/studio.db) and applies migrations. */
import { createDb, databasePathFromEnv } from "@/db/client";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";

export async function main(_argv: string[], io: CliIo): Promise<number> {
  const file = databasePathFromEnv(io.env);
  createDb(file).$client.close();
  io.stdout.write(`database ready: ${file}\n`);
  return 0;
}

if (isEntryPoint(import.meta.url)) await runMain(main);
