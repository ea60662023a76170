import { describe, expect, it } from "vitest";
import { LIVE_SHARDS, byHomeShard, homeShard, liveShardName, liveShardOf, shardForSocket } from "~/domain/rooms";

describe("socket shards by user", () => {
  it("spreads sockets over more than one shard by default", () => {
    expect(LIVE_SHARDS).toBeGreaterThan(1);
  });

  it("a user's shard is a stable hash of the user id, within the shard count", () => {
    for (let id = 1; id < 2_000; id++) {
      const i = liveShardOf(id);
      expect(i).toBeGreaterThanOrEqual(0);
      expect(i).toBeLessThan(LIVE_SHARDS);
      expect(liveShardOf(id)).toBe(i);
      expect(homeShard(id)).toBe(liveShardName(i));
    }
    // fixed values: the same in every isolate and every release (a change would move users' sockets)
    expect([1, 2, 3, 4, 5, 1_000_000, 2 ** 40].map((id) => liveShardOf(id, 4))).toEqual([3, 2, 3, 1, 1, 1, 3]);
    expect(liveShardOf(12345, 1)).toBe(0);
  });

  it("consecutive ids spread evenly over the shards", () => {
    for (const shards of [2, 4, 16]) {
      const counts = new Array<number>(shards).fill(0);
      for (let id = 1; id <= 100_000; id++) counts[liveShardOf(id, shards)]! += 1;
      for (const c of counts) expect(Math.abs(c - 100_000 / shards)).toBeLessThan((100_000 / shards) * 0.05);
    }
  });

  it("a signed-in socket goes to its user's shard, an anonymous one to any shard", () => {
    expect(shardForSocket(42, 0.99)).toBe(homeShard(42));
    expect(shardForSocket(42, 0)).toBe(homeShard(42));
    const anonymous = new Set<string>();
    for (let i = 0; i < LIVE_SHARDS; i++) anonymous.add(shardForSocket(null, (i + 0.5) / LIVE_SHARDS));
    expect(anonymous.size).toBe(LIVE_SHARDS);
    expect(shardForSocket(null, 0.999_999_999)).toBe(liveShardName(LIVE_SHARDS - 1));
  });

  it("events are grouped by their users' home shards", () => {
    const events = [1, 2, 3, 4, 5, 6, 7, 8].map((userId) => ({ userId, topic: "FOREX_TRADE", data: userId }));
    const groups = byHomeShard(events);
    expect([...groups.values()].flat().sort((a, b) => a.userId - b.userId)).toEqual(events);
    for (const [shard, list] of groups) for (const e of list) expect(homeShard(e.userId)).toBe(shard);
  });
});
