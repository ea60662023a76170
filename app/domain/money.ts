/**
 * Money is integer micro-USD ("micros": 1 USD = 1_000_000), never a binary float.
 * Six decimals hold every figure of spec §9 exactly (balances 2, fund day profit 4, margin 6);
 * each figure is rounded once, half away from zero, at the decimals the spec names.
 * Safe up to Number.MAX_SAFE_INTEGER micros (about 9 billion USD per amount).
 */
import { localizeDecimal } from "./number-format";

export type Micros = number;

export const MICRO_DECIMALS = 6;
export const MICROS_PER_USD = 1_000_000;

export function assertMicros(value: number): asserts value is Micros {
  if (!Number.isSafeInteger(value)) throw new RangeError(`not an exact amount: ${value}`);
}

/** Rounds micros to `decimals` (0..6) decimal places, half away from zero. */
export function roundMicros(value: Micros, decimals: number): Micros {
  assertMicros(value);
  if (decimals >= MICRO_DECIMALS) return value;
  const step = 10 ** (MICRO_DECIMALS - decimals);
  const sign = value < 0 ? -1 : 1;
  const abs = Math.abs(value);
  const q = Math.floor(abs / step);
  const r = abs - q * step;
  return sign * (r * 2 >= step ? q + 1 : q) * step;
}

/**
 * Cuts micros to `decimals` (0..6) decimal places toward zero (0.175 → 0.17 at 2 decimals).
 * A balance a user can act on is never shown larger than it is: shown rounded up, it could not
 * be moved (see `toBalanceString`).
 */
export function truncateMicros(value: Micros, decimals: number): Micros {
  assertMicros(value);
  if (decimals >= MICRO_DECIMALS) return value;
  const step = 10 ** (MICRO_DECIMALS - decimals);
  return Math.sign(value) * Math.floor(Math.abs(value) / step) * step || 0;
}

const AMOUNT_RE = /^(\d{1,12})(?:\.(\d{1,6}))?$/;

/**
 * Parses a user-typed non-negative amount ("12", "12.5", "0.01") into micros, with at most
 * `maxDecimals` decimals. Returns null for anything else (signs, exponents, commas, too many
 * digits or decimals).
 */
export function parseAmount(input: string, maxDecimals = 2): Micros | null {
  const m = AMOUNT_RE.exec(input.trim());
  if (!m) return null;
  const frac = m[2] ?? "";
  if (frac.length > maxDecimals) return null;
  const value = Number(m[1]) * MICROS_PER_USD + Number(frac.padEnd(MICRO_DECIMALS, "0"));
  return Number.isSafeInteger(value) ? value : null;
}

const SIGNED_DECIMAL_RE = /^(-?)(\d{1,12})(?:\.(\d{1,6})\d*)?$/;

/**
 * A decimal amount as another system writes it ("-12.5", "0.000001", 12.5) into micros: digits
 * past the sixth decimal are cut (a backend's 8-decimal figure shown to the micro), exponents,
 * separators and more than 12 integer digits are refused (null). A JSON number is read through
 * its shortest decimal text, which is the number its writer meant.
 */
export function decimalToMicros(input: string | number): Micros | null {
  const text = typeof input === "number" ? (Number.isFinite(input) ? String(input) : "") : input.trim();
  const m = SIGNED_DECIMAL_RE.exec(text);
  if (!m) return null;
  const value = Number(m[2]) * MICROS_PER_USD + Number((m[3] ?? "").padEnd(MICRO_DECIMALS, "0"));
  if (!Number.isSafeInteger(value)) return null;
  return m[1] === "-" && value !== 0 ? -value : value;
}

/** Exact decimal string of micros rounded to `decimals`, e.g. toDecimalString(1234500, 2) = "1.23" (half away: "1.24" for 1235000). */
export function toDecimalString(value: Micros, decimals = 2): string {
  const rounded = roundMicros(value, decimals);
  const sign = rounded < 0 ? "-" : "";
  const abs = Math.abs(rounded);
  const whole = Math.floor(abs / MICROS_PER_USD);
  const frac = String(abs - whole * MICROS_PER_USD)
    .padStart(MICRO_DECIMALS, "0")
    .slice(0, decimals);
  return decimals > 0 ? `${sign}${whole}.${frac}` : `${sign}${whole}`;
}

/**
 * How many decimals show an amount exactly: 2 (cents) when it has no more, else 4 (a fund's day
 * income reads 0.1750, as the fund pages write it), else 6 (micros).
 */
export function exactDecimals(value: Micros): 2 | 4 | 6 {
  const abs = Math.abs(value);
  return abs % 10_000 === 0 ? 2 : abs % 100 === 0 ? 4 : 6;
}

/** Localised display with grouping, built from the exact decimal string (no float rounding). */
export function formatMoney(value: Micros, locale: string, decimals = 2): string {
  return localizeDecimal(toDecimalString(value, decimals), locale);
}

/**
 * A balance (available, locked, an account's or the total of spec §9) at 2 decimals, cut toward
 * zero: every screen and the JSON API show balances with it, so no figure shows more than can be
 * moved (0.175 reads 0.17, and 0.17 can be transferred). The exact amount moves with "transfer all".
 */
export function toBalanceString(value: Micros): string {
  return toDecimalString(truncateMicros(value, 2), 2);
}

/** `toBalanceString` localised (grouping and decimal separator of `locale`). */
export function formatBalance(value: Micros, locale: string): string {
  return formatMoney(truncateMicros(value, 2), locale, 2);
}
