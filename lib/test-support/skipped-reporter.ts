/**
 * A vitest reporter beside the default one: after the run it lists, by name, every test skipped
 * because the data it reads is not under $STUDIO_TEST_DATA (test-data.ts), and says how to get
 * it, so a skip is never silent.
 */
import type { Reporter, TestModule } from "vitest/node";
import { NEEDS_TEST_DATA_MARK, TEST_DATA_VARIABLE } from "./test-data";

export default class SkippedForDataReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const skipped: string[] = [];
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests("skipped")) {
        if (test.fullName.includes(NEEDS_TEST_DATA_MARK)) skipped.push(`  ${testModule.moduleId}: ${test.fullName}`);
      }
    }
    if (skipped.length === 0) return;
    const why = process.env[TEST_DATA_VARIABLE]
      ? `not found under ${TEST_DATA_VARIABLE}=${process.env[TEST_DATA_VARIABLE]}`
      : `${TEST_DATA_VARIABLE} is not set`;
    process.stdout.write(
      `\n${skipped.length} tests skipped (${why}): they read data the repository does not ship.\n` +
        `${skipped.join("\n")}\n` +
        `Get it as docs/testing.md says (the DevEval metadata and repositories, public agent logs) and set ` +
        `${TEST_DATA_VARIABLE} to the folder that holds deveval/ and fixtures/.\n\n`,
    );
  }
}
