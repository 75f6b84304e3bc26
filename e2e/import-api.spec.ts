import { expect, test } from "@playwright/test";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { bundleFilesOf, zipBuffer } from "@/lib/bundle/write";
import { E2E_INGEST_TOKEN } from "../playwright.config";
import { countRows } from "./db";
import { signIn } from "./auth";

// The e2e database has annotator accounts, so the dashboard needs an admin or viewer (app/session.ts).
test.beforeEach(async ({ page }) => {
  await signIn(page, "admin");
});

const auth = { Authorization: `Bearer ${E2E_INGEST_TOKEN}` };

test("POST /api/runs/import needs the token", async ({ request }) => {
  const body = await zipBuffer(bundleFilesOf(generatedRunRecord({ index: 900, seed: 5 })));
  const none = await request.post("/api/runs/import", { data: body, headers: { "Content-Type": "application/zip" } });
  expect(none.status()).toBe(401);
  const wrong = await request.post("/api/runs/import", {
    data: body,
    headers: { Authorization: "Bearer not-the-token-at-all", "Content-Type": "application/zip" },
  });
  expect(wrong.status()).toBe(401);
  expect((await wrong.json()).error).toBe("invalid token");
});

test("a pushed bundle lands once, shows in the list, and a bad one leaves no trace", async ({ request, page }) => {
  const run = generatedRunRecord({ index: 901, seed: 5 });
  const body = await zipBuffer(bundleFilesOf(run));
  const before = countRows("runs");

  const first = await request.post("/api/runs/import", {
    data: body,
    headers: { ...auth, "Content-Type": "application/zip" },
  });
  expect(first.status()).toBe(201);
  expect(await first.json()).toEqual({ runId: run.manifest.runId, outcome: "imported" });
  expect(countRows("runs")).toBe(before + 1);

  const again = await request.post("/api/runs/import", {
    data: body,
    headers: { ...auth, "Content-Type": "application/zip" },
  });
  expect(again.status()).toBe(200);
  expect((await again.json()).outcome).toBe("unchanged");

  const broken = bundleFilesOf(generatedRunRecord({ index: 902, seed: 5 }));
  broken.set("trajectory.jsonl", Buffer.from('{"id":"s0","kind":"message","role":"robot","text":"hi"}\n'));
  const bad = await request.post("/api/runs/import?name=broken.zip", {
    data: await zipBuffer(broken),
    headers: { ...auth, "Content-Type": "application/zip" },
  });
  expect(bad.status()).toBe(422);
  expect((await bad.json()).error).toMatch(/^broken\.zip: trajectory\.jsonl line 1, field "role"/);
  expect(countRows("runs")).toBe(before + 1);

  const garbage = await request.post("/api/runs/import", { data: Buffer.from("hello"), headers: auth });
  expect(garbage.status()).toBe(400);

  await page.goto("/runs");
  await expect(page.getByTestId("runs-total")).toHaveText(`${before + 1} runs`);
  await expect(page.locator(`[data-run-id="${run.manifest.runId}"]`)).toBeVisible();
});
