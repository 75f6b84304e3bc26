/** npm run db:migrate: creates the database (STUDIO_DB, default data/studio.db) and applies migrations. */
import { createDb, databasePathFromEnv } from "@/db/client";
import { cliCommand, parseCli } from "@/lib/cli/args";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";

export const cli = () =>
  cliCommand(
    "npm run db:migrate",
    "Creates the database (STUDIO_DB, default data/studio.db) and applies the migrations it lacks.",
  );

export async function main(argv: string[], io: CliIo): Promise<number> {
  if (!(await parseCli(cli(), argv, io))) return 0;
  const file = databasePathFromEnv(io.env);
  createDb(file).$client.close();
  io.stdout.write(`database ready: ${file}\n`);
  return 0;
}

if (isEntryPoint(import.meta.url)) await runMain(main);
