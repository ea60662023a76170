/**
 * Mining / fund subscriptions (spec §3 Fund product, §4 Subscription states, §5 Subscribe, §9
 * Mining): pure rules, exact integer arithmetic on micros, no I/O. Shared by the service, the
 * daily job's documentation, the API and the subscribe page's confirmation sheet.
 *
 * Rounding (docs/decisions/015-funds.md):
 *   - day profit = dividend % × amount / 100, rounded HALF UP to 4 decimals (a multiple of 100 micros);
 *   - total profit = lock days × day profit (exact: no second rounding);
 *   - redemption penalty = share × liquidated damages % / 100, rounded HALF UP to 2 decimals (cents).
 * Days are UTC dates (YYYY-MM-DD): subscribing on day S gives start_day = S + 1 and
 * end_day = S + lock days; income is paid for each day from start_day to end_day inclusive.
 */
import { MICROS_PER_USD, parseAmount, type Micros } from "~/domain/money";
import { DAY_MS, utcDay } from "~/domain/day";

export const SubscriptionStatus = { InProgress: 1, Refunding: 2, Refunded: 3, Finished: 4 } as const;
export type SubscriptionStatus = (typeof SubscriptionStatus)[keyof typeof SubscriptionStatus];
/** i18n keys (fund.status_<key>) by status. */
export const SUBSCRIPTION_STATUS_KEYS: Record<number, string> = { 1: "in_progress", 2: "refunding", 3: "refunded", 4: "finished" };

export const FundStatus = { Closed: 0, Open: 1 } as const;

/** Decimals of a subscription amount as typed (USD cents). */
export const AMOUNT_DECIMALS = 2;
/** Decimals of the day profit (spec §9). */
export const DAY_PROFIT_DECIMALS = 4;
/** A percentage as stored: a non-negative decimal with at most 6 decimals, below 1000 %. */
const PERCENT = /^(\d{1,3})(?:\.(\d{1,6}))?$/;
const PERCENT_SCALE = 1_000_000n;

/** A stored percentage string ("0.8", "12.5") as an integer of millionths of a percent, or null. */
export function percentMillionths(value: string): bigint | null {
  const m = PERCENT.exec(value.trim());
  if (!m) return null;
  return BigInt(m[1]!) * PERCENT_SCALE + BigInt((m[2] ?? "").padEnd(6, "0"));
}

export function isPercent(value: string): boolean {
  return percentMillionths(value) !== null;
}

/** n / d rounded half up (n, d ≥ 0, d > 0). */
function divHalfUp(n: bigint, d: bigint): bigint {
  return (n * 2n + d) / (2n * d);
}

/** amount × percent / 100, rounded half up to `decimals` decimals, in micros. */
function percentOf(amount: Micros, percent: string, decimals: number): Micros {
  const p = percentMillionths(percent);
  if (p === null) throw new RangeError(`not a percentage: ${percent}`);
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`not an amount: ${amount}`);
  const step = 10n ** BigInt(6 - decimals); // micros per unit of the last kept decimal
  // amount (micros) × p / (100 × 10^6) micros, expressed in steps
  const steps = divHalfUp(BigInt(amount) * p, 100n * PERCENT_SCALE * step);
  return Number(steps * step);
}

/** Day profit = dividend % × amount / 100, half up to 4 decimals. E.g. 0.8 % of 100 USD = 0.8 USD; 0.35 % of 50.01 = 0.1750 (0.175035). */
export function dayProfit(amount: Micros, dividendPercentage: string): Micros {
  return percentOf(amount, dividendPercentage, DAY_PROFIT_DECIMALS);
}

/**
 * The terms a subscriber confirms (expected daily %, lock days, early-redemption %), as one key:
 * the confirm form carries the key it showed, and the subscription is refused if the product's
 * terms changed before the confirm.
 */
export function fundTermsKey(fund: { dividendPercentage: string; lockDividendDays: number; liquidatedDamages: string }): string {
  return `${fund.dividendPercentage}|${fund.lockDividendDays}|${fund.liquidatedDamages}`;
}

/** Total profit = lock days × day profit. */
export function totalProfit(amount: Micros, dividendPercentage: string, lockDays: number): Micros {
  return lockDays * dayProfit(amount, dividendPercentage);
}

/** Early-redemption penalty = share × liquidated damages % / 100, half up to 2 decimals. */
export function redemptionPenalty(share: Micros, liquidatedDamages: string): Micros {
  return Math.min(share, percentOf(share, liquidatedDamages, 2));
}

/* ---- days ---- */

const DAY = /^\d{4}-\d{2}-\d{2}$/;
export function isDay(value: string): boolean {
  return DAY.test(value) && utcDay(Date.parse(`${value}T00:00:00Z`)) === value;
}

/** The UTC date of an instant (the platform's day, app/domain/day.ts). */
export { utcDay };

export function addDays(day: string, n: number): string {
  return utcDay(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS);
}

/** Subscribing on day S: income from S + 1 to S + lock days inclusive. */
export function subscriptionDays(subscribedOn: string, lockDays: number): { startDay: string; endDay: string } {
  return { startDay: addDays(subscribedOn, 1), endDay: addDays(subscribedOn, lockDays) };
}

/**
 * The days a run of the daily job on `runDay` pays for a subscription in progress: every unpaid
 * day d with start_day ≤ d ≤ min(runDay, end_day), the unpaid ones being those after the first
 * `paidDays` (a missed run is caught up by the next one). A subscription whose day profit rounds
 * to 0 has no income to pay (no rows of 0). The daily job applies this rule in SQL
 * (app/services/fund/income.server.ts); tests/integration/fund-income-rule.test.ts holds them equal.
 */
export function dueIncomeDays(sub: { startDay: string; endDay: string; paidDays: number; dayProfit?: Micros }, runDay: string): string[] {
  if (sub.dayProfit === 0) return [];
  const last = runDay < sub.endDay ? runDay : sub.endDay;
  const out: string[] = [];
  for (let d = addDays(sub.startDay, sub.paidDays); d <= last; d = addDays(d, 1)) out.push(d);
  return out;
}

/** Whether the run of `runDay` returns the share: the lock has ended and every day is paid (or there is no income to pay). */
export function isDueToFinish(sub: { endDay: string; paidDays: number; lockDays: number; dayProfit?: Micros }, runDay: string): boolean {
  return runDay >= sub.endDay && (sub.dayProfit === 0 || sub.paidDays >= sub.lockDays);
}

/* ---- the subscribe form ---- */

export type AmountCheck = { ok: true; amount: Micros } | { ok: false; error: string };

/**
 * A typed subscription amount against the product's bounds and the funding balance (spec §5:
 * empty → 'input lock num'). Returns the i18n key of the first refusal.
 */
export function checkSubscribeAmount(
  input: string | undefined | null,
  fund: { startingSubAmount: Micros; maxSubAmount: Micros },
  available: Micros | null,
): AmountCheck {
  const text = (input ?? "").trim();
  if (!text) return { ok: false, error: "fund.input_lock_num" };
  const amount = parseAmount(text, AMOUNT_DECIMALS);
  if (amount === null || amount <= 0) return { ok: false, error: "fund.amount_invalid" };
  if (amount < fund.startingSubAmount) return { ok: false, error: "fund.amount_below_min" };
  if (amount > fund.maxSubAmount) return { ok: false, error: "fund.amount_above_max" };
  if (available !== null && amount > available) return { ok: false, error: "fund.insufficient" };
  return { ok: true, amount };
}

/** Whole USD micros from a seed/config decimal ("100"). */
export const usd = (n: number): Micros => n * MICROS_PER_USD;
