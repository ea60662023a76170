/**
 * Withdrawals (spec §3 Withdraw currency / Draw method / Withdraw record, §5, §9): the fee, the
 * amount received, the checks of a request, and the payout methods' formats. Pure and exact
 * (integers and BigInt, never binary floats); shared by the browser's live preview on
 * /mine/withdraw, the confirm step, the services and the JSON API.
 *
 *   - fee: fee_type 1 → draw_rate is a fixed fee in USD; otherwise draw_rate × amount.
 *     ROUNDING: the fee is rounded UP to the cent (a fee is never understated by a fraction of a
 *     cent: 0.5% of 12.34 USD = 0.0617 → 0.07). This is the one exception to ADR 003's "half away
 *     from zero", written down in docs/glossary.md.
 *   - received: (amount − fee) × usd_price, in the payout currency, 2 decimals, half away from
 *     zero (ADR 003), never below 0. An empty, malformed or negative amount shows 0.
 *
 * Decimal configuration strings ("0.005", "7.8", "62000.5") are scaled to integers (BigInt) and
 * every product is computed exactly before its single rounding.
 */
import { divRound, parseDecimal } from "./contract";
import { MICROS_PER_USD, parseAmount, type Micros } from "./money";

/** Payout method types (table payout_methods.draw_type, withdraw_currencies.draw_type). */
export const DrawType = { Coin: 1, Bank: 2 } as const;
export type DrawType = (typeof DrawType)[keyof typeof DrawType];

/** /mine/withdraw?type: 0 coin, 1 bank (spec §2); methods use draw_type 1 coin, 2 bank. */
export function drawTypeOfPage(type: string | null | undefined): DrawType {
  return type === "1" ? DrawType.Bank : DrawType.Coin;
}
export function pageTypeOf(drawType: DrawType): "0" | "1" {
  return drawType === DrawType.Bank ? "1" : "0";
}

/** Withdrawal record status (spec §3): 0 under review, 1 paid, 2 rejected. */
export const WithdrawStatus = { Review: 0, Paid: 1, Rejected: 2 } as const;
export type WithdrawStatus = (typeof WithdrawStatus)[keyof typeof WithdrawStatus];
export const STATUS_KEYS: Record<number, string> = {
  0: "withdraw.status_review",
  1: "withdraw.status_paid",
  2: "withdraw.status_rejected",
};

/** The largest amount of one request (a typo guard; keeps every converted figure exact). */
export const MAX_WITHDRAW: Micros = 100_000_000 * MICROS_PER_USD;

/** At most this many live payout methods per type and user. */
export const MAX_METHODS_PER_TYPE = 10;

/** The terms of a withdrawal currency that the figures need. */
export interface FeeTerms {
  /** fee_type: 1 fixed fee of draw_rate USD, anything else a rate of the amount. */
  feeType: number;
  /** draw_rate as an exact decimal string ("1", "0.005"). */
  drawRate: string;
  /** usd_price: units of the payout currency per USD ("1", "0.92", "7.8"). */
  usdPrice: string;
}

const CENT: Micros = MICROS_PER_USD / 100;

function decimalOrThrow(text: string, what: string) {
  const d = parseDecimal(text);
  if (!d) throw new RangeError(`bad ${what}: ${text}`);
  return d;
}

function toSafe(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError("amount out of range");
  return Number(value);
}

/** Integer division rounding up (n ≥ 0, d > 0). */
function ceilDiv(n: bigint, d: bigint): bigint {
  return (n + d - 1n) / d;
}

/**
 * The fee of a withdrawal of `amount` micro-USD, rounded UP to the cent.
 * fee_type 1: draw_rate USD ("1" → 1.00). Otherwise draw_rate × amount ("0.005" × 100 USD = 0.50).
 */
export function withdrawFee(amount: Micros, terms: Pick<FeeTerms, "feeType" | "drawRate">): Micros {
  const rate = decimalOrThrow(terms.drawRate, "draw_rate");
  const cent = BigInt(CENT);
  // the exact fee in units of 10^-(6 + scale) USD
  const exact = terms.feeType === 1 ? rate.units * BigInt(MICROS_PER_USD) : rate.units * BigInt(Math.max(0, amount));
  const scale = 10n ** BigInt(rate.scale);
  return toSafe(ceilDiv(exact, scale * cent) * cent);
}

/**
 * What the payee receives, in the payout currency, as an integer of 10^-6 of it, at 2 decimals:
 * (amount − fee) × usd_price rounded once (half away from zero) to the cent; never below 0.
 */
export function receivedAmount(amount: Micros, fee: Micros, terms: Pick<FeeTerms, "usdPrice">): Micros {
  const net = amount - fee;
  if (net <= 0) return 0;
  const price = decimalOrThrow(terms.usdPrice, "usd_price");
  const cents = divRound(BigInt(net) * price.units, 10n ** BigInt(price.scale) * BigInt(CENT));
  return cents <= 0n ? 0 : toSafe(cents * BigInt(CENT));
}

export interface WithdrawFigures {
  /** The amount in micro-USD (0 when the input is not a valid positive amount). */
  amount: Micros;
  fee: Micros;
  /** In the payout currency's micro units, at 2 decimals. */
  received: Micros;
}

/** The figures of an amount (micro-USD). */
export function withdrawFigures(amount: Micros, terms: FeeTerms): WithdrawFigures {
  const a = amount > 0 ? amount : 0;
  const fee = withdrawFee(a, terms);
  return { amount: a, fee, received: receivedAmount(a, fee, terms) };
}

/**
 * The live preview of a typed amount (the browser and the confirm step): an empty, malformed,
 * too precise or negative amount counts as 0, so received shows 0.
 */
export function previewWithdrawal(amountText: string, terms: FeeTerms): WithdrawFigures {
  const amount = parseAmount(amountText ?? "", 2);
  return withdrawFigures(amount !== null && amount <= MAX_WITHDRAW ? amount : 0, terms);
}

export type WithdrawRefusal =
  | { error: "errors.amount_required" }
  | { error: "errors.amount_invalid" }
  | { error: "errors.amount_max"; value: Micros }
  | { error: "withdraw.amount_min"; value: Micros }
  | { error: "withdraw.fee_exceeds" }
  | { error: "withdraw.insufficient_balance" };

/**
 * The checks of a request (spec §5 and issue 10 "bad input"), in this order: an amount is given;
 * it is a positive number with at most 2 decimals; at least the currency's minimum; the fee leaves
 * something to receive; at most the available balance (the ledger's CHECK enforces that last one
 * again inside the write, whatever the concurrency).
 */
export function checkWithdrawal(
  amountText: string,
  terms: FeeTerms & { minAmount: Micros },
  available: Micros,
): { ok: true; figures: WithdrawFigures } | ({ ok: false } & WithdrawRefusal) {
  const text = (amountText ?? "").trim();
  if (!text) return { ok: false, error: "errors.amount_required" };
  const amount = parseAmount(text, 2);
  if (amount === null || amount <= 0) return { ok: false, error: "errors.amount_invalid" };
  if (amount > MAX_WITHDRAW) return { ok: false, error: "errors.amount_max", value: MAX_WITHDRAW };
  if (amount < terms.minAmount) return { ok: false, error: "withdraw.amount_min", value: terms.minAmount };
  const figures = withdrawFigures(amount, terms);
  if (figures.received <= 0) return { ok: false, error: "withdraw.fee_exceeds" };
  if (amount > available) return { ok: false, error: "withdraw.insufficient_balance" };
  return { ok: true, figures };
}

// ---- payout methods ----

const BASE58 = "[1-9A-HJ-NP-Za-km-z]";
const ADDRESS_RULES: Record<string, RegExp> = {
  /** TRON: base58check, "T" and 33 more characters. */
  TRC20: new RegExp(`^T${BASE58}{33}$`),
  /** Ethereum and its tokens: 0x and 40 hex digits. */
  ERC20: /^0x[0-9a-fA-F]{40}$/,
  BEP20: /^0x[0-9a-fA-F]{40}$/,
  /** Bitcoin: bech32 (bc1 + lowercase bech32 alphabet) or base58 P2PKH/P2SH (1… / 3…, 26–35 characters). */
  BTC: new RegExp(`^(?:bc1[02-9ac-hj-np-z]{11,71}|[13]${BASE58}{25,34})$`),
};
/** Other networks: a plausible address (letters and digits only). */
const GENERIC_ADDRESS = /^[A-Za-z0-9]{16,100}$/;

/** Whether `address` has the format of the network `protocol` (TRC20, ERC20, BTC; others loosely). */
export function isValidAddress(protocol: string, address: string): boolean {
  const rule = ADDRESS_RULES[protocol.trim().toUpperCase()] ?? GENERIC_ADDRESS;
  return rule.test(address);
}

/** A bech32 address may be typed in upper case; it is kept in lower case. Others are kept as typed (checksummed case). */
export function normaliseAddress(address: string): string {
  const trimmed = address.trim();
  return /^BC1[02-9AC-HJ-NP-Z]+$/.test(trimmed) ? trimmed.toLowerCase() : trimmed;
}

// ---- paid withdrawals: the payout's transaction id ----

/** A payout's transaction id per network: a 32-byte hash (TRON and Bitcoin bare, EVM chains with 0x). */
const TX_RULES: Record<string, RegExp> = {
  TRC20: /^[0-9a-f]{64}$/,
  ERC20: /^0x[0-9a-f]{64}$/,
  BEP20: /^0x[0-9a-f]{64}$/,
  BTC: /^[0-9a-f]{64}$/,
};
/** Other networks: a plausible id (letters and digits only). */
const GENERIC_TX = /^[A-Za-z0-9]{16,128}$/;
/** A bank transfer's reference: SWIFT's character set, 4 to 35 characters. */
const BANK_REFERENCE = /^[A-Za-z0-9/\-?:().,'+ ]{4,35}$/;

/**
 * The transaction id an operator enters when approving a payout, in its one stored form (hashes in
 * lower case, a bank reference as typed), or null when it does not have the network's format.
 */
export function normaliseTxId(drawType: DrawType, protocol: string, raw: string): string | null {
  const value = raw.trim();
  if (drawType === DrawType.Bank) return BANK_REFERENCE.test(value) ? value.replace(/\s+/g, " ") : null;
  const network = protocol.trim().toUpperCase();
  const rule = TX_RULES[network];
  if (rule) return rule.test(value.toLowerCase()) ? value.toLowerCase() : null;
  return GENERIC_TX.test(value) ? value : null;
}

const EXPLORERS: Record<string, string> = {
  TRC20: "https://tronscan.org/#/transaction/",
  ERC20: "https://etherscan.io/tx/",
  BEP20: "https://bscscan.com/tx/",
  BTC: "https://mempool.space/tx/",
};

/** The public explorer's page of a payout's transaction, for the networks we know one for (else null). */
export function explorerUrl(network: string, txId: string): string | null {
  const base = EXPLORERS[network.trim().toUpperCase()];
  return base && txId ? base + encodeURIComponent(txId) : null;
}

/** A SWIFT/BIC code: 4 letters (bank), 2 letters (country), 2 letters or digits (location), optionally 3 more (branch). */
export function isValidSwift(code: string): boolean {
  return /^[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/.test(code);
}

/** Addresses and accounts shown as the first 6 and last 4 characters (spec §9); short ones whole. */
export function shortAddress(address: string): string {
  return address.length <= 12 ? address : `${address.slice(0, 6)}…${address.slice(-4)}`;
}
