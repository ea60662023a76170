// The engine's shard plan (app/domain/engine-shards.ts): every order has exactly one shard, a hot
// instrument's users spread over its parts, and a bad configuration is refused at start.
import { describe, expect, it } from "vitest";
import { holds, parsePlan, shardName, shardsFor, shardsOfCode } from "~/domain/engine-shards";

const CODES = ["BTCUSDT", "ETHUSDT", "EURUSD", "XAUUSD", "SOLUSDT", "XRPUSDT", "BNBUSDT", "GBPUSD", "USDJPY", "AUDUSD", "XAGUSD", "USOIL"];

describe("engine shard plan", () => {
  it("reads ENGINE_SHARDS and ENGINE_SPLIT, and refuses a bad value with a clear error", () => {
    expect(parsePlan(undefined, undefined)).toEqual({ buckets: 2, split: {} });
    expect(parsePlan("4", "BTCUSDT:4, ETHUSDT:2")).toEqual({ buckets: 4, split: { BTCUSDT: 4, ETHUSDT: 2 } });
    expect(() => parsePlan("0", "")).toThrow(/ENGINE_SHARDS/);
    expect(() => parsePlan("2.5", "")).toThrow(/ENGINE_SHARDS/);
    expect(() => parsePlan("2", "BTCUSDT")).toThrow(/ENGINE_SPLIT/);
    expect(() => parsePlan("2", "BTCUSDT:0")).toThrow(/ENGINE_SPLIT/);
    expect(() => parsePlan("2", "BTCUSDT:65")).toThrow(/ENGINE_SPLIT/);
  });

  it("every (instrument, user) belongs to exactly one shard, the one its name says", () => {
    const plan = parsePlan("3", "BTCUSDT:4,ETHUSDT:2");
    const specs = shardsFor(plan, CODES);
    expect(new Set(specs.map((s) => s.name)).size).toBe(specs.length);
    for (const code of CODES) {
      for (let userId = 1; userId <= 50; userId++) {
        const owners = specs.filter((s) => holds(s, code, userId));
        expect(owners).toHaveLength(1);
        expect(owners[0]!.name).toBe(shardName(plan, code, userId));
      }
    }
    // a split instrument has its own parts; the others share at most 3 buckets
    expect(shardsOfCode(specs, "BTCUSDT").map((s) => s.name)).toEqual(["engine:BTCUSDT:0/4", "engine:BTCUSDT:1/4", "engine:BTCUSDT:2/4", "engine:BTCUSDT:3/4"]);
    expect(specs.filter((s) => s.parts === undefined).length).toBeLessThanOrEqual(3);
  });

  it("a hot instrument's users spread evenly over its parts; a user's orders on it stay together", () => {
    const plan = parsePlan("2", "BTCUSDT:8");
    const counts = new Map<string, number>();
    for (let userId = 1; userId <= 80_000; userId++) counts.set(shardName(plan, "BTCUSDT", userId), (counts.get(shardName(plan, "BTCUSDT", userId)) ?? 0) + 1);
    expect([...counts.values()]).toEqual(Array(8).fill(10_000));
    expect(shardName(plan, "BTCUSDT", 12345)).toBe(shardName(plan, "BTCUSDT", 12345));
  });

  it("the same plan gives the same shards in every room and after restarts", () => {
    const a = shardsFor(parsePlan("4", "BTCUSDT:2"), CODES);
    const b = shardsFor(parsePlan("4", "BTCUSDT:2"), [...CODES].reverse());
    expect(a).toEqual(b);
  });
});
