import { describe, expect, it } from "vitest";
import {
  decimalToMicros,
  exactDecimals,
  formatBalance,
  formatMoney,
  parseAmount,
  roundMicros,
  toBalanceString,
  toDecimalString,
  truncateMicros,
} from "~/domain/money";

describe("money in integer micro-USD", () => {
  it("parses typed amounts exactly and refuses anything else", () => {
    expect(parseAmount("0.1")).toBe(100_000);
    expect(parseAmount("0.2")).toBe(200_000);
    expect(parseAmount("12.34")).toBe(12_340_000);
    expect(parseAmount("1000000")).toBe(1_000_000_000_000);
    for (const bad of ["", "-1", "1e3", "1,000", "1.234", "abc", "0x10", " . ", "NaN", "1.", ".5"])
      expect(parseAmount(bad), bad).toBeNull();
    expect(parseAmount("1.234", 4)).toBe(1_234_000);
  });

  it("adds 0.1 and 0.2 to exactly 0.30", () => {
    expect(toDecimalString(parseAmount("0.1")! + parseAmount("0.2")!)).toBe("0.30");
  });

  it("rounds half away from zero at the spec's decimals", () => {
    expect(toDecimalString(1_005_000, 2)).toBe("1.01");
    expect(toDecimalString(1_004_999, 2)).toBe("1.00");
    expect(toDecimalString(-1_005_000, 2)).toBe("-1.01");
    expect(toDecimalString(123_456_789, 4)).toBe("123.4568");
    expect(toDecimalString(123_456_789, 6)).toBe("123.456789");
    expect(roundMicros(2_500_000, 0)).toBe(3_000_000);
  });

  it("a statement line shows its amount exactly: two fund incomes of 0.1750 read 0.1750 each (not 0.18), cents stay at 2 decimals", () => {
    expect(exactDecimals(175_000)).toBe(4);
    expect(toDecimalString(175_000, exactDecimals(175_000))).toBe("0.1750");
    expect(exactDecimals(1_500_000)).toBe(2);
    expect(exactDecimals(0)).toBe(2);
    expect(exactDecimals(-1)).toBe(6);
    expect(formatMoney(1_234_567_891, "en-US", exactDecimals(1_234_567_891))).toBe("1,234.567891");
  });

  it("formats with the locale's grouping without float drift", () => {
    expect(formatMoney(1_234_567_890_000, "en-US")).toBe("1,234,567.89");
    expect(formatMoney(1_234_567_890_000, "de-DE")).toBe("1.234.567,89");
    expect(formatMoney(-5_000, "en-US")).toBe("-0.01");
    expect(formatMoney(0, "en-US")).toBe("0.00");
  });

  it("a balance is never shown larger than it is: 0.175 reads 0.17 (cut toward zero at 2 decimals), cents stay as they are", () => {
    expect(truncateMicros(175_000, 2)).toBe(170_000);
    expect(truncateMicros(179_999, 2)).toBe(170_000);
    expect(truncateMicros(-175_000, 2)).toBe(-170_000);
    expect(truncateMicros(175_001, 6)).toBe(175_001);
    expect(truncateMicros(5_000, 2)).toBe(0);
    expect(Object.is(truncateMicros(-5_000, 2), 0)).toBe(true);
    expect(toBalanceString(175_000)).toBe("0.17");
    expect(toBalanceString(5_000)).toBe("0.00");
    expect(toBalanceString(1_212_345_000)).toBe("1212.34");
    expect(toBalanceString(30_250_000)).toBe("30.25");
    expect(toBalanceString(999_999)).toBe("0.99");
    expect(formatBalance(1_234_567_899_999, "en-US")).toBe("1,234,567.89");
    expect(formatBalance(175_000, "de-DE")).toBe("0,17");
    // what toDecimalString (half away from zero) would have shown
    expect(toDecimalString(175_000, 2)).toBe("0.18");
  });

  it("refuses non-integer amounts", () => {
    expect(() => toDecimalString(0.5)).toThrow(RangeError);
  });
});

describe("another system's decimal amounts (decimalToMicros)", () => {
  it("reads text and JSON numbers exactly, signed, to the micro", () => {
    expect(decimalToMicros("1234.56")).toBe(1_234_560_000);
    expect(decimalToMicros("-0.000001")).toBe(-1);
    expect(decimalToMicros(0.1)).toBe(100_000);
    expect(decimalToMicros(1234.57)).toBe(1_234_570_000);
    expect(decimalToMicros(" 7 ")).toBe(7_000_000);
    expect(decimalToMicros("-0")).toBe(0);
  });

  it("cuts digits past the sixth decimal and refuses what is not a plain decimal", () => {
    expect(decimalToMicros("0.12345678")).toBe(123_456);
    for (const bad of ["", "1e3", "1,000.00", "+5", "0x10", "abc", "1.", ".5", "1234567890123"])
      expect(decimalToMicros(bad), bad).toBeNull();
    expect(decimalToMicros(1e21)).toBeNull();
    expect(decimalToMicros(Number.NaN)).toBeNull();
  });
});
