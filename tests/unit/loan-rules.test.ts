import { describe, expect, it } from "vitest";
import {
  amountInBounds,
  checkBirthday,
  configErrors,
  dailyPenalty,
  dueAmount,
  loanInterest,
  loanSummary,
  parseRate,
  penaltyDays,
  penaltyFor,
  ratePercent,
  repaymentDate,
  signatureNameMatches,
} from "~/domain/loan";
import { parseAmount } from "~/domain/money";

const usd = (s: string) => parseAmount(s, 6)!;
const at = (iso: string) => Date.parse(iso);

describe("loan interest", () => {
  it("1000 USD at rate 5 (0.05 %/day) for 7 days without a free period is 3.50 USD", () => {
    expect(loanInterest(usd("1000"), "5", 7, 0)).toBe(usd("3.50"));
  });
  it("5000 USD at rate 4 for 30 days with 3 free days charges 27 days: 54.00 USD", () => {
    expect(loanInterest(usd("5000"), "4", 30, 3)).toBe(usd("54"));
  });
  it("a free period as long as the loan period charges no interest", () => {
    expect(loanInterest(usd("800"), "5", 7, 7)).toBe(0);
  });
  it("333.33 USD at rate 5 for 7 days (1.166655) rounds half up to 1.17 USD", () => {
    expect(loanInterest(usd("333.33"), "5", 7, 0)).toBe(usd("1.17"));
  });
  it("100.10 USD at rate 5 for 1 day (0.05005) rounds half up to 0.05 and 0.125 to 0.13", () => {
    expect(loanInterest(usd("100.10"), "5", 1, 0)).toBe(usd("0.05"));
    expect(loanInterest(usd("250"), "5", 1, 0)).toBe(usd("0.13"));
  });
  it("a fractional rate 2.5 (0.025 %/day): 1000 USD for 10 days is 2.50 USD", () => {
    expect(loanInterest(usd("1000"), "2.5", 10, 0)).toBe(usd("2.5"));
  });
  it("shows the rate as rate/100 %", () => {
    expect(ratePercent("5")).toBe("0.05");
    expect(ratePercent("25")).toBe("0.25");
    expect(ratePercent("2.5")).toBe("0.025");
    expect(ratePercent("100")).toBe("1.00");
  });
});

describe("late penalties and the due amount", () => {
  it("the daily late fee of 1000 USD at penalty rate 25 (0.25 %/day) is 2.50 USD", () => {
    expect(dailyPenalty(usd("1000"), "25")).toBe(usd("2.5"));
  });
  it("the daily fee of 333.33 USD (0.833325) rounds half up to 0.83 and 3 days are 2.49", () => {
    expect(dailyPenalty(usd("333.33"), "25")).toBe(usd("0.83"));
    expect(penaltyFor(usd("333.33"), "25", 3)).toBe(usd("2.49"));
  });
  it("approved 2026-01-01 10:00 UTC for 7 days: repayment date 2026-01-08 10:00", () => {
    expect(new Date(repaymentDate(at("2026-01-01T10:00:00Z"), 7)).toISOString()).toBe("2026-01-08T10:00:00.000Z");
  });
  it("penalty days: 0 on the repayment day, 1 from the next UTC midnight, 3 three days later", () => {
    const due = at("2026-01-08T10:00:00Z");
    expect(penaltyDays(due, at("2026-01-07T12:00:00Z"))).toBe(0);
    expect(penaltyDays(due, at("2026-01-08T23:59:59Z"))).toBe(0);
    expect(penaltyDays(due, at("2026-01-09T00:00:00Z"))).toBe(1);
    expect(penaltyDays(due, at("2026-01-11T12:00:00Z"))).toBe(3);
  });
  it("due = principal + interest + penalty: 1000 + 3.50 + 3 late days × 2.50 = 1011.00 USD", () => {
    const interest = loanInterest(usd("1000"), "5", 7, 0);
    const penalty = penaltyFor(usd("1000"), "25", penaltyDays(at("2026-01-08T10:00:00Z"), at("2026-01-11T01:00:00Z")));
    expect(dueAmount(usd("1000"), interest, penalty)).toBe(usd("1011"));
  });
  it("the summary before applying: 2000 USD, 7 days at 5 → interest 7.00, total due 2007.00", () => {
    const s = loanSummary(
      { loanPeriod: 7, freePeriod: 0, minAmount: usd("100"), maxAmount: usd("2000"), interestRate: "5", penaltyRate: "25" },
      usd("2000"),
      at("2026-03-01T00:00:00Z"),
    );
    expect(s.interest).toBe(usd("7"));
    expect(s.totalDue).toBe(usd("2007"));
    expect(s.dailyPenalty).toBe(usd("5"));
    expect(new Date(s.repaymentDate).toISOString()).toBe("2026-03-08T00:00:00.000Z");
  });
});

describe("bounds, rates, birthdays, signatures", () => {
  const terms = { loanPeriod: 7, freePeriod: 0, minAmount: usd("100"), maxAmount: usd("2000"), interestRate: "5", penaltyRate: "25" };
  it("accepts the bounds themselves and refuses 99.99 and 2000.01", () => {
    expect(amountInBounds(usd("100"), terms)).toBe(true);
    expect(amountInBounds(usd("2000"), terms)).toBe(true);
    expect(amountInBounds(usd("99.99"), terms)).toBe(false);
    expect(amountInBounds(usd("2000.01"), terms)).toBe(false);
  });
  it("refuses bad rates and bad config bounds", () => {
    expect(parseRate("-1")).toBeNull();
    expect(parseRate("1e3")).toBeNull();
    expect(parseRate("0.00001")).toBeNull();
    expect(parseRate("1001")).toBeNull();
    expect(configErrors(terms)).toEqual({});
    expect(configErrors({ ...terms, maxAmount: usd("50") })).toHaveProperty("maxAmount");
    expect(configErrors({ ...terms, freePeriod: 8 })).toHaveProperty("freePeriod");
    expect(configErrors({ ...terms, interestRate: "abc" })).toHaveProperty("interestRate");
  });
  it("birthday between 1950/01/01 and today", () => {
    const now = at("2026-11-23T12:00:00Z");
    expect(checkBirthday("1950/01/01", now)).toEqual({ ok: true, value: "1950/01/01" });
    expect(checkBirthday("1990-05-17", now)).toEqual({ ok: true, value: "1990/05/17" });
    expect(checkBirthday("2026/11/23", now)).toEqual({ ok: true, value: "2026/11/23" });
    expect(checkBirthday("1949/12/31", now)).toEqual({ ok: false, error: "loan.birthday_range" });
    expect(checkBirthday("2026/11/24", now)).toEqual({ ok: false, error: "loan.birthday_range" });
    expect(checkBirthday("1990/02/30", now)).toEqual({ ok: false, error: "loan.birthday_invalid" });
    expect(checkBirthday("17.05.1990", now)).toEqual({ ok: false, error: "loan.birthday_invalid" });
  });
  it("a typed signature must be the KYC full name (any order, case and spacing)", () => {
    expect(signatureNameMatches("Ada  Lovelace", "Ada", "Lovelace")).toBe(true);
    expect(signatureNameMatches("lovelace ada", "Ada", "Lovelace")).toBe(true);
    expect(signatureNameMatches("Ada", "Ada", "Lovelace")).toBe(false);
    expect(signatureNameMatches("", "Ada", "Lovelace")).toBe(false);
  });
});
