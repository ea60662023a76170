import { describe, expect, it } from "vitest";
import { coinToUsd, depositAmount, MAX_DEPOSIT, parseCoinCount, shortAddress, senderAddressOk } from "~/domain/deposit";
import { toDecimalString } from "~/domain/money";

const usd = (micros: number | null) => (micros === null ? null : toDecimalString(micros, 2));

describe("deposit amounts", () => {
  it("converts a coin count to USD exactly, rounded down to the cent", () => {
    expect(usd(coinToUsd("0.1", "62000"))).toBe("6200.00");
    expect(usd(coinToUsd("1.23456789", "3100"))).toBe("3827.16"); // 3827.160459
    expect(usd(coinToUsd("0.00001999", "62000"))).toBe("1.23"); // 1.23938 → down, not 1.24
    expect(usd(coinToUsd("3", "0.333333"))).toBe("0.99"); // 0.999999
    expect(usd(coinToUsd("10.5", "1"))).toBe("10.50");
    expect(coinToUsd("0.00000001", "62000")).toBe(0); // 0.00062 USD
    expect(coinToUsd("1e3", "1")).toBeNull();
    expect(coinToUsd("1", "-1")).toBeNull();
  });

  it("reads coin counts with up to 8 decimals in canonical form", () => {
    expect(parseCoinCount("0.50000000")).toBe("0.5");
    expect(parseCoinCount("007.25")).toBe("7.25");
    expect(parseCoinCount("1.000000001")).toBeNull();
    for (const bad of ["", "-1", "1e3", "1,5", ".5", "abc"]) expect(parseCoinCount(bad), bad).toBeNull();
  });

  it("accepts a USD amount > 0 with at most 2 decimals, up to the maximum", () => {
    expect(depositAmount("100", "usd", "1")).toEqual({ ok: true, amount: 100_000_000, coinCount: null });
    expect(depositAmount("0.01", "usd", "1")).toEqual({ ok: true, amount: 10_000, coinCount: null });
    expect(depositAmount("1000000", "usd", "1")).toEqual({ ok: true, amount: MAX_DEPOSIT, coinCount: null });
    const cases: [string, string][] = [
      ["", "deposit.amount_required"],
      ["  ", "deposit.amount_required"],
      ["0", "deposit.amount_positive"],
      ["0.00", "deposit.amount_positive"],
      ["-5", "deposit.amount_invalid"],
      ["abc", "deposit.amount_invalid"],
      ["1.234", "deposit.amount_invalid"],
      ["1e5", "deposit.amount_invalid"],
      ["1000000.01", "deposit.amount_too_large"],
    ];
    for (const [typed, error] of cases) expect(depositAmount(typed, "usd", "1"), typed).toEqual({ ok: false, error });
  });

  it("takes a coin count at the currency's price, refusing one worth less than a cent or over the maximum", () => {
    expect(depositAmount("0.015", "coin", "62000")).toEqual({ ok: true, amount: 930_000_000, coinCount: "0.015" });
    expect(depositAmount("0.12345678", "coin", "3100")).toEqual({ ok: true, amount: 382_710_000, coinCount: "0.12345678" }); // 382.7176018
    expect(depositAmount("0", "coin", "62000")).toEqual({ ok: false, error: "deposit.amount_positive" });
    expect(depositAmount("0.000000001", "coin", "62000")).toEqual({ ok: false, error: "deposit.coin_invalid" });
    expect(depositAmount("0.00000001", "coin", "62000")).toEqual({ ok: false, error: "deposit.coin_too_small" });
    expect(depositAmount("17", "coin", "62000")).toEqual({ ok: false, error: "deposit.amount_too_large" });
  });
});

describe("addresses", () => {
  it("are shown as the first 6 and last 4 characters where space is short (spec §9)", () => {
    expect(shortAddress("TQ7vY3kCmhG8pN2xW5rLd9sJf4uBzE6aKt")).toBe("TQ7vY3…6aKt");
    expect(shortAddress("short")).toBe("short");
  });

  it("a sending address is letters, digits and a few separators, bounded", () => {
    expect(senderAddressOk("")).toBe(true);
    expect(senderAddressOk("bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh")).toBe(true);
    expect(senderAddressOk("<script>")).toBe(false);
    expect(senderAddressOk("a".repeat(129))).toBe(false);
  });
});
