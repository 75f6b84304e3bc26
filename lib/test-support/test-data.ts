/**
 * Test data the repository does not ship: the DevEval metadata and repositories, and public logs
 * of other agents. Tests read it only from the folder named by STUDIO_TEST_DATA (it holds
 * `deveval/` and `fixtures/`); when the variable is unset, or the file a test needs is not there,
 * the test is registered as skipped under a title that says what it needs, and the skipped-tests
 * reporter (lib/test-support/skipped-reporter.ts) lists it by name with how to get the data
 * (docs/testing.md). A fresh clone's `npm test` therefore passes without the data.
 */
import fs from "node:fs";
import path from "node:path";
import { describe } from "vitest";

export const TEST_DATA_VARIABLE = "STUDIO_TEST_DATA";

/** Marks the titles of tests skipped for want of data, so the reporter can find them. */
export const NEEDS_TEST_DATA_MARK = "[needs $STUDIO_TEST_DATA/";

/** The data folder, resolved against the working directory; null when the variable is unset or empty. */
export function testDataRoot(env: NodeJS.ProcessEnv = process.env): string | null {
  const value = env[TEST_DATA_VARIABLE]?.trim();
  return value ? path.resolve(value) : null;
}

/** The absolute path of `relative` under the data folder, or null when it is not there. */
export function testDataPath(relative: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const root = testDataRoot(env);
  if (root === null) return null;
  const file = path.join(root, relative);
  return fs.existsSync(file) ? file : null;
}

/**
 * `describe(title, body)` when `relative` exists under the data folder (the body gets its absolute
 * path), otherwise the same suite skipped, its title saying which path it needs.
 */
export function describeWithTestData(title: string, relative: string, body: (file: string) => void): void {
  const file = testDataPath(relative);
  if (file !== null) {
    describe(title, () => body(file));
    return;
  }
  // The body still runs to register its tests by name (as skipped); it must not touch the file.
  describe.skip(`${title} ${NEEDS_TEST_DATA_MARK}${relative}]`, () => body(path.join("<unset>", relative)));
}
