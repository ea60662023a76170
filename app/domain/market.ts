/**
 * Market vocabulary shared by the rooms, the services and the browser: chart periods (spec §9:
 * 1min … 1day, default 5min, shown as 1M … 1D), candles, quotes, and prices at an instrument's
 * precision. Pure: no I/O.
 */
import { nyDayStart } from "./trading-hours";

export const PERIODS = ["1min", "5min", "15min", "30min", "60min", "1day"] as const;
export type Period = (typeof PERIODS)[number];
export const DEFAULT_PERIOD: Period = "5min";

export const PERIOD_MS: Record<Period, number> = {
  "1min": 60_000,
  "5min": 300_000,
  "15min": 900_000,
  "30min": 1_800_000,
  "60min": 3_600_000,
  "1day": 86_400_000,
};

/** The period bar's labels (spec §2 Trade: 1M, 5M, 15M, 30M, 1H, 1D). */
export const PERIOD_LABELS: Record<Period, string> = {
  "1min": "1M",
  "5min": "5M",
  "15min": "15M",
  "30min": "30M",
  "60min": "1H",
  "1day": "1D",
};

export function isPeriod(value: unknown): value is Period {
  return typeof value === "string" && (PERIODS as readonly string[]).includes(value);
}

/** The start of the candle of `period` that contains `t` (days start at midnight New York time). */
export function bucketStart(period: Period, t: number): number {
  if (period === "1day") return nyDayStart(t);
  const ms = PERIOD_MS[period];
  return Math.floor(t / ms) * ms;
}

/**
 * When the candle of `period` that contains `t` closes: the start of the next one (a day lasts
 * 23 or 25 hours on the days New York changes its clocks, hence the lookup half a period in).
 */
export function candleEnd(period: Period, t: number): number {
  return bucketStart(period, bucketStart(period, t) + PERIOD_MS[period] * 1.5);
}

export interface Candle {
  timestamp: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** A DAY_MARKET quote (spec §3/§4): last price, 24 h open/high/low/change/volume, MarketStatus 1 open. */
export interface Quote {
  Id: number;
  Code: string;
  ShowCode: string;
  Open: number;
  Close: number;
  High: number;
  Low: number;
  Change: number;
  Volume: number;
  MarketStatus: 0 | 1;
  time: number;
}

/** A price rounded to `precision` decimals (the instrument's PricePrecision). */
export function roundTo(value: number, precision: number): number {
  const f = 10 ** precision;
  return Math.round(value * f) / f;
}

/**
 * A price as an exact integer of its smallest step (10^-precision): the form the §9 rules
 * compute with. 1.08345 at precision 5 → 108345.
 */
export function priceToSteps(price: number, precision: number): number {
  const steps = Math.round(price * 10 ** precision);
  if (!Number.isSafeInteger(steps)) throw new RangeError(`price out of range: ${price}`);
  return steps;
}

export function stepsToPrice(steps: number, precision: number): number {
  return steps / 10 ** precision;
}
