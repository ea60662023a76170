/**
 * The order sheet's commands on /order and their JSON calls (spec §3 contract order, §4 states,
 * §7 /v2/api/forex/close, cancel_trade, set_stop_price, deal_info, my_deal): closing a holding
 * position, cancelling a pending order, and its stop-loss / take-profit (spec parameter names
 * stop_loss_price and target_profit_price; empty or 0 means none). The service checks the prices
 * against the instrument's precision, the side and the market; these schemas check the shape,
 * here and in the browser (native constraints).
 */
import * as v from "valibot";
import type { StopsCommand } from "~/domain/contract-command";
import { renameFields, type FieldErrors } from "./parse";

/** An order id as submitted (hidden field `id`). */
export const orderIdField = v.pipe(v.string("errors.not_found"), v.trim(), v.regex(/^\d{1,15}$/, "errors.not_found"), v.transform(Number));

/** A price as typed: digits with an optional decimal part (no signs, exponents or separators). */
const stopPriceField = v.optional(
  v.pipe(v.string(), v.trim(), v.maxLength(28, "errors.too_long"), v.regex(/^\d{1,15}(\.\d{1,12})?$/, "orders.price_format")),
);

export const OrderActionSchema = v.object({ id: orderIdField });
export type OrderActionInput = v.InferOutput<typeof OrderActionSchema>;

export const StopsSchema = v.object({
  id: orderIdField,
  stop_loss_price: stopPriceField,
  target_profit_price: stopPriceField,
});
export type StopsInput = v.InferOutput<typeof StopsSchema>;

/** set_stop_price: the same fields; a price goes to the service as sent (it answers a malformed one at the order's precision). */
export const ApiStopsSchema = v.object({
  id: orderIdField,
  stop_loss_price: v.optional(v.string()),
  target_profit_price: v.optional(v.string()),
});

export function stopsCommandOf(value: StopsInput | v.InferOutput<typeof ApiStopsSchema>): StopsCommand {
  return { id: value.id, stopLoss: value.stop_loss_price, takeProfit: value.target_profit_price };
}

/** A refusal of setStops by the form's fields. */
export function stopsErrorsOf(errors: FieldErrors): FieldErrors {
  return renameFields(errors, { stopLoss: "stop_loss_price", takeProfit: "target_profit_price" });
}

/** A refusal of closeOrder, cancelOrder or setStops by the API's fields: the order's own refusals name its `id`. */
export function orderActionErrorsOf(errors: FieldErrors): FieldErrors {
  return renameFields(stopsErrorsOf(errors), { form: "id" });
}

/**
 * my_deal's list and page (spec §7: 0 pending, 1 holding, 3 closed; 4 the cancelled pending
 * orders). Read as numbers, as the call always has ("" is 0, an absent status 1).
 */
export const OrderListSchema = v.object({
  status: v.pipe(
    v.optional(v.string(), "1"),
    v.transform(Number),
    v.check((s) => [0, 1, 3, 4].includes(s), "errors.bad_request"),
  ),
  page: v.pipe(v.optional(v.string(), "1"), v.transform(Number)),
});
