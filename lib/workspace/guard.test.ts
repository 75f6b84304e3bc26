import { describe, expect, it } from "vitest";
import { guardRefusal, guardShellNote } from "./guard";

const RULES = { mayChange: ["pkg/a.py"], expectedCreate: ["pkg/new.py"], expectedDelete: ["pkg/old.py"] };

describe("guardRefusal", () => {
  it("allows writing a may-change file, creating an expected file, deleting an expected deletion", () => {
    expect(guardRefusal(RULES, "pkg/a.py", "write")).toBeNull();
    expect(guardRefusal(RULES, "pkg/new.py", "create")).toBeNull();
    expect(guardRefusal(RULES, "pkg/new.py", "write")).toBeNull();
    expect(guardRefusal(RULES, "pkg/new.py", "delete")).toBeNull();
    expect(guardRefusal(RULES, "pkg/old.py", "delete")).toBeNull();
  });

  it("refuses everything else, naming the file and the rule", () => {
    expect(guardRefusal(RULES, "pkg/other.py", "write")).toBe(
      "the sandbox guard refuses: pkg/other.py is outside the files this task may change",
    );
    expect(guardRefusal(RULES, "pkg/old.py", "write")).toMatch(/pkg\/old.py is outside the files this task may change/);
    expect(guardRefusal(RULES, "scratch.py", "create")).toBe(
      "the sandbox guard refuses: scratch.py is not a file this task is expected to create",
    );
    expect(guardRefusal(RULES, "pkg/a.py", "delete")).toBe(
      "the sandbox guard refuses: pkg/a.py is not a file this task is expected to delete",
    );
  });
});

describe("guardShellNote", () => {
  it("explains the mounts' errors, and only those", () => {
    expect(guardShellNote("bash: pkg/x.py: Read-only file system")).toMatch(/^\[The sandbox guard refuses/);
    expect(guardShellNote("rm: cannot remove 'x': Device or resource busy")).not.toBeNull();
    expect(guardShellNote("No such file or directory")).toBeNull();
  });
});
