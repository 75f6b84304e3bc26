import { describe, expect, it } from "vitest";
import { BundleError } from "./errors";
import { parseBundle, sha256Hex } from "./parse";
import type { BundleFiles } from "./read";
import { bundleFilesOf } from "./write";
import {
  cloneFiles,
  contentMembers,
  editJson,
  editTrajectory,
  readJson,
  generatedBundle,
  trajectoryLines,
  withMember,
  without,
} from "./test-support";

const LABEL = "runs/r1";
const BASE = generatedBundle({ index: 1, seed: 7 });

type Json = Record<string, unknown>;
type Workspace = { files: { path: string; size: number; mode: number; sha256: string }[] };

function parseError(files: BundleFiles): BundleError {
  try {
    parseBundle(files, LABEL);
  } catch (error) {
    if (error instanceof BundleError) return error;
    throw error;
  }
  throw new Error("expected parseBundle to throw a BundleError");
}

/** 1-based line of the first line of `member` containing `needle`. */
function lineContaining(files: BundleFiles, member: string, needle: string): number {
  const index = files
    .get(member)!
    .toString("utf8")
    .split("\n")
    .findIndex((line) => line.includes(needle));
  if (index === -1) throw new Error(`test setup: "${needle}" not in ${member}`);
  return index + 1;
}

/** The `files/<sha>` member holding the after-content of `path`. */
function afterContentOf(files: BundleFiles, path: string): string {
  const entry = (readJson(files, "workspace/after.json") as Workspace).files.find((e) => e.path === path);
  if (!entry) throw new Error(`test setup: ${path} not in workspace/after.json`);
  return `files/${entry.sha256}`;
}

describe("parseBundle on a valid bundle", () => {
  it("parses the synthetic run: steps, changes and members", () => {
    const parsed = parseBundle(BASE, LABEL);

    expect(parsed.label).toBe(LABEL);
    expect(parsed.manifest.runId).toBe("synthetic-7-000001");
    expect(parsed.steps).toHaveLength(50);
    expect(parsed.steps[0]).toMatchObject({ id: "s0", kind: "message", role: "user" });
    expect(parsed.members).toHaveLength(BASE.size);
    expect(parsed.instance?.id).toBe(parsed.manifest.instanceId);
    expect(parsed.environmentBefore?.git?.branch).toBe("main");
    expect(parsed.verdicts).toEqual([]);

    const kinds = parsed.changes.map((c) => c.kind);
    expect(kinds.filter((k) => k === "updated")).toHaveLength(3);
    expect(kinds.filter((k) => k === "deleted")).toHaveLength(1);
    expect(kinds.filter((k) => k === "created")).toHaveLength(1);
    const created = parsed.changes.find((c) => c.kind === "created")!;
    expect(created).toMatchObject({ path: "scratch_test.py", before: null, after: { size: 23 } });
    const deleted = parsed.changes.find((c) => c.kind === "deleted")!;
    expect(deleted.after).toBeNull();
    expect(deleted.before?.path).toBe(deleted.path);
    const paths = parsed.changes.map((c) => c.path);
    expect(paths).toEqual([...paths].sort());
  });

  it("gives the same digest for two builds of the same run, whatever the member order", () => {
    const first = parseBundle(generatedBundle({ index: 1, seed: 7 }), "a").digest;
    const second = parseBundle(generatedBundle({ index: 1, seed: 7 }), "b").digest;
    const reversed = parseBundle(new Map([...BASE].reverse()), "c").digest;

    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(second).toBe(first);
    expect(reversed).toBe(first);
    expect(parseBundle(generatedBundle({ index: 2, seed: 7 }), "d").digest).not.toBe(first);
  });

  it("accepts a UTF-8 BOM, CRLF line ends, blank trajectory lines and native/ members", () => {
    const files = cloneFiles(BASE);
    files.set("manifest.json", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), BASE.get("manifest.json")!]));
    const crlf = BASE.get("trajectory.jsonl")!.toString("utf8").replaceAll("\n", "\r\n\n");
    files.set("trajectory.jsonl", Buffer.from(crlf));
    files.set("native/transcript.log", Buffer.from([0xff, 0x00, 0x01]));

    const parsed = parseBundle(files, LABEL);

    expect(parsed.steps).toHaveLength(50);
    expect(parsed.members.find((m) => m.path === "native/transcript.log")).toMatchObject({
      kind: "native",
      isText: false,
    });
  });

  it("accepts verdicts that cite steps and paths, with defaults filled in", () => {
    const verdict = {
      metric: "file_read",
      judge: { kind: "rule", name: "contract" },
      value: "violated",
      citations: [{ stepId: "s3" }, { path: "pkg/mod_0.py", hunk: 0 }],
    };
    const parsed = parseBundle(withMember(BASE, "verdicts.json", JSON.stringify([verdict])), LABEL);

    expect(parsed.verdicts).toHaveLength(1);
    expect(parsed.verdicts[0]).toMatchObject({ rationale: "", evidence: [], judge: { provider: "" } });
  });
});

describe("parseBundle errors name the member, line and field", () => {
  it.each(["manifest.json", "trajectory.jsonl", "workspace/before.json", "workspace/after.json"])(
    "reports the missing required member %s",
    (member) => {
      const error = parseError(without(BASE, member));

      expect(error.code).toBe("BUNDLE_INVALID");
      expect(error.location).toEqual({ bundle: LABEL, member });
      expect(error.message).toBe(`${LABEL}: ${member}: required member is missing`);
    },
  );

  it.each(["notes.txt", "workspace/during.json", "reports/other.json", ".DS_Store", "files"])(
    "refuses the unexpected member %s",
    (member) => {
      const error = parseError(withMember(BASE, member, "{}"));

      expect(error.code).toBe("BUNDLE_INVALID");
      expect(error.location.member).toBe(member);
      expect(error.message).toContain(`${LABEL}: ${member}: unexpected member`);
    },
  );

  it("names the line of a JSON syntax error in manifest.json", () => {
    const line = lineContaining(BASE, "manifest.json", '"status"');
    const broken = BASE.get("manifest.json")!.toString("utf8").replace('"status": ', '"status" ');

    const error = parseError(withMember(BASE, "manifest.json", broken));

    expect(error.code).toBe("BUNDLE_INVALID");
    expect(error.location).toEqual({ bundle: LABEL, member: "manifest.json", line });
    expect(error.message).toContain(`${LABEL}: manifest.json line ${line}: invalid JSON`);
  });

  // Known bug (decode.ts parseJsonText): V8 reports "Unexpected token" errors without a
  // "position N", so no line is found; its message quotes the source text, which may hold newlines.
  it("names the line of an unquoted value in manifest.json, in a one-line message", () => {
    const line = lineContaining(BASE, "manifest.json", '"status"');
    const broken = BASE.get("manifest.json")!.toString("utf8").replace('"completed"', "completed");

    const error = parseError(withMember(BASE, "manifest.json", broken));

    expect(error.message).not.toContain("\n");
    expect(error.location.line).toBe(line);
  });

  // Known bug (paths.ts explainUnsafeRelativePath / errors.ts formatLocation): names may hold
  // newlines and control characters, and messages print them raw, so one error becomes several
  // lines (docs/run-bundle.md section 7 promises one) and a bundle can forge "error:" lines.
  it("keeps the message on one line when a member name holds a newline", () => {
    const error = parseError(withMember(BASE, "native\nerror: forged/x", "x"));

    expect(error.message).not.toContain("\n");
  });

  it("reports an empty manifest.json as invalid JSON", () => {
    const error = parseError(withMember(BASE, "manifest.json", ""));

    expect(error.location.member).toBe("manifest.json");
    expect(error.message).toContain("manifest.json");
    expect(error.message).toContain("invalid JSON");
  });

  const SOURCE = {
    format: "unified-diff",
    formatVersion: null,
    readerVersion: 1,
    file: "fix.diff",
    sha256: "0".repeat(64),
    index: 0,
  };
  it.each<[string, (m: Json) => void, string, string]>([
    ["an unknown status", (m) => (m.status = "done"), "status", "Invalid option"],
    ["version 5", (m) => (m.version = 5), "version", "expected one of 1|2|3|4"],
    ["a source in a version-1 manifest", (m) => (m.source = SOURCE), "source", 'needs "version": 3'],
    [
      "evidence in a version-1 manifest",
      (m) => (m.evidence = { trajectory: false, workspace: "patch", environment: false }),
      "evidence",
      'needs "version": 3',
    ],
    ["a numeric runId", (m) => (m.runId = 42), "runId", "expected string"],
    ["a runId with a space", (m) => (m.runId = "run 1"), "runId", "a run id of letters"],
    ["negative tokens", (m) => ((m.usage as Json).inputTokens = -1), "usage.inputTokens", ">=0"],
    ["a tools string", (m) => ((m.agent as Json).tools = "bash"), "agent.tools", "expected array"],
    ["a date without time", (m) => (m.startedAt = "2026-11-01"), "startedAt", "datetime"],
  ])("names the manifest field for %s", (_, edit, field, problem) => {
    const error = parseError(editJson<Json>(BASE, "manifest.json", edit));

    expect(error.code).toBe("BUNDLE_INVALID");
    expect(error.location).toEqual({ bundle: LABEL, member: "manifest.json", field });
    expect(error.message).toContain(`${LABEL}: manifest.json, field "${field}": `);
    expect(error.message).toContain(problem);
  });

  it("refuses an unknown manifest key", () => {
    const error = parseError(editJson<Json>(BASE, "manifest.json", (m) => void (m.extra = true)));

    expect(error.location.member).toBe("manifest.json");
    expect(error.message).toMatch(/Unrecognized key.*extra/);
  });

  it("refuses finishedAt before startedAt", () => {
    const files = editJson<Json>(BASE, "manifest.json", (m) => {
      [m.startedAt, m.finishedAt] = [m.finishedAt, m.startedAt];
    });

    const error = parseError(files);

    expect(error.code).toBe("BUNDLE_INVALID");
    expect(error.location).toEqual({ bundle: LABEL, member: "manifest.json", field: "finishedAt" });
    expect(error.message).toBe(`${LABEL}: manifest.json, field "finishedAt": finishedAt is before startedAt`);
  });

  it("names trajectory line and field for a wrong type", () => {
    const lines = trajectoryLines(BASE);
    const shellLine = lines.findIndex((s) => s.kind === "shell") + 1;
    const files = editTrajectory(BASE, (steps) => void (steps[shellLine - 1]!.exitCode = "0"));

    const error = parseError(files);

    expect(error.code).toBe("BUNDLE_INVALID");
    expect(error.location).toEqual({ bundle: LABEL, member: "trajectory.jsonl", line: shellLine, field: "exitCode" });
    expect(error.message).toContain(`${LABEL}: trajectory.jsonl line ${shellLine}, field "exitCode": `);
    expect(error.message).toContain("expected number");
  });

  it.each<[string, Json, string]>([
    ["an unknown kind", { kind: "thinking" }, "kind"],
    ["an unknown role", { role: "robot" }, "role"],
    ["a missing text", { text: undefined }, "text"],
    ["an empty id", { id: "" }, "id"],
  ])("names trajectory line 1 and the field for %s", (_, patch, field) => {
    const files = editTrajectory(BASE, (steps) => Object.assign(steps[0]!, patch));

    const error = parseError(files);

    expect(error.location).toEqual({ bundle: LABEL, member: "trajectory.jsonl", line: 1, field });
    expect(error.message).toContain(`trajectory.jsonl line 1, field "${field}"`);
  });

  it("counts blank lines when naming a trajectory line with invalid JSON", () => {
    const lines = BASE.get("trajectory.jsonl")!.toString("utf8").split("\n");
    lines.splice(2, 0, "", "   ");
    lines[6] = lines[6]!.slice(0, 25);

    const error = parseError(withMember(BASE, "trajectory.jsonl", lines.join("\n")));

    expect(error.location).toEqual({ bundle: LABEL, member: "trajectory.jsonl", line: 7 });
    expect(error.message).toContain(`${LABEL}: trajectory.jsonl line 7: invalid JSON`);
  });

  it("names both lines of a duplicate step id", () => {
    const files = editTrajectory(BASE, (steps) => void (steps[7]!.id = "s2"));

    const error = parseError(files);

    expect(error.code).toBe("BUNDLE_INVALID");
    expect(error.location).toEqual({ bundle: LABEL, member: "trajectory.jsonl", line: 8, field: "id" });
    expect(error.message).toBe(
      `${LABEL}: trajectory.jsonl line 8, field "id": duplicate step id "s2" (first used on line 3)`,
    );
  });

  it("refuses content whose bytes do not hash to its name", () => {
    const name = contentMembers(BASE)[0]!;
    const tampered = Buffer.from(BASE.get(name)!);
    tampered[0] = tampered[0]! ^ 0x20;

    const error = parseError(withMember(BASE, name, tampered));

    expect(error.code).toBe("BUNDLE_INVALID");
    expect(error.location).toEqual({ bundle: LABEL, member: name });
    expect(error.message).toBe(`${LABEL}: ${name}: hash mismatch: content hashes to ${sha256Hex(tampered)}`);
  });

  it("reports the missing content of a changed file", () => {
    const name = afterContentOf(BASE, "scratch_test.py");

    const error = parseError(without(BASE, name));

    expect(error.location).toEqual({ bundle: LABEL, member: name });
    expect(error.message).toBe(
      `${LABEL}: ${name}: missing content of "scratch_test.py" (changed file, listed in workspace/after.json)`,
    );
  });

  it("refuses content whose size differs from the workspace manifest", () => {
    const name = afterContentOf(BASE, "scratch_test.py");
    const files = editJson<Workspace>(BASE, "workspace/after.json", (w) => {
      w.files.find((e) => e.path === "scratch_test.py")!.size = 24;
    });

    const error = parseError(files);

    expect(error.location).toEqual({ bundle: LABEL, member: name });
    expect(error.message).toBe(
      `${LABEL}: ${name}: size mismatch: 23 bytes, but workspace/after.json says 24 for "scratch_test.py"`,
    );
  });

  it("refuses a content file no changed file refers to", () => {
    const stray = Buffer.from("stray content\n");
    const name = `files/${sha256Hex(stray)}`;

    const error = parseError(withMember(BASE, name, stray));

    expect(error.location).toEqual({ bundle: LABEL, member: name });
    expect(error.message).toContain("content is not referenced by any changed file");
  });

  it.each(["files/not-a-sha", `files/${"A".repeat(64)}`, `files/sub/${"a".repeat(64)}`])(
    "refuses the badly named content file %s",
    (name) => {
      const error = parseError(withMember(BASE, name, "x"));

      expect(error.location).toEqual({ bundle: LABEL, member: name });
      expect(error.message).toContain("content files are named by their sha256");
    },
  );

  it.each([
    ["UTF-16LE", Buffer.from([0xff, 0xfe])],
    ["UTF-16BE", Buffer.from([0xfe, 0xff])],
  ])("refuses a %s manifest.json", (_, bom) => {
    const text = BASE.get("manifest.json")!.toString("utf8");
    const body = Buffer.from(text, "utf16le");
    if (bom[0] === 0xfe) body.swap16();

    const error = parseError(withMember(BASE, "manifest.json", Buffer.concat([bom, body])));

    expect(error.code).toBe("BUNDLE_INVALID");
    expect(error.location).toEqual({ bundle: LABEL, member: "manifest.json" });
    expect(error.message).toBe(`${LABEL}: manifest.json: encoded as UTF-16; expected UTF-8`);
  });

  it.each([
    ["trajectory.jsonl", 4],
    ["manifest.json", 3],
    ["workspace/before.json", 9],
  ])("names the line of invalid UTF-8 in %s", (member, line) => {
    const lines = BASE.get(member)!.toString("utf8").split("\n");
    const bytes = lines.map((text) => Buffer.from(text));
    const target = bytes[line - 1]!;
    bytes[line - 1] = Buffer.concat([target.subarray(0, 8), Buffer.from([0xc3, 0x28]), target.subarray(8)]);
    const data = Buffer.concat(bytes.flatMap((b, i) => (i === 0 ? [b] : [Buffer.from("\n"), b])));

    const error = parseError(withMember(BASE, member, data));

    expect(error.location).toEqual({ bundle: LABEL, member, line });
    expect(error.message).toBe(`${LABEL}: ${member} line ${line}: not valid UTF-8`);
  });

  it.each([
    ["../x", "escapes its root with '..'"],
    ["/etc/passwd", "is absolute"],
    ["pkg/../../x", "escapes its root with '..'"],
    ["C:/Windows/x", "is absolute"],
    ["pkg\\mod.py", "contains a backslash"],
    ["pkg//mod.py", "has an empty or '.' segment"],
    ["./pkg/mod.py", "has an empty or '.' segment"],
    ["pkg/\0.py", "contains a NUL byte"],
    ["pkg/a\nb.py", "contains a control character"],
  ])("refuses the workspace path %j", (bad, problem) => {
    const files = editJson<Workspace>(BASE, "workspace/after.json", (w) => void (w.files[1]!.path = bad));

    const error = parseError(files);

    expect(error.code).toBe("BUNDLE_INVALID");
    expect(error.location).toEqual({ bundle: LABEL, member: "workspace/after.json", field: "files[1].path" });
    const shown = bad.replace("\0", "\\x00").replace("\n", "\\x0a");
    expect(error.message).toContain(`workspace/after.json, field "files[1].path": path "${shown}" ${problem}`);
    expect(error.message).not.toMatch(/[\n\0]/);
  });

  it("refuses a path listed twice in a workspace manifest", () => {
    let count = 0;
    const files = editJson<Workspace>(BASE, "workspace/before.json", (w) => {
      w.files.push({ ...w.files[0]! });
      count = w.files.length;
    });

    const error = parseError(files);

    expect(error.location).toEqual({
      bundle: LABEL,
      member: "workspace/before.json",
      field: `files[${count - 1}].path`,
    });
    expect(error.message).toContain(`duplicate path "README.md" (first at files[0])`);
  });

  it("refuses a workspace entry with a malformed sha256", () => {
    const files = editJson<Workspace>(BASE, "workspace/before.json", (w) => void (w.files[2]!.sha256 = "abc"));

    const error = parseError(files);

    expect(error.location.field).toBe("files[2].sha256");
    expect(error.message).toContain("a sha256 as 64 lowercase hex digits");
  });

  it.each([
    ["id", (i: Json) => void (i.id = "synthetic/other/task-9"), 'names instance "synthetic/other/task-9"'],
    [
      "benchmark",
      (i: Json) => void (i.benchmark = "other"),
      'names benchmark "other" but manifest.json names "synthetic"',
    ],
  ])("refuses an instance.json whose %s differs from the manifest", (field, edit, problem) => {
    const error = parseError(editJson<Json>(BASE, "instance.json", edit));

    expect(error.code).toBe("BUNDLE_INVALID");
    expect(error.location).toEqual({ bundle: LABEL, member: "instance.json", field });
    expect(error.message).toContain(`${LABEL}: instance.json, field "${field}": ${problem}`);
  });

  it("refuses a verdict citing a step that is not in the trajectory", () => {
    const verdict = {
      metric: "file_read",
      judge: { kind: "rule", name: "contract" },
      value: "violated",
      citations: [{ stepId: "s3" }, { stepId: "s999" }],
    };

    const error = parseError(withMember(BASE, "verdicts.json", JSON.stringify([verdict])));

    expect(error.code).toBe("BUNDLE_INVALID");
    expect(error.location).toEqual({ bundle: LABEL, member: "verdicts.json", field: "[0].citations[1].stepId" });
    expect(error.message).toContain(`cites step "s999", which is not in trajectory.jsonl`);
  });

  it("refuses a second verdict by the same judge on the same metric", () => {
    const verdict = { metric: "file_read", judge: { kind: "rule", name: "contract" }, value: "violated" };
    const other = { ...verdict, metric: "file_update" };

    const error = parseError(withMember(BASE, "verdicts.json", JSON.stringify([verdict, other, verdict])));

    expect(error.location).toEqual({ bundle: LABEL, member: "verdicts.json", field: "[2]" });
    expect(error.message).toContain('second verdict on "file_read" by judge "contract" (first at [0])');
  });

  it("refuses a verdict with an unknown value", () => {
    const verdict = { metric: "file_read", judge: { kind: "rule", name: "contract" }, value: "maybe" };

    const error = parseError(withMember(BASE, "verdicts.json", JSON.stringify([verdict])));

    expect(error.location).toEqual({ bundle: LABEL, member: "verdicts.json", field: "[0].value" });
  });

  it("validates the optional environment snapshots", () => {
    const files = editJson<Json>(BASE, "environment/after.json", (e) => void (e.processes = [{ pid: "1" }]));

    const error = parseError(files);

    expect(error.location.member).toBe("environment/after.json");
    expect(error.location.field).toBe("processes[0].pid");
  });
});

describe("workspace entries whose content is omitted (version 2)", () => {
  const BIG = {
    path: "big.bin",
    size: 5_000_000_000,
    mode: 0o100644,
    sha256: "f".repeat(64),
    contentOmitted: "too_large",
  };
  const withBig = (version: number) =>
    editJson<Json>(
      editJson<Workspace>(BASE, "workspace/after.json", (w) => void w.files.push(BIG)),
      "manifest.json",
      (m) => (m.version = version),
    );

  it("needs no content for them: the change is listed with its size and hash", () => {
    const parsed = parseBundle(withBig(2), LABEL);
    expect(parsed.manifest.version).toBe(2);
    expect(parsed.changes.find((c) => c.path === "big.bin")).toEqual({
      path: "big.bin",
      kind: "created",
      before: null,
      after: BIG,
    });
  });

  it("refuses them in a version-1 bundle, naming the entry", () => {
    const error = parseError(withBig(1));
    expect(error.location.member).toBe("workspace/after.json");
    expect(error.message).toMatch(/"big\.bin"\) has contentOmitted "too_large", which needs "version": 2/);
  });

  it("is what bundleFilesOf writes for a file kept by reference, and reads back", () => {
    const parsed = parseBundle(BASE, LABEL);
    const record = {
      manifest: parsed.manifest,
      steps: parsed.steps,
      before: new Map(),
      after: new Map([
        ["big.bin", { data: Buffer.alloc(0), mode: 0o100644, omitted: { size: 7, sha256: BIG.sha256 } }],
      ]),
    };
    const files = bundleFilesOf(record);
    expect(readJson(files, "manifest.json")).toMatchObject({ version: 2 });
    expect(contentMembers(files)).toEqual([]);
    expect(parseBundle(files, LABEL).changes).toEqual([
      { path: "big.bin", kind: "created", before: null, after: { ...BIG, size: 7 } },
    ]);
  });
});
