/**
 * The order form's arithmetic (issue 8 §1): the live preview of the figures an order would be
 * placed with, and the lot stepper. The preview calls the same rule functions the service places
 * the order with (checkLots, parsePrice, orderFigures), so what the form shows is what the ledger
 * books. Pure: no I/O.
 */
import {
  Side,
  checkLots,
  checkPendingPrice,
  orderFigures,
  parsePrice,
  scaled6ToDecimal,
  toScaled6,
  type ContractTerms,
  type LotsCheck,
  type PriceSteps,
  type Scaled6,
} from "./contract";
import type { Micros } from "./money";

/** What the form needs of the current instrument: its rule inputs, lot step, minimum and leverages. */
export interface OrderFormTerms {
  terms: ContractTerms;
  /** Pip. */
  lotStep: string;
  /** ForexMinCont. */
  minLots: string;
  /** HasForexMultiple (empty: none configured). */
  leverages: number[];
}

export interface OrderFormInput {
  lots: string;
  /** The chosen multiple (ignored when the margin is fixed per lot). */
  leverage: number;
  pending: boolean;
  /** The pending order's buy price as typed. */
  targetPrice: string;
}

export type OrderPreview =
  | {
      ok: true;
      lots: Scaled6;
      price: PriceSteps;
      margin: Micros;
      fee: Micros;
      notional: Micros;
      /** Hundredths of a percent. */
      prepaymentRatio: number | null;
      /** The liquidation price a buy and a sell would open with (null: none). */
      liquidation: { buy: PriceSteps | null; sell: PriceSteps | null };
    }
  | { ok: false; reason: Exclude<LotsCheck, "ok"> | "price" | "price_far" | "leverage" };

/** Whether the instrument can be ordered at all: a multiple is needed unless the margin is fixed per lot. */
export function needsLeverage(terms: Pick<ContractTerms, "marginMode">): boolean {
  return terms.marginMode !== 1;
}

/**
 * The figures of the order being typed, at the market price (market order) or the typed buy
 * price (pending order). Margin, fee and notional do not depend on the side; the liquidation
 * price does, so both are given.
 */
export function orderPreview(form: OrderFormTerms, input: OrderFormInput, market: PriceSteps | null): OrderPreview {
  const lots = checkLots(input.lots, form.lotStep, form.minLots);
  if (lots.check !== "ok") return { ok: false, reason: lots.check };
  let leverage = 0;
  if (needsLeverage(form.terms)) {
    if (!form.leverages.includes(input.leverage)) return { ok: false, reason: "leverage" };
    leverage = input.leverage;
  }
  const price = input.pending ? parsePrice(input.targetPrice, form.terms.pricePrecision) : market;
  if (price === null || price <= 0) return { ok: false, reason: "price" };
  if (input.pending && market !== null && checkPendingPrice(price, market) !== "ok") return { ok: false, reason: "price_far" };
  let buy: ReturnType<typeof orderFigures>, sell: ReturnType<typeof orderFigures>;
  try {
    buy = orderFigures(form.terms, Side.Buy, lots.lots, price, leverage);
    sell = orderFigures(form.terms, Side.Sell, lots.lots, price, leverage);
  } catch (error) {
    // a price (before the market is known) whose figures pass a safe integer
    if (error instanceof RangeError) return { ok: false, reason: "price_far" };
    throw error;
  }
  return {
    ok: true,
    lots: lots.lots,
    price,
    margin: buy.margin,
    fee: buy.fee,
    notional: buy.notional,
    prepaymentRatio: buy.prepaymentRatio,
    liquidation: { buy: buy.liquidation, sell: sell.liquidation },
  };
}

/**
 * The lot stepper: one lot step up or down from the typed amount, on the step grid (0.015 + →
 * 0.02, 0.015 − → 0.01). Unparseable input counts as 0. Down never goes to 0 or below: the amount
 * is kept (the minus button is disabled there).
 */
export function stepLots(value: string, lotStep: string, direction: 1 | -1): string {
  const step = toScaled6(lotStep);
  if (step === null || step <= 0) return value;
  const current = toScaled6(value.trim()) ?? 0;
  const next = direction === 1 ? Math.floor(current / step) * step + step : Math.ceil(current / step) * step - step;
  if (next <= 0) return value;
  return scaled6ToDecimal(next);
}

/** Spec §5: decrease is disabled when the amount minus the lot step is 0 or less. */
export function canDecreaseLots(value: string, lotStep: string): boolean {
  const step = toScaled6(lotStep);
  const current = toScaled6(value.trim());
  return step !== null && step > 0 && current !== null && current - step > 0;
}
