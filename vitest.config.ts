import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["lib/**/*.test.ts", "db/**/*.test.ts", "scripts/**/*.test.ts", "app/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    // The second lists, by name, the tests skipped for want of $STUDIO_TEST_DATA.
    reporters: ["default", "./lib/test-support/skipped-reporter.ts"],
  },
});
