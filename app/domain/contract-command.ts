/**
 * The typed commands of contract trading (spec §7 /v2/api/forex/submit and set_stop_price), as the
 * order forms' schemas (app/forms/trade.ts, app/forms/orders.ts) yield them for the trade page and
 * the JSON API alike, and the checks of a command against its instrument's terms. Lots and prices
 * stay the decimals typed until here: their step and precision are the instrument's. A refusal
 * names the command's field and its message key ("errors.lots_step|0.01" carries its argument);
 * the form modules map command fields onto form fields. Pure: no I/O.
 */
import { checkLots, checkStops, parsePrice, type PriceSteps, type Scaled6, type Side } from "./contract";
import { leverages, type Instrument } from "./instrument";

/** Placing a market or pending order. */
export interface PlaceCommand {
  instrumentId: number;
  /** OrderType: 1 buy, 2 sell. */
  side: Side;
  /** status: 1 market, 0 pending. */
  entry: 0 | 1;
  /** cont: lots as typed ("" when none). */
  lots: string;
  /** multiple (none when the margin is fixed per lot). */
  leverage?: number;
  /** target_price: the pending order's buy price as typed. */
  targetPrice?: string;
  /** "" / "0" / absent: none. */
  stopLoss?: string;
  takeProfit?: string;
  /** A per-form token: a double-submitted form places one order. */
  requestKey?: string;
}

/** Setting or clearing (0) the stop-loss and take-profit of a holding position. */
export interface StopsCommand {
  id: number;
  stopLoss?: string;
  takeProfit?: string;
}

/** A refusal of one field of a command (`form` when no field owns it). */
export interface CommandRefusal<F extends string> {
  ok: false;
  field: F | "form";
  message: string;
}

const refusal = <F extends string>(field: F | "form", key: string, value?: string | number): CommandRefusal<F> => ({
  ok: false,
  field,
  message: value === undefined ? key : `${key}|${value}`,
});

/** An optional price: "" / "0" / absent → 0 (none); otherwise steps, or null when malformed. */
export function optionalPrice(input: string | undefined, precision: number): PriceSteps | null {
  const text = (input ?? "").trim();
  if (text === "" || /^0+(\.0+)?$/.test(text)) return 0;
  return parsePrice(text, precision);
}

export type PlaceTerms = Pick<Instrument, "marginMode" | "multiples" | "lotStep" | "minLots" | "pricePrecision">;

/** The order's quantities at the instrument's terms: leverage offered, lots on the step, prices at the precision. */
export type CheckedOrder = {
  ok: true;
  leverage: number;
  lots: Scaled6;
  pending: boolean;
  /** The pending order's buy price (0 for a market order). */
  target: PriceSteps;
  stopLoss: PriceSteps;
  takeProfit: PriceSteps;
};

/**
 * Checks a place command against its instrument (before the market is read): the leverage
 * (required unless the margin is fixed per lot), the lots, the pending order's price and the
 * stop prices, in that order.
 */
export function checkPlaceCommand(instrument: PlaceTerms, command: PlaceCommand): CheckedOrder | CommandRefusal<keyof PlaceCommand> {
  let leverage = 0;
  if (instrument.marginMode !== 1) {
    const offered = leverages(instrument);
    if (offered.length === 0) return refusal("leverage", "errors.no_multiple");
    if (command.leverage === undefined || !offered.includes(command.leverage)) return refusal("leverage", "errors.multiple_invalid");
    leverage = command.leverage;
  }

  const lots = checkLots(command.lots, instrument.lotStep, instrument.minLots);
  if (lots.check !== "ok") {
    const value =
      lots.check === "lots_step"
        ? instrument.lotStep
        : lots.check === "lots_min"
          ? instrument.minLots
          : lots.check === "lots_max"
            ? "1000"
            : undefined;
    return refusal("lots", `errors.${lots.check}`, value);
  }

  const precision = instrument.pricePrecision;
  const pending = command.entry === 0;
  let target = 0;
  if (pending) {
    if (!(command.targetPrice ?? "").trim()) return refusal("targetPrice", "errors.price_required");
    const parsed = parsePrice(command.targetPrice ?? "", precision);
    if (parsed === null || parsed <= 0) return refusal("targetPrice", "errors.price_invalid", precision);
    target = parsed;
  }
  const stops = checkStopPrices(command, precision);
  if (!stops.ok) return stops;
  return { ok: true, leverage, lots: lots.lots, pending, target, stopLoss: stops.stopLoss, takeProfit: stops.takeProfit };
}

/** The stop-loss and take-profit as typed, at the price precision (0: none). */
export function checkStopPrices(
  command: Pick<PlaceCommand, "stopLoss" | "takeProfit">,
  precision: number,
): { ok: true; stopLoss: PriceSteps; takeProfit: PriceSteps } | CommandRefusal<"stopLoss" | "takeProfit"> {
  const stopLoss = optionalPrice(command.stopLoss, precision);
  if (stopLoss === null) return refusal("stopLoss", "errors.stop_invalid", precision);
  const takeProfit = optionalPrice(command.takeProfit, precision);
  if (takeProfit === null) return refusal("takeProfit", "errors.stop_invalid", precision);
  return { ok: true, stopLoss, takeProfit };
}

/** The stops' side against a reference price (the order's price, or the market for a holding position). */
export function checkStopSides(
  side: Side,
  reference: PriceSteps,
  stopLoss: PriceSteps,
  takeProfit: PriceSteps,
): { ok: true } | CommandRefusal<"stopLoss" | "takeProfit"> {
  const check = checkStops(side, reference, stopLoss, takeProfit);
  if (check === "ok") return { ok: true };
  return refusal(check === "stop_loss_side" ? "stopLoss" : "takeProfit", `errors.${check}`);
}
