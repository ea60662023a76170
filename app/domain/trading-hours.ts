/**
 * New York time and trading hours, computed arithmetically (no Intl call per step: the history
 * generator asks this hundreds of thousands of times). US DST: from the second Sunday of March
 * 02:00 local to the first Sunday of November 02:00 local.
 */
export type SessionKind = "fx" | "metal" | "crypto" | "index" | "energy";

const HOUR = 3_600_000;
const dstCache = new Map<number, [number, number]>();

/** UTC ms of the DST start and end for a year. */
function dstBounds(year: number): [number, number] {
  let b = dstCache.get(year);
  if (!b) {
    const march1 = new Date(Date.UTC(year, 2, 1)).getUTCDay();
    const secondSundayMarch = 1 + ((7 - march1) % 7) + 7;
    const nov1 = new Date(Date.UTC(year, 10, 1)).getUTCDay();
    const firstSundayNov = 1 + ((7 - nov1) % 7);
    // 02:00 EST = 07:00 UTC; 02:00 EDT = 06:00 UTC
    b = [Date.UTC(year, 2, secondSundayMarch, 7), Date.UTC(year, 10, firstSundayNov, 6)];
    dstCache.set(year, b);
  }
  return b;
}

/** The market's time zone (spec §2 Trade: the chart's time zone; trading hours below are New York time). */
export const MARKET_TIME_ZONE = "America/New_York";

/** New York's offset from UTC in ms (-4h in summer, -5h in winter). */
export function nyOffset(utcMs: number): number {
  const year = new Date(utcMs).getUTCFullYear();
  const [start, end] = dstBounds(year);
  return utcMs >= start && utcMs < end ? -4 * HOUR : -5 * HOUR;
}

/** Weekday (0 Sunday) and minutes since midnight in New York. */
export function nyClock(utcMs: number) {
  const local = new Date(utcMs + nyOffset(utcMs));
  return { weekday: local.getUTCDay(), minutes: local.getUTCHours() * 60 + local.getUTCMinutes() };
}

/** UTC ms of midnight (00:00 New York) of the New York day containing utcMs. */
export function nyDayStart(utcMs: number): number {
  const offset = nyOffset(utcMs);
  const local = utcMs + offset;
  const midnightLocal = local - (((local % 86_400_000) + 86_400_000) % 86_400_000);
  // the offset at midnight may differ on DST days; adjust once
  return midnightLocal - nyOffset(midnightLocal - offset);
}

const FIVE_PM = 17 * 60;
const SIX_PM = 18 * 60;

/**
 * Whether a market of this kind trades at utcMs. FX and metals: closed from Friday 17:00 to
 * Sunday 17:00 New York time. Indices and energy: closed Friday 17:00 to Sunday 18:00 and daily
 * 17:00–18:00. Crypto: always open.
 */
export function isMarketOpen(kind: SessionKind, utcMs: number): boolean {
  if (kind === "crypto") return true;
  const { weekday, minutes } = nyClock(utcMs);
  const reopen = kind === "fx" || kind === "metal" ? FIVE_PM : SIX_PM;
  if (weekday === 6) return false;
  if (weekday === 5 && minutes >= FIVE_PM) return false;
  if (weekday === 0 && minutes < reopen) return false;
  if ((kind === "index" || kind === "energy") && weekday >= 1 && weekday <= 4 && minutes >= FIVE_PM && minutes < SIX_PM) return false;
  return true;
}
