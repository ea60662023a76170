import { describe, expect, it } from "vitest";
import {
  Direction,
  durationParts,
  lossIfWrong,
  outcomeOf,
  parseDurationSeconds,
  parseProfitRatio,
  parseStakeList,
  predictedProfit,
  profitFigure,
  settle,
} from "~/domain/option";

const USD = 1_000_000;

describe("timed option rules (spec §4)", () => {
  it("profit figure: 100 × 0.85 = 85.00; 33.33 × 0.85 = 28.33 (28.3305 rounded to 2 decimals)", () => {
    expect(profitFigure(100 * USD, "0.85")).toBe(85 * USD);
    expect(profitFigure(33_330_000, "0.85")).toBe(28_330_000);
    expect(profitFigure(10_010_000, "0.85")).toBe(8_510_000); // 8.5085 → 8.51
  });
  it("up wins when the end price is at or above the open price; a tie wins", () => {
    expect(outcomeOf(Direction.Up, 100, 101)).toBe("win");
    expect(outcomeOf(Direction.Up, 100, 100)).toBe("win");
    expect(outcomeOf(Direction.Up, 100, 99)).toBe("loss");
  });
  it("down wins when the end price is at or below the open price; a tie wins", () => {
    expect(outcomeOf(Direction.Down, 100, 99)).toBe("win");
    expect(outcomeOf(Direction.Down, 100, 100)).toBe("win");
    expect(outcomeOf(Direction.Down, 100, 101)).toBe("loss");
  });
  it("a win pays stake + profit: 100 at 0.85 → payout 185.00, profit +85.00", () => {
    expect(settle(Direction.Up, 100, 105, 100 * USD, "0.85", 0)).toEqual({ outcome: "win", profit: 85 * USD, payout: 185 * USD });
  });
  it("a loss at loss level 0 costs the whole stake: 100 → profit −100.00, payout 0", () => {
    expect(settle(Direction.Up, 100, 95, 100 * USD, "0.85", 0)).toEqual({ outcome: "loss", profit: -100 * USD, payout: 0 });
  });
  it("a loss at another loss level costs the profit figure: 100 at 0.85 → profit −85.00, payout 15.00", () => {
    expect(settle(Direction.Down, 100, 105, 100 * USD, "0.85", 1)).toEqual({ outcome: "loss", profit: -85 * USD, payout: 15 * USD });
  });
  it("the predicted profit is the settlement rule at the current price", () => {
    expect(predictedProfit(Direction.Down, 100, 100, 10 * USD, "0.80", 0)).toBe(8 * USD);
    expect(predictedProfit(Direction.Down, 100, 101, 10 * USD, "0.80", 0)).toBe(-10 * USD);
  });
  it("durations: 7 days or more in days, 1 to 3 days in hours, otherwise seconds", () => {
    expect(durationParts(60)).toEqual({ value: 60, unit: "seconds" });
    expect(durationParts(86_400)).toEqual({ value: 24, unit: "hours" });
    expect(durationParts(7 * 86_400)).toEqual({ value: 7, unit: "days" });
    expect(durationParts(4 * 86_400)).toEqual({ value: 345_600, unit: "seconds" });
  });
});

describe("duration text in every language's plural forms", () => {
  it("Russian, Czech and Arabic get their own forms (not only one/other)", async () => {
    const { durationText } = await import("~/components/option-form");
    expect(durationText("en-US", 30)).toBe("30 seconds");
    expect(durationText("en-US", 86_400)).toBe("24 hours");
    expect(durationText("ru", 30)).toBe("30 секунд");
    expect(durationText("ru", 2 * 86_400)).toBe("48 часов");
    expect(durationText("cs", 3 * 86_400)).toBe("72 hodin");
    expect(durationText("ar", 7 * 86_400)).toMatch(/أيام|يوم/);
  });
});

describe("the operator's option terms", () => {
  it("profit ratios: more than 0, at most 10, at most 4 decimals, stored in one form (0.8500 → 0.85, 1 → 1.00)", () => {
    expect(parseProfitRatio("0.8500")).toBe("0.85");
    expect(parseProfitRatio(" 0.8 ")).toBe("0.80");
    expect(parseProfitRatio("1")).toBe("1.00");
    expect(parseProfitRatio("0.0001")).toBe("0.0001");
    expect(parseProfitRatio("10")).toBe("10.00");
    for (const bad of ["0", "0.00", "-0.5", "10.01", "0.00001", ".5", "1e-1", "abc", "", "0x1"])
      expect(parseProfitRatio(bad), bad).toBeNull();
  });

  it("what a wrong option costs, shown before buying: 100 at 0.85 → 100.00 (loss level 0) or 85.00; never more than the stake (10 at 2.5 → 10.00)", () => {
    expect(lossIfWrong(100_000_000, "0.85", 0)).toBe(100_000_000);
    expect(lossIfWrong(100_000_000, "0.85", 1)).toBe(85_000_000);
    expect(lossIfWrong(10_000_000, "2.5", 1)).toBe(10_000_000);
  });

  it("durations: whole seconds from 10 to 30 days (2,592,000)", () => {
    expect(parseDurationSeconds("10")).toBe(10);
    expect(parseDurationSeconds("2592000")).toBe(2_592_000);
    for (const bad of ["9", "2592001", "30.5", "-30", "1e3", ""]) expect(parseDurationSeconds(bad), bad).toBeNull();
  });

  it("preset stakes '100, 10 50,10' → 10, 50, 100 USD; refuses none, bad, too large or more than 8", () => {
    const max = 1_000_000 * 1_000_000;
    expect(parseStakeList("100, 10 50,10", max)).toEqual({ ok: true, value: [10_000_000, 50_000_000, 100_000_000] });
    expect(parseStakeList("12.5", max)).toEqual({ ok: true, value: [12_500_000] });
    expect(parseStakeList(" , ", max)).toEqual({ ok: false, error: "empty" });
    expect(parseStakeList("10, 0", max)).toEqual({ ok: false, error: "invalid" });
    expect(parseStakeList("10, 1.005", max)).toEqual({ ok: false, error: "invalid" });
    expect(parseStakeList("10, 2000000", max)).toEqual({ ok: false, error: "too_large" });
    expect(parseStakeList("1 2 3 4 5 6 7 8 9", max)).toEqual({ ok: false, error: "too_many" });
  });
});
