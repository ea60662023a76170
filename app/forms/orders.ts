/**
 * The order sheet's forms on /order (spec §3 contract order, §4 states): closing a holding
 * position, cancelling a pending order, and its stop-loss / take-profit (spec parameter names
 * stop_loss_price and target_profit_price; empty or 0 means none). The service checks the
 * prices against the instrument's precision, the side and the market; these schemas check the
 * shape, here and in the browser (native constraints).
 */
import * as v from "valibot";

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
