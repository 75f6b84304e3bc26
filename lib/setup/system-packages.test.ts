import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { installCommand, missingPackages, sandboxUnavailableReason, systemPackages } from "./system-packages";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "system-packages-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** A PATH folder holding only the named commands (links to the real ones), as on a bare machine. */
function pathWith(name: string, commands: string[]): string {
  const dir = path.join(work, name);
  fs.mkdirSync(dir);
  for (const command of commands) {
    // python3 may be a shim (pyenv) that needs its own PATH: link the interpreter itself.
    const interpreter =
      command === "python3" ? execFileSync("python3", ["-c", "import sys; print(sys.executable)"]) : null;
    const real =
      interpreter?.toString().trim() ??
      (process.env.PATH ?? "")
        .split(":")
        .map((d) => path.join(d, command))
        .find((f) => fs.existsSync(f));
    if (real) fs.symlinkSync(real, path.join(dir, command));
  }
  return dir;
}

describe("system packages", () => {
  it("finds nothing on an empty PATH and names every package for the tests, the browser included", async () => {
    const env = { PATH: pathWith("empty", []), CHROMIUM_PATH: path.join(work, "no-chromium") };
    const missing = await missingPackages("test", env);
    expect(missing.map((p) => p.apt)).toEqual([
      "bubblewrap",
      "procps",
      "git",
      "python3",
      "python3-pip",
      "python3-pytest",
      "redis-server",
      "chromium",
    ]);
    expect((await missingPackages("demo", env)).map((p) => p.apt)).not.toContain("chromium");
  });

  it("sees only bubblewrap missing when the rest is on PATH", async () => {
    const env = {
      PATH: pathWith("no-bwrap", ["ps", "git", "python3", "redis-server"]),
      CHROMIUM_PATH: process.execPath,
    };
    expect((await missingPackages("test", env)).map((p) => p.apt)).toEqual(["bubblewrap"]);
  });

  it("takes the browser from CHROMIUM_PATH", () => {
    const chromium = systemPackages({ CHROMIUM_PATH: "/opt/chrome" }).find((p) => p.apt === "chromium");
    expect(chromium?.presence).toEqual({ kind: "file", path: "/opt/chrome" });
  });

  it("names one apt-get command, with sudo when not root", () => {
    const packages = systemPackages({}).filter((p) => p.apt === "bubblewrap" || p.apt === "chromium");
    expect(installCommand(packages, true)).toBe(
      "apt-get update && apt-get install -y --no-install-recommends bubblewrap chromium",
    );
    expect(installCommand(packages, false)).toBe(
      "sudo apt-get update && sudo apt-get install -y --no-install-recommends bubblewrap chromium",
    );
  });

  it("says why agents cannot be sandboxed: bubblewrap missing, or present but without namespaces", async () => {
    const works = async () => true;
    const fails = async () => false;
    expect(await sandboxUnavailableReason(works, { PATH: "" })).toBeNull();
    expect(await sandboxUnavailableReason(fails, { PATH: pathWith("none", []) })).toMatch(
      /^bubblewrap is not installed .*`npm run setup` as root, or `sudo apt-get update && sudo apt-get install -y --no-install-recommends bubblewrap`/,
    );
    const fake = path.join(work, "fake-bwrap");
    fs.mkdirSync(fake);
    fs.writeFileSync(path.join(fake, "bwrap"), "#!/bin/sh\nexit 1\n", { mode: 0o755 });
    expect(await sandboxUnavailableReason(fails, { PATH: fake })).toMatch(/installed but cannot create its namespaces/);
  });
});
