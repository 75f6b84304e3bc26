import { describe, expect, it } from "vitest";
import { foreignBundles, readForeignFile } from "@/lib/foreign/import";
import { createDb } from "../client";
import { getRunDetail, REPO_DIFF_LIMIT } from "./run-detail";
import { importParsedBundle } from "./run-import";

const MINI = "lib/foreign/formats/fixtures/mini-swe-agent-traj/django__django-16255.traj.json";

async function imported(file: { name: string; data: Buffer }) {
  const db = createDb(":memory:");
  const [outcome] = await foreignBundles([file], {});
  if (!outcome?.ok) throw new Error(outcome?.ok === false ? outcome.error : "no run");
  const { runId } = importParsedBundle(db, outcome.bundle, { via: "cli" });
  return { db, runId };
}

describe("the run page of a run made elsewhere", () => {
  it("says where it came from, what was captured, and holds its repo diff", async () => {
    const { db, runId } = await imported(await readForeignFile(MINI));
    const run = (await getRunDetail(db, runId))!;
    expect(run.provenance).toMatchObject({
      source: { format: "mini-swe-agent-traj", file: "django__django-16255.traj.json", index: 0 },
      evidence: { trajectory: true, workspace: "patch", environment: false },
      workspaceRoot: "/testbed",
      repoDiffCut: false,
    });
    expect(run.provenance!.repoDiff).toMatch(/^diff --git a\/django\/contrib\/sitemaps\/__init__\.py/);
    expect(run.changes.map((c) => [c.path, c.kind])).toEqual([["django/contrib/sitemaps/__init__.py", "updated"]]);
    expect(run.contract.origin).toBe("none");
  });

  it("carries only the head of a huge repo diff", async () => {
    const hunk = `@@ -1,1 +1,1 @@\n-${"a".repeat(400_000)}\n+b\n`;
    const patch = `diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n${hunk}`;
    const { db, runId } = await imported({ name: "big.diff", data: Buffer.from(patch) });
    const run = (await getRunDetail(db, runId))!;
    expect(run.provenance!.repoDiff!.length).toBe(REPO_DIFF_LIMIT);
    expect(run.provenance).toMatchObject({ repoDiffCut: true, repoDiffLength: Buffer.byteLength(patch) });
  });
});
