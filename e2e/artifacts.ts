/** What specs leave behind or watch: screenshots attached to the report, requests off this machine. */
import type { Page, TestInfo } from "@playwright/test";

/** Saves a screenshot of the page as a test artifact and attaches it to the report. */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: "image/png" });
}

/**
 * Every request any page of this browser context makes to anything but this machine (Monaco must
 * come from the npm package, never a CDN; nothing may leave localhost). Check it at the end.
 */
export function externalRequests(page: Page): string[] {
  const found: string[] = [];
  page.context().on("request", (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith("http") && !["127.0.0.1", "localhost"].includes(url.hostname)) found.push(url.href);
  });
  return found;
}
