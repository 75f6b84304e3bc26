import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS } from "./lib/setup/system-packages";

/**
 * End-to-end tests walk the production build (`next build` runs first, see package.json) in
 * Debian's Chromium, on a database seeded by e2e/seed.ts. No browser is ever downloaded.
 */
export const E2E_PORT = 3100;
export const E2E_DB = "data/e2e/studio.db";
export const E2E_INGEST_TOKEN = "e2e-ingest-token-0123456789";

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: CHROMIUM_ARGS,
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  webServer: {
    command: `npx tsx e2e/seed.ts && npx next start -H 127.0.0.1 -p ${E2E_PORT}`,
    url: `http://127.0.0.1:${E2E_PORT}/runs`,
    reuseExistingServer: false,
    stdout: "pipe",
    env: { STUDIO_DB: E2E_DB, STUDIO_INGEST_TOKEN: E2E_INGEST_TOKEN, NEXT_TELEMETRY_DISABLED: "1" },
  },
});
