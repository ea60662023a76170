import { describe, expect, it } from "vitest";
import { toScaled6 } from "~/domain/contract";
import {
  THREE_WEEKS_MS,
  checkMultiple,
  copyLots,
  copyStopReached,
  followerReturn,
  planCopy,
  profitShareOf,
  shareDecimalToPercent,
  sharePercentToDecimal,
  traderStats,
  windowStats,
  withinBond,
} from "~/domain/copy";
import { toDecimalString } from "~/domain/money";

const lots = (s: string) => toScaled6(s)!;
const usd = (n: number) => Math.round(n * 1_000_000);
const EURUSD = { marginMode: 2, contractSize: 100_000 * 1e6, pricePrecision: 5, feeRate: "0.0003", feeMode: 2 };

describe("copy lots = trader lots × multiple, rounded down to the lot step", () => {
  it("0.37 lots × 3 = 1.11 → 1.1 at step 0.1", () => {
    expect(copyLots(lots("0.37"), 3, "0.1", "0.1")).toBe(lots("1.1"));
  });
  it("0.05 lots × 7 = 0.35 stays 0.35 at step 0.01", () => {
    expect(copyLots(lots("0.05"), 7, "0.01", "0.01")).toBe(lots("0.35"));
  });
  it("0.01 × 2 = 0.02 is below a minimum of 0.05: skipped", () => {
    expect(copyLots(lots("0.01"), 2, "0.01", "0.05")).toBeNull();
  });
  it("0.03 × 3 = 0.09 rounds down to 0 at step 0.1: skipped", () => {
    expect(copyLots(lots("0.03"), 3, "0.1", "0")).toBeNull();
  });
  it("600 lots × 100 is capped at the 1,000-lot order limit", () => {
    expect(copyLots(lots("600"), 100, "0.01", "0.01")).toBe(lots("1000"));
  });
  it("a bad multiple copies nothing", () => {
    expect(copyLots(lots("1"), 0, "0.01", "0.01")).toBeNull();
    expect(copyLots(lots("1"), 1.5, "0.01", "0.01")).toBeNull();
  });
});

describe("the follow bond cap", () => {
  it("80 open + 20 = 100 fits a 100 bond exactly; 20.000001 does not", () => {
    expect(withinBond(usd(80), usd(20), usd(100))).toBe(true);
    expect(withinBond(usd(80), usd(20) + 1, usd(100))).toBe(false);
  });
  it("planCopy: 0.1 lots EUR/USD × 2 at 1.16245, leverage 100 → 0.2 lots, margin 232.49, fee 0.069747", () => {
    const r = planCopy(
      EURUSD,
      { lots: lots("0.1"), price: 116_245, leverage: 100 },
      { lotStep: "0.01", minLots: "0.01" },
      { multiple: 2, maxAmount: usd(500), openCopyMargin: 0, available: usd(1000) },
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.plan.lots).toBe(lots("0.2"));
    expect(toDecimalString(r.plan.margin, 6)).toBe("232.490000");
    expect(toDecimalString(r.plan.fee, 6)).toBe("0.069747");
  });
  it("planCopy skips above the bond, then on a short balance, then below the minimum", () => {
    const trader = { lots: lots("0.1"), price: 116_245, leverage: 100 };
    const inst = { lotStep: "0.01", minLots: "0.01" };
    expect(planCopy(EURUSD, trader, inst, { multiple: 2, maxAmount: usd(300), openCopyMargin: usd(100), available: usd(1000) })).toEqual({
      ok: false,
      skip: "copy.skip_cap",
    });
    expect(planCopy(EURUSD, trader, inst, { multiple: 2, maxAmount: usd(1000), openCopyMargin: 0, available: usd(232.5) })).toEqual({
      ok: false,
      skip: "copy.skip_balance",
    });
    expect(
      planCopy(
        EURUSD,
        { ...trader, lots: lots("0.01") },
        { lotStep: "0.01", minLots: "0.05" },
        { multiple: 1, maxAmount: usd(1000), openCopyMargin: 0, available: usd(1000) },
      ),
    ).toEqual({
      ok: false,
      skip: "copy.skip_min_lots",
    });
  });
  it("the copy stop-loss is reached at a combined loss of the limit, not before; 0 means none", () => {
    expect(copyStopReached(-usd(49.99), usd(50))).toBe(false);
    expect(copyStopReached(-usd(50), usd(50))).toBe(true);
    expect(copyStopReached(-usd(5000), 0)).toBe(false);
  });
});

describe("statistics over three-week windows", () => {
  const now = Date.UTC(2026, 10, 23, 12);
  const day = 86_400_000;
  it("closes of +30 and −10 on margins of 100 each: rate 10.00 %, win 50.00 %, profit 20", () => {
    const s = windowStats([
      { profit: usd(30), margin: usd(100), closedAt: now },
      { profit: -usd(10), margin: usd(100), closedAt: now },
    ]);
    expect(s).toEqual({ rate: 1000, win: 5000, profit: usd(20), count: 2 });
  });
  it("a close exactly 21 days ago falls out of the three-week window but counts in the total; a 0 result is not a win", () => {
    const trades = [
      { profit: usd(12.5), margin: usd(50), closedAt: now - THREE_WEEKS_MS },
      { profit: usd(1), margin: usd(3), closedAt: now - THREE_WEEKS_MS + 1 },
      { profit: 0, margin: usd(7), closedAt: now - 2 * day },
    ];
    const s = traderStats(trades, now);
    // three weeks: profit 1 on margin 10 = 10 %; 1 win of 2 closes
    expect(s.threeWeek).toEqual({ rate: 1000, win: 5000, profit: usd(1), count: 2 });
    // total: 13.5 / 60 = 22.5 %; 2 wins of 3 = 66.67 %
    expect(s.total).toEqual({ rate: 2250, win: 6667, profit: usd(13.5), count: 3 });
  });
  it("no trades: zeros, not a division by zero", () => {
    expect(traderStats([], now)).toEqual({
      threeWeek: { rate: 0, win: 0, profit: 0, count: 0 },
      total: { rate: 0, win: 0, profit: 0, count: 0 },
    });
  });
  it("rates round half away from zero: −1 on 3 = −33.33 %; 2 on 3 = 66.67 %", () => {
    expect(followerReturn(-usd(1), usd(3))).toBe(-3333);
    expect(followerReturn(usd(2), usd(3))).toBe(6667);
  });
});

describe("profit share", () => {
  it("12.345678 × 0.1 = 1.2345678 → 1.23 (down to the cent)", () => {
    expect(toDecimalString(profitShareOf(12_345_678, "0.1"), 6)).toBe("1.230000");
  });
  it("0.999999 × 0.5 = 0.49999 → 0.49; a loss or zero pays nothing; share 0 pays nothing", () => {
    expect(profitShareOf(999_999, "0.5")).toBe(490_000);
    expect(profitShareOf(-usd(100), "0.5")).toBe(0);
    expect(profitShareOf(0, "0.5")).toBe(0);
    expect(profitShareOf(usd(100), "0")).toBe(0);
  });
  it("operator percentages: 10 → 0.1, 12.5 → 0.125, 0.25 → 0.0025, 50 → 0.5; 50.01, -1, 1e1 and 'ten' are refused", () => {
    expect(sharePercentToDecimal("10")).toBe("0.1");
    expect(sharePercentToDecimal("12.5")).toBe("0.125");
    expect(sharePercentToDecimal("0.25")).toBe("0.0025");
    expect(sharePercentToDecimal("50")).toBe("0.5");
    expect(sharePercentToDecimal("0")).toBe("0");
    for (const bad of ["50.01", "-1", "1e1", "ten", "", "100"]) expect(sharePercentToDecimal(bad)).toBeNull();
    expect(shareDecimalToPercent("0.125")).toBe("12.5");
    expect(shareDecimalToPercent("0.5")).toBe("50");
    expect(shareDecimalToPercent("0")).toBe("0");
  });
});

describe("the multiple as typed", () => {
  it("1 and 100 pass; 0, 101, -1, 2.5, abc, 1e2 and empty are refused with their reason", () => {
    expect(checkMultiple("1")).toEqual({ check: "ok", multiple: 1 });
    expect(checkMultiple(" 100 ")).toEqual({ check: "ok", multiple: 100 });
    expect(checkMultiple("0").check).toBe("copy.multiple_range");
    expect(checkMultiple("101").check).toBe("copy.multiple_range");
    expect(checkMultiple("99999999999").check).toBe("copy.multiple_range"); // a whole number, just far too big
    expect(checkMultiple("007").check).toBe("ok");
    for (const bad of ["-1", "2.5", "abc", "1e2"]) expect(checkMultiple(bad).check).toBe("copy.multiple_invalid");
    expect(checkMultiple("").check).toBe("copy.multiple_required");
  });
});
