// The market room's order engine without D1: which orders a tick triggers, at what price, and
// how the index follows what the settlement did. The store is a fake that records the requests.
import { describe, expect, it } from "vitest";
import {
  SETTLE_TRIES,
  type EngineOrder,
  type ParkedSettlement,
  type SettlementRequest,
  type SettlementResult,
  type TickInput,
} from "~/domain/engine";
import { ContractEngine, type EngineStore } from "../../party/market/engine";
import { SortedLevels, TriggerIndex } from "../../party/market/triggers";

function fakeStore(open: EngineOrder[] = []) {
  const requests: SettlementRequest[] = [];
  const store: EngineStore = {
    orders: async (since) => (since === 0 ? { open, gone: [], watermark: 1 } : { open: [], gone: [], watermark: 2 }),
    schedules: async () => [],
    settle: async (req): Promise<SettlementResult> => {
      requests.push(req);
      return {
        exited: req.exits.map((e) => ({ id: e.id, userId: 7, reason: e.reason })),
        filled: req.fills.map((f) => ({ id: f.id, userId: 7 })),
        cancelled: req.cancels.map((c) => ({ id: c.id, userId: 7 })),
      };
    },
  };
  return { store, requests };
}

/** A buy of 1 BTC (precision 2) opened at 100.00 with margin 10 USD: liquidation at 90.00. */
function position(id: number, extra: Partial<EngineOrder> = {}): EngineOrder {
  return {
    id,
    userId: 7,
    code: "BTCUSDT",
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
    liquidation: 9_000,
    pendingCrossing: 0,
    ...extra,
  };
}

const tick = (time: number, open: number, low: number, high: number, last: number, watchers: number[] = []): TickInput => ({
  time,
  since: time - 1000,
  catchUp: false,
  watchers,
  ranges: [{ code: "BTCUSDT", open, low, high, last }],
});

describe("the trigger index", () => {
  it("finds exactly the levels a range reaches, in either direction", () => {
    const s = new SortedLevels();
    for (const [level, key] of [
      [5, 1],
      [3, 2],
      [9, 3],
      [5, 4],
    ] as const)
      s.insert(level, key);
    expect(s.atOrAbove(5).sort()).toEqual([1, 3, 4]);
    expect(s.atOrBelow(4)).toEqual([2]);
    expect(s.remove(5, 4)).toBe(true);
    expect(s.remove(5, 4)).toBe(false);
    expect(s.atOrAbove(0).length).toBe(3);
    const index = new TriggerIndex();
    index.add("X", "down", 95, 1);
    index.add("X", "up", 105, 2);
    expect(index.fired("X", 96, 104)).toEqual([]);
    expect(index.fired("X", 95, 105).sort()).toEqual([1, 2]);
  });
});

describe("the trigger index against a plain model", () => {
  /** A deterministic pseudo-random sequence (the same run every time). */
  function random(seed: number) {
    let x = seed;
    return () => (x = (x * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  }

  it("30,000 inserts and removals over few levels (many orders at one price) answer as a sorted list would, across block splits and merges", () => {
    const next = random(7);
    const s = new SortedLevels();
    const model = new Map<number, number>(); // key → level
    let key = 0;
    for (let step = 0; step < 30_000; step++) {
      if (model.size === 0 || next() < 0.6) {
        const level = 100 + Math.floor(next() * 20); // 20 levels: thousands of keys share one
        key += 1;
        s.insert(level, key);
        model.set(key, level);
      } else {
        // remove a random present key, and now and then one that is absent
        const keys = [...model.keys()];
        const k = keys[Math.floor(next() * keys.length)]!;
        const level = model.get(k)!;
        expect(s.remove(level, k)).toBe(true);
        model.delete(k);
        expect(s.remove(level, k)).toBe(false);
      }
      if (step % 997 === 0) {
        const x = 100 + Math.floor(next() * 22) - 1;
        const above = [...model]
          .filter(([, l]) => l >= x)
          .map(([k]) => k)
          .sort((a, b) => a - b);
        const below = [...model]
          .filter(([, l]) => l <= x)
          .map(([k]) => k)
          .sort((a, b) => a - b);
        expect([...s.atOrAbove(x)].sort((a, b) => a - b)).toEqual(above);
        expect([...s.atOrBelow(x)].sort((a, b) => a - b)).toEqual(below);
        expect(s.size).toBe(model.size);
      }
    }
    // emptied one by one, then used again
    for (const [k, level] of model) expect(s.remove(level, k)).toBe(true);
    expect(s.size).toBe(0);
    expect(s.atOrAbove(-1)).toEqual([]);
    s.insert(5, 1);
    expect(s.atOrBelow(5)).toEqual([1]);
  });

  it("answers in level order, whatever the order of insertion; a built index and an inserted one agree", () => {
    const entries: [number, number][] = Array.from({ length: 5_000 }, (_, i) => [(i * 7919) % 3001, i + 1]);
    const built = new SortedLevels();
    built.assign(entries.map((e) => [...e] as [number, number]));
    const inserted = new SortedLevels();
    for (const [level, key] of entries) inserted.insert(level, key);
    const levelOf = new Map(entries.map(([l, k]) => [k, l]));
    for (const x of [-1, 0, 1500, 3000, 3001]) {
      const a = built.atOrAbove(x);
      expect(inserted.atOrAbove(x)).toEqual(a);
      expect(inserted.atOrBelow(x)).toEqual(built.atOrBelow(x));
      const levels = a.map((k) => levelOf.get(k)!);
      expect(levels).toEqual([...levels].sort((p, q) => p - q));
    }
  });
});

describe("the engine's decisions", () => {
  it("a move down and back within one tick still fires a stop-loss, executed at its level", async () => {
    const { store, requests } = fakeStore([position(1, { stopLoss: 9_500 })]);
    const engine = new ContractEngine(store);
    await engine.load();
    await engine.onTick(tick(1000, 100, 94, 100, 100));
    expect(requests[0]!.exits).toEqual([{ id: 1, reason: "stop_loss", price: 9_500, profit: -5_000_000 }]);
    expect(engine.hasWork()).toBe(false);
  });

  it("a gap past the level executes at the first price after it; a loss never exceeds the margin", async () => {
    const { store, requests } = fakeStore([position(1)]);
    const engine = new ContractEngine(store);
    await engine.load();
    await engine.onTick(tick(1000, 80, 80, 81, 81));
    expect(requests[0]!.exits).toEqual([{ id: 1, reason: "liquidation", price: 8_000, profit: -10_000_000 }]);
  });

  it("stop-loss and take-profit both reached in one tick: the stop-loss (the losing side) wins", async () => {
    const { store, requests } = fakeStore([position(1, { stopLoss: 9_800, takeProfit: 10_200 })]);
    const engine = new ContractEngine(store);
    await engine.load();
    await engine.onTick(tick(1000, 100, 97, 103, 100));
    expect(requests[0]!.exits).toEqual([{ id: 1, reason: "stop_loss", price: 9_800, profit: -2_000_000 }]);
  });

  it("a trader's order closed by hand at 101.00: the room is asked to tick at once and the copies close at 101.00 without reading the price back", async () => {
    const { store, requests } = fakeStore([position(1), position(2, { userId: 8, originId: 1 }), position(3, { userId: 9, originId: 1 })]);
    let priceReads = 0;
    store.closedPrices = async () => {
      priceReads += 1;
      return [];
    };
    const engine = new ContractEngine(store);
    await engine.load();
    expect(engine.copyWorkWaiting()).toBe(false);
    engine.apply([{ op: "remove", id: 1, price: 10_100 }]);
    expect(engine.copyWorkWaiting()).toBe(true);
    await engine.onTick(tick(1000, 100, 100, 100, 100));
    expect(priceReads).toBe(0);
    expect(requests[0]!.exits).toEqual([
      { id: 2, reason: "trader_close", price: 10_100, profit: 1_000_000 },
      { id: 3, reason: "trader_close", price: 10_100, profit: 1_000_000 },
    ]);
    expect(engine.copyWorkWaiting()).toBe(false);
    // a removal without copies asks for nothing
    engine.apply([{ op: "remove", id: 99, price: 10_000 }]);
    expect(engine.copyWorkWaiting()).toBe(false);
  });

  it("a leader's new market position told by the services asks for a tick at once and is offered for copying once", async () => {
    const { store } = fakeStore([]);
    const origins: number[][] = [];
    store.copyOrigins = async (ids) => {
      origins.push([...ids]);
      return [];
    };
    store.openCopies = async () => ({ opened: [], skipped: [] });
    const engine = new ContractEngine(store);
    await engine.load();
    engine.apply([{ op: "upsert", order: position(5) }]);
    expect(engine.copyWorkWaiting()).toBe(true);
    await engine.onTick(tick(1000, 100, 100, 100, 100));
    expect(origins).toEqual([[5]]);
    expect(engine.copyWorkWaiting()).toBe(false);
    // the same order told again (a modification) is not offered again
    engine.apply([{ op: "upsert", order: position(5, { stopLoss: 9_000 }) }]);
    expect(engine.copyWorkWaiting()).toBe(false);
    await engine.onTick(tick(2000, 100, 100, 100, 100));
    expect(origins).toEqual([[5]]);
  });

  it("a price that reaches nothing settles nothing and sends no batch", async () => {
    const { store, requests } = fakeStore([position(1, { stopLoss: 9_500, takeProfit: 10_500 })]);
    const engine = new ContractEngine(store);
    await engine.load();
    await engine.onTick(tick(1000, 100, 96, 104, 101));
    expect(requests).toEqual([]);
    expect(engine.hasWork()).toBe(true);
  });

  it("a pending buy fills at its price, then its stop-loss and liquidation are armed", async () => {
    const pending: EngineOrder = { ...position(2), status: 0, price: 9_900, pendingCrossing: -1, liquidation: 8_900, stopLoss: 9_700 };
    const { store, requests } = fakeStore([pending]);
    const engine = new ContractEngine(store);
    await engine.load();
    await engine.onTick(tick(1000, 100, 98.5, 100, 99));
    expect(requests[0]!.fills).toEqual([{ id: 2, price: 9_900 }]);
    expect(engine.triggers()).toBe(2); // stop-loss + liquidation
    await engine.onTick(tick(2000, 99, 96, 99, 96));
    expect(requests[1]!.exits).toEqual([{ id: 2, reason: "stop_loss", price: 9_700, profit: -2_000_000 }]);
  });

  it("an order another path already moved is dropped from the index (the batch re-checked it)", async () => {
    const { store, requests } = fakeStore([position(1, { stopLoss: 9_500 })]);
    store.settle = async (req) => {
      requests.push(req);
      return { exited: [], filled: [], cancelled: [] };
    };
    const engine = new ContractEngine(store);
    await engine.load();
    const out = await engine.onTick(tick(1000, 100, 94, 100, 100));
    expect(engine.hasWork()).toBe(false);
    expect(out.userEvents).toEqual([]);
  });

  it("if the tick's batch fails, each order is settled on its own", async () => {
    const { store, requests } = fakeStore([position(1, { stopLoss: 9_500 }), position(2, { stopLoss: 9_600 })]);
    const settle = store.settle;
    store.settle = async (req) => {
      if (req.exits.length > 1) throw new Error("constraint");
      return settle(req);
    };
    const engine = new ContractEngine(store);
    await engine.load();
    const out = await engine.onTick(tick(1000, 100, 94, 100, 100));
    expect(requests.map((r) => r.exits.map((e) => e.id))).toEqual([[1], [2]]);
    expect(out.userEvents).toEqual([{ userId: 7, topic: "FOREX_CLOSED", data: [1, 2] }]);
  });

  it("live profit goes only to watching users: buy 1 at 100.00, price 101.50 → +1.50", async () => {
    const { store } = fakeStore([position(1), { ...position(3), userId: 8 }]);
    const engine = new ContractEngine(store);
    await engine.load();
    const out = await engine.onTick(tick(1000, 101.5, 101.5, 101.5, 101.5, [7]));
    expect(out.userEvents).toEqual([
      { userId: 7, topic: "FOREX_TRADE", data: { all_fact_profits: "1.50", list: [{ Id: 1, UpdatePrice: 101.5, FactProfits: "1.50" }] } },
    ]);
  });

  it("the catch-up's overlap reads an order again unchanged: it stays indexed once; a change with the same timestamp still moves its trigger", async () => {
    const { store, requests } = fakeStore([]);
    let reads: EngineOrder[] = [];
    store.orders = async (since) => (since === 0 ? { open: [], gone: [], watermark: 1 } : { open: reads, gone: [], watermark: 2 });
    const engine = new ContractEngine(store);
    await engine.load();
    reads = [position(1, { stopLoss: 9_500, updatedAt: 500 })];
    await engine.onTick(tick(1000, 100, 99, 100, 100));
    await engine.onTick(tick(2000, 100, 99, 100, 100));
    expect(engine.triggers()).toBe(2); // stop-loss + liquidation, not twice
    // the stop-loss moved to 98.00 within the same millisecond as the read before
    reads = [position(1, { stopLoss: 9_800, updatedAt: 500 })];
    await engine.onTick(tick(3000, 100, 99, 100, 100));
    expect(engine.triggers()).toBe(2);
    await engine.onTick(tick(4000, 100, 97.5, 100, 100));
    expect(requests[0]!.exits).toEqual([{ id: 1, reason: "stop_loss", price: 9_800, profit: -2_000_000 }]);
    // an older read never replaces a newer one
    reads = [position(2, { stopLoss: 9_000, updatedAt: 900 })];
    await engine.onTick(tick(5000, 100, 99, 100, 100));
    reads = [position(2, { stopLoss: 9_900, updatedAt: 800 })];
    await engine.onTick(tick(6000, 100, 99.5, 100, 100));
    expect(requests).toHaveLength(1);
  });

  it("5,000 stop-losses reached among 100,000 open orders close in chunks of at most SETTLE_CHUNK, each its own batch, and leave the rest indexed", async () => {
    const open = Array.from({ length: 100_000 }, (_, i) =>
      position(i + 1, { userId: i + 1, stopLoss: i < 5_000 ? 9_500 : 5_000, liquidation: 1_000 }),
    );
    const { store, requests } = fakeStore(open);
    const engine = new ContractEngine(store);
    await engine.load();
    await engine.onTick(tick(1000, 100, 94, 100, 95));
    expect(requests.map((r) => r.exits.length)).toEqual([2_000, 2_000, 1_000]);
    expect(new Set(requests.map((r) => r.batchId)).size).toBe(3);
    expect(new Set(requests.flatMap((r) => r.exits.map((e) => e.id))).size).toBe(5_000);
    // every bound list stays far below D1's 2,000,000-byte string limit
    for (const r of requests) expect(JSON.stringify(r.exits).length).toBeLessThan(200_000);
    expect(engine.triggers()).toBe(190_000);
    await engine.onTick(tick(2000, 95, 94, 95, 95));
    expect(requests).toHaveLength(3);
  });

  it("a chunk that fails splits in halves: every good order settles; the bad one is tried on the next ticks at its price, then parked for an operator while the engine goes on", async () => {
    const open = Array.from({ length: 10 }, (_, i) => position(i + 1, { userId: 100 + i, stopLoss: 9_500 }));
    const { store, requests } = fakeStore(open);
    const settle = store.settle;
    store.settle = async (req) => {
      if (req.exits.some((e) => e.id === 7)) throw new Error("CHECK constraint failed: balance >= 0");
      return settle(req);
    };
    const parked: ParkedSettlement[] = [];
    store.park = async (items) => void parked.push(...items);
    const engine = new ContractEngine(store);
    await engine.load();
    const out = await engine.onTick(tick(1000, 100, 94, 100, 100));
    // 10 → 5 + 5 → the half with 7 splits down to it; nine settled
    expect(requests.flatMap((r) => r.exits.map((e) => e.id)).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 8, 9, 10]);
    expect(out.userEvents.flatMap((e) => e.data as number[]).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 8, 9, 10]);
    expect(parked).toEqual([]);
    expect(engine.hasWork()).toBe(true);
    // the next ticks reach nothing, yet order 7 is tried again at 95.00 (its stop), then parked
    await engine.onTick(tick(2000, 100, 100, 100, 100));
    expect(parked).toEqual([]);
    await engine.onTick(tick(3000, 100, 100, 100, 100));
    expect(parked).toEqual([
      {
        kind: "contract",
        id: 7,
        userId: 106,
        reason: "stop_loss",
        price: 9_500,
        tries: SETTLE_TRIES,
        error: "CHECK constraint failed: balance >= 0",
        at: 3000,
      },
    ]);
    expect(engine.parked).toEqual(parked);
    expect(engine.hasWork()).toBe(false);
    // given up: never tried again by itself
    const before = requests.length;
    await engine.onTick(tick(4000, 100, 90, 100, 100));
    expect(requests.length).toBe(before);
  });

  it("options due in one second settle in chunks; one that cannot settle is retried with its first price, then parked, and the rest are never held up", async () => {
    const { store } = fakeStore([]);
    const due = Array.from({ length: 4_500 }, (_, i) => ({
      id: i + 1,
      userId: i + 1,
      code: "BTCUSDT",
      direction: 1 as const,
      amount: 10_000_000,
      profitRatio: "0.8",
      lossLevel: 0,
      precision: 2,
      openPrice: 10_000,
      expiresAt: 1000,
    }));
    store.options = async (since) => (since === 0 ? { open: due, gone: [], watermark: 1 } : { open: [], gone: [], watermark: 2 });
    const batches: number[][] = [];
    const prices: number[] = [];
    store.settleOptions = async (req) => {
      if (req.items.some((i) => i.id === 4_321)) {
        prices.push(req.items.find((i) => i.id === 4_321)!.endPrice);
        throw new Error("D1_ERROR: too big");
      }
      batches.push(req.items.map((i) => i.id));
      return { settled: req.items.map((i) => ({ id: i.id, userId: i.userId, profit: 8_000_000 })) };
    };
    const parked: ParkedSettlement[] = [];
    store.park = async (items) => void parked.push(...items);
    const engine = new ContractEngine(store);
    await engine.load();
    await engine.onTick(tick(1000, 101, 101, 101, 101));
    expect(batches[0]).toHaveLength(2_000);
    expect(batches.flat()).toHaveLength(4_499);
    expect(Math.max(...batches.map((b) => b.length))).toBeLessThanOrEqual(2_000);
    // retried at its first price (101.00) even though the market moved
    await engine.onTick(tick(2000, 90, 90, 90, 90));
    await engine.onTick(tick(3000, 90, 90, 90, 90));
    expect(prices).toEqual(Array(prices.length).fill(10_100));
    expect(parked.map((p) => [p.kind, p.id, p.reason, p.price])).toEqual([["option", 4_321, "expiry", 10_100]]);
    expect(engine.hasWork()).toBe(false);
  });

  it("a parked settlement the store could not write is written with the next tick", async () => {
    const { store } = fakeStore([position(1, { stopLoss: 9_500 })]);
    store.settle = async () => {
      throw new Error("boom");
    };
    let calls = 0;
    const parked: ParkedSettlement[] = [];
    store.park = async (items) => {
      calls += 1;
      if (calls === 1) throw new Error("D1 unavailable");
      parked.push(...items);
    };
    const engine = new ContractEngine(store);
    await engine.load();
    for (let t = 1; t <= SETTLE_TRIES; t++) await engine.onTick(tick(t * 1000, 100, 94, 100, 100));
    expect(parked).toEqual([]);
    await engine.onTick(tick(9000, 100, 100, 100, 100));
    expect(parked.map((p) => p.id)).toEqual([1]);
  });

  it("the copy stop-loss re-checks only the follows holding a copy on an instrument whose price moved, with all their copies", async () => {
    const eth = (id: number, extra: Partial<EngineOrder>) => position(id, { code: "ETHUSDT", ...extra });
    const open = [
      position(1, { userId: 1 }), // the trader's BTC order
      eth(2, { userId: 1 }), // the trader's ETH order
      position(10, { userId: 20, originId: 1, followId: 100 }), // follow 100: a BTC copy …
      eth(11, { userId: 20, originId: 2, followId: 100 }), // … and an ETH copy
      position(12, { userId: 21, originId: 1, followId: 101 }), // follow 101: BTC only
    ];
    const { store, requests } = fakeStore(open);
    const asked: number[][] = [];
    store.copyStops = async (ids) => {
      asked.push([...ids].sort((a, b) => a - b));
      return ids.map((id) => ({ id, copyStopLoss: id === 100 ? 15 * 1_000_000 : 0 }));
    };
    store.pauseFollows = async () => {};
    const engine = new ContractEngine(store);
    await engine.load();
    const both = (time: number, btc: number, ethPrice: number): TickInput => ({
      time,
      since: time - 1000,
      catchUp: false,
      ranges: [
        { code: "BTCUSDT", open: btc, low: btc, high: btc, last: btc },
        { code: "ETHUSDT", open: ethPrice, low: ethPrice, high: ethPrice, last: ethPrice },
      ],
    });
    await engine.onTick(both(1000, 100, 100));
    expect(asked).toEqual([[100, 101]]);
    // nothing moved: nothing is read
    await engine.onTick(both(2000, 100, 100));
    expect(asked).toHaveLength(1);
    // only ETH moved: only follow 100 (its ETH copy) is re-checked, with its BTC copy at its last price
    await engine.onTick(both(3000, 100, 95));
    expect(asked[1]).toEqual([100]);
    expect(requests).toEqual([]); // −5.00 on the ETH copy, 0 on BTC: above the 15.00 limit
    // BTC falls too: the follow's copies lose 9.00 + 6.00 together and close at those prices
    await engine.onTick(both(4000, 91, 94));
    expect(asked[2]).toEqual([100, 101]);
    expect(requests[0]!.exits.map((e) => [e.id, e.reason, e.price]).sort()).toEqual([
      [10, "copy_stop", 9_100],
      [11, "copy_stop", 9_400],
    ]);
  });

  it("loads its open orders and options page by page at start: every one indexed once, the first page's watermark kept", async () => {
    const open = Array.from({ length: 7 }, (_, i) => position(i + 1, { stopLoss: 9_500 }));
    const { store, requests } = fakeStore([]);
    const asked: [number, number | undefined][] = [];
    store.orders = async (since, afterId = 0) => {
      asked.push([since, afterId]);
      if (since !== 0) return { open: [], gone: [], watermark: 50 };
      const page = open.filter((o) => o.id > afterId).slice(0, 3);
      return { open: page, gone: [], watermark: afterId === 0 ? 42 : 99, lastId: 7, more: page.length === 3 };
    };
    const optionAsks: number[] = [];
    store.options = async (since, afterId = 0) => {
      if (since === 0) optionAsks.push(afterId);
      const all = [1, 2, 3, 4].map((id) => ({
        id,
        userId: 7,
        code: "BTCUSDT",
        direction: 1 as const,
        amount: 1_000_000,
        profitRatio: "0.8",
        lossLevel: 0,
        precision: 2,
        openPrice: 10_000,
        expiresAt: 10_000 + id,
      }));
      const page = since === 0 ? all.filter((o) => o.id > afterId).slice(0, 2) : [];
      return { open: page, gone: [], watermark: 1, lastId: 4, more: since === 0 && page.length === 2 };
    };
    const engine = new ContractEngine(store);
    await engine.load();
    expect(asked).toEqual(
      [
        [0, undefined],
        [0, 3],
        [0, 6],
      ].map(([a, b]) => [a, b ?? 0]),
    );
    expect(optionAsks).toEqual([0, 2, 4]);
    expect(engine.pending()).toBe(11);
    expect(engine.triggers()).toBe(14); // a stop-loss and a liquidation each
    await engine.onTick(tick(1000, 100, 94, 100, 100));
    expect(requests[0]!.exits.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // the catch-up starts from the first page's watermark (less its overlap) and the highest id
    expect(asked[3]).toEqual([1, 7]);
  });

  it("the cost of a tick follows the orders triggered: 100,000 open orders, one reached", async () => {
    const open = Array.from({ length: 100_000 }, (_, i) => position(i + 1, { stopLoss: 5_000 + (i % 1000), liquidation: 1_000 }));
    const { store, requests } = fakeStore(open);
    const engine = new ContractEngine(store);
    await engine.load();
    expect(engine.triggers()).toBe(200_000);
    // only the stop-losses at 59.99 (100 of them) are reached
    await engine.onTick(tick(1000, 100, 59.99, 100, 100));
    expect(requests[0]!.exits.length).toBe(100);
  });
});
