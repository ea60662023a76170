/**
 * Instruments, categories and live quotes as the screens, the JSON API and the rooms see them.
 * Static fields come from D1 (this module is the one place that queries instruments); prices,
 * 24h figures and candles come from the MarketRoom.
 */
import { asc, eq } from "drizzle-orm";
import type { ServiceContext } from "~/context.server";
import { categories, instruments } from "~/db/schema";
import type { Instrument } from "~/domain/instrument";
import { isPeriod, type Candle, type Period, type Quote } from "~/domain/market";
import { MARKET_ROOM } from "~/domain/rooms";
import type { SessionKind } from "~/domain/trading-hours";
import {
  upstreamCandles,
  upstreamCategories,
  upstreamInstruments,
  upstreamMiniChart,
  upstreamRoomInstruments,
} from "~/services/upstream/market.server";

/** Upstream mode (ADR 024): the backend's instruments and categories, through the D1 cache. */
const upstream = (ctx: ServiceContext) => ctx.config.platform.kind === "upstream";

export async function listCategories(ctx: ServiceContext): Promise<{ id: number; key: string; name: string }[]> {
  if (upstream(ctx)) return upstreamCategories(ctx);
  return ctx.db
    .select({ id: categories.id, key: categories.key, name: categories.name })
    .from(categories)
    .orderBy(asc(categories.sort), asc(categories.id));
}

/**
 * Instruments change only when an operator edits them: each isolate keeps the list for a few
 * seconds (the order path reads it on every order). `forgetInstruments` drops it at once.
 */
const INSTRUMENT_TTL_MS = 5_000;
// The resolved list only (a promise must not cross requests in Workers).
let instrumentCache: { at: number; list: Instrument[] } | null = null;

export function forgetInstruments() {
  instrumentCache = null;
}

/** Every tradable instrument (status 1), in display order. */
export async function listInstruments(ctx: ServiceContext): Promise<Instrument[]> {
  if (upstream(ctx)) return upstreamInstruments(ctx);
  const now = Date.now();
  if (instrumentCache && now - instrumentCache.at < INSTRUMENT_TTL_MS) return instrumentCache.list;
  const list = await readInstruments(ctx);
  instrumentCache = { at: now, list };
  return list;
}

async function readInstruments(ctx: ServiceContext): Promise<Instrument[]> {
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
      deliveryDays: instruments.deliveryDays,
      deliveryAt: instruments.deliveryAt,
    })
    .from(instruments)
    .where(eq(instruments.status, 1))
    .orderBy(asc(instruments.sort), asc(instruments.id));
}

export async function findInstrument(ctx: ServiceContext, id: number): Promise<Instrument | null> {
  if (!Number.isSafeInteger(id)) return null;
  return (await listInstruments(ctx)).find((i) => i.id === id) ?? null;
}

/** What the simulated market needs of each instrument (its seeded price and volatility). */
export async function simInstruments(ctx: ServiceContext) {
  if (upstream(ctx)) return upstreamRoomInstruments(ctx);
  const rows = await ctx.db
    .select({
      id: instruments.id,
      code: instruments.code,
      showCode: instruments.showCode,
      precision: instruments.pricePrecision,
      basePrice: instruments.basePrice,
      annualVolatility: instruments.annualVolatility,
      kind: instruments.sessionKind,
    })
    .from(instruments)
    .where(eq(instruments.status, 1))
    .orderBy(asc(instruments.sort), asc(instruments.id));
  return rows.map((r) => ({
    ...r,
    basePrice: Number(r.basePrice),
    annualVolatility: Number(r.annualVolatility),
    kind: r.kind as SessionKind,
  }));
}

/** The market room's stub through the binding (rooms are addressed by name; see app/domain/rooms.ts). */
function room(ctx: ServiceContext) {
  return ctx.env.MARKET_ROOM.get(ctx.env.MARKET_ROOM.idFromName(MARKET_ROOM));
}

/** Current quotes by instrument code; an empty map (and stale) when the market room cannot answer. */
export async function marketQuotes(ctx: ServiceContext): Promise<{ quotes: Map<string, Quote>; stale: boolean; time: number }> {
  try {
    const snap = await room(ctx).snapshot();
    return { quotes: new Map(snap.quotes.map((q) => [q.Code, q])), stale: snap.stale, time: snap.time };
  } catch (error) {
    console.error("market snapshot failed", error);
    return { quotes: new Map(), stale: true, time: Date.now() };
  }
}

/**
 * The market room prints a price once a second (its tick) and the price stands until the next
 * one, so a quote read from the room is the current price until that tick. Each isolate keeps
 * the quotes it read for the rest of their second, less a margin for clock drift between the
 * isolate and the room: the order path then costs no room call for most orders, and the room
 * answers about one read per instrument per isolate per second however many orders arrive.
 * A quote whose tick is ahead of this isolate's clock is never kept. Reads through this cache do
 * not keep the room's clock awake, which needs none: the read that filled it did, for a minute.
 */
const QUOTE_KEEP_MS = 900;
type QuoteRead = { quote: Quote | null; stale: boolean; feed: string };
const keptQuotes = new Map<string, { tick: number; read: QuoteRead }>();

/** Drops the kept quotes (a held price is set; tests that move the room's clock). */
export function forgetQuotes() {
  keptQuotes.clear();
}

/** One instrument's current quote (null when the market room cannot answer). */
export async function quoteOf(ctx: ServiceContext, code: string, now = Date.now()): Promise<QuoteRead> {
  const kept = keptQuotes.get(code);
  if (kept && now >= kept.tick && now < kept.tick + QUOTE_KEEP_MS) return kept.read;
  try {
    const read = await room(ctx).quote(code);
    if (read.quote) keptQuotes.set(code, { tick: read.quote.time, read });
    return read;
  } catch (error) {
    console.error("market quote failed", error);
    return { quote: null, stale: true, feed: "" };
  }
}

export async function candles(ctx: ServiceContext, code: string, period: Period, limit = 300): Promise<Candle[]> {
  if (!isPeriod(period)) return [];
  if (upstream(ctx)) {
    // the room's feed has no history; the backend has (the room's candles if it does not answer)
    const id = (await listInstruments(ctx)).find((i) => i.code === code)?.id;
    const fromBackend = id ? await upstreamCandles(ctx, id, period) : null;
    if (fromBackend?.length) return fromBackend.slice(-limit);
  }
  return roomCandles(ctx, code, period, limit);
}

/** The market room's candles (its feed's, or the simulated market's). */
async function roomCandles(ctx: ServiceContext, code: string, period: Period, limit: number): Promise<Candle[]> {
  try {
    return (await room(ctx).klines(code, period, limit)) ?? [];
  } catch (error) {
    console.error("klines failed", error);
    return [];
  }
}

/** Mini-chart points (closes of the last 4 hours in 5-minute candles) for several instruments. */
export async function miniCharts(ctx: ServiceContext, codes: string[]): Promise<Record<string, number[]>> {
  const ids = upstream(ctx) ? new Map((await listInstruments(ctx)).map((i) => [i.code, i.id])) : null;
  const closes = async (code: string) => {
    // upstream mode: the room's feed has no history, the backend has (the room's candles if it does not answer)
    const id = ids?.get(code);
    const fromBackend = id ? await upstreamMiniChart(ctx, id) : null;
    return fromBackend ?? (await roomCandles(ctx, code, "5min", 48)).map((c) => c.close);
  };
  const entries = await Promise.all(codes.map(async (code) => [code, await closes(code)] as const));
  return Object.fromEntries(entries);
}

export async function setScriptedPrice(ctx: ServiceContext, code: string, price: number | null) {
  const ok = await room(ctx).setPrice(code, price);
  // the held price is the price at once, not from the next tick
  forgetQuotes();
  return ok;
}
