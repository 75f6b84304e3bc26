import { describe, expect, it } from "vitest";
import { loadEnv } from "./env";

describe("the environment", () => {
  it("takes the defaults, whose JSON budget fits in the import worker's heap", () => {
    const env = loadEnv({} as NodeJS.ProcessEnv);
    expect(env.STUDIO_BUNDLE_MAX_JSON_BYTES).toBe(24 * 1024 * 1024);
    expect(env.STUDIO_IMPORT_WORKER_MEMORY_MB).toBe(1024);
  });

  it("refuses a JSON budget whose worst case would not fit in the worker's heap cap", () => {
    const raised = { STUDIO_BUNDLE_MAX_JSON_BYTES: String(64 * 1024 * 1024) } as unknown as NodeJS.ProcessEnv;
    expect(() => loadEnv(raised)).toThrow(
      /^environment variable STUDIO_BUNDLE_MAX_JSON_BYTES: times 25 \(the worst heap per JSON byte measured\) must stay under STUDIO_IMPORT_WORKER_MEMORY_MB \(1024 MB\)$/,
    );
    expect(
      loadEnv({ ...raised, STUDIO_IMPORT_WORKER_MEMORY_MB: "2048" } as NodeJS.ProcessEnv).STUDIO_BUNDLE_MAX_JSON_BYTES,
    ).toBe(64 * 1024 * 1024);
  });
});
