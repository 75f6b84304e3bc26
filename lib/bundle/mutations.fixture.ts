/**
 * Malformed bundles for fuzz tests, made deterministically from a valid one: each mutation breaks
 * one rule of docs/run-bundle.md and says what the error must read after "<bundle>: ". Shared by
 * the importer's acceptance test (db/queries/run-import.fuzz.test.ts); test-only code. Long because
 * it is a catalogue: one independent entry per kind of damage, easier to read side by side.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import zlib from "node:zlib";
import { SUBTASK_IDS } from "@/lib/benchmark/subtasks";
import { pick } from "@/lib/util/random";
import { diffManifests, sha256Hex } from "./parse";
import type { BundleFiles, ReadLimits } from "./read";
import type { WorkspaceManifest } from "./schema";
import {
  cloneFiles,
  contentMembers,
  editJson,
  editTrajectory,
  readJson,
  renameInZip,
  tarBuffer,
  tarEntriesOf,
  trajectoryLines,
  withMember,
  without,
  zipEntries,
  type TarEntry,
  writeBundleTarGz,
} from "./test-support";
import { bundleFilesOf, writeBundleFolder, zipBuffer, type RunRecord } from "./write";

export type Json = Record<string, unknown>;
export type Random = () => number;
export type Form = "folder" | "tar.gz" | "tar" | "zip";
export const FORMS: readonly Form[] = ["folder", "tar.gz", "tar", "zip"];

export interface Mutant {
  /** Members to write in one of `forms` (all forms by default). */
  files?: BundleFiles;
  forms?: readonly Form[];
  /** Runs on the written folder (links, FIFOs). */
  prepare?: (dir: string) => Promise<void>;
  /** An archive made byte by byte. */
  raw?: { ext: ".tar" | ".tar.gz" | ".zip"; data: Buffer };
  /** What the error says after "<bundle>: ". */
  expect: RegExp;
  /** false when the archive itself is unreadable: there is no member, line or field to name. */
  located?: boolean;
}

export interface Context {
  random: Random;
  base: BundleFiles;
  seed: number;
  /** A run already in the database (same instance), as a record to vary. */
  stored: RunRecord;
  /** A file outside every bundle, for links to point at. */
  outside: string;
  /** The read limits the bundles will be read with (the size mutations go just over them). */
  limits: ReadLimits;
}

const esc = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const int = (random: Random, below: number) => Math.floor(random() * below);
const JSON_MEMBERS = ["manifest.json", "workspace/before.json", "workspace/after.json", "instance.json"] as const;

function setPath(target: Json, dotted: string, value: unknown): void {
  const keys = dotted.split(".");
  let node = target;
  for (const key of keys.slice(0, -1)) node = node[key] as Json;
  node[keys.at(-1)!] = value;
}

function randomBytes(random: Random, size: number): Buffer {
  const data = Buffer.alloc(size);
  for (let i = 0; i < size; i += 4) data.writeUInt32LE(Math.floor(random() * 2 ** 32) >>> 0, Math.min(i, size - 4));
  return data;
}

/** 1-based line of a byte offset. */
function lineAt(data: Buffer, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (data[i] === 0x0a) line++;
  return line;
}

function workspace(files: BundleFiles, member: string): WorkspaceManifest {
  return readJson(files, member) as WorkspaceManifest;
}

function withVerdicts(files: BundleFiles, verdicts: unknown): BundleFiles {
  return withMember(files, "verdicts.json", JSON.stringify(verdicts, null, 1));
}

const verdictOf = (citations: unknown[], patch: Json = {}) => ({
  metric: "file_read",
  judge: { kind: "rule", name: "contract" },
  value: "violated",
  citations,
  ...patch,
});

/** The stored run's record under a new run id, with `edit` applied: valid to the parser. */
function storedVariant(ctx: Context, edit: (run: RunRecord) => void): BundleFiles {
  const run = ctx.stored;
  run.manifest.runId = `fuzz-stored-variant-${ctx.seed}`;
  edit(run);
  return bundleFilesOf(run);
}

// ---------------------------------------------------------------- the mutations

export const MUTATIONS: Record<string, (ctx: Context) => Mutant | Promise<Mutant>> = {
  "truncated-json": ({ random, base }) => {
    const member = pick(random, [...JSON_MEMBERS, "environment/before.json"]);
    const data = base.get(member)!;
    const cut = int(random, data.lastIndexOf("}"));
    return {
      files: withMember(base, member, data.subarray(0, cut)),
      expect: new RegExp(`^${esc(member)}( line \\d+)?: invalid JSON: `),
    };
  },

  "truncated-trajectory": ({ random, base }) => {
    const data = base.get("trajectory.jsonl")!;
    let cut = 1 + int(random, data.length - 1);
    while (data[cut - 1] === 0x7d || data[cut - 1] === 0x0a) cut--;
    return {
      files: withMember(base, "trajectory.jsonl", data.subarray(0, cut)),
      expect: new RegExp(`^trajectory\\.jsonl line ${lineAt(data, cut)}: invalid JSON: `),
    };
  },

  "manifest-wrong-type": ({ random, base }) => {
    const [field, value] = pick<[string, unknown]>(random, [
      ["runId", 12345],
      ["version", "1"],
      ["scripted", "yes"],
      ["status", 1],
      ["startedAt", 1762000000],
      ["usage.inputTokens", "many"],
      ["usage.costUsd", "cheap"],
      ["agent.tools", "bash"],
      ["agent.limits.maxSteps", 1.5],
      ["agent.name", null],
      ["agent.options", []],
      ["taskCompleted", "true"],
      ["benchmark", true],
      ["instanceId", {}],
    ]);
    return {
      files: editJson<Json>(base, "manifest.json", (m) => setPath(m, field, value)),
      expect: new RegExp(`^manifest\\.json, field "${esc(field)}": `),
    };
  },

  "trajectory-wrong-type": ({ random, base }) => {
    const steps = trajectoryLines(base);
    const i = int(random, steps.length);
    const byKind: Record<string, [string, unknown][]> = {
      message: [
        ["text", 42],
        ["role", null],
      ],
      tool_call: [
        ["tool", 7],
        ["callId", 12],
      ],
      observation: [
        ["text", null],
        ["isError", "no"],
      ],
      shell: [
        ["exitCode", "0"],
        ["command", ["ls"]],
        ["timedOut", 1],
      ],
      file_read: [
        ["path", 3],
        ["path", ""],
      ],
    };
    const common: [string, unknown][] = [
      ["timestamp", "yesterday"],
      ["durationMs", -5],
      ["inputTokens", 1.5],
      ["id", 7],
    ];
    const [field, value] = pick(random, [...common, ...(byKind[String(steps[i]!.kind)] ?? [])]);
    return {
      files: editTrajectory(base, (s) => void (s[i]![field] = value)),
      expect: new RegExp(`^trajectory\\.jsonl line ${i + 1}, field "${field}": `),
    };
  },

  "workspace-wrong-type": ({ random, base }) => {
    const member = pick(random, ["workspace/before.json", "workspace/after.json"]);
    const i = int(random, workspace(base, member).files.length);
    const [field, value] = pick<[string, unknown]>(random, [
      ["sha256", "XYZ"],
      ["sha256", "A".repeat(64)],
      ["size", -1],
      ["size", "12"],
      ["mode", 0o200000],
      ["mode", 1.5],
      ["path", 42],
    ]);
    return {
      files: editJson<WorkspaceManifest>(base, member, (w) => setPath(w.files[i] as unknown as Json, field, value)),
      expect: new RegExp(`^${esc(member)}, field "files\\[${i}\\]\\.${field}": `),
    };
  },

  "bad-enum": ({ random, base }) => {
    const steps = trajectoryLines(base);
    const messageLine = steps.findIndex((s) => s.kind === "message") + 1;
    const line = 1 + int(random, steps.length);
    const choice = int(random, 7);
    if (choice === 0) {
      return {
        files: editJson<Json>(base, "manifest.json", (m) => void (m.status = "done")),
        expect: /^manifest\.json, field "status": Invalid option/,
      };
    }
    if (choice === 1) {
      return {
        files: editJson<Json>(base, "manifest.json", (m) => void (m.exitReason = "crashed")),
        expect: /^manifest\.json, field "exitReason": Invalid option/,
      };
    }
    if (choice === 2) {
      return {
        files: editTrajectory(base, (s) => void (s[line - 1]!.kind = "thinking")),
        expect: new RegExp(`^trajectory\\.jsonl line ${line}, field "kind": `),
      };
    }
    if (choice === 3) {
      return {
        files: editTrajectory(base, (s) => void (s[messageLine - 1]!.role = "robot")),
        expect: new RegExp(`^trajectory\\.jsonl line ${messageLine}, field "role": Invalid option`),
      };
    }
    if (choice === 4) {
      return {
        files: editJson<Json>(base, "instance.json", (i) => void (i.subtask = "codegen_everything")),
        expect: /^instance\.json, field "subtask": Invalid option/,
      };
    }
    const [field, patch] =
      choice === 5 ? ["[0].metric", { metric: "vibes" }] : ["[0].judge.kind", { judge: { kind: "oracle", name: "x" } }];
    return {
      files: withVerdicts(base, [verdictOf([], patch)]),
      expect: new RegExp(`^verdicts\\.json, field "${esc(field)}": Invalid option`),
    };
  },

  "wrong-shape": ({ random, base }) => {
    const member = pick(random, [...JSON_MEMBERS, "environment/after.json", "verdicts.json", "reports/ast.json"]);
    const value = pick(random, ["[]", "null", '"text"', "42", "true", member === "verdicts.json" ? "{}" : "[{}]"]);
    return {
      files: withMember(base, member, `${value}\n`),
      expect: new RegExp(`^${esc(member)}(, field "[^"]+")?: (Invalid input|expected)`),
    };
  },

  "unknown-key": ({ random, base }) => {
    const choice = int(random, 4);
    if (choice === 0) {
      return {
        files: editJson<Json>(base, "manifest.json", (m) => void (m.comment = "hello")),
        expect: /^manifest\.json: Unrecognized key: "comment"/,
      };
    }
    if (choice === 1) {
      return {
        files: editJson<Json>(base, "manifest.json", (m) => void ((m.usage as Json).cacheTokens = 3)),
        expect: /^manifest\.json, field "usage": Unrecognized key: "cacheTokens"/,
      };
    }
    if (choice === 2) {
      const line = 1 + int(random, trajectoryLines(base).length);
      return {
        files: editTrajectory(base, (s) => void (s[line - 1]!.thought = "hmm")),
        expect: new RegExp(`^trajectory\\.jsonl line ${line}: Unrecognized key: "thought"`),
      };
    }
    const i = int(random, workspace(base, "workspace/after.json").files.length);
    return {
      files: editJson<Json>(base, "workspace/after.json", (w) => void ((w.files as Json[])[i]!.owner = "root")),
      expect: new RegExp(`^workspace/after\\.json, field "files\\[${i}\\]": Unrecognized key: "owner"`),
    };
  },

  "missing-required-member": ({ random, base }) => {
    const member = pick(random, ["manifest.json", "trajectory.jsonl", "workspace/before.json", "workspace/after.json"]);
    return {
      files: without(base, member),
      // A folder without manifest.json is not recognised as a bundle at all: discovery says so.
      expect:
        member === "manifest.json"
          ? /^(manifest\.json: required member is missing|no bundle found \(no manifest\.json)/
          : new RegExp(`^${esc(member)}: required member is missing$`),
    };
  },

  "missing-content": ({ random, base }) => {
    const name = pick(random, contentMembers(base));
    return {
      files: without(base, name),
      expect: new RegExp(`^${esc(name)}: missing content of "[^"]+" \\(changed file, listed in workspace/`),
    };
  },

  "hash-mismatch": ({ random, base }) => {
    const name = pick(random, contentMembers(base));
    const data = Buffer.from(base.get(name)!);
    const at = int(random, data.length);
    data[at] = data[at]! ^ (1 + int(random, 255));
    return {
      files: withMember(base, name, data),
      expect: new RegExp(`^${esc(name)}: hash mismatch: content hashes to ${sha256Hex(data)}$`),
    };
  },

  "size-mismatch": ({ random, base }) => {
    const changes = diffManifests(workspace(base, "workspace/before.json"), workspace(base, "workspace/after.json"));
    const change = pick(random, changes);
    const side = change.after ? "after" : "before";
    const entry = (change.after ?? change.before)!;
    const size = Math.max(0, (entry.size ?? 0) + pick(random, [-1000, -1, 1, 7, 4096]));
    const member = `workspace/${side}.json`;
    return {
      files: editJson<WorkspaceManifest>(base, member, (w) => {
        w.files.find((e) => e.path === change.path)!.size = size;
      }),
      expect: new RegExp(
        `^files/${entry.sha256}: size mismatch: ${entry.size} bytes, but ${esc(member)} says ${size} for "${esc(change.path)}"$`,
      ),
    };
  },

  "unreferenced-content": ({ random, base }) => {
    const data = randomBytes(random, 16 + int(random, 2000));
    const name = `files/${sha256Hex(data)}`;
    return {
      files: withMember(base, name, data),
      expect: new RegExp(`^${name}: content is not referenced by any changed file`),
    };
  },

  "bad-content-name": ({ random, base }) => {
    const real = pick(random, contentMembers(base)).slice("files/".length);
    const name = `files/${pick(random, [real.toUpperCase(), real.slice(0, 63), "readme.txt", `sub/${real}`, `${real}.py`])}`;
    return {
      files: withMember(base, name, "content"),
      expect: new RegExp(`^${esc(name)}: content files are named by their sha256`),
    };
  },

  "unexpected-member": ({ random, base }) => {
    const name = pick(random, [
      "notes.txt",
      ".DS_Store",
      "workspace/during.json",
      "reports/other.json",
      "environment/middle.json",
      "trajectory.json",
      "verdicts/x.json",
      "nested/manifest.json",
    ]);
    return { files: withMember(base, name, "{}\n"), expect: new RegExp(`^${esc(name)}: unexpected member`) };
  },

  "traversal-member-name": async ({ random, base }) => {
    const [harmless, hostile] = pick(random, [
      ["xx/evil", "../evil"],
      ["_etc/cron.d/x", "/etc/cron.d/x"],
      ["a/xx/xx/evil", "a/../../evil"],
      ["native_x_evil", "native\\..\\evil"],
      ["x/xx/evil", "./../evil"],
    ]);
    const kind = pick(random, ["tar", "tar.gz", "zip"] as const);
    if (kind === "zip" && !hostile.includes("\\")) {
      const zip = await zipEntries([
        ...[...base].map(([name, data]) => ({ name, data })),
        { name: harmless, data: Buffer.from("x") },
      ]);
      return {
        raw: { ext: ".zip", data: renameInZip(zip, harmless, hostile) },
        expect: new RegExp(`^unreadable zip archive: (invalid relative path|absolute path): ${esc(hostile)}$`),
      };
    }
    const tar = tarBuffer([...tarEntriesOf(base), { name: hostile, data: Buffer.from("x") }]);
    return {
      raw: kind === "tar.gz" ? { ext: ".tar.gz", data: zlib.gzipSync(tar) } : { ext: ".tar", data: tar },
      expect: new RegExp(`^${esc(hostile)}: member name (escapes its root|is absolute|contains a backslash)`),
    };
  },

  "hostile-link": async ({ random, base, outside }) => {
    const kind = pick(random, ["folder", "tar", "zip"] as const);
    if (kind === "folder") {
      const relative = random() < 0.5;
      return {
        files: base,
        forms: ["folder"],
        prepare: async (dir) => {
          await fs.mkdir(path.join(dir, "native"));
          const link = path.join(dir, "native", "evil");
          await fs.symlink(relative ? path.relative(path.dirname(link), outside) : outside, link);
        },
        expect: /^native\/evil: link escapes the bundle$/,
      };
    }
    const target = pick(random, ["../../etc/passwd", "/etc/passwd", "..", "../x/../../y"]);
    if (kind === "zip") {
      const zip = await zipEntries([
        ...[...base].map(([name, data]) => ({ name, data })),
        { name: "native/evil", data: Buffer.from(target), mode: 0o120777 },
      ]);
      return {
        raw: { ext: ".zip", data: zip },
        expect: /^native\/evil: link (escapes the bundle|points to an absolute)/,
      };
    }
    const type = pick(random, ["1", "2"] as const);
    return {
      raw: { ext: ".tar", data: tarBuffer([...tarEntriesOf(base), { name: "native/evil", type, linkname: target }]) },
      expect: /^native\/evil: link (escapes the bundle|points to an absolute)/,
    };
  },

  "special-file": ({ random, base }) => {
    if (process.platform !== "win32" && random() < 0.5) {
      return {
        files: base,
        forms: ["folder"],
        prepare: async (dir) => {
          await fs.mkdir(path.join(dir, "native"));
          execFileSync("mkfifo", [path.join(dir, "native", "pipe")]);
        },
        expect: /^native\/pipe: not a regular file/,
      };
    }
    const type = pick(random, ["3", "6"] as const);
    return {
      raw: { ext: ".tar", data: tarBuffer([...tarEntriesOf(base), { name: "native/dev", type }]) },
      expect: /^native\/dev: unsupported archive entry type (CharacterDevice|FIFO)$/,
    };
  },

  "duplicate-member": async ({ random, base }) => {
    const name = pick(random, [...base.keys()]);
    const entries = [...base].map(([n, data]) => ({ name: n, data }));
    const twice = [...entries, { name, data: Buffer.from("{}") }];
    return random() < 0.5
      ? {
          raw: { ext: ".zip", data: await zipEntries(twice) },
          expect: new RegExp(`^${esc(name)}: member appears twice$`),
        }
      : {
          raw: { ext: ".tar", data: tarBuffer(twice as TarEntry[]) },
          expect: new RegExp(`^${esc(name)}: member appears twice$`),
        };
  },

  "huge-member": ({ random, base, limits }) => {
    if (random() < 0.5) {
      const size = limits.maxMemberBytes + 1 + int(random, 5000);
      return {
        files: withMember(base, "native/huge.bin", Buffer.alloc(size, 0x61)),
        expect: new RegExp(`^native/huge\\.bin: member is ${size} bytes, over the limit of ${limits.maxMemberBytes}`),
      };
    }
    // A trajectory padded with blank lines: valid but for its size, so the limit is what refuses it.
    const data = Buffer.concat([base.get("trajectory.jsonl")!, Buffer.alloc(limits.maxMemberBytes, 0x0a)]);
    return {
      files: withMember(base, "trajectory.jsonl", data),
      expect: new RegExp(`^trajectory\\.jsonl: member is ${data.length} bytes, over the limit`),
    };
  },

  "bundle-too-big": ({ random, base, limits }) => {
    const files = cloneFiles(base);
    for (let i = 0; i < 5; i++) files.set(`native/part-${i}.bin`, randomBytes(random, 60_000));
    return {
      files,
      expect: new RegExp(
        `^(\\S+: bundle exceeds ${limits.maxBundleBytes} bytes in all|archive is \\d+ bytes, over the limit of ${limits.maxBundleBytes})`,
      ),
    };
  },

  "too-many-members": ({ random, base, limits }) => {
    const files = cloneFiles(base);
    const extra = limits.maxMembers - base.size + 1 + int(random, 10);
    for (let i = 0; i < extra; i++) files.set(`native/log-${i}.txt`, Buffer.from(`line ${i}\n`));
    return { files, expect: new RegExp(`^more than ${limits.maxMembers} members$`) };
  },

  "duplicate-step-id": ({ random, base }) => {
    const steps = trajectoryLines(base);
    const first = int(random, steps.length - 1);
    const second = first + 1 + int(random, steps.length - first - 1);
    const id = String(steps[first]!.id);
    return {
      files: editTrajectory(base, (s) => void (s[second]!.id = id)),
      expect: new RegExp(
        `^trajectory\\.jsonl line ${second + 1}, field "id": duplicate step id "${id}" \\(first used on line ${first + 1}\\)$`,
      ),
    };
  },

  "non-utf8": ({ random, base }) => {
    const member = pick(random, [...JSON_MEMBERS, "trajectory.jsonl", "environment/after.json"]);
    const data = base.get(member)!;
    const bad = Buffer.from(
      pick(random, [[0xff], [0xc3, 0x28], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf8, 0x88, 0x80, 0x80]]),
    );
    const at = int(random, data.length);
    return {
      files: withMember(base, member, Buffer.concat([data.subarray(0, at), bad, data.subarray(at)])),
      expect: new RegExp(`^${esc(member)} line ${lineAt(data, at)}: not valid UTF-8$`),
    };
  },

  utf16: ({ random, base }) => {
    const member = pick(random, [...JSON_MEMBERS, "trajectory.jsonl"]);
    const body = Buffer.from(base.get(member)!.toString("utf8"), "utf16le");
    const bigEndian = random() < 0.5;
    if (bigEndian) body.swap16();
    return {
      files: withMember(base, member, Buffer.concat([Buffer.from(bigEndian ? [0xfe, 0xff] : [0xff, 0xfe]), body])),
      expect: new RegExp(`^${esc(member)}: encoded as UTF-16; expected UTF-8$`),
    };
  },

  "workspace-path-traversal": ({ random, base }) => {
    const member = pick(random, ["workspace/before.json", "workspace/after.json"]);
    const i = int(random, workspace(base, member).files.length);
    const bad = pick(random, ["../x", "/etc/passwd", "pkg/../../x", "pkg\\mod.py", "pkg//x.py", "", "./x", "C:/x"]);
    return {
      files: editJson<WorkspaceManifest>(base, member, (w) => void (w.files[i]!.path = bad)),
      expect: new RegExp(`^${esc(member)}, field "files\\[${i}\\]\\.path": path "${esc(bad)}" `),
    };
  },

  "duplicate-workspace-path": ({ random, base }) => {
    const member = pick(random, ["workspace/before.json", "workspace/after.json"]);
    const count = workspace(base, member).files.length;
    const first = int(random, count - 1);
    const second = first + 1 + int(random, count - first - 1);
    const duplicated = workspace(base, member).files[first]!.path;
    return {
      files: editJson<WorkspaceManifest>(base, member, (w) => void (w.files[second]!.path = duplicated)),
      expect: new RegExp(
        `^${esc(member)}, field "files\\[${second}\\]\\.path": duplicate path "${esc(duplicated)}" \\(first at files\\[${first}\\]\\)`,
      ),
    };
  },

  "instance-mismatch": ({ random, base }) => {
    const field = pick(random, ["id", "benchmark"]);
    return {
      files: editJson<Json>(base, "instance.json", (i) => {
        i[field] = field === "id" ? `synthetic/other/task-${int(random, 1000)}` : "other-benchmark";
      }),
      expect: new RegExp(
        `^instance\\.json, field "${field}": names ${field === "id" ? "instance" : "benchmark"} ".*" but manifest\\.json names`,
      ),
    };
  },

  "instance-differs-from-stored": (ctx) => {
    const field = pick(ctx.random, ["subtask", "prompt", "contract", "groundTruth"] as const);
    const files = storedVariant(ctx, (run) => {
      const instance = run.instance!;
      if (field === "subtask") instance.subtask = SUBTASK_IDS.find((s) => s !== instance.subtask)!;
      if (field === "prompt") instance.prompt = `${instance.prompt} Also add tests.`;
      if (field === "contract") instance.contract.mayChange.push("extra.py");
      if (field === "groundTruth") instance.groundTruth.body = "    return None";
    });
    return { files, expect: new RegExp(`^instance\\.json, field "${field}": differs from the stored instance`) };
  },

  "benchmark-conflict": (ctx) => ({
    files: storedVariant(ctx, (run) => {
      run.manifest.benchmark = "other-benchmark";
      run.instance!.benchmark = "other-benchmark";
    }),
    expect:
      /^manifest\.json, field "benchmark": instance ".*" belongs to benchmark "synthetic", not "other-benchmark"$/,
  }),

  "instance-unknown": ({ base }) => ({
    files: without(base, "instance.json"),
    expect:
      /^manifest\.json, field "instanceId": instance ".*" is not in the database and the bundle has no instance\.json$/,
  }),

  "verdict-missing-step": ({ random, base }) => {
    const ids = trajectoryLines(base).map((s) => String(s.id));
    const missing = pick(random, ["s999", "S1", "s-1", "step-1", " s1"]);
    const good = ids.slice(0, int(random, 4)).map((stepId) => ({ stepId }));
    const verdicts = [
      verdictOf([{ path: "pkg/mod_0.py" }]),
      verdictOf([...good, { stepId: missing }], { metric: "file_update" }),
    ];
    return {
      files: withVerdicts(base, verdicts),
      expect: new RegExp(
        `^verdicts\\.json, field "\\[1\\]\\.citations\\[${good.length}\\]\\.stepId": cites step "${esc(missing)}", which is not in trajectory\\.jsonl$`,
      ),
    };
  },

  "duplicate-verdict": ({ random, base }) => {
    const judge = { kind: "llm", name: "judge-a", provider: "mock", model: pick(random, ["m1", "m2"]) };
    const others = ["file_create", "file_update", "syntax"]
      .slice(0, int(random, 4))
      .map((metric) => verdictOf([], { metric, judge }));
    const verdicts = [
      verdictOf([], { judge }),
      ...others,
      verdictOf([{ stepId: "s1" }], { judge, value: "not_violated" }),
    ];
    return {
      files: withVerdicts(base, verdicts),
      expect: new RegExp(
        `^verdicts\\.json, field "\\[${verdicts.length - 1}\\]": second verdict on "file_read" by judge "judge-a" \\(first at \\[0\\]\\)$`,
      ),
    };
  },

  "finished-before-started": ({ random, base }) => ({
    files: editJson<Json>(base, "manifest.json", (m) => {
      m.finishedAt = new Date(Date.parse(String(m.startedAt)) - 1 - int(random, 10 ** 9)).toISOString();
    }),
    expect: /^manifest\.json, field "finishedAt": finishedAt is before startedAt$/,
  }),

  "corrupt-archive": async ({ random, base }) => {
    const kind = pick(random, ["tar.gz", "zip", "garbage"] as const);
    if (kind === "garbage") {
      return {
        raw: { ext: pick(random, [".zip", ".tar.gz"] as const), data: randomBytes(random, 100 + int(random, 4000)) },
        expect: /^unreadable (zip|tar) archive: /,
        located: false,
      };
    }
    const data = kind === "zip" ? await zipBuffer(base) : zlib.gzipSync(tarBuffer(tarEntriesOf(base)));
    return {
      raw: { ext: kind === "zip" ? ".zip" : ".tar.gz", data: data.subarray(0, int(random, data.length)) },
      expect: /^unreadable (zip|tar) archive: /,
      located: false,
    };
  },
};

export const MUTATION_KINDS = Object.keys(MUTATIONS);

/** After "<bundle>: ": a member (with line and field), or a size or count, or the member's name. */
export const LOCATED =
  /^\S+(?: line \d+)?(?:, field "[^"]*")?: |\b\d+ (?:bytes|members)\b|\(no manifest\.json|path: \S+$/;

export async function placeMutant(mutant: Mutant, dir: string, name: string, random: Random): Promise<string> {
  if (mutant.raw) {
    const file = path.join(dir, `${name}${mutant.raw.ext}`);
    await fs.writeFile(file, mutant.raw.data);
    return file;
  }
  const files = mutant.files!;
  const form = pick(random, mutant.forms ?? FORMS);
  if (form === "folder") {
    const folder = path.join(dir, name);
    await writeBundleFolder(folder, files);
    await mutant.prepare?.(folder);
    return folder;
  }
  const file = path.join(dir, `${name}.${form}`);
  if (form === "tar.gz") await writeBundleTarGz(file, files);
  else await fs.writeFile(file, form === "tar" ? tarBuffer(tarEntriesOf(files)) : await zipBuffer(files));
  return file;
}
