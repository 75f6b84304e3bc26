/**
 * The demo's study as a newcomer meets it: the seed made it through scripts/demo-study.ts (as
 * `npm run demo` does), so annotator1 signs in with the password from the accounts file and
 * labels at once; the admin sees the set, and the new-set form has one field per row.
 */
import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { parseAccountsFile } from "@/lib/auth/accounts-file";
import { DEMO_SET_NAME, DEMO_SET_SIZE } from "../scripts/demo-study";
import { screenshot } from "./artifacts";
import { E2E_DEMO_ACCOUNTS_FILE, signIn, signInWith } from "./auth";
import { queryAll } from "./db";

test.use({ viewport: { width: 1280, height: 800 } });

function demoSetId(): number {
  const [set] = queryAll<{ id: number }>("SELECT id FROM agreement_sets WHERE name = ?", DEMO_SET_NAME);
  return set!.id;
}

test("annotator1 signs in with the password from the accounts file and labels the demo set at once", async ({
  page,
}) => {
  const line = parseAccountsFile(fs.readFileSync(E2E_DEMO_ACCOUNTS_FILE, "utf8")).find(
    (l) => l.username === "annotator1",
  );
  expect(line?.role).toBe("annotator");
  await signInWith(page, { username: "annotator1", password: line!.password, displayName: "Annotator 1" }, "/annotate");

  const card = page.locator(`[data-testid="annotator-set"][data-set-id="${demoSetId()}"]`);
  await expect(card).toContainText(DEMO_SET_NAME);
  await expect(card.getByTestId("annotator-progress")).toHaveText(`0 of ${DEMO_SET_SIZE} submitted`);
  await card.getByTestId("resume").click();
  const form = page.getByTestId("label-form");
  await expect(form).toBeVisible();
  await form.getByTestId("label-row").first().focus();
  await page.keyboard.press("n");
  await expect(form.getByTestId("save-state").filter({ hasText: "saved" })).toHaveCount(1);
});

test("the admin sees the demo set's three annotators; the new-set form has each label beside its input", async ({
  page,
}, testInfo) => {
  await signIn(page, "admin", "/agreement");
  const row = page.locator(`[data-testid="set-row"][data-set-id="${demoSetId()}"]`);
  await expect(row).toContainText(DEMO_SET_NAME);
  await expect(row.getByTestId("annotator-progress")).toHaveText([
    `Annotator 1: 0/${DEMO_SET_SIZE}`,
    `Annotator 2: 0/${DEMO_SET_SIZE}`,
    `Annotator 3: 0/${DEMO_SET_SIZE}`,
  ]);

  // Laid out as on the Jobs page: fields stacked in rows, every input to the right of its label.
  const form = page.getByTestId("create-set-form");
  const boxes = [];
  for (const name of ["name", "seed", "size", "annotatorsPerItem", "benchmarkId"]) {
    const field = form.locator(`[name="${name}"]`);
    const labelBox = await field.locator("xpath=ancestor::label[1]").boundingBox();
    const fieldBox = await field.boundingBox();
    expect(fieldBox!.x, `${name}: input right of its label`).toBeGreaterThan(labelBox!.x + 50);
    boxes.push(fieldBox!);
  }
  for (let i = 1; i < boxes.length; i++) {
    expect(boxes[i]!.y, "one field per row").toBeGreaterThanOrEqual(boxes[i - 1]!.y + boxes[i - 1]!.height);
    expect(boxes[i]!.x, "inputs in one column").toBeCloseTo(boxes[0]!.x, 0);
  }
  await form.scrollIntoViewIfNeeded();
  await screenshot(page, testInfo, "agreement-new-set-form");
});
