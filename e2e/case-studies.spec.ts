import { expect, test, type Page } from "@playwright/test";
import { screenshot } from "./artifacts";
import { signIn } from "./auth";

// The e2e database has annotator accounts, so the dashboard needs an admin or viewer (app/session.ts).
test.beforeEach(async ({ page }) => {
  await signIn(page, "admin");
});

test.use({ viewport: { width: 1280, height: 800 } });

/** A seeded run judged by the rule judge (e2e/seed.ts: synthetic run 3 of seed 11). */
const RUN = "synthetic-11-000003";
const runUrl = `/runs/${encodeURIComponent(RUN)}`;
const card = (page: Page) => page.locator(`[data-testid="case-study-card"][data-run-id="${RUN}"]`);

/** Focuses a control and presses Enter, as a keyboard user would after tabbing to it. */
async function press(page: Page, testId: string): Promise<void> {
  await page.getByTestId(testId).focus();
  await page.keyboard.press("Enter");
}

test("flag a run by keyboard, find it in the gallery, filter by tag, export, edit, unflag", async ({
  page,
}, testInfo) => {
  const crashes: string[] = [];
  page.on("pageerror", (error) => crashes.push(error.message));
  await page.goto(runUrl);
  const panel = page.getByTestId("case-study-panel");
  await expect(panel).toHaveAttribute("data-flagged", "false");
  // What the rule judge found, as the run page shows it: the gallery card must say the same.
  const violated = await page.locator('[data-testid="verdict-row"].verdict-row-violated th').allTextContents();

  await press(page, "case-study-flag");
  await expect(page.getByTestId("case-study-title-input")).toBeFocused();
  await page.keyboard.type("Writes before reading");
  await page.keyboard.press("Tab");
  await page.keyboard.type("The agent changed the target file\nwithout reading its callers first.");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Read-First, shell  read-first");
  await page.keyboard.press("Enter");

  await expect(page.getByTestId("case-study-ok")).toHaveText("Flagged as a case study.");
  await expect(page.getByTestId("case-study-ok")).toBeFocused();
  await expect(panel).toHaveAttribute("data-flagged", "true");
  await expect(panel.getByTestId("case-study-title")).toHaveText("Writes before reading");
  await expect(panel.getByTestId("case-study-tag")).toHaveText(["#read-first", "#shell"]);
  await expect(page.getByRole("link", { name: "Case study ✓" })).toBeVisible();
  await panel.scrollIntoViewIfNeeded();
  await screenshot(page, testInfo, "case-study-flagged");

  // The gallery shows it as a card with the run's facts and the rule judge's violations.
  await page.goto("/case-studies");
  await expect(card(page)).toBeVisible();
  await expect(card(page).getByTestId("case-study-card-title")).toHaveText("Writes before reading");
  await expect(card(page).getByTestId("case-study-run-link")).toHaveAttribute("href", runUrl);
  await expect(card(page)).toContainText("synthetic /");
  await expect(card(page).getByTestId("case-study-excerpt")).toHaveText(
    "The agent changed the target file without reading its callers first.",
  );
  await expect(card(page).getByTestId("case-study-violations").locator(".chip")).toHaveText(violated);
  await screenshot(page, testInfo, "case-study-gallery");

  // A tag chip on the card filters the gallery by it (in the URL, so the view can be shared).
  await card(page).getByRole("link", { name: "#shell" }).click();
  await expect(page).toHaveURL(/\/case-studies\?tag=shell$/);
  await expect(card(page)).toBeVisible();
  await expect(page.getByTestId("case-studies-total")).toContainText("tagged #shell");
  await expect(page.getByTestId("tag-filter").filter({ hasText: "#shell" })).toHaveAttribute("aria-current", "true");

  const exported = await page.request.get("/api/export/case-studies?format=json&tag=shell");
  expect(exported.ok()).toBe(true);
  const body = (await exported.json()) as { rows: { run_id: string; tags: string }[] };
  expect(body.rows.find((r) => r.run_id === RUN)).toMatchObject({ tags: "read-first shell" });
  const csv = await page.request.get("/api/export/case-studies?format=csv&q=callers");
  expect(await csv.text()).toContain(RUN);

  // A search that matches nothing gets a designed empty state.
  await page.getByTestId("case-studies-search").fill("no such words anywhere");
  await page.getByTestId("case-studies-search").press("Enter");
  await expect(page).toHaveURL(/q=no\+such\+words\+anywhere/);
  await expect(page.getByTestId("case-studies-no-match")).toBeVisible();

  // Edit: back on the run page, the form opens with what was saved.
  await page.goto(runUrl);
  await press(page, "case-study-edit");
  const title = page.getByTestId("case-study-title-input");
  await expect(title).toBeFocused();
  await expect(title).toHaveValue("Writes before reading");
  await expect(page.getByTestId("case-study-tags-input")).toHaveValue("read-first, shell");
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("Edits the target without reading");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("case-study-ok")).toHaveText("Case study saved.");
  await expect(panel.getByTestId("case-study-title")).toHaveText("Edits the target without reading");
  await page.goto("/case-studies?tag=read-first");
  await expect(card(page).getByTestId("case-study-card-title")).toHaveText("Edits the target without reading");

  // Unflag, after a confirmation; the gallery no longer has it.
  await page.goto(runUrl);
  await press(page, "case-study-unflag");
  await expect(page.getByTestId("case-study-confirm-unflag")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("case-study-ok")).toContainText("no longer a case study");
  await expect(panel).toHaveAttribute("data-flagged", "false");
  await page.goto("/case-studies");
  await expect(page.getByTestId("nav-case-studies")).toBeVisible();
  await expect(card(page)).toHaveCount(0);
  expect(crashes).toEqual([]);
});

test("a bad tag or a missing title is shown next to its field, and what was typed stays", async ({
  page,
}, testInfo) => {
  await page.goto(runUrl);
  const panel = page.getByTestId("case-study-panel");
  await press(page, "case-study-flag");
  await page.keyboard.type("Tags go wrong");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await page.keyboard.type("fine, bad/tag");
  await page.keyboard.press("Enter");

  const tags = page.getByTestId("case-study-tags-input");
  const error = page.getByTestId("case-study-error-tags");
  await expect(error).toHaveText('Tags: "bad/tag" may contain only a-z, 0-9, "-", "_" and "."');
  await expect(tags).toHaveAttribute("aria-invalid", "true");
  await expect(tags).toHaveAttribute("aria-describedby", new RegExp(`${await error.getAttribute("id")}$`));
  await expect(tags).toBeFocused();
  await expect(tags).toHaveValue("fine, bad/tag");
  await expect(page.getByTestId("case-study-title-input")).toHaveValue("Tags go wrong");
  await expect(page.getByTestId("case-study-error-title")).toHaveCount(0);
  await expect(panel).toHaveAttribute("data-flagged", "false");
  await screenshot(page, testInfo, "case-study-bad-tag");

  // An empty title is named too, and focus goes to it first.
  await page.getByTestId("case-study-title-input").fill("");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("case-study-error-title")).toHaveText("Title is required");
  await expect(page.getByTestId("case-study-title-input")).toBeFocused();

  // Escape closes the form without saving and gives focus back to the button that opened it.
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("case-study-flag")).toBeFocused();
  await expect(panel).toHaveAttribute("data-flagged", "false");
});
