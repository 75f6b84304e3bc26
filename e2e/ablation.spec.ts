import { expect, test } from "@playwright/test";
import { METRIC_IDS } from "@/lib/metrics/catalog";
import { queryAll } from "./db";
import { externalRequests, screenshot } from "./artifacts";
import { signIn } from "./auth";

// The e2e database has annotator accounts, so the dashboard needs an admin or viewer (app/session.ts).
test.beforeEach(async ({ page }) => {
  await signIn(page, "admin");
});

test.use({ viewport: { width: 1600, height: 900 } });

/** The rule judge's counts per arm and metric on the toy ablation, straight from the verdicts table. */
function ruleCounts(): Map<string, { violated: number; decided: number }> {
  const rows = queryAll<{ arm: string; metric: string; violated: number; decided: number }>(
    `SELECT c.mitigation AS arm, v.metric, sum(v.value = 'violated') AS violated,
       sum(v.value IN ('violated', 'not_violated')) AS decided
     FROM verdicts v JOIN judges j ON j.id = v.judge_id AND j.kind = 'rule'
     JOIN runs r ON r.id = v.run_id JOIN agent_configs c ON c.id = r.agent_config_id
     JOIN instances i ON i.id = r.instance_id
     WHERE i.benchmark_id = 'toy-ablation' GROUP BY 1, 2`,
  );
  return new Map(rows.map((r) => [`${r.arm} ${r.metric}`, r]));
}

test("the ablation page shows each arm's rates as the verdicts table has them, the change with McNemar's p, the published reference and the tools", async ({
  page,
}, testInfo) => {
  const external = externalRequests(page);
  await page.goto("/overview");
  await page.getByTestId("nav-ablation").click();
  await expect(page).toHaveURL(/\/ablation$/);
  // The default benchmark (sample) has no ablation; the toy benchmark has one, with its own rule judge.
  await expect(page.getByTestId("ablation-none")).toBeVisible();
  await page.goto("/ablation?benchmark=toy-ablation");
  await expect(page.getByTestId("ablation-row")).toHaveCount(2);
  await expect(page.getByTestId("ablation-scripted")).toContainText(
    "the scripted mock model decides these effects; they say nothing about a real model",
  );

  const counts = ruleCounts();
  for (const arm of ["none", "codekit"]) {
    const row = page.locator(`[data-testid="ablation-row"][data-arm="${arm}"]`);
    for (const metric of METRIC_IDS) {
      const expected = counts.get(`${arm} ${metric}`) ?? { violated: 0, decided: 0 };
      const rate = row.locator(`[data-testid="ablation-cell"][data-metric="${metric}"] span[title]`);
      if (expected.decided === 0) {
        await expect(row.locator(`[data-testid="ablation-cell"][data-metric="${metric}"]`)).toHaveText("–");
        continue;
      }
      await expect(rate, `${arm} ${metric}`).toHaveText(
        `${((expected.violated / expected.decided) * 100).toFixed(1)}%`,
      );
      await expect(rate).toHaveAttribute("title", `${expected.violated} of ${expected.decided}`);
    }
  }
  // codekit left no scratch file on half the instances: fewer File Create violations, with McNemar's p.
  const fileCreate = page.locator(
    '[data-testid="ablation-row"][data-arm="codekit"] [data-testid="ablation-cell"][data-metric="file_create"]',
  );
  await expect(fileCreate.getByTestId("ablation-change")).toHaveText(/^-50\.0 pt p 0\.250$/);
  await expect(
    page.locator('[data-testid="ablation-row"][data-arm="none"] [data-testid="ablation-change"]'),
  ).toHaveCount(0);

  await expect(page.getByTestId("reference-published")).toHaveCount(2);
  await expect(page.getByTestId("reference-published").first()).toContainText("published: smolagents");
  await expect(page.getByTestId("reference-published").first()).toContainText("12.77%");
  await expect(page.getByTestId("reference-published").nth(1)).toContainText("about 15.80%");
  await expect(
    page.locator('[data-testid="ablation-tools-row"][data-arm="codekit"] [data-tool="extract_snippet"]'),
  ).toHaveText("6 / 6 (6)");
  await expect(
    page.locator('[data-testid="ablation-tools-row"][data-arm="none"] [data-tool="extract_snippet"]'),
  ).toHaveText("0 / 0 (0)");
  await screenshot(page, testInfo, "ablation");

  // The JSON export holds the same counts.
  const href = await page.getByTestId("export-json").getAttribute("href");
  const exported = (await (await page.request.get(href!)).json()) as {
    rows: { arm: string; kind: string; name: string; count: number | null; of: number | null }[];
  };
  const [noneFileCreate] = exported.rows.filter((r) => r.arm === "none" && r.name === "file_create");
  expect(noneFileCreate).toMatchObject({
    count: counts.get("none file_create")!.violated,
    of: counts.get("none file_create")!.decided,
  });
  expect(external).toEqual([]);
});
