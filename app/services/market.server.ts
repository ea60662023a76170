/**
 * Instruments, categories and live quotes as the screens and the JSON API see them. Static
 * fields come from D1; prices, 24h figures and candles come from the MarketRoom.
 */
import { asc } from "drizzle-orm";
import type { AppContext } from "~/context.server";
import { categories, instruments } from "~/db/schema";
import { MARKET_ROOM } from "../../party/names";
import { isPeriod, type Candle, type Period, type Quote } from "../../party/market/sim";

export async function listCategories(ctx: AppContext) {
  return ctx.db.select({ id: categories.id, key: categories.key, name: categories.name }).from(categories).orderBy(asc(categories.sort), asc(categories.id));
}

export async function listInstruments(ctx: AppContext) {
  return ctx.db
    .select({
      id: instruments.id,
      code: instruments.code,
      showCode: instruments.showCode,
      categoryId: instruments.categoryId,
      logo: instruments.logo,
      pricePrecision: instruments.pricePrecision,
      sessionKind: instruments.sessionKind,
      lotStep: instruments.lotStep,
      minLots: instruments.minLots,
      contractSize: instruments.contractSize,
      feeRate: instruments.feeRate,
      marginMode: instruments.marginMode,
      multiples: instruments.multiples,
      status: instruments.status,
    })
    .from(instruments)
    .orderBy(asc(instruments.sort), asc(instruments.id));
}

export type InstrumentInfo = Awaited<ReturnType<typeof listInstruments>>[number];

/** The market room's stub through the binding (rooms are addressed by name; see party/names.ts). */
async function room(ctx: AppContext) {
  return ctx.env.MARKET_ROOM.get(ctx.env.MARKET_ROOM.idFromName(MARKET_ROOM));
}

/** Current quotes by instrument code; an empty map (and stale) when the market room cannot answer. */
export async function marketQuotes(ctx: AppContext): Promise<{ quotes: Map<string, Quote>; stale: boolean; time: number }> {
  try {
    const snap = await (await room(ctx)).snapshot();
    return { quotes: new Map(snap.quotes.map((q) => [q.Code, q])), stale: snap.stale, time: snap.time };
  } catch (error) {
    console.error("market snapshot failed", error);
    return { quotes: new Map(), stale: true, time: Date.now() };
  }
}

export async function candles(ctx: AppContext, code: string, period: Period, limit = 300): Promise<Candle[]> {
  if (!isPeriod(period)) return [];
  try {
    return (await (await room(ctx)).klines(code, period, limit)) ?? [];
  } catch (error) {
    console.error("klines failed", error);
    return [];
  }
}

/** Mini-chart points (closes of the last 4 hours in 5-minute candles) for several instruments. */
export async function miniCharts(ctx: AppContext, codes: string[]): Promise<Record<string, number[]>> {
  const entries = await Promise.all(codes.map(async (code) => [code, (await candles(ctx, code, "5min", 48)).map((c) => c.close)] as const));
  return Object.fromEntries(entries);
}

export async function setScriptedPrice(ctx: AppContext, code: string, price: number | null) {
  return (await room(ctx)).setPrice(code, price);
}

/** Spec §3 instrument shape for the JSON API (ForexTradeList item). */
export function toTradeListItem(i: InstrumentInfo, q: Quote | undefined) {
  return {
    Id: i.id,
    Code: i.code,
    ShowCode: i.showCode,
    Logo: i.logo,
    CategoryId: i.categoryId,
    MarketStatus: q?.MarketStatus ?? 0,
    PricePrecision: i.pricePrecision,
    Pip: i.lotStep,
    ForexMinCont: i.minLots,
    ForexContNum: i.contractSize,
    ForexFeeRate: i.feeRate,
    MarginMode: i.marginMode,
    HasForexMultiple: (JSON.parse(i.multiples) as number[]).map((Value) => ({ Value })),
    ForexQuotations: q
      ? { Open: q.Open, Close: q.Close, High: q.High, Low: q.Low, Change: q.Change, Volume: q.Volume }
      : null,
    Status: i.status,
    Api: `/v2/api/forex/abbreviated_cache_kline?forex_id=${i.id}`,
  };
}
