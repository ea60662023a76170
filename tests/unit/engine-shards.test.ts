// The engine's shard plan (app/domain/engine-shards.ts): every order has exactly one shard, a hot
// instrument's users spread over its parts, and a bad configuration is refused at start.
import { describe, expect, it } from "vitest";
import { SETTLE_CHUNK, settleChunkOf, type EngineOrder, type SettlementRequest, type TickInput, type UserEvent } from "~/domain/engine";
import { assign, filterOf, holds, parsePlan, shardName, shardsFor, shardsOfCode, type ShardFilter } from "~/domain/engine-shards";
import { ContractEngine, type EngineStore } from "../../party/market/engine";
import { ShardedEngine, type ShardApi } from "../../party/market/shards";

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

  it("reads ENGINE_SETTLE_CHUNK (empty = the default) and refuses a value outside 50..2000", () => {
    expect(settleChunkOf(undefined)).toBe(SETTLE_CHUNK);
    expect(settleChunkOf("")).toBe(SETTLE_CHUNK);
    expect(settleChunkOf("250")).toBe(250);
    for (const bad of ["0", "49", "2001", "12.5", "many"]) expect(() => settleChunkOf(bad)).toThrow(/ENGINE_SETTLE_CHUNK/);
  });

  it("every (instrument, user) belongs to exactly one shard, the one its name says", () => {
    const plan = assign(parsePlan("3", "BTCUSDT:4,ETHUSDT:2"), CODES);
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
    expect(shardsOfCode(specs, "BTCUSDT").map((s) => s.name)).toEqual([
      "engine:BTCUSDT:0/4",
      "engine:BTCUSDT:1/4",
      "engine:BTCUSDT:2/4",
      "engine:BTCUSDT:3/4",
    ]);
    expect(specs.filter((s) => s.parts === undefined).length).toBeLessThanOrEqual(3);
  });

  it("a hot instrument's users spread evenly over its parts; a user's orders on it stay together", () => {
    const plan = parsePlan("2", "BTCUSDT:8");
    const counts = new Map<string, number>();
    for (let userId = 1; userId <= 80_000; userId++)
      counts.set(shardName(plan, "BTCUSDT", userId), (counts.get(shardName(plan, "BTCUSDT", userId)) ?? 0) + 1);
    expect([...counts.values()]).toEqual(Array(8).fill(10_000));
    expect(shardName(plan, "BTCUSDT", 12345)).toBe(shardName(plan, "BTCUSDT", 12345));
  });

  it("the shared shards hold the unsplit instruments evenly: none more than its share", () => {
    const plan = assign(parsePlan("4", "BTCUSDT:8"), CODES);
    const buckets = shardsFor(plan, CODES).filter((s) => s.parts === undefined);
    expect(buckets).toHaveLength(4);
    // 11 unsplit instruments over 4 shards: 3, 3, 3, 2
    expect(buckets.map((b) => b.codes.length).sort()).toEqual([2, 3, 3, 3]);
    for (const code of CODES)
      for (const userId of [1, 2, 3])
        expect(buckets.concat(shardsFor(plan, CODES)).some((s) => s.name === shardName(plan, code, userId))).toBe(true);
  });

  it("the same plan gives the same shards in every room and after restarts", () => {
    const a = shardsFor(assign(parsePlan("4", "BTCUSDT:2"), CODES), CODES);
    const b = shardsFor(assign(parsePlan("4", "BTCUSDT:2"), [...CODES].reverse()), [...CODES].reverse());
    expect(a).toEqual(b);
  });
});

// ---- the market room's side, with shards as in-memory engines over one fake database ----

function world(rows: EngineOrder[], later: EngineOrder[] = []) {
  const settled: SettlementRequest[] = [];
  /** Rows written after the start: the catch-up reads them by id, two a page. */
  const newRows = (afterId = 0) => {
    const fresh = later.filter((o) => o.id > afterId).slice(0, 2);
    const more = later.filter((o) => o.id > afterId).length > 2;
    return {
      open: fresh,
      gone: [],
      goneRows: [],
      watermark: Date.now(),
      lastId: fresh.at(-1)?.id ?? Math.max(afterId, ...later.map((o) => o.id), 0),
      more,
    };
  };
  const inFilter = (o: EngineOrder, f?: ShardFilter) => !f || (f.codes.includes(o.code) && o.userId % f.parts === f.part);
  const store: Required<EngineStore> = {
    orders: async (since, afterId, filter) =>
      since === 0 ? { open: rows.filter((o) => inFilter(o, filter)), gone: [], watermark: 1, lastId: 0 } : newRows(afterId),
    options: async (since) => ({ open: [], gone: [], goneRows: [], watermark: since, lastId: 0 }),
    schedules: async () => [],
    settle: async (req) => {
      settled.push(req);
      return {
        exited: req.exits.map((e) => ({ id: e.id, userId: rows.find((o) => o.id === e.id)!.userId, reason: e.reason })),
        filled: [],
        cancelled: [],
      };
    },
    settleOptions: async () => ({ settled: [] }),
    copyOrigins: async () => [],
    openCopies: async () => ({ opened: [], skipped: [] }),
    closedPrices: async () => [],
    copyStops: async () => [],
    pauseFollows: async () => {},
    park: async () => {},
  };
  const engines = new Map<string, ContractEngine>();
  const ticksHanded = new Map<string, number>();
  const shardApi = (name: string): ShardApi => {
    const ready = async (spec: Parameters<ShardApi["wake"]>[0]) => {
      let e = engines.get(name);
      if (!e) {
        e = new ContractEngine(store, { filter: filterOf(spec) });
        await e.load();
        engines.set(name, e);
      }
      return e;
    };
    const status = (e: ContractEngine) => ({
      pending: e.pending(),
      triggers: e.triggers(),
      copyWork: e.copyWorkWaiting(),
      quiet: e.quiet(),
    });
    return {
      wake: async (spec) => status(await ready(spec)),
      tick: async (spec, input) => {
        ticksHanded.set(name, (ticksHanded.get(name) ?? 0) + 1);
        return (await ready(spec)).shardTick(input);
      },
      apply: async (spec, changes) => {
        const e = await ready(spec);
        e.apply(changes);
        return status(e);
      },
      absorb: async (spec, rows) => {
        const e = await ready(spec);
        e.absorb(rows.orders.open, rows.orders.gone);
        e.absorbOptions(rows.options.open, rows.options.gone);
        return status(e);
      },
      cascade: async (spec, time, departed) => (await ready(spec)).cascadeFrom(time, departed),
      closeFollows: async (spec, time, ids) => (await ready(spec)).closeFollows(time, ids),
      refresh: async (spec) => status(await ready(spec)),
      view: async (spec) => {
        const e = await ready(spec);
        return { timings: e.timings, parked: e.parked, status: status(e) };
      },
    };
  };
  return { store, settled, ticksHanded, shardApi };
}

const order = (id: number, userId: number, code: string, extra: Partial<EngineOrder> = {}): EngineOrder => ({
  id,
  userId,
  code,
  side: 1,
  status: 1,
  lots: 1_000_000,
  contractSize: 1_000_000,
  precision: 2,
  price: 10_000,
  margin: 10_000_000,
  fee: 0,
  stopLoss: 0,
  takeProfit: 0,
  liquidation: 0,
  pendingCrossing: 0,
  ...extra,
});
const at = (time: number, ranges: { code: string; low: number; high: number; last: number }[], watchers: number[] = []): TickInput => ({
  time,
  since: time - 1000,
  catchUp: false,
  watchers,
  ranges: ranges.map((r) => ({ ...r, open: r.last })),
});

describe("the market room over engine shards", () => {
  it("a quiet shard gets a tick only when a range reaches one of its triggers; then it settles", async () => {
    const plan = parsePlan("2", "BTCUSDT:2");
    // user 1 and user 2 sit on BTCUSDT's two parts, each with a stop-loss at 95.00
    const w = world([order(1, 1, "BTCUSDT", { stopLoss: 9_500 }), order(2, 2, "BTCUSDT", { stopLoss: 9_000 })]);
    const engine = new ShardedEngine(w.store, w.shardApi, plan, ["BTCUSDT", "SOLUSDT"]);
    await engine.load();
    expect(engine.pending()).toBe(2);
    // the first tick after the start asks every shard for everything; then quiet ones rest
    await engine.onTick(at(1000, [{ code: "BTCUSDT", low: 99, high: 101, last: 100 }]));
    w.ticksHanded.clear();
    for (let t = 2; t <= 5; t++) await engine.onTick(at(t * 1000, [{ code: "BTCUSDT", low: 99, high: 101, last: 100 }]));
    expect([...w.ticksHanded.values()].reduce((a, b) => a + b, 0)).toBe(0);
    // a fall to 94: only user 1's part is reached
    await engine.onTick(at(6000, [{ code: "BTCUSDT", low: 94, high: 100, last: 94 }]));
    expect([...w.ticksHanded.keys()]).toEqual([shardName(assign(plan, ["BTCUSDT", "SOLUSDT"]), "BTCUSDT", 1)]);
    expect(w.settled.flatMap((r) => r.exits.map((e) => e.id))).toEqual([1]);
    expect(engine.pending()).toBe(1);
  });

  it("a reconcile reads every page of a burst of new orders and hands each to its shard", async () => {
    const plan = parsePlan("2", "BTCUSDT:2");
    const later = [1, 2, 3, 4, 5].map((id) => order(100 + id, id, id % 2 ? "BTCUSDT" : "SOLUSDT", { liquidation: 9_000 }));
    // new rows come two a page: one reconcile reads all three pages
    const burst = world([], later);
    const fresh = new ShardedEngine(burst.store, burst.shardApi, plan, ["BTCUSDT", "SOLUSDT"]);
    await fresh.reconcile();
    expect(fresh.pending()).toBe(5);
  });

  it("live profit over shards: one FOREX_TRADE per user with the total of its positions on every shard", async () => {
    const plan = parsePlan("2", "BTCUSDT:2");
    const w = world([order(1, 3, "BTCUSDT", { liquidation: 9_000 }), order(2, 3, "SOLUSDT", { liquidation: 9_000 })]);
    const engine = new ShardedEngine(w.store, w.shardApi, plan, ["BTCUSDT", "SOLUSDT"]);
    await engine.load();
    const assigned = assign(plan, ["BTCUSDT", "SOLUSDT"]);
    expect(shardName(assigned, "BTCUSDT", 3)).not.toBe(shardName(assigned, "SOLUSDT", 3));
    const { userEvents } = await engine.onTick(
      at(
        1000,
        [
          { code: "BTCUSDT", low: 101, high: 102.5, last: 102.5 },
          { code: "SOLUSDT", low: 98.2, high: 99, last: 98.25 },
        ],
        [3],
      ),
    );
    const trade = userEvents.filter((e: UserEvent) => e.topic === "FOREX_TRADE");
    expect(trade).toHaveLength(1);
    // +2.50 and −1.75 make +0.75
    expect(trade[0]!.data).toMatchObject({ all_fact_profits: "0.75" });
    expect((trade[0]!.data as { list: unknown[] }).list).toHaveLength(2);
  });
});
