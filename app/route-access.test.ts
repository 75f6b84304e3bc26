/**
 * Every page, route handler and server action of the app, found on the file system, asked by
 * each kind of visitor once a study is active (an annotator account exists): the tables below say
 * who may open each, and one missing from them fails the test, so a new route cannot be forgotten.
 *
 * A page refuses by redirecting to /login (`reason=role` for a signed-in account of another role);
 * a route handler by 401 (signed out) or 403; a server action answers (or throws) "Sign in first."
 * or "This needs ...". Whatever else happens once past the guard (a page rendered, a 404 or an
 * error for the made-up ids and empty forms used here) counts as let in.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createDb, type Db } from "@/db/client";
import { createSession, createUser } from "@/db/queries/users";
import type { PasswordHash } from "@/lib/auth/password";
import type { Role } from "@/lib/auth/schema";

/** Who may open a route once a study is active. */
type Access =
  /** everyone, signed out included */
  | "anyone"
  /** admins and viewers: verdicts, trajectories, ground truth (lib/auth/access.ts "dashboard") */
  | "dashboard"
  /** admins only: accounts, agreement sets, case studies */
  | "admin"
  /** annotators and admins: the labeling queue and workspace */
  | "labelers"
  /** no session opens it: a bearer token does (remote run import, the workers' API) */
  | "token";

type Probe = { params?: Record<string, string | string[]>; query?: string; access: Access };

/** Route file (under app/) -> how to ask it and who gets in. Several probes for a route whose access depends on a parameter. */
const ROUTES: Record<string, Probe[]> = {
  "page.tsx": [{ access: "anyone" }],
  "login/page.tsx": [{ access: "anyone" }],
  "overview/page.tsx": [{ access: "dashboard" }],
  "runs/page.tsx": [{ access: "dashboard" }],
  "runs/[id]/page.tsx": [{ params: { id: "no-such-run" }, access: "dashboard" }],
  "compare/page.tsx": [{ access: "dashboard" }],
  "ablation/page.tsx": [{ access: "dashboard" }],
  "benchmarks/page.tsx": [{ access: "dashboard" }],
  "benchmarks/[id]/page.tsx": [{ params: { id: "no-such-benchmark" }, access: "dashboard" }],
  "benchmarks/[id]/instances/page.tsx": [{ params: { id: "no-such-benchmark" }, access: "dashboard" }],
  "instances/[...id]/page.tsx": [{ params: { id: ["no-such-benchmark", "no-such-instance"] }, access: "dashboard" }],
  "jobs/page.tsx": [{ access: "dashboard" }],
  "case-studies/page.tsx": [{ access: "admin" }],
  "admin/users/page.tsx": [{ access: "admin" }],
  "agreement/page.tsx": [{ access: "admin" }],
  "agreement/[setId]/page.tsx": [{ params: { setId: "999" }, access: "admin" }],
  "agreement/[setId]/adjudicate/page.tsx": [{ params: { setId: "999" }, access: "admin" }],
  "annotate/page.tsx": [{ access: "labelers" }],
  "annotate/[setId]/page.tsx": [{ params: { setId: "999" }, access: "labelers" }],
  "annotate/[setId]/[runId]/page.tsx": [{ params: { setId: "999", runId: "no-such-run" }, access: "labelers" }],
  "api/export/[table]/route.ts": [
    { params: { table: "overview" }, access: "dashboard" },
    { params: { table: "runs" }, query: "format=json", access: "dashboard" },
    { params: { table: "compare" }, access: "dashboard" },
    { params: { table: "ablation" }, query: "format=json", access: "dashboard" },
    { params: { table: "case-studies" }, query: "format=json", access: "admin" },
  ],
  // An annotator reads the files of runs assigned to them; this run is assigned to nobody.
  "api/runs/[id]/files/route.ts": [{ params: { id: "no-such-run" }, query: "path=a.py", access: "dashboard" }],
  "api/agreement/[setId]/export/route.ts": [{ params: { setId: "999" }, access: "admin" }],
  "api/runs/import/route.ts": [{ access: "token" }],
  "api/workers/plan/route.ts": [{ query: "benchmark=b&config=c", access: "token" }],
  "api/workers/instance/route.ts": [{ query: "id=x", access: "token" }],
  "api/workers/snapshot/route.ts": [{ query: `digest=${"0".repeat(64)}`, access: "token" }],
  "api/workers/contents/route.ts": [{ access: "token" }],
  "api/workers/evaluation-inputs/route.ts": [{ access: "token" }],
  "api/workers/verdicts/route.ts": [{ access: "token" }],
};

/** Server action (`file#export`) -> who may call it, and how it is called: (previous state, form), (form) or (input). */
const ACTIONS: Record<string, { access: Access; call: "state" | "form" | "input" }> = {
  "admin/users/actions.ts#createUserAction": { access: "admin", call: "state" },
  "admin/users/actions.ts#resetPasswordAction": { access: "admin", call: "state" },
  "admin/users/actions.ts#unlockSignInAction": { access: "admin", call: "state" },
  "agreement/actions.ts#createSetAction": { access: "admin", call: "state" },
  "agreement/actions.ts#adjudicateAction": { access: "admin", call: "input" },
  "annotate/actions.ts#saveLabelAction": { access: "labelers", call: "input" },
  "annotate/actions.ts#submitItemAction": { access: "labelers", call: "input" },
  "jobs/actions.ts#enqueueJobAction": { access: "admin", call: "state" },
  "jobs/actions.ts#cancelJobAction": { access: "admin", call: "form" },
  "login/actions.ts#signInAction": { access: "anyone", call: "state" },
  "login/actions.ts#signOutAction": { access: "anyone", call: "form" },
  "runs/[id]/actions.ts#saveCaseStudyAction": { access: "admin", call: "state" },
  "runs/[id]/actions.ts#removeCaseStudyAction": { access: "admin", call: "state" },
};

type Visitor = "signed out" | Role;
const VISITORS: Visitor[] = ["signed out", "annotator", "viewer", "admin"];

const LETS_IN: Record<Access, readonly Visitor[]> = {
  anyone: VISITORS,
  dashboard: ["admin", "viewer"],
  admin: ["admin"],
  labelers: ["annotator", "admin"],
  token: [],
};

// ---------------------------------------------------------------- Next's request context, faked

class Redirect extends Error {
  constructor(readonly url: string) {
    super(`redirect ${url}`);
  }
}
class NotFound extends Error {}

const session = vi.hoisted(() => ({ token: undefined as string | undefined }));

vi.mock("server-only", () => ({}));
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (name === "studio_session" && session.token ? { name, value: session.token } : undefined),
    set: () => {},
  }),
  headers: async () => new Headers(),
}));
vi.mock("next/navigation", async (importOriginal) => ({
  ...(await importOriginal<object>()),
  redirect: (url: string) => {
    throw new Redirect(url);
  },
  notFound: () => {
    throw new NotFound("not found");
  },
}));
vi.mock("next/server", async (importOriginal) => ({
  ...(await importOriginal<object>()),
  connection: async () => {},
}));
vi.mock("next/cache", () => ({ revalidatePath: () => {}, revalidateTag: () => {} }));

// ---------------------------------------------------------------- the routes on disk

const APP = path.join(process.cwd(), "app");

function filesNamed(names: readonly string[], dir = APP): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesNamed(names, full);
    return names.includes(entry.name) ? [path.relative(APP, full).split(path.sep).join("/")] : [];
  });
}

const importApp = (file: string) => import(/* @vite-ignore */ path.join(APP, file)) as Promise<Record<string, unknown>>;

/** The URL a probe asks for: the route file's folder with its dynamic segments filled in. */
function urlOf(file: string, probe: Probe): string {
  const segments = path.posix
    .dirname(file)
    .split("/")
    .filter((s) => s !== ".");
  const filled = segments.flatMap((segment) => {
    const name = /^\[(?:\.\.\.)?(.+)\]$/.exec(segment)?.[1];
    if (!name) return [segment];
    const value = probe.params?.[name];
    return (Array.isArray(value) ? value : [value ?? ""]).map(encodeURIComponent);
  });
  return `/${filled.join("/")}${probe.query ? `?${probe.query}` : ""}`;
}

type Outcome = "in" | "sign in" | "role" | 401 | 403;

async function askPage(file: string, probe: Probe): Promise<Outcome> {
  const page = (await importApp(file)) as { default: (props: unknown) => Promise<unknown> };
  const searchParams = Object.fromEntries(new URLSearchParams(probe.query ?? ""));
  try {
    await page.default({ params: Promise.resolve(probe.params ?? {}), searchParams: Promise.resolve(searchParams) });
  } catch (error) {
    if (error instanceof Redirect && error.url.startsWith("/login?")) {
      const url = new URL(error.url, "http://studio.test");
      expect(url.searchParams.get("next"), `${file}: where to go after signing in`).toBe(
        urlOf(file, { ...probe, query: undefined }),
      );
      return url.searchParams.get("reason") === "role" ? "role" : "sign in";
    }
  }
  return "in";
}

async function askRoute(file: string, probe: Probe): Promise<Outcome> {
  const route = (await importApp(file)) as Record<string, (request: Request, context: unknown) => Promise<Response>>;
  const methods = ["GET", "POST"].filter((method) => typeof route[method] === "function");
  expect(methods, `${file} handles GET or POST`).not.toEqual([]);
  const outcomes = new Set<Outcome>();
  for (const method of methods) {
    const request = new Request(`http://studio.test${urlOf(file, probe)}`, {
      method,
      body: method === "POST" ? new Uint8Array([1, 2, 3]) : undefined,
    });
    const response = await route[method]!(request, { params: Promise.resolve(probe.params ?? {}) });
    outcomes.add(response.status === 401 || response.status === 403 ? response.status : "in");
  }
  expect(outcomes.size, `${file}: every method answers alike`).toBe(1);
  return [...outcomes][0]!;
}

/** authorize()'s two refusals (app/session.ts), as an action answers them. */
function refusalOf(message: string): Outcome {
  if (message === "Sign in first.") return 401;
  return message.startsWith("This needs ") ? 403 : "in";
}

async function askAction(key: string): Promise<Outcome> {
  const [file, name] = key.split("#") as [string, string];
  const action = (await importApp(file))[name] as (...args: unknown[]) => Promise<unknown>;
  const args = { state: [null, new FormData()], form: [new FormData()], input: [{}] }[ACTIONS[key]!.call];
  try {
    const result = (await action(...args)) as { ok?: boolean; error?: string } | undefined;
    return result?.ok === false && result.error ? refusalOf(result.error) : "in";
  } catch (error) {
    return error instanceof Error && !(error instanceof Redirect) ? refusalOf(error.message) : "in";
  }
}

function expected(access: Access, visitor: Visitor, kind: "page" | "route" | "action"): Outcome {
  if (LETS_IN[access].includes(visitor)) return "in";
  if (kind !== "page") return visitor === "signed out" || access === "token" ? 401 : 403;
  return visitor === "signed out" ? "sign in" : "role";
}

// ---------------------------------------------------------------- the test

const holder = globalThis as typeof globalThis & { __studioDb?: Db };
const userIds = new Map<Role, number>();
const savedEnv = process.env.STUDIO_INGEST_TOKEN;

/** A fresh session per question: signing out (an action asked here) ends the one it was asked with. */
function visit(visitor: Visitor): void {
  session.token = visitor === "signed out" ? undefined : createSession(holder.__studioDb!, userIds.get(visitor)!).token;
}

beforeAll(() => {
  // The app's connection (db/app-db.ts) is this in-memory database.
  const db = createDb(":memory:");
  holder.__studioDb = db;
  for (const role of ["annotator", "viewer", "admin"] as const) {
    const passwordHash = "scrypt$unused" as PasswordHash;
    userIds.set(role, createUser(db, { username: `a-${role}`, displayName: role, role, passwordHash }).id);
  }
  process.env.STUDIO_INGEST_TOKEN = "a-token-nobody-sends-here";
});

afterAll(() => {
  holder.__studioDb?.$client.close();
  delete holder.__studioDb;
  if (savedEnv === undefined) delete process.env.STUDIO_INGEST_TOKEN;
  else process.env.STUDIO_INGEST_TOKEN = savedEnv;
});

describe("who opens each page and route once a study is active", () => {
  const files = filesNamed(["page.tsx", "route.ts"]).sort();

  it("the table lists exactly the pages and routes on disk", () => {
    expect(files).toEqual(Object.keys(ROUTES).sort());
  });

  for (const file of files) {
    const kind = file.endsWith("page.tsx") ? "page" : "route";
    it(file, { timeout: 30_000 }, async () => {
      for (const probe of ROUTES[file] ?? []) {
        for (const visitor of VISITORS) {
          visit(visitor);
          const outcome = kind === "page" ? await askPage(file, probe) : await askRoute(file, probe);
          expect(outcome, `${visitor} asks ${urlOf(file, probe)}`).toBe(expected(probe.access, visitor, kind));
        }
      }
    });
  }
});

describe("who calls each server action once a study is active", () => {
  it("the table lists exactly the actions on disk", { timeout: 30_000 }, async () => {
    const found: string[] = [];
    for (const file of filesNamed(["actions.ts"])) {
      for (const [name, value] of Object.entries(await importApp(file)))
        if (typeof value === "function") found.push(`${file}#${name}`);
    }
    expect(found.sort()).toEqual(Object.keys(ACTIONS).sort());
  });

  for (const key of Object.keys(ACTIONS).sort()) {
    it(key, { timeout: 30_000 }, async () => {
      for (const visitor of VISITORS) {
        visit(visitor);
        expect(await askAction(key), `${visitor} calls ${key}`).toBe(expected(ACTIONS[key]!.access, visitor, "action"));
      }
    });
  }
});
