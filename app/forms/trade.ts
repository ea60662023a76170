/**
 * The contract order command (spec §7 /v2/api/forex/submit field names), for the trade page's form
 * and the JSON API alike. The schema checks the shape of each field and yields the typed command
 * (app/domain/contract-command.ts); the trading rules (lots required, lot step and minimum,
 * multiples, prices at the instrument's precision, stop sides, balance) are the service's
 * (placeOrder), which refuses by command field; `orderErrorsOf` names the form's fields.
 */
import * as v from "valibot";
import type { PlaceCommand } from "~/domain/contract-command";
import { renameFields, type FieldErrors } from "./parse";

const requestId = v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{8,64}$/, "errors.bad_request")));

/**
 * The order's fields. `side` answers a missing or unknown side (the page asks for a button, the
 * API answers a bad request); `price` is a price field as the surface takes it.
 */
function orderSchema(side: string, price: v.GenericSchema<string | undefined, string | undefined>) {
  return v.pipe(
    v.object({
      forex_id: v.pipe(v.string("errors.instrument_not_found"), v.regex(/^\d{1,9}$/, "errors.instrument_not_found"), v.transform(Number)),
      /** OrderType, from the pressed button: 1 buy, 2 sell (Enter alone presses neither: see below). */
      type: v.optional(v.picklist(["1", "2"], side)),
      /** Lots as typed (conform reads an empty field as missing: the service asks for the lots). */
      cont: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(32, "errors.lots_invalid"))),
      multiple: v.optional(v.pipe(v.string(), v.regex(/^\d{1,4}$/, "errors.multiple_invalid"), v.transform(Number))),
      /** 1 market, 0 pending. */
      status: v.optional(v.picklist(["0", "1"], "errors.bad_request"), "1"),
      target_price: price,
      stop_loss_on: v.optional(v.string()),
      stop_loss_price: price,
      take_profit_on: v.optional(v.string()),
      target_profit_price: price,
      /** The form's one-time token: a double-submitted form places one order. */
      request_id: requestId,
    }),
    v.forward(
      v.check((input) => input.type !== undefined, side),
      ["type"],
    ),
  );
}

/** The trade page's order form. */
export const OrderSchema = orderSchema("trade.choose_side", v.optional(v.pipe(v.string(), v.trim(), v.maxLength(32, "errors.too_long"))));
export type OrderInput = v.InferOutput<typeof OrderSchema>;

/** /v2/api/forex/submit: the same fields; a price goes to the service as sent (it answers a malformed one at the instrument's precision). */
export const ApiOrderSchema = orderSchema("errors.bad_request", v.optional(v.string()));

/**
 * The API's parameters as the form's fields. The API has no stop toggles (a stop price sent is a
 * stop set), reads any status but 0 as a market order, and ignores a malformed multiple or
 * request id (the order then needs a valid multiple, and is not deduplicated), as it always has.
 */
export function orderFieldsOfApi(params: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams(params);
  out.set("status", params.get("status") === "0" ? "0" : "1");
  for (const [field, pattern] of [
    ["multiple", /^\d{1,4}$/],
    ["request_id", /^[A-Za-z0-9_-]{8,64}$/],
  ] as const) {
    if (out.has(field) && !pattern.test(out.get(field)!)) out.delete(field);
  }
  out.delete("stop_loss_on");
  out.delete("take_profit_on");
  if (out.has("stop_loss_price")) out.set("stop_loss_on", "1");
  if (out.has("target_profit_price")) out.set("take_profit_on", "1");
  return out;
}

/** The command: an unticked stop-loss or take-profit toggle means 0 (none), whatever its price field says. */
export function orderCommandOf(value: OrderInput): PlaceCommand {
  return {
    side: value.type === "2" ? 2 : 1,
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

/** The form's (and §7's) name of each command field. */
const ORDER_FIELDS: Record<keyof PlaceCommand, string> = {
  instrumentId: "forex_id",
  side: "type",
  entry: "status",
  lots: "cont",
  leverage: "multiple",
  targetPrice: "target_price",
  stopLoss: "stop_loss_price",
  takeProfit: "target_profit_price",
  requestKey: "request_id",
};

/** A refusal of placeOrder by form field. */
export function orderErrorsOf(errors: FieldErrors): FieldErrors {
  return renameFields(errors, ORDER_FIELDS);
}
