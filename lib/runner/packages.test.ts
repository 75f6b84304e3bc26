import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

let root: string;
let python: string;
let site: string;
const log = () => path.join(root, "pip-calls.log");

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "packages-test-"));
  site = path.join(root, "site-packages");
  await fs.mkdir(site);
  // A stand-in interpreter: reports its sys.path, and logs every `pip list`.
  python = path.join(root, "fake-python");
  await fs.writeFile(
    python,
    `#!/bin/sh
case "$*" in
  *"pip list"*) echo pip >> ${log()}; echo '[{"name": "demo", "version": "1.0"}]' ;;
  *) echo '{"exe": "${python}", "path": ["${site}"]}' ;;
esac
`,
    { mode: 0o755 },
  );
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** The module as a new process loads it: its in-memory caches empty. */
async function freshPackages() {
  vi.resetModules();
  return import("./packages");
}

const pipCalls = async () => (await fs.readFile(log(), "utf8").catch(() => "")).split("\n").filter(Boolean).length;

describe("pythonPackages with a cache file", () => {
  it("lists once across processes, and again once the install folders change", async () => {
    const cacheFile = path.join(root, "cache", "packages.json");
    const options = { python, home: path.join(root, "home"), cwd: root, refresh: false, cacheFile };
    const first = await (await freshPackages()).pythonPackages(options);
    expect(first).toEqual([{ name: "demo", version: "1.0" }]);
    expect(await pipCalls()).toBe(1);

    expect(await (await freshPackages()).pythonPackages(options)).toEqual(first);
    expect(await pipCalls()).toBe(1);

    // An install adds an entry to site-packages, which changes the folder's mtime.
    await fs.mkdir(path.join(site, "other-2.0.dist-info"));
    await (await freshPackages()).pythonPackages(options);
    expect(await pipCalls()).toBe(2);

    await fs.writeFile(cacheFile, "not json");
    expect(await (await freshPackages()).pythonPackages(options)).toEqual(first);
    expect(await pipCalls()).toBe(3);
  });
});
