/**
 * Blindness: an annotator cannot fetch another annotator's labels or the judges' verdicts
 * before submitting, through the pages or by direct requests (exports, dashboard pages, replayed
 * server actions). The set is drawn with k = 1, so no item is shared and ann2's item stays ann2's.
 */
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { actionHeaders, captureAction, signIn, type CapturedAction, type E2EUsername } from "./auth";
import { queryAll } from "./db";

const VIEWPORT = { width: 1280, height: 800 };
test.use({ viewport: VIEWPORT });
// The tests share one agreement set and the annotators' sessions, and build on each other.
test.describe.configure({ mode: "serial" });

const SET_NAME = `access check ${Date.now()}`;
/** ann2's rationale on their own item: it must never reach ann1. */
const ANN2_NOTE = `ann2 private rationale ${Date.now()}`;
const NOT_ASSIGNED = (runId: string) => `run "${runId}" is not assigned to you in this agreement set`;
/** How the reveal panel prints a verdict (components/annotate/reveal-panel.tsx). */
const VALUE_TEXT: Record<string, string> = {
  violated: "violated",
  not_violated: "not violated",
  cannot_tell: "cannot tell",
  not_applicable: "n/a",
  invalid: "invalid",
};

interface Verdict {
  metric: string;
  value: string;
  rationale: string;
}

interface Study {
  setId: number;
  ruleJudge: { id: number; name: string };
  /** ann1's first item and ann2's first item (k = 1: nobody else labels either). */
  own: string;
  foreign: string;
}

let study: Study;
let ann1: BrowserContext;
let ann2: BrowserContext;
/** ann1's own label save as the browser sent it, replayed with other run ids. */
let ann1Save: CapturedAction;

async function contextFor(browser: Browser, username?: E2EUsername): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  if (username) {
    const page = await context.newPage();
    await signIn(page, username);
    await page.close();
  }
  return context;
}

const userId = (username: string) =>
  queryAll<{ id: number }>("SELECT id FROM users WHERE username = ?", username)[0]!.id;
const itemHref = (runId: string) => `/annotate/${study.setId}/${encodeURIComponent(runId)}`;

function verdictsOf(runId: string, judgeId?: number): Verdict[] {
  return queryAll<Verdict>(
    `SELECT metric, value, rationale FROM verdicts WHERE run_id = ? ${judgeId === undefined ? "" : "AND judge_id = ?"}`,
    ...(judgeId === undefined ? [runId] : [runId, judgeId]),
  );
}

function labelsOf(runId: string, username: string) {
  return queryAll<{ metric: string; value: string; note: string | null }>(
    "SELECT metric, value, note FROM labels WHERE set_id = ? AND run_id = ? AND user_id = ? ORDER BY metric",
    study.setId,
    runId,
    userId(username),
  );
}

function assignmentsOf(runId: string) {
  return queryAll<{ username: string; submitted_at: string | null }>(
    `SELECT u.username, ia.submitted_at FROM item_assignments ia JOIN users u ON u.id = ia.user_id
     WHERE ia.set_id = ? AND ia.run_id = ? ORDER BY u.username`,
    study.setId,
    runId,
  );
}

/** The forms a text takes in a page: as is, HTML-escaped, and JSON-escaped once or twice (the RSC payload). */
function encodings(text: string): string[] {
  const html = text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#x27;");
  const json = (s: string) => JSON.stringify(s).slice(1, -1);
  const scriptSafe = (s: string) => s.replaceAll("<", "\\u003c").replaceAll(">", "\\u003e").replaceAll("&", "\\u0026");
  const forms = [text, html, json(text), json(json(text))];
  return [...new Set([...forms, ...forms.map(scriptSafe)])];
}

/** The texts among `secrets` that occur, in any of their forms, in `content`. */
function found(content: string, secrets: readonly string[]): string[] {
  return secrets.filter((secret) => encodings(secret).some((form) => content.includes(form)));
}

/** Every rationale a judge gave on the run (non-empty), for leak checks. */
const rationalesOf = (runId: string) => [...new Set(verdictsOf(runId).map((v) => v.rationale))].filter((r) => r !== "");

/** The captured action POSTed with `context`'s cookies (optionally with another run id); the action's result. */
async function replay(context: BrowserContext, action: CapturedAction, runId?: string): Promise<unknown> {
  let body = action.body;
  if (runId !== undefined) {
    const text = body.toString("utf8");
    const own = `"runId":${JSON.stringify(study.own)}`;
    expect(text.split(own)).toHaveLength(2); // the rewrite below changes exactly the item
    body = Buffer.from(text.replace(own, `"runId":${JSON.stringify(runId)}`));
  }
  const response = await context.request.post(action.url, { headers: actionHeaders(action), data: body });
  expect(response.status()).toBe(200);
  // React's action reply: numbered lines of JSON; the action's return value is the one with `ok`.
  for (const line of (await response.text()).split("\n")) {
    const json = line.slice(line.indexOf(":") + 1);
    if (!json.startsWith("{")) continue;
    const value = JSON.parse(json) as Record<string, unknown>;
    if ("ok" in value) return value;
  }
  throw new Error(`no action result in the reply to ${action.url}`);
}

/** Opens the item and waits until the label form is interactive (it focuses its first row once hydrated). */
async function openItem(page: Page, runId: string): Promise<void> {
  await page.goto(itemHref(runId));
  await expect(page.getByTestId("labeling-item")).toHaveAttribute("data-run-id", runId);
  await expect(page.getByTestId("label-row").first()).toBeFocused();
}

test.beforeAll(async ({ browser }) => {
  // The admin draws 6 synthetic runs, one annotator each, comparing the rule judge.
  const admin = await contextFor(browser, "admin");
  const page = await admin.newPage();
  await page.goto("/agreement");
  await page.getByTestId("set-name").fill(SET_NAME);
  await page.getByTestId("set-size").fill("6");
  await page.locator('input[name="annotatorsPerItem"]').fill("1");
  await page.locator('select[name="benchmarkId"]').selectOption("synthetic");
  const annotatorIds = new Set(["ann1", "ann2", "ann3"].map((name) => String(userId(name))));
  // Other specs may have created more annotator accounts: enrol exactly the three.
  for (const box of await page.locator('input[name="annotatorIds"]').all())
    await box.setChecked(annotatorIds.has((await box.getAttribute("value"))!));
  const [ruleJudge] = queryAll<{ id: number; name: string }>(
    "SELECT id, name FROM judges WHERE kind = 'rule' ORDER BY id LIMIT 1",
  );
  await page.locator(`input[name="judgeIds"][value="${ruleJudge!.id}"]`).check();
  await page.getByTestId("create-set-submit").click();
  await expect(page.getByTestId("create-set-result")).toHaveText(`Created "${SET_NAME}" with 6 items.`);
  await admin.close();

  const [set] = queryAll<{ id: number }>("SELECT id FROM agreement_sets WHERE name = ?", SET_NAME);
  const items = queryAll<{ run_id: string; username: string }>(
    `SELECT ia.run_id, u.username FROM item_assignments ia JOIN users u ON u.id = ia.user_id
     JOIN agreement_items ai ON ai.set_id = ia.set_id AND ai.run_id = ia.run_id
     WHERE ia.set_id = ? ORDER BY ai.position`,
    set!.id,
  );
  expect(items).toHaveLength(6);
  expect(new Set(items.map((i) => i.run_id)).size).toBe(6);
  for (const name of ["ann1", "ann2", "ann3"]) expect(items.filter((i) => i.username === name)).toHaveLength(2);
  study = {
    setId: set!.id,
    ruleJudge: ruleJudge!,
    own: items.find((i) => i.username === "ann1")!.run_id,
    foreign: items.find((i) => i.username === "ann2")!.run_id,
  };
  // Both runs were judged: there are verdicts to leak.
  expect(rationalesOf(study.own).length).toBeGreaterThan(0);
  expect(rationalesOf(study.foreign).length).toBeGreaterThan(0);

  // ann2 starts their item: a label with a rationale that only ann2 (and the admin) may read.
  ann2 = await contextFor(browser, "ann2");
  const ann2Page = await ann2.newPage();
  await openItem(ann2Page, study.foreign);
  const first = ann2Page.getByTestId("label-row").first();
  await first.locator("textarea").fill(ANN2_NOTE);
  await ann2Page.keyboard.press("Escape");
  await expect(first).toBeFocused();
  await ann2Page.keyboard.press("v");
  await expect(first.getByTestId("save-state")).toHaveText("saved");
  expect(labelsOf(study.foreign, "ann2")).toEqual([
    { metric: (await first.getAttribute("data-metric"))!, value: "violated", note: ANN2_NOTE },
  ]);

  ann1 = await contextFor(browser, "ann1");
});

test.afterAll(async () => {
  await ann1?.close();
  await ann2?.close();
});

test("ann1 opening ann2's item gets an error state and none of the run, its verdicts or ann2's labels", async () => {
  const page = await ann1.newPage();
  const response = await page.goto(itemHref(study.foreign));
  const html = await response!.text();
  await expect(page.getByTestId("error-state")).toContainText("You cannot label this item");
  await expect(page.getByTestId("error-state")).toContainText(NOT_ASSIGNED(study.foreign));
  await expect(page.getByTestId("labeling-item")).toHaveCount(0);
  await expect(page.getByTestId("label-form")).toHaveCount(0);
  await expect(page.getByTestId("reveal-panel")).toHaveCount(0);
  const [run] = queryAll<{ instance_id: string }>("SELECT instance_id FROM runs WHERE id = ?", study.foreign);
  const secrets = [run!.instance_id, ANN2_NOTE, ...rationalesOf(study.foreign)];
  for (const content of [html, await page.content()]) expect(found(content, secrets)).toEqual([]);
  await page.close();
});

test("ann1's own open item shows the label form but no verdict anywhere in the page", async () => {
  const page = await ann1.newPage();
  const response = await page.goto(itemHref(study.own));
  const html = await response!.text();
  await expect(page.getByTestId("label-row").first()).toBeFocused();
  // The form asks about the metrics the rule judge found applicable, and nothing else.
  const applicable = verdictsOf(study.own, study.ruleJudge.id)
    .filter((v) => v.value !== "not_applicable")
    .map((v) => v.metric);
  const shown = await page.getByTestId("label-row").evaluateAll((rows) => rows.map((r) => r.dataset.metric!));
  expect(shown.sort()).toEqual(applicable.sort());
  await expect(page.getByTestId("reveal-panel")).toHaveCount(0);
  await expect(page.getByTestId("verdict-panel")).toHaveCount(0);
  await expect(page.getByTestId("submit-item")).toBeDisabled();
  // Neither the server's HTML (with its RSC payload) nor the hydrated page holds a rationale.
  const secrets = [ANN2_NOTE, ...rationalesOf(study.own)];
  for (const content of [html, await page.content()]) expect(found(content, secrets)).toEqual([]);
  await page.close();
});

/** What ann1 (or nobody) asks for directly: the dashboard and exports that carry verdicts and labels. */
const apiRequests = () => [
  "/api/export/runs?format=json",
  "/api/export/overview",
  `/api/agreement/${study.setId}/export?what=labels`,
  `/api/agreement/${study.setId}/export?what=report`,
];
/** The run pages (verdicts) and the set's report and adjudication pages (everyone's labels). */
const pageRequests = () => [
  `/runs/${encodeURIComponent(study.own)}`,
  `/runs/${encodeURIComponent(study.foreign)}`,
  `/agreement/${study.setId}`,
  `/agreement/${study.setId}/adjudicate`,
];

test("direct requests from ann1's session for verdicts and exports are refused", async () => {
  const secrets = [ANN2_NOTE, ...rationalesOf(study.own), ...rationalesOf(study.foreign)];
  for (const path of pageRequests()) {
    const response = await ann1.request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(307);
    expect(response.headers().location, path).toBe(`/login?next=${encodeURIComponent(path)}&reason=role`);
    const followed = await ann1.request.get(path);
    expect(new URL(followed.url()).pathname, path).toBe("/login");
    expect(found(await followed.text(), secrets), path).toEqual([]);
  }
  for (const path of apiRequests()) {
    const response = await ann1.request.get(path);
    expect(response.status(), path).toBe(403);
    const error = path.startsWith("/api/export")
      ? "This needs an admin or a viewer account."
      : "This needs an admin account.";
    expect(await response.json(), path).toEqual({ error });
  }
});

test("signed out, the same requests are refused", async ({ browser }) => {
  const nobody = await contextFor(browser);
  for (const path of [...pageRequests(), itemHref(study.own), itemHref(study.foreign)]) {
    const response = await nobody.request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(307);
    expect(response.headers().location, path).toBe(`/login?next=${encodeURIComponent(path)}`);
  }
  for (const path of apiRequests()) {
    const response = await nobody.request.get(path);
    expect(response.status(), path).toBe(401);
    expect(await response.json(), path).toEqual({ error: "Sign in first." });
  }
  await nobody.close();
});

test("a replayed label save for ann2's item is refused, naming the assignment", async () => {
  // ann1's own first save, stopped before it reaches the server.
  const page = await ann1.newPage();
  await openItem(page, study.own);
  ann1Save = await captureAction(page, () => page.keyboard.press("v"));
  await page.close();
  expect(labelsOf(study.own, "ann1")).toEqual([]);

  expect(await replay(ann1, ann1Save, study.foreign)).toEqual({ ok: false, error: NOT_ASSIGNED(study.foreign) });
  expect(labelsOf(study.foreign, "ann1")).toEqual([]);
  expect(labelsOf(study.foreign, "ann2")).toHaveLength(1);
  expect(assignmentsOf(study.foreign)).toEqual([{ username: "ann2", submitted_at: null }]);

  // The same request for ann1's own item is saved: the replay itself is sound.
  expect(await replay(ann1, ann1Save)).toEqual({ ok: true });
  expect(labelsOf(study.own, "ann1")).toHaveLength(1);
});

test("after labeling by keyboard and submitting, ann1 sees the rule judge's values; ann2's item stays refused", async () => {
  const page = await ann1.newPage();
  await openItem(page, study.own);
  const rows = page.getByTestId("label-row");
  const count = await rows.count();
  const keys = ["v", "n", "c"] as const;
  const values = ["violated", "not_violated", "cannot_tell"];
  for (let i = 0; i < count; i++) {
    await page.keyboard.press(keys[i % 3]!);
    await expect(rows.nth(i)).toHaveAttribute("data-value", values[i % 3]!);
    // The next key is for the next row: wait until the form has moved there.
    if (i + 1 < count) await expect(rows.nth(i + 1)).toBeFocused();
  }
  for (let i = 0; i < count; i++) await expect(rows.nth(i).getByTestId("save-state")).toHaveText("saved");
  await expect(page.getByTestId("submit-item")).toBeEnabled();
  const metrics = await rows.evaluateAll((all) => all.map((r) => r.dataset.metric!));
  expect(labelsOf(study.own, "ann1")).toEqual(
    metrics
      .map((metric, i) => ({ metric, value: values[i % 3]!, note: "" }))
      .sort((a, b) => (a.metric < b.metric ? -1 : 1)),
  );

  // Before submitting: ann1's submit, replayed for ann2's item, is refused too (captured from a second tab).
  const other = await ann1.newPage();
  await openItem(other, study.own);
  const submit = await captureAction(other, () => other.keyboard.press("Control+Enter"));
  await other.close();
  expect(await replay(ann1, submit, study.foreign)).toEqual({ ok: false, error: NOT_ASSIGNED(study.foreign) });
  expect(assignmentsOf(study.foreign)).toEqual([{ username: "ann2", submitted_at: null }]);
  expect(labelsOf(study.foreign, "ann1")).toEqual([]);
  expect(assignmentsOf(study.own)).toEqual([{ username: "ann1", submitted_at: null }]);

  await expect(rows.nth(count - 1)).toBeFocused();
  await page.keyboard.press("Control+Enter");
  await expect(page.getByTestId("submitted")).toBeVisible();
  const reveal = page.getByTestId("reveal-panel");
  await expect(reveal).toBeVisible();
  expect(assignmentsOf(study.own)[0]!.submitted_at).not.toBeNull();

  // The reveal panel shows the rule judge's verdict on every metric, as in the verdicts table.
  const headers = await reveal.locator("thead th").allTextContents();
  const column = headers.indexOf(study.ruleJudge.name);
  expect(column).toBeGreaterThan(0);
  // k = 1: nobody else labels this item, so no other annotator is shown.
  expect(headers).not.toContain("Annotator Two");
  const ruleVerdicts = verdictsOf(study.own, study.ruleJudge.id).filter((v) => v.value !== "not_applicable");
  await expect(reveal.getByTestId("reveal-row")).toHaveCount(ruleVerdicts.length);
  for (const verdict of ruleVerdicts) {
    const row = reveal.locator(`[data-testid="reveal-row"][data-metric="${verdict.metric}"]`);
    await expect(row.locator("th, td").nth(column), verdict.metric).toHaveText(VALUE_TEXT[verdict.value]!);
  }
  // Now the rationales are in the page (the leak checks above look for the right thing).
  expect(found(await page.content(), [...new Set(ruleVerdicts.map((v) => v.rationale))])).toEqual([
    ...new Set(ruleVerdicts.map((v) => v.rationale)),
  ]);

  // Submitted labels are final, even to a replayed save.
  expect(await replay(ann1, ann1Save)).toEqual({
    ok: false,
    error: `run "${study.own}" is already submitted; its labels are final`,
  });

  // ann2's item is still not ann1's: not the page, not a replayed save, not the export or the run page.
  await page.goto(itemHref(study.foreign));
  await expect(page.getByTestId("error-state")).toContainText(NOT_ASSIGNED(study.foreign));
  await expect(page.getByTestId("label-form")).toHaveCount(0);
  await expect(page.getByTestId("reveal-panel")).toHaveCount(0);
  expect(found(await page.content(), [ANN2_NOTE, ...rationalesOf(study.foreign)])).toEqual([]);
  expect(await replay(ann1, ann1Save, study.foreign)).toEqual({ ok: false, error: NOT_ASSIGNED(study.foreign) });
  expect(labelsOf(study.foreign, "ann1")).toEqual([]);
  expect((await ann1.request.get(`/api/agreement/${study.setId}/export?what=labels`)).status()).toBe(403);
  const runPage = await ann1.request.get(`/runs/${encodeURIComponent(study.foreign)}`, { maxRedirects: 0 });
  expect(runPage.status()).toBe(307);
  await page.close();
});
