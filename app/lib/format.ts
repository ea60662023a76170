/** Display helpers for market numbers (shared by server rendering and live updates). */
import { MARKET_TIME_ZONE } from "~/domain/trading-hours";

/**
 * Intl formatters are costly to build (each one loads locale data) and live prices are formatted
 * for every row on every tick: one formatter per locale and options, built once.
 */
const numberFormatters = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = locale + JSON.stringify(options);
  let f = numberFormatters.get(key);
  if (!f) numberFormatters.set(key, (f = new Intl.NumberFormat(locale, options)));
  return f;
}

/** A price at its instrument's precision (exact decimal digits, locale grouping). */
export function formatPrice(value: number, precision: number, locale: string): string {
  if (!Number.isFinite(value)) return "—";
  return numberFormat(locale, { minimumFractionDigits: precision, maximumFractionDigits: precision }).format(value);
}

/** A percentage change with its sign, e.g. "+1.25%" / "−0.40%". */
export function formatChange(change: number, locale: string): string {
  const text = numberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: "exceptZero" }).format(change);
  return `${text}%`;
}

export function formatVolume(value: number, locale: string): string {
  return numberFormat(locale, { notation: "compact", maximumFractionDigits: 2 }).format(value);
}

const nyFormatters = new Map<string, Intl.DateTimeFormat>();

/** A candle time in New York (the spec's chart time zone). */
export function formatNyTime(timestamp: number, locale: string, withDate: boolean): string {
  const key = `${locale}|${withDate}`;
  let f = nyFormatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(
      locale,
      withDate
        ? { timeZone: MARKET_TIME_ZONE, month: "2-digit", day: "2-digit" }
        : { timeZone: MARKET_TIME_ZONE, hour: "2-digit", minute: "2-digit", hourCycle: "h23" },
    );
    nyFormatters.set(key, f);
  }
  return f.format(timestamp);
}

export function direction(change: number): "up" | "down" | "flat" {
  return change > 0 ? "up" : change < 0 ? "down" : "flat";
}

/**
 * A countdown as whole days and a clock: "mm:ss" under an hour, "hh:mm:ss" above (seconds
 * rounded up, so it reaches 00:00 at the instant itself; never negative).
 */
export function countdownParts(ms: number): { days: number; clock: string } {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(total / 86_400);
  const h = Math.floor((total % 86_400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, "0");
  return { days, clock: days > 0 || h > 0 ? `${two(h)}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}` };
}
