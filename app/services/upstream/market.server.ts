/**
 * Upstream mode's public reads (issue 23, ADR 024): base settings, the company, categories and
 * instruments from the backend's §7 calls, through the D1 cache (cache.server.ts), in the shapes
 * the platform's own services return, so pages do not know which one answered. Prices and
 * candles still come from the market room, whose feed in upstream mode is the backend's socket.
 *
 * Every answer is checked before it is used or kept. An instrument the contract does not describe
 * well (a lot step that is not a decimal, no code) is left out rather than guessed, and what the
 * contract does not carry at all (trading hours, the delivery schedule) stays absent: pages take
 * "open or closed" from the quote's MarketStatus in upstream mode.
 */
import * as v from "valibot";
import type { ServiceContext } from "~/context.server";
import type { Instrument } from "~/domain/instrument";
import { cachedRead, FRESH_MS, STALE_FALLBACK_TIMEOUT_MS, targetOf, type CachedAnswer } from "./cache.server";
import { callUpstream } from "./client.server";
import { Decimal, Int, itemsOf, Text, timeOf } from "./wire";

/** One §3 ForexTradeList item (toTradeListItem is the platform's side of it). */
const TradeListItem = v.object({
  Id: v.pipe(Int, v.minValue(1)),
  Code: v.pipe(v.string(), v.regex(/^[A-Za-z0-9._-]{1,32}$/)),
  ShowCode: Text(64),
  Logo: Text(500),
  CategoryId: v.optional(Int, 0),
  MarketStatus: v.optional(Int, 0),
  PricePrecision: v.pipe(Int, v.minValue(0), v.maxValue(10)),
  Pip: Decimal,
  ForexMinCont: Decimal,
  ForexContNum: Decimal,
  ForexFeeRate: Decimal,
  MarginMode: v.optional(Int, 2),
  HasForexMultiple: v.optional(v.nullable(v.array(v.object({ Value: v.pipe(Int, v.minValue(1), v.maxValue(10_000)) }))), []),
  Status: v.optional(Int, 1),
  ForexQuotations: v.optional(v.nullable(v.object({ Close: v.optional(v.union([v.number(), v.string()])) })), null),
});
type TradeListItem = v.InferOutput<typeof TradeListItem>;

/** The list as a whole must be a list; items it cannot read are dropped one by one (and logged). */
const TradeList = v.pipe(
  v.array(v.unknown()),
  v.transform((items) => itemsOf(items, TradeListItem)),
);

const Categories = v.array(v.object({ Id: v.pipe(Int, v.minValue(1)), NameShowTrans: Text(100) }));

const Company = v.object({
  id: v.optional(Int, 0),
  name: Text(200),
  logo: Text(500),
  url: Text(500),
  subject: Text(200),
  registered_address: Text(500),
  location: Text(200),
  email: Text(254),
  status: v.optional(Int, 1),
  type: v.optional(Int, 0),
  loss_url: Text(500),
});

const BasicInfo = v.object({
  service_link: Text(500),
  service_link_type: v.optional(Int, 1),
  verify_reg_type: v.optional(Int, 1),
  trade_fee_type: v.optional(Int, 2),
  micro_loss_level: v.optional(Int, 0),
});

function tradeList(ctx: ServiceContext) {
  return cachedRead(ctx, { path: "/v2/api/forex/trade_list", schema: TradeList, freshMs: FRESH_MS.instruments });
}

function toInstrument(item: TradeListItem, sort: number): Instrument & { sort: number } {
  return {
    id: item.Id,
    code: item.Code,
    showCode: item.ShowCode || item.Code,
    categoryId: item.CategoryId,
    logo: item.Logo,
    pricePrecision: item.PricePrecision,
    // not in the contract (ADR 024): no trading hours and no delivery schedule are made up
    sessionKind: "",
    lotStep: item.Pip,
    minLots: item.ForexMinCont,
    contractSize: item.ForexContNum,
    feeRate: item.ForexFeeRate,
    marginMode: item.MarginMode,
    multiples: JSON.stringify((item.HasForexMultiple ?? []).map((m) => m.Value)),
    status: item.Status,
    deliveryDays: 0,
    deliveryAt: null,
    sort,
  };
}

/** The backend's tradable instruments (status 1), in its order; none when it never answered. */
export async function upstreamInstruments(ctx: ServiceContext): Promise<Instrument[]> {
  const list = await tradeList(ctx);
  return (list?.data ?? []).filter((i) => i.Status === 1).map((item, n) => toInstrument(item, n));
}

/** The market status of each instrument as the backend last said it (code → 1 open, 0 closed). */
export async function upstreamMarketStatus(ctx: ServiceContext): Promise<Map<string, number>> {
  const list = await tradeList(ctx);
  return new Map((list?.data ?? []).map((i) => [i.Code, i.MarketStatus]));
}

/**
 * What the market room needs of each instrument in upstream mode: the codes its feed subscribes
 * to, and a starting price (the backend's last close) until the feed's first tick. The room's own
 * hours do not apply ("crypto": always open); the backend's socket decides when prices move.
 */
export async function upstreamRoomInstruments(ctx: ServiceContext) {
  const list = await tradeList(ctx);
  return (list?.data ?? [])
    .filter((i) => i.Status === 1)
    .map((i) => ({
      id: i.Id,
      code: i.Code,
      showCode: i.ShowCode || i.Code,
      precision: i.PricePrecision,
      basePrice: Number(i.ForexQuotations?.Close) > 0 ? Number(i.ForexQuotations?.Close) : 1,
      annualVolatility: 0,
      kind: "crypto" as const,
    }));
}

/** Categories as the platform lists them; the name is the backend's, already in the page's language. */
export async function upstreamCategories(ctx: ServiceContext): Promise<{ id: number; key: string; name: string }[]> {
  const list = await cachedRead(ctx, { path: "/v2/api/forex/getCategories", schema: Categories, freshMs: FRESH_MS.instruments });
  return (list?.data ?? []).map((c) => ({ id: c.Id, key: "", name: c.NameShowTrans }));
}

export type UpstreamCompany = v.InferOutput<typeof Company>;

/** The site's company (spec §7 getCompany); null when the backend never answered. */
export async function upstreamCompany(ctx: ServiceContext): Promise<CachedAnswer<UpstreamCompany> | null> {
  return cachedRead(ctx, { path: "/api/company/getCompany", schema: Company, freshMs: FRESH_MS.settings });
}

/** Base settings (spec §7 getBasicInfo); the platform's defaults when the backend never answered. */
export async function upstreamBasicInfo(ctx: ServiceContext): Promise<v.InferOutput<typeof BasicInfo>> {
  const info = await cachedRead(ctx, { path: "/api/basicSet/getBasicInfo", schema: BasicInfo, freshMs: FRESH_MS.settings });
  return info?.data ?? v.parse(BasicInfo, {});
}

const MiniChart = v.array(v.object({ close: v.pipe(v.union([v.number(), v.string()]), v.transform(Number), v.finite()) }));

/**
 * An instrument's recent closes from the backend (§7 abbreviated_cache_kline), for the home
 * page's small charts: the market room's upstream feed brings prices from now on, not history.
 * Market data, not kept: null when the backend does not answer within the short wait.
 */
export async function upstreamMiniChart(ctx: ServiceContext, forexId: number): Promise<number[] | null> {
  const answer = await callUpstream(
    { ...targetOf(ctx), timeoutMs: STALE_FALLBACK_TIMEOUT_MS },
    { method: "GET", path: "/v2/api/forex/abbreviated_cache_kline", params: { forex_id: forexId }, lang: ctx.lang, read: true },
  );
  const parsed = answer.ok ? v.safeParse(MiniChart, answer.data) : null;
  return parsed?.success ? parsed.output.map((c) => c.close) : null;
}

const NewsItem = v.object({
  id: v.pipe(Int, v.minValue(1)),
  category_id: v.optional(Int, 1),
  title: Text(300),
  desc: Text(2000),
  logo: Text(500),
  content: Text(200_000),
  // epoch seconds or milliseconds, or the contract's time text
  created_at: v.pipe(
    v.union([v.number(), v.string()]),
    v.transform((x) => (typeof x === "number" && x < 1e12 ? x * 1000 : timeOf(x))),
    v.custom<number>((x) => x !== null, "not a time"),
  ),
});
const NewsPage = v.object({
  data: v.array(NewsItem),
  total: v.optional(Int, 0),
  last_page: v.optional(Int, 1),
});

/** A page of the backend's news (spec §7 news/list), through the cache; null when it never answered. */
export async function upstreamNewsPage(ctx: ServiceContext, categoryId: number, page: number) {
  const list = await cachedRead(ctx, {
    path: "/api/news/list",
    params: { category_id: categoryId, page },
    schema: NewsPage,
    freshMs: FRESH_MS.news,
  });
  return list?.data ?? null;
}

/** One of the backend's news items (spec §7 news/info), through the cache; null when unknown or never answered. */
export async function upstreamNewsItem(ctx: ServiceContext, id: number) {
  const item = await cachedRead(ctx, { path: "/api/news/info", params: { id }, schema: NewsItem, freshMs: FRESH_MS.news });
  return item?.data ?? null;
}

const Candles = v.array(
  v.object({
    timestamp: v.pipe(v.number(), v.integer()),
    open: v.pipe(v.union([v.number(), v.string()]), v.transform(Number), v.finite()),
    high: v.pipe(v.union([v.number(), v.string()]), v.transform(Number), v.finite()),
    low: v.pipe(v.union([v.number(), v.string()]), v.transform(Number), v.finite()),
    close: v.pipe(v.union([v.number(), v.string()]), v.transform(Number), v.finite()),
    volume: v.optional(v.pipe(v.union([v.number(), v.string()]), v.transform(Number), v.finite()), 0),
  }),
);

/**
 * An instrument's candles of a period from the backend (§7 kline), for the trade page's chart:
 * the market room's upstream feed brings candles from now on, the backend has the history.
 * Market data, not kept: null when the backend does not answer within the short wait.
 */
export async function upstreamCandles(ctx: ServiceContext, forexId: number, period: string) {
  const answer = await callUpstream(
    { ...targetOf(ctx), timeoutMs: STALE_FALLBACK_TIMEOUT_MS },
    { method: "GET", path: "/v2/api/forex/kline", params: { forex_id: forexId, period }, lang: ctx.lang, read: true },
  );
  const parsed = answer.ok ? v.safeParse(Candles, answer.data) : null;
  return parsed?.success ? parsed.output : null;
}
