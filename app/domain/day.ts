/**
 * The platform's day: the UTC calendar day. The daily jobs (fund income, loan penalties) pay and
 * count by it, and today's profit adds up the ledger entries written within it. Written once here.
 */

export const DAY_MS = 86_400_000;

/** The UTC date of an instant, YYYY-MM-DD. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The UTC day number of an instant (days since 1970-01-01). */
export function utcDayIndex(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** The UTC day holding an instant, as the half-open range [start, end) of epoch milliseconds. */
export function utcDayRange(ms: number): { start: number; end: number } {
  const start = utcDayIndex(ms) * DAY_MS;
  return { start, end: start + DAY_MS };
}
