/**
 * Deposit rules (spec §2 /mine/charge, §3 Charge, §5, §9), pure and exact: the amount a user
 * types (USD, or a coin count converted at the currency's usd_price), the record statuses, and
 * the short form of an address. Shared by the services and the page's live preview.
 */
import { MICROS_PER_USD, parseAmount, type Micros } from "~/domain/money";

export const DepositType = { Coin: 0, Bank: 1 } as const;
export type DepositType = (typeof DepositType)[keyof typeof DepositType];

/** Spec §4 Charge record status. */
export const DepositStatus = { Unchecked: 0, Finished: 1, Rejected: 2, Invalid: 3 } as const;
export type DepositStatus = (typeof DepositStatus)[keyof typeof DepositStatus];
export const DEPOSIT_STATUS_KEYS = ["unchecked", "finished", "rejected", "invalid"] as const;

/** The status name's i18n key (deposit.status_unchecked …). */
export function depositStatusKey(status: number): string {
  return `deposit.status_${DEPOSIT_STATUS_KEYS[status] ?? "unchecked"}`;
}

/** The largest single deposit request, in USD (the spec names no bound; a typo of a few zeros stops here). */
export const MAX_DEPOSIT_USD = 1_000_000;
export const MAX_DEPOSIT: Micros = MAX_DEPOSIT_USD * MICROS_PER_USD;
export const USD_DECIMALS = 2;
export const COIN_DECIMALS = 8;
export const MAX_SENDER_ADDRESS = 128;

export type AmountUnit = "usd" | "coin";

const COIN_RE = /^(\d{1,12})(?:\.(\d{1,8}))?$/;
const PRICE_RE = /^(\d{1,15})(?:\.(\d{1,18}))?$/;

/** A coin count as typed, in canonical form ("0.50000000" → "0.5"), or null (signs, exponents, > 8 decimals). */
export function parseCoinCount(input: string): string | null {
  const m = COIN_RE.exec(input.trim());
  if (!m) return null;
  const whole = m[1]!.replace(/^0+(?=\d)/, "");
  const frac = (m[2] ?? "").replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : whole;
}

function decimalParts(text: string, re: RegExp): { digits: bigint; scale: number } | null {
  const m = re.exec(text.trim());
  if (!m) return null;
  const frac = m[2] ?? "";
  return { digits: BigInt(m[1]! + frac), scale: frac.length };
}

/**
 * USD value of a coin count at a price (both exact decimal strings), rounded DOWN to the cent:
 * the platform never credits more than the coins are worth. Null when either is malformed.
 */
export function coinToUsd(coinCount: string, usdPrice: string): Micros | null {
  const coins = decimalParts(coinCount, COIN_RE);
  const price = decimalParts(usdPrice, PRICE_RE);
  if (!coins || !price) return null;
  const scale = 10n ** BigInt(coins.scale + price.scale);
  const cents = (coins.digits * price.digits * 100n) / scale;
  const micros = cents * BigInt(MICROS_PER_USD / 100);
  return micros > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(micros);
}

export type DepositAmount =
  | { ok: true; amount: Micros; coinCount: string | null }
  | {
      ok: false;
      error:
        | "deposit.amount_required"
        | "deposit.amount_invalid"
        | "deposit.coin_invalid"
        | "deposit.amount_positive"
        | "deposit.coin_too_small"
        | "deposit.amount_too_large";
    };

/**
 * The USD amount of a deposit request from what the user typed: a USD amount (> 0, ≤ 2
 * decimals) or a coin count (> 0, ≤ 8 decimals, worth at least 0.01 USD), at most MAX_DEPOSIT.
 */
export function depositAmount(typed: string | null | undefined, unit: AmountUnit, usdPrice: string): DepositAmount {
  const text = (typed ?? "").trim();
  if (!text) return { ok: false, error: "deposit.amount_required" };
  if (unit === "coin") {
    const count = parseCoinCount(text);
    if (count === null) return { ok: false, error: "deposit.coin_invalid" };
    if (/^0(\.0*)?$/.test(count)) return { ok: false, error: "deposit.amount_positive" };
    const amount = coinToUsd(count, usdPrice);
    if (amount === null || amount === 0) return { ok: false, error: "deposit.coin_too_small" };
    if (amount > MAX_DEPOSIT) return { ok: false, error: "deposit.amount_too_large" };
    return { ok: true, amount, coinCount: count };
  }
  const amount = parseAmount(text, USD_DECIMALS);
  if (amount === null) return { ok: false, error: "deposit.amount_invalid" };
  if (amount <= 0) return { ok: false, error: "deposit.amount_positive" };
  if (amount > MAX_DEPOSIT) return { ok: false, error: "deposit.amount_too_large" };
  return { ok: true, amount, coinCount: null };
}

/** Spec §9: an address where space is short, as its first 6 and last 4 characters. */
export function shortAddress(address: string): string {
  return address.length <= 12 ? address : `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/** A sending address as typed: letters, digits and a few separators, bounded; "" when none. */
export function senderAddressOk(address: string): boolean {
  return address.length <= MAX_SENDER_ADDRESS && /^[A-Za-z0-9:._-]*$/.test(address);
}
