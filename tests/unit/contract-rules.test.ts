import { describe, expect, it } from "vitest";
import {
  MAX_EFFECTIVE_LEVERAGE,
  Side,
  checkEffectiveLeverage,
  checkLots,
  checkStops,
  divRound,
  executionPrice,
  exitCrossing,
  fee,
  liquidationPrice,
  margin,
  notional,
  orderFigures,
  parsePrice,
  pendingCrossing,
  prepaymentRatio,
  profit,
  realisedProfit,
  riskRate,
  stepsToDecimal,
  toScaled6,
} from "~/domain/contract";
import { toDecimalString } from "~/domain/money";

const EURUSD = { marginMode: 2, contractSize: 100_000 * 1e6, pricePrecision: 5, feeRate: "0.0003", feeMode: 2 };
const BTC = { marginMode: 2, contractSize: 1e6, pricePrecision: 2, feeRate: "0.0005", feeMode: 2 };
const NGAS = { marginMode: 1, contractSize: 10_000 * 1e6, pricePrecision: 3, feeRate: "0.0005", feeMode: 1 };
const lots = (s: string) => toScaled6(s)!;
const usd = (micros: number, d = 6) => toDecimalString(micros, d);

describe("margin (spec §9, 6 decimals)", () => {
  it("MarginMode 2: 0.01 lots EUR/USD × 100000 × 1.16245 ÷ 100 = 11.624500", () => {
    expect(usd(margin(EURUSD, lots("0.01"), 116_245, 100))).toBe("11.624500");
  });
  it("MarginMode 2: 0.37 lots BTC × 1 × 98250.55 ÷ 20 = 1817.635175", () => {
    expect(usd(margin(BTC, lots("0.37"), 9_825_055, 20))).toBe("1817.635175");
  });
  it("MarginMode 2 rounds the 7th decimal half away from zero: 0.01 × 1 × 0.15 ÷ 7 = 0.000214 (0.00021428…)", () => {
    expect(usd(margin({ ...BTC }, lots("0.01"), 15, 7))).toBe("0.000214");
  });
  it("MarginMode 1: 0.05 lots NatGas × 10000 units = 500.000000 whatever the price", () => {
    expect(usd(margin(NGAS, lots("0.05"), 3_845, 0))).toBe("500.000000");
    expect(margin(NGAS, lots("0.05"), 9_999, 0)).toBe(margin(NGAS, lots("0.05"), 1, 0));
  });
  it("MarginMode 2 without a leverage is refused", () => {
    expect(() => margin(EURUSD, lots("0.01"), 116_245, 0)).toThrow();
  });
  it("1,000 lots of BTC at 98,250.55 (products past 2^53) stay exact: 98,250,550 ÷ 1 = 98250550.000000", () => {
    expect(usd(margin(BTC, lots("1000"), 9_825_055, 1))).toBe("98250550.000000");
  });
});

describe("fee (spec §9)", () => {
  it("trade_fee_type 2: margin 11.6245 × 0.0003 = 0.003487 (0.00348735)", () => {
    expect(usd(fee(EURUSD, lots("0.01"), 11_624_500))).toBe("0.003487");
  });
  it("trade_fee_type 1: 0.05 lots × 0.0005 = 0.000025", () => {
    expect(usd(fee(NGAS, lots("0.05"), 500_000_000))).toBe("0.000025");
  });
  it("trade_fee_type 1 with a per-lot fee of 7: 2.5 lots × 7 = 17.500000", () => {
    expect(usd(fee({ feeRate: "7", feeMode: 1 }, lots("2.5"), 0))).toBe("17.500000");
  });
});

describe("profit, net value, risk rate", () => {
  it("buy 0.01 EUR/USD 1.16245 → 1.16345: +1.000000", () => {
    expect(usd(profit(Side.Buy, 116_245, 116_345, lots("0.01"), EURUSD.contractSize, 5))).toBe("1.000000");
  });
  it("sell 0.01 EUR/USD 1.16245 → 1.16345: −1.000000", () => {
    expect(usd(profit(Side.Sell, 116_245, 116_345, lots("0.01"), EURUSD.contractSize, 5))).toBe("-1.000000");
  });
  it("sell 0.37 BTC 98250.55 → 97000.00: +462.703500", () => {
    expect(usd(profit(Side.Sell, 9_825_055, 9_700_000, lots("0.37"), BTC.contractSize, 2))).toBe("462.703500");
  });
  it("a loss beyond the margin is realised as −margin (negative balance protection)", () => {
    expect(realisedProfit(-20_000_000, 11_624_500)).toBe(-11_624_500);
    expect(realisedProfit(5, 11_624_500)).toBe(5);
  });
  it("risk rate: margin 100, profit −25 → 75.00 %; profit −100 → 0.00 %", () => {
    expect(riskRate(100_000_000, -25_000_000)).toBe(7_500);
    expect(riskRate(100_000_000, -100_000_000)).toBe(0);
  });
  it("prepayment ratio: margin 11.6245 of notional 1162.45 = 1.00 %", () => {
    expect(prepaymentRatio(11_624_500, notional(lots("0.01"), EURUSD.contractSize, 116_245, 5))).toBe(100);
  });
});

describe("liquidation price (fixed at opening)", () => {
  it("buy 0.01 EUR/USD at 1.16245, margin 11.6245: 1.16245 − 0.0116245 → 1.15083 (distance rounded down to a step)", () => {
    expect(stepsToDecimal(liquidationPrice(Side.Buy, 116_245, 11_624_500, lots("0.01"), EURUSD.contractSize, 5)!, 5)).toBe("1.15083");
  });
  it("sell 0.01 EUR/USD at 1.16245: 1.17407", () => {
    expect(stepsToDecimal(liquidationPrice(Side.Sell, 116_245, 11_624_500, lots("0.01"), EURUSD.contractSize, 5)!, 5)).toBe("1.17407");
  });
  it("at the liquidation price the loss has not passed the margin; one step further it has", () => {
    const liq = liquidationPrice(Side.Buy, 116_245, 11_624_500, lots("0.01"), EURUSD.contractSize, 5)!;
    expect(-profit(Side.Buy, 116_245, liq, lots("0.01"), EURUSD.contractSize, 5)).toBeLessThanOrEqual(11_624_500);
    expect(-profit(Side.Buy, 116_245, liq - 1, lots("0.01"), EURUSD.contractSize, 5)).toBeGreaterThan(11_624_500);
  });
  it("a buy at leverage 1 cannot be liquidated (its price would be 0)", () => {
    expect(liquidationPrice(Side.Buy, 9_825_055, 98_250_550_000, lots("1"), BTC.contractSize, 2)).toBeNull();
  });
  it("orderFigures gives the preview and the server the same numbers", () => {
    const f = orderFigures(EURUSD, Side.Buy, lots("0.01"), 116_245, 100);
    expect(f).toEqual({ margin: 11_624_500, fee: 3_487, notional: 1_162_450_000, prepaymentRatio: 100, liquidation: 115_083 });
  });
});

describe("input rules", () => {
  it("lots: multiple of Pip, at least ForexMinCont, at most 1000, no signs or exponents", () => {
    expect(checkLots("0.05", "0.01", "0.01").check).toBe("ok");
    expect(checkLots("", "0.01", "0.01").check).toBe("lots_required");
    for (const bad of ["-1", "0", "0.00", "1e3", "NaN", "abc", "0x1"])
      expect(checkLots(bad, "0.01", "0.01").check, bad).toBe("lots_invalid");
    expect(checkLots("0.015", "0.01", "0.01").check).toBe("lots_step");
    expect(checkLots("0.02", "0.01", "0.05").check).toBe("lots_min");
    expect(checkLots("1000.01", "0.01", "0.01").check).toBe("lots_max");
    expect(checkLots("0.0000001", "0.01", "0.01").check).toBe("lots_invalid");
  });
  it("prices: at most PricePrecision decimals", () => {
    expect(parsePrice("1.16245", 5)).toBe(116_245);
    expect(parsePrice("1.162451", 5)).toBeNull();
    expect(parsePrice("-1", 5)).toBeNull();
    expect(parsePrice("1e5", 5)).toBeNull();
  });
  it("stops: a buy's stop-loss below and take-profit above the reference; a sell's the opposite; 0 is none", () => {
    expect(checkStops(Side.Buy, 100, 90, 110)).toBe("ok");
    expect(checkStops(Side.Buy, 100, 100, 0)).toBe("stop_loss_side");
    expect(checkStops(Side.Buy, 100, 0, 95)).toBe("take_profit_side");
    expect(checkStops(Side.Sell, 100, 110, 90)).toBe("ok");
    expect(checkStops(Side.Sell, 100, 90, 0)).toBe("stop_loss_side");
    expect(checkStops(Side.Sell, 100, 0, 0)).toBe("ok");
  });
  it("half away from zero: 5/2 → 3, −5/2 → −3, 4/3 → 1", () => {
    expect(divRound(5n, 2n)).toBe(3n);
    expect(divRound(-5n, 2n)).toBe(-3n);
    expect(divRound(4n, 3n)).toBe(1n);
  });
});

describe("triggers", () => {
  it("crossing directions: a buy's stop-loss and liquidation fire on the way down, its take-profit on the way up", () => {
    expect(exitCrossing(Side.Buy, "stop_loss")).toBe("down");
    expect(exitCrossing(Side.Buy, "liquidation")).toBe("down");
    expect(exitCrossing(Side.Buy, "take_profit")).toBe("up");
    expect(exitCrossing(Side.Sell, "stop_loss")).toBe("up");
    expect(exitCrossing(Side.Sell, "take_profit")).toBe("down");
    expect(pendingCrossing(95, 100)).toBe("down");
    expect(pendingCrossing(105, 100)).toBe("up");
  });
  it("executes at the level the price passed through, at the first price after a gap", () => {
    expect(executionPrice(95, { open: 100, low: 90, high: 100 })).toBe(95);
    expect(executionPrice(95, { open: 91, low: 90, high: 92 })).toBe(91);
  });
});

describe("effective leverage of an instrument's setup", () => {
  it("states its maximum: the largest multiple offered, 200×", () => {
    expect(MAX_EFFECTIVE_LEVERAGE).toBe(200);
  });

  it("margin mode 1 (1 USD per unit): the effective leverage is the price, so an index at 24,150.6 is refused and gas at 3.845 is fine", () => {
    const fixed = { marginMode: 1, pricePrecision: 1, leverages: [] };
    expect(checkEffectiveLeverage(fixed, 241_506)).toBe("leverage_too_high");
    // exactly at the maximum passes, one step above it does not
    expect(checkEffectiveLeverage(fixed, 2_000)).toBe("ok");
    expect(checkEffectiveLeverage(fixed, 2_001)).toBe("leverage_too_high");
    expect(checkEffectiveLeverage({ marginMode: 1, pricePrecision: 3, leverages: [] }, 3_845)).toBe("ok");
    // the same figures the rules give: notional ÷ margin of 0.01 lot at 24,150.6 with 1 unit per lot
    const terms = { marginMode: 1, contractSize: 1_000_000, pricePrecision: 1, feeRate: "0", feeMode: 2 };
    const f = orderFigures(terms, Side.Buy, 10_000, 241_506, 0);
    expect(f.notional / f.margin).toBeGreaterThan(MAX_EFFECTIVE_LEVERAGE);
  });

  it("other margin modes: every offered multiple must be within the maximum", () => {
    expect(checkEffectiveLeverage({ marginMode: 2, pricePrecision: 1, leverages: [10, 20, 50] }, 241_506)).toBe("ok");
    expect(checkEffectiveLeverage({ marginMode: 2, pricePrecision: 5, leverages: [10, 200] }, 116_240)).toBe("ok");
    expect(checkEffectiveLeverage({ marginMode: 2, pricePrecision: 5, leverages: [10, 500] }, 116_240)).toBe("leverage_too_high");
  });
});
