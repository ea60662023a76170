/**
 * The market's JSON calls (spec §7 /v2/api/forex/trade_list, kline, abbreviated_cache_kline):
 * their query parameters, read as the calls always have (parseQuery: an empty parameter is
 * read as sent). An unknown category lists every instrument; an unknown instrument is the
 * service's answer.
 */
import * as v from "valibot";
import { DEFAULT_PERIOD, isPeriod, type Period } from "~/domain/market";

/** category_id: a category's id, anything else none. */
export const TradeListQuerySchema = v.object({
  category_id: v.pipe(
    v.optional(v.string(), ""),
    v.transform((id) => Number(id) || null),
  ),
});

/** period (the default one when empty) and forex_id. */
export const KlineQuerySchema = v.object({
  period: v.pipe(
    v.optional(v.string(), ""),
    v.transform((period) => period || DEFAULT_PERIOD),
    v.check((period) => isPeriod(period), "errors.unknown_period"),
    v.transform((period) => period as Period),
  ),
  forex_id: v.pipe(v.optional(v.string(), ""), v.transform(Number)),
});
