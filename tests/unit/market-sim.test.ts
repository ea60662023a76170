import { describe, expect, it } from "vitest";
import { PERIODS, PERIOD_MS, bucketStart } from "~/domain/market";
import { COARSE_STEPS_MAX, FINE_CATCH_UP_MS, MIN_HISTORY, SimMarket, type SimInstrument } from "../../party/market/sim";
import { isMarketOpen, nyOffset } from "~/domain/trading-hours";

const INSTRUMENTS: SimInstrument[] = [
  { id: 1, code: "BTCUSDT", showCode: "BTC/USDT", precision: 2, basePrice: 67000, annualVolatility: 0.6, kind: "crypto" },
  { id: 3, code: "EURUSD", showCode: "EUR/USD", precision: 5, basePrice: 1.08, annualVolatility: 0.08, kind: "fx" },
  { id: 4, code: "XAUUSD", showCode: "XAU/USD", precision: 2, basePrice: 2650, annualVolatility: 0.15, kind: "metal" },
  { id: 18, code: "US30", showCode: "US30", precision: 1, basePrice: 43000, annualVolatility: 0.18, kind: "index" },
];
// Wednesday 2026-11-18 15:00:00 UTC (10:00 in New York)
const START = Date.UTC(2026, 10, 18, 15, 0, 0);

function market(seed = 7, start = START) {
  const m = new SimMarket(INSTRUMENTS, { seed, startMs: start });
  m.generateHistory();
  return m;
}

describe("trading hours (New York time)", () => {
  it("knows New York's offset across daylight saving time", () => {
    expect(nyOffset(Date.UTC(2026, 6, 1))).toBe(-4 * 3_600_000);
    expect(nyOffset(Date.UTC(2026, 11, 1))).toBe(-5 * 3_600_000);
    expect(nyOffset(Date.UTC(2026, 2, 8, 6, 59))).toBe(-5 * 3_600_000);
    expect(nyOffset(Date.UTC(2026, 2, 8, 7, 0))).toBe(-4 * 3_600_000);
  });

  it("closes FX and metals from Friday 17:00 to Sunday 17:00 New York; crypto never closes", () => {
    const fri1659 = Date.UTC(2026, 10, 20, 21, 59); // 16:59 EST
    const fri1700 = Date.UTC(2026, 10, 20, 22, 0);
    const sun1659 = Date.UTC(2026, 10, 22, 21, 59);
    const sun1700 = Date.UTC(2026, 10, 22, 22, 0);
    expect(isMarketOpen("fx", fri1659)).toBe(true);
    expect(isMarketOpen("fx", fri1700)).toBe(false);
    expect(isMarketOpen("metal", Date.UTC(2026, 10, 21, 12))).toBe(false);
    expect(isMarketOpen("fx", sun1659)).toBe(false);
    expect(isMarketOpen("fx", sun1700)).toBe(true);
    expect(isMarketOpen("crypto", Date.UTC(2026, 10, 21, 12))).toBe(true);
    expect(isMarketOpen("index", Date.UTC(2026, 10, 18, 22, 30))).toBe(false); // daily break 17:00-18:00
  });
});

describe("simulated market", () => {
  it("is deterministic for a seed and start time, and differs for another seed", () => {
    const a = market(7);
    const b = market(7);
    const c = market(8);
    a.advanceTo(START + 30_000);
    b.advanceTo(START + 30_000);
    c.advanceTo(START + 30_000);
    expect(a.prices()).toEqual(b.prices());
    expect(a.candles("EURUSD", "1min")).toEqual(b.candles("EURUSD", "1min"));
    expect(a.prices()).not.toEqual(c.prices());
  });

  it("rounds every price to the instrument's precision and moves while open", () => {
    const m = market();
    const seen = new Set<number>();
    for (let s = 1; s <= 20; s++) {
      m.advanceTo(START + s * 1000);
      const p = m.price("EURUSD")!;
      expect(Number(p.toFixed(5))).toBe(p);
      seen.add(p);
    }
    expect(seen.size).toBeGreaterThan(3);
    expect(Number(m.price("US30")!.toFixed(1))).toBe(m.price("US30"));
  });

  it("has at least 300 candles of history for every period from the first start, in order and consistent", () => {
    const m = market();
    for (const code of ["BTCUSDT", "EURUSD", "US30"]) {
      for (const p of PERIODS) {
        const list = m.candles(code, p);
        expect(list.length, `${code} ${p}`).toBeGreaterThanOrEqual(MIN_HISTORY);
        for (let i = 1; i < list.length; i++) expect(list[i]!.timestamp).toBeGreaterThan(list[i - 1]!.timestamp);
        for (const c of list) {
          expect(c.high).toBeGreaterThanOrEqual(Math.max(c.open, c.close));
          expect(c.low).toBeLessThanOrEqual(Math.min(c.open, c.close));
          expect(c.timestamp).toBe(bucketStart(p, c.timestamp));
        }
      }
    }
  });

  it("builds larger candles out of smaller ones (5min = its five 1min candles)", () => {
    const m = market();
    const ones = m.candles("BTCUSDT", "1min");
    const fives = m.candles("BTCUSDT", "5min");
    const five = fives[fives.length - 10]!;
    const parts = ones.filter((c) => c.timestamp >= five.timestamp && c.timestamp < five.timestamp + PERIOD_MS["5min"]);
    expect(parts).toHaveLength(5);
    expect(five.open).toBe(parts[0]!.open);
    expect(five.close).toBe(parts[4]!.close);
    expect(five.high).toBe(Math.max(...parts.map((c) => c.high)));
    expect(five.low).toBe(Math.min(...parts.map((c) => c.low)));
  });

  it("history ends where the live price starts, and live ticks update the current candle of every period", () => {
    const m = market();
    const before = m.candles("BTCUSDT", "1min").at(-1)!;
    expect(before.close).toBe(67000);
    m.advanceTo(START + 5_000);
    const live = m.lastCandle("BTCUSDT", "1min")!;
    expect(live.timestamp).toBe(START);
    expect(live.close).toBe(m.price("BTCUSDT"));
    for (const p of PERIODS) expect(m.lastCandle("BTCUSDT", p)!.close).toBe(m.price("BTCUSDT"));
  });

  it("does not move a closed market, marks it closed, and holds a scripted price", () => {
    const saturday = Date.UTC(2026, 10, 21, 15, 0, 0);
    const m = market(7, saturday);
    const before = m.price("EURUSD");
    m.advanceTo(saturday + 10_000);
    expect(m.price("EURUSD")).toBe(before);
    expect(m.quotes().find((q) => q.Code === "EURUSD")!.MarketStatus).toBe(0);
    expect(m.quotes().find((q) => q.Code === "BTCUSDT")!.MarketStatus).toBe(1);
    expect(m.setHeldPrice("BTCUSDT", 70000.123)).toBe(true);
    m.advanceTo(saturday + 15_000);
    expect(m.price("BTCUSDT")).toBe(70000.12);
    expect(m.lastCandle("BTCUSDT", "1min")!.close).toBe(70000.12);
    m.setHeldPrice("BTCUSDT", null);
    m.advanceTo(saturday + 25_000);
    expect(m.price("BTCUSDT")).not.toBe(70000.12);
  });

  it("reports 24h change from the 24h open", () => {
    const m = market();
    m.advanceTo(START + 2_000);
    const q = m.quotes().find((x) => x.Code === "BTCUSDT")!;
    expect(q.Change).toBeCloseTo(((q.Close - q.Open) / q.Open) * 100, 2);
    expect(q.High).toBeGreaterThanOrEqual(q.Close);
    expect(q.Low).toBeLessThanOrEqual(q.Close);
    expect(q.Volume).toBeGreaterThan(0);
  });

  it("catches up a long sleep in bounded steps: the last hour second by second, years before it in at most a few thousand steps", () => {
    const m = market();
    let produced = 0;
    m.onPrice = (code) => {
      if (code === "BTCUSDT") produced += 1;
    };
    const wake = START + 3 * 365 * 86_400_000 + 12_345;
    m.advanceTo(wake);
    expect(m.clock).toBe(Math.floor(wake / 1000) * 1000);
    expect(produced).toBeLessThanOrEqual(COARSE_STEPS_MAX + FINE_CATCH_UP_MS / 1000);
    expect(produced).toBeGreaterThan(FINE_CATCH_UP_MS / 1000);
    // the walk stays near its base (mean reversion over the gap), rounded, and the 1min candles of the last hour are contiguous
    const price = m.price("BTCUSDT")!;
    expect(price).toBeGreaterThan(67000 / 20);
    expect(price).toBeLessThan(67000 * 20);
    expect(Number(price.toFixed(2))).toBe(price);
    const minutes = m.candles("BTCUSDT", "1min").slice(-50);
    for (let i = 1; i < minutes.length; i++) expect(minutes[i]!.timestamp - minutes[i - 1]!.timestamp).toBe(60_000);
    // ticking on from there is second by second again
    produced = 0;
    m.advanceTo(wake + 5_000);
    expect(produced).toBe(5);
  });

  it("a clock restored as missing (0 or NaN) restarts from the start time instead of from 1970", () => {
    const m = new SimMarket(INSTRUMENTS, { seed: 7, startMs: START, clock: 0 });
    m.advanceTo(START + 3_000);
    expect(m.clock).toBe(START + 3_000);
  });
});
