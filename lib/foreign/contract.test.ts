import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BoundaryContractSchema } from "@/lib/benchmark/schema";
import { goldContract, NO_CONTRACT, readContractFile, readContractSource, readGoldDataset } from "./contract";

// Fixtures (lib/foreign/formats/fixtures/contracts/): hand-written contract files in the shape the
// module comment documents, and a two-instance dataset in SWE-bench's record shape (repo,
// instance_id, base_commit, patch, test_patch, ...) whose django patch is the real submission
// of the unified-diff fixture.
const FIXTURES = path.join(__dirname, "formats", "fixtures", "contracts");
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));
const text = (value: unknown) => Buffer.from(JSON.stringify(value));

describe("readContractFile", () => {
  it("reads one contract for every run, absent fields empty, origin contract_file", () => {
    const source = readContractFile(fixture("single.json"), "single.json");
    expect(source.describe).toBe("contract file single.json (one for every run)");
    const contract = source.contractFor("anything");
    expect(contract).toEqual({
      mustRead: ["calc/stats.py", "calc/helpers.py"],
      mayChange: ["calc/stats.py"],
      expectedCreate: [],
      expectedDelete: ["calc/helpers.py"],
      origin: "contract_file",
    });
    expect(source.contractFor(null)).toEqual(contract);
    expect(BoundaryContractSchema.parse(contract)).toEqual(contract);
  });

  it("reads contracts by instance id; an instance it does not name has none", () => {
    const source = readContractFile(fixture("by-instance.json"), "by-instance.json");
    expect(source.describe).toBe("contract file by-instance.json (2 instances)");
    expect(source.contractFor("ponylang__ponyc-4595")).toEqual({
      mustRead: [],
      mayChange: ["src/libponyc/ast/parser.c"],
      expectedCreate: ["test/full-program-tests/regression-4595/main.pony"],
      expectedDelete: [],
      origin: "contract_file",
    });
    expect(source.contractFor("django__django-16255")?.mustRead).toEqual(["django/contrib/sitemaps/__init__.py"]);
    expect(source.contractFor("astropy__astropy-12907")).toBeNull();
    expect(source.contractFor(null)).toBeNull();
  });

  it("refuses unknown fields, unsafe paths, mixed forms, a list, truncated JSON and an empty file, naming where", () => {
    const error = (data: Buffer) => {
      try {
        readContractFile(data, "c.json");
      } catch (e) {
        return (e as Error).message;
      }
      return "no error";
    };
    expect(error(text({ mayChange: ["a.py"], mayRead: ["b.py"] }))).toBe(
      'c.json: has "mayRead", not a contract field (mustRead, mayChange, expectedCreate, expectedDelete); contracts by instance id have only instance ids as keys',
    );
    expect(error(text({ mayChange: ["../a.py"] }))).toBe(
      `c.json (mayChange[0]): path "../a.py" escapes its root with '..'`,
    );
    expect(error(text({ "a__b-1": { mayChange: ["/etc/passwd"] } }))).toBe(
      `c.json (a__b-1, mayChange[0]): path "/etc/passwd" is absolute`,
    );
    expect(error(text({ "a__b-1": { mayChange: "a.py" } }))).toMatch(/^c\.json \(a__b-1, mayChange\): /);
    expect(error(text({ mayChange: [], "a__b-1": {} }))).toMatch(/^c\.json: has "a__b-1", not a contract field/);
    expect(error(text({ "bad id!": {} }))).toMatch(/^c\.json \(key "bad id!"\): /);
    expect(error(text([{ mayChange: [] }]))).toBe(
      "c.json: is not a JSON object (a contract, or contracts by instance id)",
    );
    expect(error(Buffer.from('{"mayChange": ["a.py"'))).toMatch(/^c\.json \(line 1\): is not valid JSON/);
    expect(error(Buffer.from(""))).toBe("c.json: is empty");
    expect(error(text({ mayChange: [], origin: "gold_patch" }))).toMatch(
      /^c\.json: has "origin", not a contract field/,
    );
  });
});

describe("readGoldDataset", () => {
  it("makes each instance's gold patch files may-change, its creations and deletions expected (a rename both)", () => {
    for (const name of ["gold.jsonl", "gold-list.json"]) {
      const source = readGoldDataset(fixture(name), name);
      expect(source.describe).toBe(`gold patches of ${name} (2 instances)`);
      // test_patch (tests/sitemaps_tests/test_http.py) is not the gold patch.
      expect(source.contractFor("django__django-16255")).toEqual({
        mustRead: [],
        mayChange: ["django/contrib/sitemaps/__init__.py"],
        expectedCreate: [],
        expectedDelete: [],
        origin: "gold_patch",
      });
      expect(source.contractFor("example__calc-1")).toEqual({
        mustRead: [],
        mayChange: ["calc/helpers.py", "calc/legacy.py", "calc/new_module.py", "calc/stats_helpers.py"],
        expectedCreate: ["calc/new_module.py", "calc/stats_helpers.py"],
        expectedDelete: ["calc/helpers.py", "calc/legacy.py"],
        origin: "gold_patch",
      });
      expect(source.contractFor("astropy__astropy-12907")).toBeNull();
    }
  });

  it("refuses a record without a patch, a malformed gold patch and a repeated instance, naming the line", () => {
    const error = (data: string) => {
      try {
        readGoldDataset(Buffer.from(data), "g.jsonl");
      } catch (e) {
        return (e as Error).message;
      }
      return "no error";
    };
    expect(error('{"instance_id": "a__b-1"}\n')).toMatch(/^g\.jsonl \(line 1, patch\): /);
    expect(
      error(`${JSON.stringify({ instance_id: "a__b-1", patch: "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n" })}\n`),
    ).toMatch(/^g\.jsonl line 1 patch \(line 3\): the hunk ends early/);
    const record = JSON.stringify({ instance_id: "a__b-1", patch: "" });
    expect(error(`${record}\n${record}\n`)).toBe("g.jsonl (line 2): instance a__b-1 is also at line 1");
    expect(error("")).toBe("g.jsonl: is empty");
  });

  it("goldContract of an empty patch is an empty contract that still says it came from the gold patch", () => {
    expect(goldContract("", "x")).toEqual({ ...NO_CONTRACT, origin: "gold_patch" });
  });
});

describe("readContractSource", () => {
  it("reads --contract and --gold files, and refuses a link and a missing file", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "contract-"));
    try {
      fs.copyFileSync(path.join(FIXTURES, "single.json"), path.join(dir, "c.json"));
      fs.copyFileSync(path.join(FIXTURES, "gold.jsonl"), path.join(dir, "g.jsonl"));
      fs.symlinkSync(path.join(dir, "c.json"), path.join(dir, "link.json"));
      expect((await readContractSource("contract", path.join(dir, "c.json"))).contractFor(null)?.mayChange).toEqual([
        "calc/stats.py",
      ]);
      expect((await readContractSource("gold", path.join(dir, "g.jsonl"))).describe).toBe(
        `gold patches of ${dir}/g.jsonl (2 instances)`,
      );
      await expect(readContractSource("contract", path.join(dir, "link.json"))).rejects.toThrow(
        `${dir}/link.json: cannot be read as a --contract file: link.json is a symbolic link (not followed)`,
      );
      await expect(readContractSource("gold", path.join(dir, "none.jsonl"))).rejects.toThrow(
        "none.jsonl does not exist",
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("NO_CONTRACT is all empty, origin none", () => {
    expect(NO_CONTRACT).toEqual({
      mustRead: [],
      mayChange: [],
      expectedCreate: [],
      expectedDelete: [],
      origin: "none",
    });
  });
});
