import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { MITIGATIONS } from "@/lib/codekit/arms";
import { E2E_DB } from "../playwright.config";
import { METRIC_IDS } from "@/lib/metrics/catalog";
import { queryAll, REAL_ABLATION_BENCHMARK } from "./db";
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

/** Runs `npm run ablation` on the e2e database and returns the page link it prints. */
function runAblation(agent: string): string {
  const runsDir = path.join(os.tmpdir(), `e2e-ablation-${process.pid}`);
  const argv = [
    ...["tsx", "scripts/ablation.ts", "--benchmark", REAL_ABLATION_BENCHMARK, "--agent", agent, "--mock"],
    ...["--arms", MITIGATIONS.join(","), "--subtask", "add_new_file", "--per-subtask", "1", "--runs-dir", runsDir],
  ];
  const out = execFileSync("npx", argv, {
    env: { ...process.env, STUDIO_DB: E2E_DB },
    encoding: "utf8",
    timeout: 420_000,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const link = /see (\/ablation\?\S+) in the dashboard/.exec(out)?.[1];
  if (!link) throw new Error(`npm run ablation printed no link:\n${out}`);
  return link;
}

/**
 * The rates as an independent reading of the verdicts table: per metric, the instances every arm's
 * run decided, and how many of those each arm violated (the page's one denominator per column).
 */
function pairedCounts(configIds: Map<string, string>): Map<string, { violated: number; decided: number }> {
  const rows = queryAll<{ arm: string; instance_id: string; metric: string; value: string }>(
    `SELECT c.mitigation AS arm, r.instance_id, v.metric, v.value
     FROM verdicts v JOIN judges j ON j.id = v.judge_id AND j.kind = 'rule'
     JOIN runs r ON r.id = v.run_id JOIN agent_configs c ON c.id = r.agent_config_id
     JOIN instances i ON i.id = r.instance_id
     WHERE i.benchmark_id = ? AND r.agent_config_id IN (${[...configIds.values()].map(() => "?").join(", ")})`,
    REAL_ABLATION_BENCHMARK,
    ...configIds.values(),
  );
  const counts = new Map<string, { violated: number; decided: number }>();
  for (const metric of METRIC_IDS) {
    const instances = new Set(rows.map((r) => r.instance_id));
    for (const instance of instances) {
      const values = new Map(
        rows.filter((r) => r.instance_id === instance && r.metric === metric).map((r) => [r.arm, r.value]),
      );
      const decided = [...configIds.keys()].every((arm) =>
        ["violated", "not_violated"].includes(values.get(arm) ?? ""),
      );
      if (!decided) continue;
      for (const arm of configIds.keys()) {
        const c = counts.get(`${arm} ${metric}`) ?? { violated: 0, decided: 0 };
        counts.set(`${arm} ${metric}`, {
          violated: c.violated + (values.get(arm) === "violated" ? 1 : 0),
          decided: c.decided + 1,
        });
      }
    }
  }
  return counts;
}

for (const agent of ["file-tools", "claude-code"]) {
  test(`a real ablation of ${agent} with the scripted model, every arm (Claude Code's tools over MCP), matches the verdicts table`, async ({
    page,
  }) => {
    test.setTimeout(600_000);
    const link = runAblation(agent);
    const configIds = new Map(
      queryAll<{ mitigation: string; id: string }>(
        `SELECT c.mitigation, c.id FROM agent_configs c WHERE c.framework = ? AND c.model = 'mock-model'
         AND EXISTS (SELECT 1 FROM runs r JOIN instances i ON i.id = r.instance_id
           WHERE r.agent_config_id = c.id AND i.benchmark_id = ?)`,
        agent,
        REAL_ABLATION_BENCHMARK,
      ).map((c) => [c.mitigation, c.id]),
    );
    expect([...configIds.keys()].sort()).toEqual([...MITIGATIONS].sort());
    // The tools arm called Code-KIT by the name the agent offers it under.
    const used = queryAll<{ tool_name: string }>(
      "SELECT DISTINCT tool_name FROM trajectory_steps WHERE run_id IN (SELECT id FROM runs WHERE agent_config_id = ?) AND kind = 'tool_call'",
      configIds.get("tools"),
    ).map((r) => r.tool_name);
    expect(used).toContain(agent === "claude-code" ? "mcp__codekit__extract_snippet" : "extract_snippet");

    await page.goto(link);
    await expect(page.getByTestId("ablation-row")).toHaveCount(MITIGATIONS.length);
    const counts = pairedCounts(configIds);
    for (const arm of MITIGATIONS) {
      const row = page.locator(`[data-testid="ablation-row"][data-arm="${arm}"]`);
      for (const metric of METRIC_IDS) {
        const cell = row.locator(`[data-testid="ablation-cell"][data-metric="${metric}"]`);
        const expected = counts.get(`${arm} ${metric}`);
        if (!expected) {
          await expect(cell, `${arm} ${metric}`).toHaveText("–");
          continue;
        }
        const rate = cell.locator("span[title]");
        await expect(rate, `${arm} ${metric}`).toHaveText(
          `${((expected.violated / expected.decided) * 100).toFixed(1)}%`,
        );
        await expect(rate).toHaveAttribute("title", `${expected.violated} of ${expected.decided}`);
      }
    }
    await expect(
      page.locator('[data-testid="ablation-tools-row"][data-arm="tools"] [data-tool="extract_snippet"]'),
    ).toHaveText(/^1 \/ 1 \(\d+\)$/);

    // A guarded run's page shows the guard's record as the runner wrote it.
    const guarded = queryAll<{ id: string; record: string }>(
      `SELECT r.id, CAST(f.content AS TEXT) AS record FROM runs r
         JOIN run_artifacts a ON a.run_id = r.id AND a.path = 'native/sandbox.json'
         JOIN file_contents f ON f.sha256 = a.sha256
        WHERE r.agent_config_id = ? ORDER BY r.id LIMIT 1`,
      configIds.get("guard"),
    )[0]!;
    const { guard } = JSON.parse(guarded.record) as { guard: { breaches: string[]; gaps: string[] } };
    await page.goto(`/runs/${encodeURIComponent(guarded.id)}#mitigation`);
    await expect(page.getByTestId("mitigation-guard")).toHaveText("the sandbox enforced the boundary contract");
    await expect(page.getByTestId("guard-breaches")).toContainText(
      guard.breaches.length === 0 ? "nothing" : `${guard.breaches.length} change(s)`,
    );
    await expect(page.getByTestId("guard-gaps")).toContainText(
      guard.gaps.length === 0 ? "nothing listed" : `${guard.gaps.length} gap(s)`,
    );
  });
}
