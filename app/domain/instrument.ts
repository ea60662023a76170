/**
 * Instruments as the rules and the screens see them (spec §3 Instrument), and their two
 * projections: the short form lists and pages render, and the spec's ForexTradeList item of the
 * JSON API. Pure: no I/O.
 */
import type { Quote } from "./market";

/** An instrument's static fields (decimals as exact strings, as stored). */
export interface Instrument {
  id: number;
  code: string;
  showCode: string;
  categoryId: number;
  logo: string;
  pricePrecision: number;
  sessionKind: string;
  /** Pip: the lot step. */
  lotStep: string;
  /** ForexMinCont. */
  minLots: string;
  /** ForexContNum: units per lot. */
  contractSize: string;
  feeRate: string;
  /** 1: fixed margin per lot; otherwise margin = notional / leverage. */
  marginMode: number;
  /** HasForexMultiple as stored: a JSON list of leverages. */
  multiples: string;
  status: number;
  /** Delivery contracts: days between deliveries (0 = perpetual). */
  deliveryDays: number;
  /** The next delivery instant (ms); null until the engine first sets it. */
  deliveryAt: number | null;
}

/** The leverages an instrument offers (HasForexMultiple); malformed data gives none. */
export function leverages(instrument: Pick<Instrument, "multiples">): number[] {
  try {
    const list: unknown = JSON.parse(instrument.multiples);
    return Array.isArray(list) ? list.filter((n): n is number => Number.isInteger(n) && n > 0) : [];
  } catch {
    return [];
  }
}

/** What a list row, a card or a page header needs of an instrument. */
export interface InstrumentSummary {
  id: number;
  code: string;
  showCode: string;
  pricePrecision: number;
  logo: string;
}

export function toSummary(i: Instrument): InstrumentSummary {
  return { id: i.id, code: i.code, showCode: i.showCode, pricePrecision: i.pricePrecision, logo: i.logo };
}

/** Spec §3 instrument shape for the JSON API (ForexTradeList item). */
export function toTradeListItem(i: Instrument, q: Quote | undefined) {
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
    HasForexMultiple: leverages(i).map((Value) => ({ Value })),
    ForexQuotations: q ? { Open: q.Open, Close: q.Close, High: q.High, Low: q.Low, Change: q.Change, Volume: q.Volume } : null,
    Status: i.status,
    Api: `/v2/api/forex/abbreviated_cache_kline?forex_id=${i.id}`,
  };
}
