/** Display helpers for market numbers (shared by server rendering and live updates). */
import { localizeDecimal, roundedDecimal } from "~/domain/number-format";
import { MARKET_TIME_ZONE, nyOffset } from "~/domain/trading-hours";

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

/**
 * A price at its instrument's precision (exact decimal digits, locale grouping). The digits are
 * rounded here and grouped by the locale's one shared formatter: an Intl formatter per precision
 * costs a phone tens of milliseconds each while the page hydrates.
 */
export function formatPrice(value: number, precision: number, locale: string): string {
  if (!Number.isFinite(value)) return "—";
  const text = roundedDecimal(value, precision);
  if (text === null) return numberFormat(locale, { minimumFractionDigits: precision, maximumFractionDigits: precision }).format(value);
  return localizeDecimal(text, locale, "auto");
}

/** A percentage change with its sign, e.g. "+1.25%" / "-0.40%" (none on 0.00, as Intl's exceptZero). */
export function formatChange(change: number, locale: string): string {
  const text = Number.isFinite(change) ? roundedDecimal(change, 2) : null;
  if (text === null)
    return `${numberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: "exceptZero" }).format(change)}%`;
  const unsigned = text.replace(/^-/, "");
  const sign = /[1-9]/.test(unsigned) ? (text.startsWith("-") ? "-" : "+") : "";
  return `${sign}${localizeDecimal(unsigned, locale, "auto")}%`;
}

export function formatVolume(value: number, locale: string): string {
  return numberFormat(locale, { notation: "compact", maximumFractionDigits: 2 }).format(value);
}

/**
 * A candle's time in New York as each language's locale writes it (the pattern Intl gives for
 * 2-digit hour:minute, h23, and 2-digit month/day; tests/unit/number-format.test.ts holds each
 * equal to Intl): computed from the New York clock, without an Intl date formatter, whose first
 * build (the time zone's data) costs a phone tens of milliseconds while the chart hydrates.
 * MM/DD are 2-digit month/day, m/d unpadded.
 */
const NY_DATE_PATTERNS: Record<string, string> = {
  "en-US": "MM/DD",
  "ja-JP": "MM/DD",
  "ko-KR": "MM. DD.",
  "zh-HK": "DD/MM",
  "th-TH": "DD/MM",
  "fr-FR": "DD/MM",
  "pt-BR": "DD/MM",
  "it-IT": "DD/MM",
  "tr-TR": "DD/MM",
  "id-ID": "DD/MM",
  "hi-IN": "DD/MM",
  "vi-VN": "DD-MM",
  "de-DE": "DD.MM.",
  "ru-RU": "DD.MM",
  "es-ES": "d/m",
};
/** The separator of hour and minute where it is not ":". */
const NY_TIME_SEPARATORS: Record<string, string> = { "id-ID": "." };

const nyFormatters = new Map<string, Intl.DateTimeFormat>();

/** A candle time in New York (the spec's chart time zone). */
export function formatNyTime(timestamp: number, locale: string, withDate: boolean): string {
  const pattern = NY_DATE_PATTERNS[locale];
  if (pattern !== undefined) {
    const local = new Date(timestamp + nyOffset(timestamp));
    const two = (n: number) => String(n).padStart(2, "0");
    if (!withDate) return `${two(local.getUTCHours())}${NY_TIME_SEPARATORS[locale] ?? ":"}${two(local.getUTCMinutes())}`;
    const month = local.getUTCMonth() + 1;
    const day = local.getUTCDate();
    return pattern.replace(/MM|DD|m|d/g, (t) =>
      t === "MM" ? two(month) : t === "DD" ? two(day) : t === "m" ? String(month) : String(day),
    );
  }
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
