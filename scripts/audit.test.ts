import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCaptured } from "@/lib/cli/cli-io.fixture";
import { main, type AuditedRun } from "./audit";

const FIXTURES = "lib/foreign/formats/fixtures";
const MINI = `${FIXTURES}/mini-swe-agent-traj/django__django-16255.traj.json`;
const PREDS = `${FIXTURES}/swe-bench-predictions/preds.jsonl`;

const audit = (argv: string[]) => runCaptured(main, argv, { NODE_ENV: "test" });
const runsOf = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as AuditedRun);

describe("npm run audit", () => {
  it("prints a report of a foreign log, judged by the rules, without a database file", async () => {
    const cwd = await fs.mkdtemp(path.join(os.tmpdir(), "audit-"));
    const run = await runCaptured(main, [MINI], { NODE_ENV: "test", STUDIO_DB: path.join(cwd, "never.db") });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^== .*django__django-16255\.traj\.json \(mini-swe-agent-traj\)$/m);
    expect(run.stdout).toMatch(/mini-swe-agent \/ google\/gemini-3-pro-preview on swe-bench\/django__django-16255/);
    expect(run.stdout).toMatch(/files changed: updated django\/contrib\/sitemaps\/__init__\.py/);
    expect(run.stdout).toMatch(/File Update: no contract says which files may change/);
    await expect(fs.stat(path.join(cwd, "never.db"))).rejects.toThrow();
    await fs.rm(cwd, { recursive: true, force: true });
  });

  it("prints one JSON object per run with --json, and decides File Update with a contract", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "audit-"));
    const contract = path.join(dir, "contract.json");
    await fs.writeFile(contract, JSON.stringify({ mayChange: ["django/contrib/sitemaps/__init__.py"] }));
    const run = await audit([MINI, "--contract", contract, "--json"]);
    expect(run.code).toBe(0);
    const [audited] = runsOf(run.stdout);
    expect(audited!.format).toBe("mini-swe-agent-traj");
    expect(audited!.evidence).toEqual({ trajectory: true, workspace: "patch", environment: false });
    expect(audited!.steps.shell).toBeGreaterThan(0);
    const byMetric = Object.fromEntries(audited!.verdicts.map((v) => [v.metric, v.value]));
    expect(byMetric.file_update).toBe("not_violated");
    expect(byMetric.syntax).toBe("not_applicable");
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("reports every run of a predictions file, with no trajectory", async () => {
    const run = await audit([PREDS, "--json"]);
    expect(run.code).toBe(0);
    const runs = runsOf(run.stdout);
    expect(runs.length).toBe(3);
    for (const r of runs) {
      expect(r.evidence.trajectory).toBe(false);
      expect(r.verdicts.find((v) => v.metric === "file_read")!.value).toBe("not_applicable");
    }
  });

  it("names a file it cannot read, and exits 1", async () => {
    const run = await audit(["/no/such/log.json"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: \/no\/such\/log\.json: no such file$/m);
  });
});
