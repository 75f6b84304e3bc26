import { describe, expect, it } from "vitest";
import { generatedRunRecord } from "./generated-records";
import { parseBundle } from "./parse";
import { BUNDLE_MEMBERS, MAX_WORKSPACE_CHANGES, type WorkspaceDelta } from "./schema";
import { bundleErrorOf, contentMembers, editJson, readJson, withMember } from "./test-support";
import { resolveWorkspaceDelta, workspaceBaseOf, type WorkspaceBase } from "./workspace-delta";
import { bundleFilesOf, manifestOf, type RunRecord } from "./write";

const LABEL = "runs/r1";
const BEFORE = BUNDLE_MEMBERS.workspaceBefore;
const AFTER = BUNDLE_MEMBERS.workspaceAfter;

function baseOfFiles(record: RunRecord): WorkspaceBase {
  return workspaceBaseOf(manifestOf(record.before).files.map((e) => ({ ...e, size: e.size!, sha256: e.sha256! })));
}

function fixture() {
  const record = generatedRunRecord({ index: 3, seed: 11 });
  const base = baseOfFiles(record);
  return { record, base, v3: bundleFilesOf(record), v4: bundleFilesOf({ ...record, base }) };
}

const resolved = (files: Map<string, Buffer>, base: WorkspaceBase) =>
  resolveWorkspaceDelta(parseBundle(files, LABEL), base);

describe("version-4 workspace members (changes against a base)", () => {
  it("writes changes only, and resolves to the manifests and changes of the full bundle", () => {
    const { base, v3, v4 } = fixture();
    expect(readJson(v4, BUNDLE_MEMBERS.manifest)).toMatchObject({ version: 4 });
    const before = readJson(v4, BEFORE) as WorkspaceDelta;
    const after = readJson(v4, AFTER) as WorkspaceDelta;
    expect(before).toEqual({ base: { digest: base.digest }, changes: [] });
    expect(after.changes.map((c) => ("deleted" in c ? `-${c.path}` : c.path))).toHaveLength(5);
    expect(v4.get(AFTER)!.length * 5).toBeLessThan(v3.get(AFTER)!.length);

    const parsed = parseBundle(v4, LABEL);
    expect(parsed.workspaceDelta?.base).toBe(base.digest);
    expect(parsed.changes).toEqual([]);
    const full = parseBundle(v3, LABEL);
    const delta = resolveWorkspaceDelta(parsed, base);
    expect(delta.changes).toEqual(full.changes);
    expect(delta.workspaceBefore).toEqual(full.workspaceBefore);
    expect(delta.workspaceAfter).toEqual(full.workspaceAfter);
    expect(delta.workspaceDelta).toBeNull();
  });

  it("leaves out of files/ what the base holds: the before side of every updated file", () => {
    const { v3, v4 } = fixture();
    const full = parseBundle(v3, LABEL);
    const afterOnly = full.changes.flatMap((c) => (c.after ? [`files/${c.after.sha256}`] : [])).sort();
    expect(contentMembers(v4)).toEqual(afterOnly);
    expect(contentMembers(v3).length).toBeGreaterThan(afterOnly.length);
  });

  it("refuses a delta in a version-3 bundle and full manifests in a version-4 one", () => {
    const { v3, v4 } = fixture();
    const asV3 = editJson(v4, BUNDLE_MEMBERS.manifest, (m) => (m.version = 3));
    expect(bundleErrorOf(() => parseBundle(asV3, LABEL)).message).toBe(
      `${LABEL}: workspace/before.json: holds changes against a base, which needs "version": 4 in manifest.json`,
    );
    const asV4 = editJson(v3, BUNDLE_MEMBERS.manifest, (m) => (m.version = 4));
    expect(bundleErrorOf(() => parseBundle(asV4, LABEL)).message).toMatch(
      /^runs\/r1: workspace\/before\.json: a version-4 bundle lists changes against a base/,
    );
  });

  it.each<[string, (d: WorkspaceDelta, base: WorkspaceBase) => void, RegExp]>([
    [
      "a duplicate path",
      (d) => d.changes.push({ ...d.changes[1]! }),
      /workspace\/after\.json, field "changes\[\d+\]\.path": duplicate path "[^"]+" \(first at changes\[1\]\)/,
    ],
    [
      "an unsafe path",
      (d) => d.changes.push({ path: "../etc/passwd", deleted: true }),
      /workspace\/after\.json, field "changes\[\d+\]/,
    ],
    [
      "an absolute path",
      (d) => d.changes.push({ path: "/etc/passwd", size: 1, mode: 33188, sha256: "a".repeat(64) }),
      /workspace\/after\.json, field "changes\[\d+\]/,
    ],
    [
      "another base than before.json's",
      (d) => (d.base.digest = "f".repeat(64)),
      /workspace\/after\.json, field "base\.digest": names base f{64}, but workspace\/before\.json names [0-9a-f]{64}: both must name one base/,
    ],
    ["an unknown key", (d) => ((d as unknown as Record<string, unknown>).files = []), /Unrecognized key: "files"/],
    [
      "a deletion that is not `true`",
      (d) => d.changes.push({ path: "README.md", deleted: false } as unknown as WorkspaceDelta["changes"][number]),
      /field "changes\[\d+\]\.deleted": Invalid input: expected true/,
    ],
    [
      "a file entry without its hash",
      (d) => d.changes.push({ path: "zz/new.py", size: 1, mode: 33188 } as WorkspaceDelta["changes"][number]),
      /field "changes\[\d+\]\.sha256": Invalid input: expected string, received undefined/,
    ],
  ])("refuses %s while parsing", (_, edit, expected) => {
    const { base, v4 } = fixture();
    const files = editJson<WorkspaceDelta>(v4, AFTER, (d) => edit(d, base));
    expect(bundleErrorOf(() => parseBundle(files, LABEL)).message).toMatch(expected);
  });

  it.each<[string, (d: WorkspaceDelta, base: WorkspaceBase) => void, RegExp]>([
    [
      "a deletion of a path the base does not have",
      (d) => d.changes.push({ path: "zz/never-there.py", deleted: true }),
      /workspace\/after\.json, field "changes\[\d+\]": deletes "zz\/never-there\.py", which is not in the base/,
    ],
    [
      "a change that changes nothing",
      (d, base) => d.changes.push({ ...base.byPath.get("README.md")! }),
      /field "changes\[\d+\]": "README\.md" is listed but equals the base's file/,
    ],
    [
      "a hash the base holds with another size",
      (d, base) => {
        const readme = base.byPath.get("README.md")!;
        d.changes.push({ path: "zz/copy.md", size: readme.size! + 1, mode: readme.mode, sha256: readme.sha256 });
      },
      /"zz\/copy\.md" has sha256 [0-9a-f]{64} with size \d+, but the base holds that content with size \d+/,
    ],
  ])("refuses %s against the base", (_, edit, expected) => {
    const { base, v4 } = fixture();
    const files = editJson<WorkspaceDelta>(v4, AFTER, (d) => edit(d, base));
    expect(bundleErrorOf(() => resolved(files, base)).message).toMatch(expected);
  });

  it("refuses content the base already holds, and still requires what it does not", () => {
    const { base, record, v4 } = fixture();
    const readme = base.byPath.get("README.md")!;
    const extra = withMember(v4, `files/${readme.sha256}`, record.before.get("README.md")!.data);
    expect(bundleErrorOf(() => resolved(extra, base)).message).toMatch(
      /files\/[0-9a-f]{64}: content is already in the base the workspace changes are against: leave it out/,
    );
    const missing = new Map(v4);
    missing.delete(contentMembers(v4)[0]!);
    expect(bundleErrorOf(() => resolved(missing, base)).message).toMatch(/missing content of "[^"]+"/);
  });

  it("refuses a huge change list by its length, before validating an entry", () => {
    const { v4 } = fixture();
    const digest = (readJson(v4, BEFORE) as WorkspaceDelta).base.digest;
    const changes = Array.from({ length: MAX_WORKSPACE_CHANGES + 1 }, () => ({ path: "", deleted: 1 }));
    const files = withMember(v4, AFTER, JSON.stringify({ base: { digest }, changes }));
    const started = performance.now();
    const error = bundleErrorOf(() => parseBundle(files, LABEL));
    expect(error.message).toBe(
      `${LABEL}: workspace/after.json, field "changes": ${MAX_WORKSPACE_CHANGES + 1} changes, over the limit of ${MAX_WORKSPACE_CHANGES}`,
    );
    expect(error.code).toBe("TOO_LARGE");
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("resolves 20,000 deletions in bounded time", () => {
    const record = generatedRunRecord({ index: 1, seed: 3, workspaceFiles: 20 });
    const big = new Map(record.before);
    for (let i = 0; i < 20_000; i++) big.set(`gen/f${i}.py`, { data: Buffer.from(`x = ${i}\n`), mode: 0o100644 });
    const base = baseOfFiles({ ...record, before: big });
    // Every generated file deleted by the run: 20,000 deletions against a 20,000-file base.
    const files = bundleFilesOf({ ...record, base });
    const started = performance.now();
    const bundle = resolved(files, base);
    expect(bundle.workspaceBefore.files).toHaveLength(record.before.size);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
