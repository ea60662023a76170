import { describe, expect, it } from "vitest";
import {
  addDays,
  checkSubscribeAmount,
  dayProfit,
  dueIncomeDays,
  isDueToFinish,
  percentMillionths,
  redemptionPenalty,
  subscriptionDays,
  totalProfit,
  utcDay,
} from "~/domain/fund";
import { toDecimalString } from "~/domain/money";

const usd = (s: string) => Math.round(Number(s) * 1_000_000);

describe("fund rules (spec §9 Mining)", () => {
  it("day profit: 0.8 % of 100 USD is 0.8000", () => {
    expect(toDecimalString(dayProfit(usd("100"), "0.8"), 4)).toBe("0.8000");
  });
  it("day profit rounds half up to 4 decimals: 0.35 % of 50.01 = 0.175035 → 0.1750", () => {
    expect(dayProfit(usd("50.01"), "0.35")).toBe(175_000);
  });
  it("day profit rounds half up at exactly half: 0.35 % of 50.03 = 0.175105 → 0.1751; 1.25 % of 0.04 = 0.0005 → 0.0005; 0.125 % of 0.04 = 0.00005 → 0.0001", () => {
    expect(dayProfit(usd("50.03"), "0.35")).toBe(175_100);
    expect(dayProfit(usd("0.04"), "1.25")).toBe(500);
    expect(dayProfit(usd("0.04"), "0.125")).toBe(100);
    expect(dayProfit(usd("0.03"), "0.125")).toBe(0); // 0.0000375 → 0.0000
  });
  it("day profit is always a multiple of 100 micros (4 decimals)", () => {
    for (const a of ["123.45", "999.99", "20000", "77.77"])
      for (const p of ["0.8", "0.35", "1.2", "0.333333"]) expect(dayProfit(usd(a), p) % 100).toBe(0);
  });
  it("total profit: 30 days × 0.8000 = 24.0000; 7 days × 0.1751 = 1.2257 (no second rounding)", () => {
    expect(totalProfit(usd("100"), "0.8", 30)).toBe(24_000_000);
    expect(totalProfit(usd("50.03"), "0.35", 7)).toBe(1_225_700);
  });
  it("redemption penalty: 5 % of 100 = 5.00; 2 % of 50.03 = 1.0006 → 1.00; 2 % of 50.25 = 1.005 → 1.01 (half up to cents)", () => {
    expect(redemptionPenalty(usd("100"), "5")).toBe(5_000_000);
    expect(redemptionPenalty(usd("50.03"), "2")).toBe(1_000_000);
    expect(redemptionPenalty(usd("50.25"), "2")).toBe(1_010_000);
    expect(redemptionPenalty(usd("100"), "0")).toBe(0);
  });
  it("percentages parse exactly and refuse signs, exponents and junk", () => {
    expect(percentMillionths("0.8")).toBe(800_000n);
    for (const bad of ["-1", "1e2", "abc", "", "1.1234567", "1000"]) expect(percentMillionths(bad)).toBeNull();
  });
});

describe("fund days (UTC dates)", () => {
  it("subscribing on 2026-11-23 with 7 lock days: income 2026-11-24 .. 2026-11-30", () => {
    expect(subscriptionDays("2026-11-23", 7)).toEqual({ startDay: "2026-11-24", endDay: "2026-11-30" });
    expect(subscriptionDays("2026-12-30", 3)).toEqual({ startDay: "2026-12-31", endDay: "2027-01-02" });
  });
  it("the job on the subscribe day pays nothing; on the start day pays one day", () => {
    const sub = { startDay: "2026-11-24", endDay: "2026-11-30", paidDays: 0 };
    expect(dueIncomeDays(sub, "2026-11-23")).toEqual([]);
    expect(dueIncomeDays(sub, "2026-11-24")).toEqual(["2026-11-24"]);
  });
  it("a missed run is caught up: paid through 11-24, run on 11-27 pays 11-25, 11-26, 11-27", () => {
    expect(dueIncomeDays({ startDay: "2026-11-24", endDay: "2026-11-30", paidDays: 1 }, "2026-11-27")).toEqual([
      "2026-11-25",
      "2026-11-26",
      "2026-11-27",
    ]);
  });
  it("never pays past the end day; finishes once every day is paid and the end day is reached", () => {
    expect(dueIncomeDays({ startDay: "2026-11-24", endDay: "2026-11-26", paidDays: 2 }, "2026-12-10")).toEqual(["2026-11-26"]);
    expect(isDueToFinish({ endDay: "2026-11-26", paidDays: 3, lockDays: 3 }, "2026-11-26")).toBe(true);
    expect(isDueToFinish({ endDay: "2026-11-26", paidDays: 2, lockDays: 3 }, "2026-11-26")).toBe(false);
    expect(isDueToFinish({ endDay: "2026-11-26", paidDays: 3, lockDays: 3 }, "2026-11-25")).toBe(false);
  });
  it("a day profit that rounds to 0 pays no days and finishes on the end day", () => {
    const sub = { startDay: "2026-11-24", endDay: "2026-11-26", paidDays: 0, lockDays: 3, dayProfit: 0 };
    expect(dueIncomeDays(sub, "2026-11-25")).toEqual([]);
    expect(isDueToFinish(sub, "2026-11-25")).toBe(false);
    expect(isDueToFinish(sub, "2026-11-26")).toBe(true);
  });
  it("utcDay and addDays use UTC", () => {
    expect(utcDay(Date.parse("2026-11-23T23:59:59Z"))).toBe("2026-11-23");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
  });
});

describe("subscribe amount (spec §5)", () => {
  const fund = { startingSubAmount: usd("100"), maxSubAmount: usd("20000") };
  it("empty amount asks for 'input lock num'", () => {
    expect(checkSubscribeAmount("", fund, null)).toEqual({ ok: false, error: "fund.input_lock_num" });
    expect(checkSubscribeAmount("  ", fund, null)).toEqual({ ok: false, error: "fund.input_lock_num" });
  });
  it("non-numeric, negative, 3 decimals refused", () => {
    for (const bad of ["abc", "-100", "100.001", "1e3", "0"])
      expect(checkSubscribeAmount(bad, fund, null)).toEqual({ ok: false, error: "fund.amount_invalid" });
  });
  it("below the machine rent, above the maximum, above the balance refused", () => {
    expect(checkSubscribeAmount("99.99", fund, null)).toEqual({ ok: false, error: "fund.amount_below_min" });
    expect(checkSubscribeAmount("20000.01", fund, null)).toEqual({ ok: false, error: "fund.amount_above_max" });
    expect(checkSubscribeAmount("150", fund, usd("149.99"))).toEqual({ ok: false, error: "fund.insufficient" });
    expect(checkSubscribeAmount("150", fund, usd("150"))).toEqual({ ok: true, amount: usd("150") });
  });
});
