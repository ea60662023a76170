// Today's profit (docs/glossary.md): the realised result of the user's day from the ledger, and
// the day it is counted in (the UTC day of the daily jobs).
import { describe, expect, it } from "vitest";
import { DAY_MS, utcDay, utcDayRange } from "~/domain/day";
import { utcDay as fundDay } from "~/domain/fund";
import { CHARGE_KINDS, LEDGER_KINDS, RESULT_KINDS, realisedResult, type DayEntries } from "~/domain/ledger";
import { utcDay as loanDay } from "~/domain/loan";

const USD = 1_000_000;

describe("today's profit is the day's realised result", () => {
  it("counts what was won or lost, never money that only comes back or moves", () => {
    // per kind, the user's own entries summed over both buckets, as the ledger records them
    const rows: DayEntries[] = [
      { kind: "deposit", own: 1_000 * USD, charges: 0 },
      { kind: "transfer", own: 0, charges: 0 },
      // two options staked (100 and 50): the stakes only move to the locked balance
      { kind: "option_stake", own: 0, charges: 0 },
      // the won one returns stake 100 + profit 80; the lost one returns nothing of its 50
      { kind: "option_settle", own: 80 * USD - 50 * USD, charges: 0 },
      // three positions opened: margins locked, fees 0.025 + 0.025 + 0.02475 paid
      { kind: "trade_margin", own: -74_750, charges: 0 },
      // two closed: margins back, +10 and −5
      { kind: "trade_settle", own: 5 * USD, charges: 0 },
      { kind: "fund_subscribe", own: -200 * USD, charges: 0 },
      { kind: "fund_redeem", own: 200 * USD, charges: 0 },
      { kind: "fund_income", own: 175_000, charges: 0 },
      { kind: "loan", own: 500 * USD, charges: 0 },
      // a repayment paid from outside: 12.50 interest and 1.25 penalty reached the charge accounts
      { kind: "loan_repay", own: 0, charges: 13_750_000 },
      { kind: "withdraw", own: -100 * USD, charges: 0 },
    ];
    expect(realisedResult(rows)).toBe(30 * USD + 5 * USD - 74_750 + 175_000 - 13_750_000);
    expect(realisedResult([])).toBe(0);
  });

  it("names only known ledger kinds, and no kind both ways", () => {
    for (const k of [...RESULT_KINDS, ...CHARGE_KINDS]) expect(LEDGER_KINDS).toContain(k);
    for (const k of [
      "deposit",
      "withdraw",
      "withdraw_refund",
      "transfer",
      "loan",
      "fund_subscribe",
      "fund_redeem",
      "demo_grant",
      "demo_reset",
      "demo_expire",
      "adjustment",
    ]) {
      expect([...RESULT_KINDS, ...CHARGE_KINDS] as string[], k).not.toContain(k);
    }
  });

  it("the day is the UTC day the daily jobs use: one function for all of them", () => {
    const t = Date.parse("2026-03-05T23:59:59.999Z");
    expect(utcDayRange(t)).toEqual({ start: Date.parse("2026-03-05T00:00:00Z"), end: Date.parse("2026-03-06T00:00:00Z") });
    expect(utcDayRange(t + 1).start).toBe(Date.parse("2026-03-06T00:00:00Z"));
    expect(utcDayRange(t).end - utcDayRange(t).start).toBe(DAY_MS);
    expect(utcDay(t)).toBe("2026-03-05");
    expect(fundDay).toBe(utcDay);
    expect(loanDay).toBe(utcDay);
  });
});
