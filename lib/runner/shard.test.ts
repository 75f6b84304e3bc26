import { describe, expect, it } from "vitest";
import { inShard, ShardSchema } from "./shard";

describe("shards", () => {
  it("reads i/n and refuses anything else", () => {
    expect(ShardSchema.parse("2/4")).toEqual({ index: 2, count: 4 });
    expect(ShardSchema.parse("1/1")).toEqual({ index: 1, count: 1 });
    for (const bad of ["0/3", "4/3", "1/0", "a/b", "1/", "/3", "1/3/5", " 1/3", "-1/3", "1.5/3"]) {
      expect(ShardSchema.safeParse(bad).success, bad).toBe(false);
    }
  });

  it("deals rows by id, round robin, whatever order they come in", () => {
    const rows = ["e", "a", "d", "b", "c"].map((id) => ({ id }));
    const ids = (index: number) => inShard(rows, { index, count: 2 }).map((r) => r.id);
    expect(ids(1)).toEqual(["a", "c", "e"]);
    expect(ids(2)).toEqual(["b", "d"]);
    expect(inShard(rows, { index: 5, count: 7 })).toEqual([{ id: "e" }]);
    expect(inShard(rows, { index: 7, count: 7 })).toEqual([]);
  });
});
