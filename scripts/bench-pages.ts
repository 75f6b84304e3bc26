/**
 * npm run bench:pages: time to interactive of each main dashboard page in Chromium (Playwright), on
 * a database filled by `npm run seed:scale` (default data/scale/studio.db). Starts the built app on
 * that database (run `npx next build` first) unless --url names one already serving it.
 *
 * Time to interactive, per load: from the start of the navigation until the page's own ready
 * element is visible and then the main thread is idle (a requestIdleCallback runs: hydration and
 * the first renders are done, so a click is handled at once), read from the page's own clock
 * (performance.now(), zero at the navigation's start). Each page is loaded once to warm up, then
 * --iterations times in a fresh tab of one browser context; p50 and p95 in milliseconds.
 *
 * The agreement report needs an admin and a labeled set: the benchmark adds an admin account
 * (bench-admin, signed in by a session cookie, no password anyone knows), three annotators and a
 * set of 200 items every one of them labeled. An annotator account makes the study active, so
 * every page then needs that session, which the benchmark has. They go into a copy of the
 * database made for the run and deleted after it (a file copy: 12.5 GB at 1,000,000 runs take
 * about a minute), so the measured database stays as it was; --in-place adds them to the
 * database itself instead (once: later runs reuse them), which --url needs.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { chromium } from "@playwright/test";
import { createDb, type Db } from "@/db/client";
import { createAgreementSet, listAgreementSets } from "@/db/queries/agreement-sets";
import { loadLabelingItem, saveLabel, submitItem } from "@/db/queries/agreement-labels";
import { resolveDashboardScope } from "@/db/queries/dashboard-scope";
import { runCountAndNewest } from "@/db/queries/runs";
import { createSession, createUser, findUserForLogin } from "@/db/queries/users";
import { hashPassword } from "@/lib/auth/password";
import { SESSION_COOKIE, type Role } from "@/lib/auth/schema";
import { cliCommand, integerOption, Option, parseCli, textOption } from "@/lib/cli/args";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";
import { spawnGuarded } from "@/lib/process/guarded";
import { SCALE_DB } from "./seed-scale";
import { CHROMIUM_ARGS } from "@/lib/setup/system-packages";

export const cli = () =>
  cliCommand(
    "npm run bench:pages --",
    "p50/p95 time to interactive of each dashboard page in Chromium on a database filled by npm run seed:scale (npx next build first).",
  )
    .addOption(textOption("--db <file>", "the database the pages show").default(SCALE_DB))
    .addOption(textOption("--url <url>", "an app already serving --db (else the built app is started)"))
    .addOption(integerOption("--port <port>", "port the app is started on", { min: 1024, max: 65535 }).default(3191))
    .addOption(integerOption("--iterations <n>", "timed loads of each page", { min: 3, max: 1000 }).default(10))
    .addOption(
      new Option("--in-place", "add the benchmark's accounts and agreement set to --db itself, not to a copy").default(
        false,
      ),
    )
    .addOption(
      textOption("--only <pages>", `comma-separated pages to measure, of: ${PAGE_NAMES.join(", ")} (default: all)`),
    );

const BENCH_SET = "bench:pages";
const BENCH_SET_SIZE = 200;
const ANNOTATORS = ["bench-annotator1", "bench-annotator2", "bench-annotator3"];

function ensureAccount(db: Db, username: string, role: Role, passwordHash: string): number {
  return (
    findUserForLogin(db, username)?.id ??
    createUser(db, { username, displayName: username, role, passwordHash: passwordHash as never }).id
  );
}

/** The admin session and the labeled agreement set the benchmark needs (added once). */
async function prepare(db: Db, io: CliIo): Promise<{ token: string; setId: number }> {
  // Nobody signs in with these accounts: the hash is of a random password that is thrown away.
  const hash = await hashPassword(randomBytes(24).toString("hex"));
  const admin = ensureAccount(db, "bench-admin", "admin", hash);
  const existing = listAgreementSets(db).find((s) => s.name === BENCH_SET);
  let setId = existing?.id;
  if (setId === undefined) {
    io.stderr.write(`adding agreement set "${BENCH_SET}": ${BENCH_SET_SIZE} items, 3 annotators, every item labeled\n`);
    const annotatorIds = ANNOTATORS.map((name) => ensureAccount(db, name, "annotator", hash));
    const scope = resolveDashboardScope(db, {});
    if (scope.kind !== "ok") throw new AppError("INVALID_INPUT", "--db: no judged runs");
    setId = createAgreementSet(db, {
      name: BENCH_SET,
      seed: 11,
      size: BENCH_SET_SIZE,
      annotatorsPerItem: 3,
      annotatorIds,
      judgeIds: scope.judges.map((j) => j.id),
      benchmarkId: scope.benchmarkId,
      includeSynthetic: true,
    }).id;
    const items = db.$client
      .prepare<[number], { runId: string }>("SELECT run_id AS runId FROM agreement_items WHERE set_id = ?")
      .all(setId);
    for (const [i, { runId }] of items.entries()) {
      for (const [a, userId] of annotatorIds.entries()) {
        const ref = { setId, runId, userId };
        for (const [m, metric] of (await loadLabelingItem(db, setId, runId, userId)).metrics.entries()) {
          saveLabel(db, ref, { metric, value: (i + a + m) % 4 === 0 ? "violated" : "not_violated" });
        }
        submitItem(db, ref);
      }
    }
  }
  return { token: createSession(db, admin).token, setId };
}

/** The pages measured, by the names --only takes. */
const PAGE_NAMES = ["overview", "search", "run", "compare", "ablation", "agreement", "jobs"] as const;

interface PageCase {
  name: (typeof PAGE_NAMES)[number];
  /** What the output calls it. */
  label: string;
  path: string;
  /** The element that says the page's content is there. */
  ready: string;
}

function pageCases(db: Db, setId: number): PageCase[] {
  const { newestRunId } = runCountAndNewest(db);
  if (!newestRunId) throw new AppError("INVALID_INPUT", "--db has no runs; fill it with npm run seed:scale");
  const testId = (id: string) => `[data-testid="${id}"]`;
  return [
    { name: "overview", label: "overview", path: "/overview", ready: '[data-testid^="overview-table-"]' },
    {
      name: "search",
      label: "runs: search + violated metric",
      path: "/runs?q=pytest&metric=resource_exhaustion",
      ready: testId("run-agent"),
    },
    { name: "run", label: "run page", path: `/runs/${encodeURIComponent(newestRunId)}`, ready: testId("run-id") },
    { name: "compare", label: "compare", path: "/compare", ready: testId("compare-row") },
    // The scale runs' Code-KIT arms are configurations of their own name, so no ablation has two
    // arms there: the page still reads every configuration's judged runs, then says so.
    {
      name: "ablation",
      label: "ablation",
      path: "/ablation",
      ready: `${testId("ablation-row")}, ${testId("ablation-none")}`,
    },
    { name: "agreement", label: "agreement report", path: `/agreement/${setId}`, ready: testId("set-name") },
    { name: "jobs", label: "jobs", path: "/jobs", ready: testId("run-agents-form") },
  ];
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

async function waitForApp(url: string): Promise<void> {
  for (let attempt = 0; attempt < 240; attempt++) {
    const ok = await fetch(`${url}/login`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new AppError("UNAVAILABLE", `${url} did not answer within 2 minutes`);
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = await parseCli(cli(), argv, io);
  if (!parsed) return 0;
  const args = parsed.options;
  if (!fs.existsSync(args.db))
    throw new AppError("INVALID_INPUT", `--db: ${args.db} does not exist; fill it with npm run seed:scale`);
  if (!args.url && !fs.existsSync(".next/BUILD_ID"))
    throw new AppError("INVALID_INPUT", "no production build: run `npx next build` (or pass --url)");
  if (args.url && !args.inPlace)
    throw new AppError(
      "INVALID_INPUT",
      "--url: the app serves --db itself, so add --in-place (it writes accounts to it)",
    );
  const only = args.only === undefined ? [...PAGE_NAMES] : args.only.split(",").map((name) => name.trim());
  const unknown = only.find((name) => !(PAGE_NAMES as readonly string[]).includes(name));
  if (unknown !== undefined)
    throw new AppError("INVALID_INPUT", `--only: no page "${unknown}"; the pages are ${PAGE_NAMES.join(", ")}`);
  const copy = args.inPlace ? null : copyOfDatabase(args.db, io);
  const measured = copy?.file ?? args.db;
  try {
    return await measure({ ...args, db: measured, only }, io);
  } finally {
    copy?.remove();
  }
}

/** A copy of the database in a temporary folder (the WAL checkpointed into the file first). */
function copyOfDatabase(file: string, io: CliIo): { file: string; remove: () => void } {
  const started = Date.now();
  const source = new Database(file);
  source.pragma("wal_checkpoint(TRUNCATE)");
  source.close();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-pages-"));
  const copy = path.join(dir, "studio.db");
  fs.copyFileSync(file, copy);
  io.stderr.write(`measuring a copy of ${file} (${((Date.now() - started) / 1000).toFixed(0)} s to copy)\n`);
  return { file: copy, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

async function measure(
  args: { db: string; url?: string; port: number; iterations: number; only: readonly string[] },
  io: CliIo,
): Promise<number> {
  const db = createDb(args.db);
  let session: { token: string; setId: number };
  let cases: PageCase[];
  try {
    session = await prepare(db, io);
    cases = pageCases(db, session.setId).filter((c) => args.only.includes(c.name));
  } finally {
    db.$client.close();
  }
  const url = args.url ?? `http://127.0.0.1:${args.port}`;
  const server = args.url
    ? null
    : spawnGuarded(
        process.execPath,
        ["node_modules/next/dist/bin/next", "start", "-H", "127.0.0.1", "-p", String(args.port)],
        { env: { ...io.env, STUDIO_DB: args.db, NEXT_TELEMETRY_DISABLED: "1" }, output: "ignore", graceMs: 5000 },
      );
  const browser = await chromium.launch({
    executablePath: io.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
  try {
    await waitForApp(url);
    const context = await browser.newContext();
    await context.addCookies([{ name: SESSION_COOKIE, value: session.token, url }]);
    io.stdout.write(
      `${url} on ${args.db}; ${args.iterations} loads per page (after 1 warm-up); load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}\n\n`,
    );
    // "first byte": when the response's first byte came (the server's share: the page is rendered
    // whole before it is sent); the rest of the time is the browser's (download, scripts, hydration).
    io.stdout.write(
      `${"page".padEnd(32)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"max ms".padStart(8)} ${"first byte p50".padStart(15)}\n`,
    );
    let worst = 0;
    for (const c of cases) {
      const times: number[] = [];
      const firstBytes: number[] = [];
      for (let i = 0; i <= args.iterations; i++) {
        const page = await context.newPage();
        try {
          const response = await page.goto(`${url}${c.path}`, { waitUntil: "commit" });
          if (!response?.ok()) throw new AppError("INTERNAL", `${c.path} answered ${response?.status() ?? "nothing"}`);
          await page.locator(c.ready).first().waitFor({ state: "visible", timeout: 60_000 });
          const { interactive, firstByte } = await page.evaluate(
            () =>
              new Promise<{ interactive: number; firstByte: number }>((resolve) =>
                requestIdleCallback(() =>
                  resolve({
                    interactive: performance.now(),
                    firstByte:
                      (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined)
                        ?.responseStart ?? Number.NaN,
                  }),
                ),
              ),
          );
          if (i > 0) {
            times.push(interactive);
            firstBytes.push(firstByte);
          }
        } finally {
          await page.close();
        }
      }
      times.sort((a, b) => a - b);
      firstBytes.sort((a, b) => a - b);
      const p95 = percentile(times, 0.95);
      const firstByte = percentile(firstBytes, 0.5);
      worst = Math.max(worst, p95);
      io.stdout.write(
        `${c.label.padEnd(32)} ${percentile(times, 0.5).toFixed(0).padStart(8)} ${p95.toFixed(0).padStart(8)} ${times[times.length - 1]!.toFixed(0).padStart(8)} ${(Number.isNaN(firstByte) ? "n/a" : firstByte.toFixed(0)).padStart(15)}\n`,
      );
    }
    io.stdout.write(
      `\nworst p95: ${worst.toFixed(0)} ms (goal: under 1000 ms); load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}\n`,
    );
    return 0;
  } finally {
    await browser.close();
    await server?.stop();
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
