// Withdrawal figures (spec §9) with worked examples, the request's checks, and the payout methods' formats.
import { describe, expect, it } from "vitest";
import { toDecimalString } from "~/domain/money";
import {
  DrawType,
  checkWithdrawal,
  drawTypeOfPage,
  explorerUrl,
  isValidAddress,
  isValidSwift,
  normaliseAddress,
  normaliseTxId,
  previewWithdrawal,
  receivedAmount,
  shortAddress,
  withdrawFee,
  withdrawFigures,
} from "~/domain/withdraw";

const usd = (n: string) => Math.round(Number(n) * 100) * 10_000; // exact for the 2-decimal literals below
const text = (micros: number) => toDecimalString(micros, 2);

// the seeded currencies (app/db/seed-data.ts WITHDRAW_CURRENCIES)
const TRC20 = { feeType: 1, drawRate: "1", usdPrice: "1", minAmount: usd("10") };
const ERC20 = { feeType: 2, drawRate: "0.01", usdPrice: "1", minAmount: usd("20") };
const EUR = { feeType: 2, drawRate: "0.005", usdPrice: "0.92", minAmount: usd("50") };
const HKD = { feeType: 2, drawRate: "0.005", usdPrice: "7.8", minAmount: usd("50") };

describe("fee", () => {
  it("fee_type 1 is draw_rate USD, whatever the amount", () => {
    expect(text(withdrawFee(usd("100"), TRC20))).toBe("1.00");
    expect(text(withdrawFee(usd("12.34"), TRC20))).toBe("1.00");
    expect(text(withdrawFee(usd("100"), { feeType: 1, drawRate: "15" }))).toBe("15.00");
  });
  it("otherwise draw_rate × amount", () => {
    expect(text(withdrawFee(usd("100"), ERC20))).toBe("1.00");
    expect(text(withdrawFee(usd("100"), EUR))).toBe("0.50");
    expect(text(withdrawFee(usd("250"), HKD))).toBe("1.25");
  });
  it("is rounded UP to the cent (0.5% of 12.34 = 0.0617 → 0.07; 1% of 20.01 = 0.2001 → 0.21)", () => {
    expect(withdrawFee(usd("12.34"), EUR)).toBe(70_000);
    expect(withdrawFee(usd("20.01"), ERC20)).toBe(210_000);
    // an exact cent stays as it is
    expect(withdrawFee(usd("20.00"), ERC20)).toBe(200_000);
    // a fixed fee finer than a cent rounds up too
    expect(withdrawFee(usd("100"), { feeType: 1, drawRate: "0.005" })).toBe(10_000);
  });
  it("is 0 at amount 0 for a rate, the fixed fee otherwise", () => {
    expect(withdrawFee(0, ERC20)).toBe(0);
    expect(withdrawFee(0, TRC20)).toBe(1_000_000);
  });
});

describe("received = (amount − fee) × usd_price, 2 decimals, never below 0", () => {
  it("worked examples", () => {
    // 100 USD to USDT TRC20: fee 1.00, received 99.00 USDT
    expect(text(withdrawFigures(usd("100"), TRC20).received)).toBe("99.00");
    // 100 USD to EUR: fee 0.50, (100 − 0.50) × 0.92 = 91.54 EUR
    expect(text(withdrawFigures(usd("100"), EUR).received)).toBe("91.54");
    // 100 USD to HKD: fee 0.50, 99.50 × 7.8 = 776.10 HKD
    expect(text(withdrawFigures(usd("100"), HKD).received)).toBe("776.10");
    // 12.34 USD to EUR: fee 0.07, 12.27 × 0.92 = 11.2884 → 11.29 (half away from zero)
    expect(text(withdrawFigures(usd("12.34"), EUR).received)).toBe("11.29");
    // 50.01 USD to HKD: fee 0.2501 → 0.26, 49.75 × 7.8 = 388.05
    expect(withdrawFigures(usd("50.01"), HKD)).toEqual({ amount: usd("50.01"), fee: 260_000, received: 388_050_000 });
  });
  it("rounds half away from zero once, from the exact product", () => {
    // 0.05 × 0.5 = 0.025 → 0.03
    expect(receivedAmount(usd("0.05"), 0, { usdPrice: "0.5" })).toBe(30_000);
    // 0.01 × 0.4 = 0.004 → 0.00 (never negative)
    expect(receivedAmount(usd("0.01"), 0, { usdPrice: "0.4" })).toBe(0);
  });
  it("is 0 when the fee takes everything", () => {
    expect(withdrawFigures(usd("1"), TRC20).received).toBe(0);
    expect(withdrawFigures(usd("0.50"), TRC20).received).toBe(0);
    expect(receivedAmount(usd("1"), usd("2"), { usdPrice: "1" })).toBe(0);
  });
  it("handles large amounts exactly (no float drift)", () => {
    // 12,345,678.91 USD to HKD: fee 61,728.40 (61,728.39455 up), 12,283,950.51 × 7.8 = 95,814,813.978 → 95,814,813.98
    const f = withdrawFigures(usd("12345678.91"), HKD);
    expect(text(f.fee)).toBe("61728.40");
    expect(text(f.received)).toBe("95814813.98");
  });
});

describe("preview of a typed amount", () => {
  it("empty, negative or malformed amounts show 0 received", () => {
    for (const input of ["", "  ", "-5", "abc", "1e3", "12.345", "1,000"]) {
      const p = previewWithdrawal(input, EUR);
      expect(p.amount, input).toBe(0);
      expect(p.received, input).toBe(0);
    }
  });
  it("a valid amount shows the same figures as the server computes", () => {
    expect(previewWithdrawal("100", HKD)).toEqual(withdrawFigures(usd("100"), HKD));
    expect(previewWithdrawal(" 12.5 ", EUR)).toEqual(withdrawFigures(usd("12.5"), EUR));
  });
});

describe("checks of a request", () => {
  const balance = usd("500");
  it("accepts a valid amount and returns its figures", () => {
    expect(checkWithdrawal("100", EUR, balance)).toEqual({ ok: true, figures: withdrawFigures(usd("100"), EUR) });
    expect(checkWithdrawal("500", EUR, balance).ok).toBe(true);
  });
  it("refuses each kind of bad amount with its reason", () => {
    expect(checkWithdrawal("", EUR, balance)).toMatchObject({ ok: false, error: "errors.amount_required" });
    expect(checkWithdrawal("0", EUR, balance)).toMatchObject({ ok: false, error: "errors.amount_invalid" });
    expect(checkWithdrawal("-10", EUR, balance)).toMatchObject({ ok: false, error: "errors.amount_invalid" });
    expect(checkWithdrawal("ten", EUR, balance)).toMatchObject({ ok: false, error: "errors.amount_invalid" });
    expect(checkWithdrawal("100.001", EUR, balance)).toMatchObject({ ok: false, error: "errors.amount_invalid" });
    expect(checkWithdrawal("49.99", EUR, balance)).toMatchObject({ ok: false, error: "withdraw.amount_min", value: usd("50") });
    expect(checkWithdrawal("500.01", EUR, balance)).toMatchObject({ ok: false, error: "withdraw.insufficient_balance" });
    expect(checkWithdrawal("200000000", EUR, balance)).toMatchObject({ ok: false, error: "errors.amount_max" });
  });
  it("refuses an amount the fee would swallow", () => {
    expect(checkWithdrawal("1", { ...TRC20, minAmount: 0 }, balance)).toMatchObject({ ok: false, error: "withdraw.fee_exceeds" });
    expect(checkWithdrawal("1.01", { ...TRC20, minAmount: 0 }, balance).ok).toBe(true);
  });
});

describe("payout methods", () => {
  it("validates addresses per network", () => {
    expect(isValidAddress("TRC20", "TQ7vY3kCmhG8pN2xW5rLd9sJf4uBzE6aKt")).toBe(true);
    expect(isValidAddress("TRC20", "TQ7vY3kCmhG8pN2xW5rLd9sJf4uBzE6aK")).toBe(false); // 33 characters
    expect(isValidAddress("TRC20", "AQ7vY3kCmhG8pN2xW5rLd9sJf4uBzE6aKt")).toBe(false); // not T…
    expect(isValidAddress("TRC20", "TQ7vY3kCmhG8pN2xW5rLd9sJf4uBzE6a0t")).toBe(false); // 0 is not base58
    expect(isValidAddress("ERC20", "0x8f3A1c9B2e47D6a05F1b8C3d9E2f4A6b7C8d9E0f")).toBe(true);
    expect(isValidAddress("ERC20", "0x8f3A1c9B2e47D6a05F1b8C3d9E2f4A6b7C8d9E0")).toBe(false);
    expect(isValidAddress("ERC20", "0x8f3A1c9B2e47D6a05F1b8C3d9E2f4A6b7C8d9E0g")).toBe(false);
    expect(isValidAddress("ERC20", "TQ7vY3kCmhG8pN2xW5rLd9sJf4uBzE6aKt")).toBe(false);
    expect(isValidAddress("BTC", "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh")).toBe(true);
    expect(isValidAddress("BTC", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2")).toBe(true);
    expect(isValidAddress("BTC", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy")).toBe(true);
    expect(isValidAddress("BTC", "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlb")).toBe(false); // b is not bech32
    expect(isValidAddress("BTC", "2J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy")).toBe(false);
    expect(isValidAddress("TRC20", "")).toBe(false);
    expect(isValidAddress("TRC20", "<script>alert(1)</script>")).toBe(false);
  });
  it("keeps a bech32 address typed in capitals in lower case", () => {
    expect(normaliseAddress(" BC1QXY2KGDYGJRSQTZQ2N0YRF2493P83KKFJHX0WLH ")).toBe("bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh");
    expect(normaliseAddress("0x8f3A1c9B2e47D6a05F1b8C3d9E2f4A6b7C8d9E0f")).toBe("0x8f3A1c9B2e47D6a05F1b8C3d9E2f4A6b7C8d9E0f");
  });
  it("validates SWIFT codes (8 or 11 letters and digits, bank and country letters)", () => {
    expect(isValidSwift("HCBKHKHH")).toBe(true);
    expect(isValidSwift("DEUTDEFF500")).toBe(true);
    expect(isValidSwift("HCBKHKH")).toBe(false);
    expect(isValidSwift("HCBKHKHH50")).toBe(false);
    expect(isValidSwift("1CBKHKHH")).toBe(false);
    expect(isValidSwift("HCBK-KHH")).toBe(false);
  });
  it("shows addresses as the first 6 and last 4 characters", () => {
    expect(shortAddress("TQ7vY3kCmhG8pN2xW5rLd9sJf4uBzE6aKt")).toBe("TQ7vY3…6aKt");
    expect(shortAddress("0x8f3A1c9B2e47D6a05F1b8C3d9E2f4A6b7C8d9E0f")).toBe("0x8f3A…9E0f");
    expect(shortAddress("012-3456")).toBe("012-3456");
  });
  it("maps the page's type to the methods' draw_type", () => {
    expect(drawTypeOfPage("0")).toBe(1);
    expect(drawTypeOfPage("1")).toBe(2);
    expect(drawTypeOfPage(null)).toBe(1);
    expect(drawTypeOfPage("9")).toBe(1);
  });
});

describe("a paid withdrawal's transaction id", () => {
  const hash = "3F5A9C0E7B1D2468ACE02468BDF13579ACE02468BDF13579ACE02468BDF13579";
  it("has its network's format, and one stored form (hashes in lower case)", () => {
    expect(normaliseTxId(DrawType.Coin, "TRC20", ` ${hash} `)).toBe(hash.toLowerCase());
    expect(normaliseTxId(DrawType.Coin, "btc", hash)).toBe(hash.toLowerCase());
    expect(normaliseTxId(DrawType.Coin, "ERC20", `0x${hash}`)).toBe(`0x${hash.toLowerCase()}`);
    expect(normaliseTxId(DrawType.Coin, "BEP20", `0X${hash}`)).toBe(`0x${hash.toLowerCase()}`);
  });

  it("refuses another network's form, a short or long hash, and anything but its characters", () => {
    expect(normaliseTxId(DrawType.Coin, "TRC20", `0x${hash}`)).toBeNull();
    expect(normaliseTxId(DrawType.Coin, "ERC20", hash)).toBeNull();
    expect(normaliseTxId(DrawType.Coin, "TRC20", hash.slice(1))).toBeNull();
    expect(normaliseTxId(DrawType.Coin, "TRC20", `${hash}0`)).toBeNull();
    expect(normaliseTxId(DrawType.Coin, "TRC20", `${hash.slice(4)}<b>`)).toBeNull();
    expect(normaliseTxId(DrawType.Coin, "TRC20", "")).toBeNull();
    // a network without a rule: letters and digits, 16 to 128
    expect(normaliseTxId(DrawType.Coin, "SOL", "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnb")).toBe(
      "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnb",
    );
    expect(normaliseTxId(DrawType.Coin, "SOL", "short")).toBeNull();
  });

  it("a bank transfer's reference: SWIFT's characters, 4 to 35", () => {
    expect(normaliseTxId(DrawType.Bank, "", " REF-2026/12  0042 ")).toBe("REF-2026/12 0042");
    expect(normaliseTxId(DrawType.Bank, "", "abc")).toBeNull();
    expect(normaliseTxId(DrawType.Bank, "", "x".repeat(36))).toBeNull();
    expect(normaliseTxId(DrawType.Bank, "", "REF<script>")).toBeNull();
  });

  it("links to the network's explorer where we know one", () => {
    expect(explorerUrl("TRC20", "ab")).toBe("https://tronscan.org/#/transaction/ab");
    expect(explorerUrl("erc20", "0xab")).toBe("https://etherscan.io/tx/0xab");
    expect(explorerUrl("BEP20", "0xab")).toBe("https://bscscan.com/tx/0xab");
    expect(explorerUrl("BTC", "ab")).toBe("https://mempool.space/tx/ab");
    expect(explorerUrl("SOL", "ab")).toBeNull();
    expect(explorerUrl("", "ab")).toBeNull();
  });
});
