import { describe, expect, it } from "vitest";
import { checkPendingPrice, pendingPriceBand, toScaled6 } from "~/domain/contract";
import { candleEnd, bucketStart } from "~/domain/market";
import { toDecimalString } from "~/domain/money";
import { canDecreaseLots, needsLeverage, orderPreview, stepLots, type OrderFormTerms } from "~/domain/order-form";
import { OrderListSchema, orderActionErrorsOf } from "~/forms/orders";
import { parseFields, parseQuery, submissionOf } from "~/forms/parse";
import { ApiOrderSchema, OrderSchema, orderCommandOf, orderErrorsOf, orderFieldsOfApi } from "~/forms/trade";
import { countdownParts } from "~/lib/format";

const BTC: OrderFormTerms = {
  terms: { marginMode: 2, contractSize: toScaled6("1")!, pricePrecision: 2, feeRate: "0.0005", feeMode: 2 },
  lotStep: "0.01",
  minLots: "0.01",
  leverages: [5, 10, 20, 50],
};
const NGAS: OrderFormTerms = {
  terms: { marginMode: 1, contractSize: toScaled6("10000")!, pricePrecision: 3, feeRate: "0.0005", feeMode: 2 },
  lotStep: "0.01",
  minLots: "0.01",
  leverages: [],
};
const usd = (micros: number) => toDecimalString(micros, 6);

describe("orderPreview", () => {
  it("buy or sell 0.01 BTC at 50,000 with 10x: margin 50, fee 0.025 (margin × 0.0005), both liquidation prices", () => {
    const p = orderPreview(BTC, { lots: "0.01", leverage: 10, pending: false, targetPrice: "" }, 5_000_000);
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(usd(p.margin)).toBe("50.000000");
    expect(usd(p.fee)).toBe("0.025000");
    expect(usd(p.notional)).toBe("500.000000");
    expect(p.prepaymentRatio).toBe(1000);
    expect(p.liquidation).toEqual({ buy: 4_500_000, sell: 5_500_000 });
  });

  it("a pending order is figured at its typed buy price, not the market", () => {
    const p = orderPreview(BTC, { lots: "0.01", leverage: 5, pending: true, targetPrice: "40000" }, 5_000_000);
    expect(p.ok && usd(p.margin)).toBe("80.000000");
    expect(p.ok && p.price).toBe(4_000_000);
    expect(orderPreview(BTC, { lots: "0.01", leverage: 5, pending: true, targetPrice: "" }, 5_000_000)).toEqual({
      ok: false,
      reason: "price",
    });
    expect(orderPreview(BTC, { lots: "0.01", leverage: 5, pending: true, targetPrice: "40000.001" }, 5_000_000)).toEqual({
      ok: false,
      reason: "price",
    });
  });

  it("a buy price beyond ten times the market either way is refused as typed (5,000.00 – 500,000.00 at 50,000); a huge one too, even before the market is known", () => {
    const at = (price: string, market: number | null = 5_000_000) =>
      orderPreview(BTC, { lots: "0.01", leverage: 10, pending: true, targetPrice: price }, market);
    expect(pendingPriceBand(5_000_000)).toEqual({ min: 500_000, max: 50_000_000 });
    expect(at("5000").ok).toBe(true);
    expect(at("500000").ok).toBe(true);
    expect(at("4999.99")).toEqual({ ok: false, reason: "price_far" });
    expect(at("500000.01")).toEqual({ ok: false, reason: "price_far" });
    expect(at("90000000000000")).toEqual({ ok: false, reason: "price_far" });
    // the figures of a huge price would pass a safe integer: refused, never thrown
    expect(at("90000000000000", null)).toEqual({ ok: false, reason: "price_far" });
    expect(checkPendingPrice(1, 5)).toBe("ok");
    expect(pendingPriceBand(5).min).toBe(1); // never below one price step
  });

  it("refuses what the service refuses: lots off the step or below the minimum, a multiple not offered, no price", () => {
    const at = (lots: string, leverage = 10) => orderPreview(BTC, { lots, leverage, pending: false, targetPrice: "" }, 5_000_000);
    expect(at("")).toEqual({ ok: false, reason: "lots_required" });
    expect(at("0")).toEqual({ ok: false, reason: "lots_invalid" });
    expect(at("0.015")).toEqual({ ok: false, reason: "lots_step" });
    expect(at("0.01", 7)).toEqual({ ok: false, reason: "leverage" });
    expect(orderPreview(BTC, { lots: "0.01", leverage: 10, pending: false, targetPrice: "" }, null)).toEqual({
      ok: false,
      reason: "price",
    });
  });

  it("a fixed-margin instrument needs no multiple: margin = lots × units per lot", () => {
    expect(needsLeverage(NGAS.terms)).toBe(false);
    expect(needsLeverage(BTC.terms)).toBe(true);
    const p = orderPreview(NGAS, { lots: "0.01", leverage: Number.NaN, pending: false, targetPrice: "" }, 3_845);
    expect(p.ok && usd(p.margin)).toBe("100.000000");
    expect(p.ok && usd(p.fee)).toBe("0.050000");
  });
});

describe("lot stepper", () => {
  it("moves one lot step on the step grid", () => {
    expect(stepLots("0.01", "0.01", 1)).toBe("0.02");
    expect(stepLots("0.02", "0.01", -1)).toBe("0.01");
    expect(stepLots("0.015", "0.01", 1)).toBe("0.02");
    expect(stepLots("0.015", "0.01", -1)).toBe("0.01");
    expect(stepLots("", "0.01", 1)).toBe("0.01");
    expect(stepLots("abc", "0.1", 1)).toBe("0.1");
    expect(stepLots("0.99", "0.01", 1)).toBe("1");
  });

  it("never goes to 0 or below, and the minus is disabled when amount − step ≤ 0 (spec §5)", () => {
    expect(stepLots("0.01", "0.01", -1)).toBe("0.01");
    expect(canDecreaseLots("0.01", "0.01")).toBe(false);
    expect(canDecreaseLots("0.005", "0.01")).toBe(false);
    expect(canDecreaseLots("0.02", "0.01")).toBe(true);
    expect(canDecreaseLots("", "0.01")).toBe(false);
  });
});

describe("countdowns", () => {
  it("the candle closes at the start of the next one, including 23- and 25-hour New York days", () => {
    const t = Date.UTC(2026, 10, 23, 14, 42, 18);
    expect(candleEnd("5min", t)).toBe(Date.UTC(2026, 10, 23, 14, 45));
    expect(candleEnd("1min", t)).toBe(Date.UTC(2026, 10, 23, 14, 43));
    expect(candleEnd("60min", t)).toBe(Date.UTC(2026, 10, 23, 15));
    expect(candleEnd("1day", t)).toBe(Date.UTC(2026, 10, 24, 5));
    // 2026-03-08 (clocks spring forward: 23 hours) and 2026-11-01 (fall back: 25 hours)
    expect(candleEnd("1day", Date.UTC(2026, 2, 8, 12))).toBe(Date.UTC(2026, 2, 9, 4));
    expect(candleEnd("1day", Date.UTC(2026, 10, 1, 12))).toBe(Date.UTC(2026, 10, 2, 5));
    expect(bucketStart("1day", candleEnd("1day", t))).toBe(candleEnd("1day", t));
  });

  it("shows mm:ss under an hour, hh:mm:ss above, whole days apart, never negative", () => {
    expect(countdownParts(161_400)).toEqual({ days: 0, clock: "02:42" });
    expect(countdownParts(999)).toEqual({ days: 0, clock: "00:01" });
    expect(countdownParts(-5)).toEqual({ days: 0, clock: "00:00" });
    expect(countdownParts(3_600_000)).toEqual({ days: 0, clock: "01:00:00" });
    expect(countdownParts(4 * 86_400_000 + 5 * 3_600_000 + 4 * 60_000 + 24_000)).toEqual({ days: 4, clock: "05:04:24" });
  });
});

describe("order form fields", () => {
  const parse = (fields: Record<string, string>) => submissionOf(OrderSchema, new URLSearchParams({ forex_id: "1", ...fields }));

  it("needs Buy or Sell pressed (Enter alone presses neither)", () => {
    const s = parse({ cont: "0.01" });
    expect(s.status).toBe("error");
    expect(s.reply().error).toEqual({ type: ["trade.choose_side"] });
  });

  it("an unticked stop-loss or take-profit means none, whatever its price says; the lots go to the service as typed", () => {
    const s = parse({
      type: "2",
      cont: " 0.02 ",
      multiple: "10",
      stop_loss_price: "51000",
      take_profit_on: "on",
      target_profit_price: "45000",
      request_id: "abcdefgh-1234",
    });
    expect(s.status).toBe("success");
    if (s.status !== "success") return;
    expect(orderCommandOf(s.value)).toEqual({
      side: 2,
      lots: "0.02",
      instrumentId: 1,
      entry: 1,
      targetPrice: undefined,
      stopLoss: "0",
      takeProfit: "45000",
      leverage: 10,
      requestKey: "abcdefgh-1234",
    });
    const pending = parse({ type: "1", status: "0", target_price: "40000", stop_loss_on: "on" });
    expect(pending.status === "success" && orderCommandOf(pending.value)).toMatchObject({
      entry: 0,
      targetPrice: "40000",
      stopLoss: "",
      lots: "",
    });
  });
});

describe("one order command for the page and the JSON API", () => {
  const api = (params: Record<string, string>) => {
    const parsed = parseFields(ApiOrderSchema, orderFieldsOfApi(new URLSearchParams(params)));
    return parsed.ok ? orderCommandOf(parsed.value) : parsed.errors;
  };

  it("spec §7 submit's parameters give the command the trade page's form gives (a stop price sent is a stop set)", () => {
    const page = submissionOf(
      OrderSchema,
      new URLSearchParams({
        forex_id: "1",
        type: "1",
        cont: "0.01",
        multiple: "10",
        status: "0",
        target_price: "40000",
        stop_loss_on: "on",
        stop_loss_price: "39000",
      }),
    );
    expect(page.status).toBe("success");
    const fromApi = api({
      forex_id: "1",
      type: "1",
      cont: "0.01",
      multiple: "10",
      status: "0",
      target_price: "40000",
      stop_loss_price: "39000",
    });
    expect(fromApi).toEqual(page.status === "success" ? orderCommandOf(page.value) : null);
    expect(fromApi).toMatchObject({
      instrumentId: 1,
      side: 1,
      entry: 0,
      lots: "0.01",
      leverage: 10,
      targetPrice: "40000",
      stopLoss: "39000",
      takeProfit: "0",
    });
  });

  it("the API answers as it always has: no side is a bad request, any status but 0 a market order, a malformed multiple or request id ignored", () => {
    expect(api({ forex_id: "1", cont: "0.01" })).toEqual({ type: "errors.bad_request" });
    expect(api({ forex_id: "1", type: "3", cont: "0.01" })).toEqual({ type: "errors.bad_request" });
    expect(api({ forex_id: "abc", type: "1" })).toEqual({ forex_id: "errors.instrument_not_found" });
    expect(api({ forex_id: "1", type: "2", status: "7", multiple: "x", request_id: "short", target_price: "1.2.3" })).toEqual({
      side: 2,
      lots: "",
      instrumentId: 1,
      entry: 1,
      targetPrice: "1.2.3",
      stopLoss: "0",
      takeProfit: "0",
      leverage: undefined,
      requestKey: undefined,
    });
  });

  it("a refusal by command field is named by the form's (and §7's) fields", () => {
    expect(orderErrorsOf({ lots: "errors.lots_step|0.01" })).toEqual({ cont: "errors.lots_step|0.01" });
    expect(orderErrorsOf({ instrumentId: "errors.instrument_not_found" })).toEqual({ forex_id: "errors.instrument_not_found" });
    expect(orderErrorsOf({ stopLoss: "errors.stop_loss_side" })).toEqual({ stop_loss_price: "errors.stop_loss_side" });
    expect(orderErrorsOf({ form: "errors.market_closed" })).toEqual({ form: "errors.market_closed" });
    expect(orderActionErrorsOf({ form: "errors.not_found" })).toEqual({ id: "errors.not_found" });
    expect(orderActionErrorsOf({ takeProfit: "errors.stop_invalid|2" })).toEqual({ target_profit_price: "errors.stop_invalid|2" });
  });

  it("my_deal reads its list as a number, as it always has (an empty status is the pending list)", () => {
    expect(parseQuery(OrderListSchema, new URLSearchParams({}))).toEqual({ ok: true, value: { status: 1, page: 1 } });
    expect(parseQuery(OrderListSchema, new URLSearchParams({ status: "", page: "2" }))).toEqual({
      ok: true,
      value: { status: 0, page: 2 },
    });
    expect(parseQuery(OrderListSchema, new URLSearchParams({ status: "2" }))).toEqual({
      ok: false,
      errors: { status: "errors.bad_request" },
    });
  });
});
