import { describe, expect, it } from "vitest";
import { DEFAULT_RESOURCE_LIMITS, resourceLimitsOf } from "./resource-limits";

describe("a run's resource limits", () => {
  it("gives /tmp and /dev/shm half the memory limit each, so together they fit in it", () => {
    const limits = resourceLimitsOf({ memoryBytes: 1024 * 1024 * 1024 });
    expect(limits.maxRssBytes).toBe(1024 * 1024 * 1024);
    expect(2 * limits.tmpfsBytes!).toBeLessThanOrEqual(limits.maxRssBytes!);
    expect(resourceLimitsOf({})).toMatchObject({
      maxRssBytes: DEFAULT_RESOURCE_LIMITS.memoryBytes,
      tmpfsBytes: DEFAULT_RESOURCE_LIMITS.memoryBytes / 2,
      maxProcesses: DEFAULT_RESOURCE_LIMITS.maxProcesses,
      diskBytes: DEFAULT_RESOURCE_LIMITS.diskBytes,
    });
  });
});
