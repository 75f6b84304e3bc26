/**
 * Who reads what once a study is active (the e2e database has annotator accounts), page by page
 * and route by route, as the README's "Blindness" paragraph states and lib/auth/access.ts
 * decides: nothing for a signed-out visitor; the dashboard, benchmarks, instances (ground truth)
 * and jobs for admins and viewers; case studies for admins only.
 */
import { expect, test, type APIResponse, type Browser, type BrowserContext } from "@playwright/test";
import { signIn, type E2EUsername } from "./auth";
import { queryAll } from "./db";

type Who = "signed out" | Extract<E2EUsername, "viewer" | "ann1" | "admin">;
const PEOPLE: Who[] = ["signed out", "viewer", "ann1", "admin"];

const encodePath = (id: string) => id.split("/").map(encodeURIComponent).join("/");

function samples() {
  const run = queryAll<{ run_id: string; path: string }>(
    "SELECT run_id, path FROM file_changes WHERE kind = 'updated' ORDER BY run_id, path LIMIT 1",
  )[0]!;
  const instance = queryAll<{ id: string; benchmark_id: string }>(
    "SELECT id, benchmark_id FROM instances ORDER BY id LIMIT 1",
  )[0]!;
  return { run, instance };
}

/** Pages by who reads them: dashboard pages for admins and viewers, the case-study gallery for admins. */
function pages() {
  const { run, instance } = samples();
  return {
    dashboard: [
      "/overview",
      "/runs",
      `/runs/${encodeURIComponent(run.run_id)}`,
      "/compare",
      "/ablation",
      "/benchmarks",
      `/benchmarks/${encodeURIComponent(instance.benchmark_id)}`,
      `/benchmarks/${encodeURIComponent(instance.benchmark_id)}/instances`,
      `/instances/${encodePath(instance.id)}`,
      "/jobs",
    ],
    caseStudies: ["/case-studies"],
  };
}

function routes() {
  const { run } = samples();
  return {
    dashboard: [
      "/api/export/runs?format=json",
      "/api/export/overview",
      `/api/runs/${encodeURIComponent(run.run_id)}/files?path=${encodeURIComponent(run.path)}`,
    ],
    caseStudies: ["/api/export/case-studies?format=json"],
  };
}

const contexts = new Map<Who, BrowserContext>();

async function contextOf(browser: Browser, who: Who): Promise<BrowserContext> {
  const known = contexts.get(who);
  if (known) return known;
  const context = await browser.newContext();
  if (who !== "signed out") await signIn(await context.newPage(), who);
  contexts.set(who, context);
  return context;
}

test.afterAll(async () => {
  await Promise.all([...contexts.values()].map((c) => c.close()));
});

const nextOf = (response: APIResponse) => {
  const location = new URL(response.headers().location ?? "/", "http://x.invalid");
  return {
    path: location.pathname,
    next: location.searchParams.get("next"),
    reason: location.searchParams.get("reason"),
  };
};

/** One page for one person: "read" (200), "sign in" (to the sign-in page) or "role" (signed in, but the wrong role). */
async function pageOutcome(context: BrowserContext, path: string): Promise<string> {
  const response = await context.request.get(path, { maxRedirects: 0 });
  if (response.status() === 200) return "read";
  expect(response.status(), path).toBe(307);
  const { path: to, next, reason } = nextOf(response);
  expect(to, path).toBe("/login");
  expect(decodeURIComponent(next ?? ""), path).toBe(decodeURIComponent(path));
  return reason === "role" ? "role" : "sign in";
}

async function routeStatus(context: BrowserContext, path: string): Promise<number> {
  return (await context.request.get(path)).status();
}

test("each page, by who asks: signed out nothing; viewers the dashboard, benchmarks, instances and jobs; case studies admins", async ({
  browser,
}) => {
  const expected: Record<Who, { dashboard: string; caseStudies: string }> = {
    "signed out": { dashboard: "sign in", caseStudies: "sign in" },
    viewer: { dashboard: "read", caseStudies: "role" },
    ann1: { dashboard: "role", caseStudies: "role" },
    admin: { dashboard: "read", caseStudies: "read" },
  };
  for (const who of PEOPLE) {
    const context = await contextOf(browser, who);
    for (const [area, paths] of Object.entries(pages()) as [keyof ReturnType<typeof pages>, string[]][])
      for (const path of paths) expect(await pageOutcome(context, path), `${who} ${path}`).toBe(expected[who][area]);
  }
});

test("each route, by who asks: 401 signed out, 403 for the wrong role", async ({ browser }) => {
  const expected: Record<Who, { dashboard: number; caseStudies: number }> = {
    "signed out": { dashboard: 401, caseStudies: 401 },
    viewer: { dashboard: 200, caseStudies: 403 },
    ann1: { dashboard: 403, caseStudies: 403 },
    admin: { dashboard: 200, caseStudies: 200 },
  };
  for (const who of PEOPLE) {
    const context = await contextOf(browser, who);
    for (const [area, paths] of Object.entries(routes()) as [keyof ReturnType<typeof routes>, string[]][])
      for (const path of paths) expect(await routeStatus(context, path), `${who} ${path}`).toBe(expected[who][area]);
  }
});

test("a viewer reads a run without its case-study section, and has no link to the gallery", async ({ browser }) => {
  const runPath = pages().dashboard[2]!;
  const viewer = await contextOf(browser, "viewer");
  const admin = await contextOf(browser, "admin");
  const asViewer = await (await viewer.request.get(runPath)).text();
  const asAdmin = await (await admin.request.get(runPath)).text();
  expect(asAdmin).toContain('id="case-study"');
  expect(asAdmin).toContain('data-testid="nav-case-studies"');
  expect(asViewer).toContain('data-testid="run-id"');
  expect(asViewer).not.toContain('id="case-study"');
  expect(asViewer).not.toContain('data-testid="nav-case-studies"');
});
