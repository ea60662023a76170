/**
 * Timed up/down options (spec §3 Micro, §4 Future order, issue 9): the payout and settlement
 * rules, in exact integers, shared by the browser's predicted profit, the services and the
 * engine. Pure: no I/O.
 *
 *   - An up option wins when the end price ≥ the open price; a down option when end ≤ open. A tie
 *     (end = open) therefore wins either way (spec §4).
 *   - The profit figure is amount × ProfitRatio, rounded to 2 decimals (half away from zero).
 *   - A win pays the stake back plus the profit figure. A loss costs the whole stake when
 *     micro_loss_level is 0; otherwise it costs only the profit figure (the rest of the stake
 *     comes back).
 */
import { divRound, parseDecimal, type PriceSteps } from "./contract";
import { parseAmount, roundMicros, type Micros } from "./money";

export const Direction = { Up: 1, Down: 2 } as const;
export type Direction = (typeof Direction)[keyof typeof Direction];

/** Spec §3 micro order Status. */
export const OptionStatus = { Open: 1, Settled: 3 } as const;

export type Outcome = "win" | "loss";

/** amount × ProfitRatio, 2 decimals, half away from zero. 100 USD × 0.85 = 85.00. */
export function profitFigure(amount: Micros, profitRatio: string): Micros {
  const ratio = parseDecimal(profitRatio);
  if (!ratio) throw new RangeError("bad profit ratio");
  const raw = divRound(BigInt(amount) * ratio.units, 10n ** BigInt(ratio.scale));
  if (raw > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError("amount out of range");
  return roundMicros(Number(raw), 2);
}

/** Whether the option wins at `end` (ties win: up when end ≥ open, down when end ≤ open). */
export function outcomeOf(direction: Direction, open: PriceSteps, end: PriceSteps): Outcome {
  const wins = direction === Direction.Up ? end >= open : end <= open;
  return wins ? "win" : "loss";
}

export interface Settlement {
  outcome: Outcome;
  /** FactProfits: +profit figure on a win, −stake (loss level 0) or −profit figure otherwise. */
  profit: Micros;
  /** What goes back to the available balance (stake + profit, or what the loss leaves). */
  payout: Micros;
}

/** What a wrong option costs (shown before buying): the stake at loss level 0, else the profit figure (at most the stake). 100 USD × 0.85: 100.00 or 85.00. */
export function lossIfWrong(amount: Micros, profitRatio: string, lossLevel: number): Micros {
  return lossLevel === 0 ? amount : Math.min(profitFigure(amount, profitRatio), amount);
}

export function settle(
  direction: Direction,
  open: PriceSteps,
  end: PriceSteps,
  amount: Micros,
  profitRatio: string,
  lossLevel: number,
): Settlement {
  if (outcomeOf(direction, open, end) === "win") {
    const figure = profitFigure(amount, profitRatio);
    return { outcome: "win", profit: figure, payout: amount + figure };
  }
  const loss = lossIfWrong(amount, profitRatio, lossLevel);
  return { outcome: "loss", profit: -loss, payout: amount - loss };
}

/** The predicted profit while open (spec §4): the settlement rule at the current price. */
export function predictedProfit(
  direction: Direction,
  open: PriceSteps,
  price: PriceSteps,
  amount: Micros,
  profitRatio: string,
  lossLevel: number,
): Micros {
  return settle(direction, open, price, amount, profitRatio, lossLevel).profit;
}

/** Duration display (spec §4): 7 days or more in days, 1 to 3 days in hours, otherwise seconds. */
export function durationParts(seconds: number): { value: number; unit: "days" | "hours" | "seconds" } {
  const day = 86_400;
  if (seconds >= 7 * day) return { value: Math.round(seconds / day), unit: "days" };
  if (seconds >= day && seconds <= 3 * day) return { value: Math.round(seconds / 3600), unit: "hours" };
  return { value: seconds, unit: "seconds" };
}

/* ---------------------------------------------------------------------------------------------
 * The operator's terms (durations and preset stakes), checked before they are stored
 * ------------------------------------------------------------------------------------------- */

/** Durations an operator may offer: 10 seconds to 30 days. */
export const DURATION_SECONDS = { min: 10, max: 30 * 86_400 } as const;
/** Preset stakes: at most this many buttons. */
export const MAX_PRESET_STAKES = 8;

/**
 * A profit ratio as typed by an operator ("0.85"): more than 0, at most 10, at most 4 decimals.
 * Returns the canonical string stored and sent to clients ("0.8500" → "0.85", ".5" refused), or null.
 */
export function parseProfitRatio(input: string): string | null {
  const m = /^(\d{1,2})(?:\.(\d{1,4}))?$/.exec(input.trim());
  if (!m) return null;
  const frac = (m[2] ?? "").replace(/0+$/, "");
  const whole = String(Number(m[1]));
  const units = BigInt(whole + frac.padEnd(4, "0"));
  if (units <= 0n || units > 100_000n) return null;
  return frac ? `${whole}.${frac.padEnd(2, "0")}` : `${whole}.00`;
}

/** Whole seconds within DURATION_SECONDS, or null. */
export function parseDurationSeconds(input: string): number | null {
  const t = input.trim();
  if (!/^\d{1,7}$/.test(t)) return null;
  const n = Number(t);
  return n >= DURATION_SECONDS.min && n <= DURATION_SECONDS.max ? n : null;
}

export type StakeListError = "empty" | "invalid" | "too_many" | "too_large";

/**
 * Preset stakes as typed ("10, 50 100"): separated by commas or spaces, each a positive amount
 * with at most 2 decimals and at most `max`; duplicates dropped; sorted ascending.
 */
export function parseStakeList(input: string, max: Micros): { ok: true; value: Micros[] } | { ok: false; error: StakeListError } {
  const parts = input.split(/[\s,;]+/).filter(Boolean);
  if (parts.length === 0) return { ok: false, error: "empty" };
  const values = new Set<Micros>();
  for (const part of parts) {
    const amount = parseAmount(part, 2);
    if (amount === null || amount <= 0) return { ok: false, error: "invalid" };
    if (amount > max) return { ok: false, error: "too_large" };
    values.add(amount);
  }
  if (values.size > MAX_PRESET_STAKES) return { ok: false, error: "too_many" };
  return { ok: true, value: [...values].sort((a, b) => a - b) };
}

/**
 * Buying an option (spec §7 /v2/api/micro/submit), as the option form's schema (app/forms/option.ts)
 * yields it for the trade page and the JSON API alike. The stake stays the decimal typed: its
 * minimum is the chosen duration's.
 */
export interface BuyCommand {
  instrumentId: number;
  /** type: 1 up, 2 down. */
  direction: Direction;
  /** number: the stake as typed (USD, at most 2 decimals; "" when none). */
  amount: string;
  /** seconds: one of the durations on offer. */
  seconds: number;
  requestKey?: string;
}

/** The stake as typed against the duration's minimum and the largest stake: micros, or the refusal's message key ("errors.amount_min|10"). */
export function checkStake(
  input: string,
  minAmount: Micros,
  maxStake: Micros,
): { ok: true; amount: Micros } | { ok: false; message: string } {
  if (!input.trim()) return { ok: false, message: "errors.amount_required" };
  const amount = parseAmount(input, 2);
  if (amount === null || amount <= 0) return { ok: false, message: "errors.amount_invalid" };
  if (amount < minAmount) return { ok: false, message: `errors.amount_min|${minAmount / 1_000_000}` };
  if (amount > maxStake) return { ok: false, message: "errors.amount_max|1000000" };
  return { ok: true, amount };
}
