/**
 * The contract order form (spec §7 /v2/api/forex/submit field names). The schema checks the
 * shape of each field; the trading rules (lots required, lot step and minimum, multiples, prices
 * at the instrument's precision, stop sides, balance) are the service's (placeOrder), which
 * answers with the field each refusal concerns.
 */
import * as v from "valibot";

const price = v.optional(v.pipe(v.string(), v.trim(), v.maxLength(32, "errors.too_long")));
const toggle = v.optional(v.string());

export const OrderSchema = v.pipe(
  v.object({
    forex_id: v.pipe(v.string("errors.instrument_not_found"), v.regex(/^\d{1,9}$/, "errors.instrument_not_found"), v.transform(Number)),
    /** OrderType, from the pressed button: 1 buy, 2 sell (Enter alone presses neither: see below). */
    type: v.optional(v.picklist(["1", "2"], "trade.choose_side")),
    /** Lots as typed (conform reads an empty field as missing: the service asks for the lots). */
    cont: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(32, "errors.lots_invalid"))),
    multiple: v.optional(v.pipe(v.string(), v.regex(/^\d{1,4}$/, "errors.multiple_invalid"), v.transform(Number))),
    /** 1 market, 0 pending. */
    status: v.optional(v.picklist(["0", "1"], "errors.bad_request"), "1"),
    target_price: price,
    stop_loss_on: toggle,
    stop_loss_price: price,
    take_profit_on: toggle,
    target_profit_price: price,
    /** The form's one-time token: a double-submitted form places one order. */
    request_id: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{8,64}$/, "errors.bad_request"))),
  }),
  v.forward(
    v.check((input) => input.type !== undefined, "trade.choose_side"),
    ["type"],
  ),
);
export type OrderInput = v.InferOutput<typeof OrderSchema>;

/** The service's input: an unticked stop-loss or take-profit toggle means 0 (none), whatever its price field says. */
export function placeInputOf(value: OrderInput) {
  return {
    side: Number(value.type),
    lots: value.cont ?? "",
    instrumentId: value.forex_id,
    entry: value.status === "0" ? 0 : 1,
    targetPrice: value.target_price,
    stopLoss: value.stop_loss_on ? (value.stop_loss_price ?? "") : "0",
    takeProfit: value.take_profit_on ? (value.target_profit_price ?? "") : "0",
    leverage: value.multiple,
    requestKey: value.request_id,
  };
}
