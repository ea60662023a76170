/** JSON calls of the market (spec §7 /v2/api/forex/*): instruments, categories, candles. */
import { toTradeListItem } from "~/domain/instrument";
import { KlineQuerySchema, TradeListQuerySchema } from "~/forms/market";
import { parseQuery } from "~/forms/parse";
import { candles, findInstrument, listCategories, listInstruments, marketQuotes } from "~/services/market.server";
import type { AppContext } from "~/context.server";
import { failure, ok, query, type Routes } from "./common.server";

/** Mini-chart history: the last 4 hours at 5 minutes by default (48 candles of any period asked for). */
const ABBREVIATED_CANDLES = 48;

async function klineCall(request: Request, ctx: AppContext, abbreviated: boolean) {
  const input = parseQuery(KlineQuerySchema, query(request));
  if (!input.ok) return failure(ctx, input.errors);
  const { period, forex_id } = input.value;
  const instrument = await findInstrument(ctx, forex_id);
  if (!instrument) return failure(ctx, { forex_id: "errors.instrument_not_found" });
  const list = await candles(ctx, instrument.code, period, abbreviated ? ABBREVIATED_CANDLES : 300);
  return ok(ctx, abbreviated ? list.map((c) => ({ timestamp: c.timestamp, close: c.close })) : list);
}

export const marketRoutes: Routes = {
  "/v2/api/forex/trade_list": {
    GET: async (request, ctx) => {
      const input = parseQuery(TradeListQuerySchema, query(request));
      const categoryId = input.ok ? input.value.category_id : null;
      const [list, market] = await Promise.all([listInstruments(ctx), marketQuotes(ctx)]);
      return ok(
        ctx,
        list.filter((i) => !categoryId || i.categoryId === categoryId).map((i) => toTradeListItem(i, market.quotes.get(i.code))),
      );
    },
  },
  "/v2/api/forex/getCategories": {
    GET: async (_request, ctx) => {
      const list = await listCategories(ctx);
      return ok(
        ctx,
        list.map((c) => ({ Id: c.id, NameShowTrans: c.key ? ctx.t(`categories.${c.key}`) : c.name })),
      );
    },
  },
  "/v2/api/forex/abbreviated_cache_kline": { GET: (r, c) => klineCall(r, c, true) },
  "/v2/api/forex/kline": { GET: (r, c) => klineCall(r, c, false) },
};
