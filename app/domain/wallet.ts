/**
 * Pure rules of the wallet screens (spec §3 Account, §4 Transfer, §5, §9): the three sub-account
 * types and their names, the transfer form's swap rule and checks, today's percentage, paging,
 * and the CSV statement's cells (guarded against formula injection). No I/O.
 */
import { parseAmount, type Micros } from "~/domain/money";

/** Spec §3: accountTypeId 1, 2, 3 are type change, micro, forex, shown as funding, option, contract. */
export const WALLET_ACCOUNTS = [
  { accountTypeId: 1, kind: "funding", type: "change" },
  { accountTypeId: 2, kind: "options", type: "micro" },
  { accountTypeId: 3, kind: "contract", type: "forex" },
] as const;
export type AccountTypeId = (typeof WALLET_ACCOUNTS)[number]["accountTypeId"];
export type WalletKind = (typeof WALLET_ACCOUNTS)[number]["kind"];

const NAMES: Record<string, AccountTypeId> = {
  "1": 1,
  change: 1,
  funding: 1,
  "2": 2,
  micro: 2,
  option: 2,
  options: 2,
  "3": 3,
  forex: 3,
  contract: 3,
};

/** An account type from what a client sends: its id (1–3), the spec's type name or the shown name; null otherwise. */
export function accountTypeOf(input: string | null | undefined): AccountTypeId | null {
  if (input === null || input === undefined) return null;
  const key = input.trim().toLowerCase();
  return Object.hasOwn(NAMES, key) ? NAMES[key]! : null;
}

export function walletAccount(id: AccountTypeId) {
  return WALLET_ACCOUNTS.find((a) => a.accountTypeId === id)!;
}

export function kindOf(id: AccountTypeId): WalletKind {
  return walletAccount(id).kind;
}

/**
 * The transfer form's pair after the user picks `value` for `side` (spec §4: from and to must
 * differ; choosing one equal to the other swaps the other).
 */
export function pickAccount(
  pair: { from: AccountTypeId; to: AccountTypeId },
  side: "from" | "to",
  value: AccountTypeId,
): { from: AccountTypeId; to: AccountTypeId } {
  if (side === "from") return value === pair.to ? { from: value, to: pair.from } : { from: value, to: pair.to };
  return value === pair.from ? { from: pair.to, to: value } : { from: pair.from, to: value };
}

/** The largest amount accepted in one transfer (USD), far below the exact range of micros. */
export const MAX_TRANSFER_MICROS: Micros = 1_000_000_000 * 1_000_000;

export type TransferError =
  | "transfer.err_account"
  | "transfer.err_same_account"
  | "transfer.err_amount_required"
  | "transfer.err_amount_invalid"
  | "transfer.err_amount_max"
  | InsufficientTransfer;

/** Not enough in the account the money comes from: the message names that account. */
export type InsufficientTransfer = `transfer.err_insufficient_${WalletKind}`;
export function insufficientTransfer(from: AccountTypeId): InsufficientTransfer {
  return `transfer.err_insufficient_${kindOf(from)}`;
}

export type TransferCheck =
  | { ok: true; from: AccountTypeId; to: AccountTypeId; amount: Micros }
  | { ok: false; error: TransferError; field: "from" | "to" | "balance" };

/**
 * Checks a transfer as typed: both accounts known and different, the amount (spec field
 * `balance`) present, positive, with at most 2 decimals — or, to move everything, exactly `whole`
 * (the from account's whole available balance, e.g. 0.175 after a fund's income of 4 decimals,
 * which the screens show as 0.17). With `available` (the from account's available balance, for
 * the page's early answer) also not above it; the ledger's batch checks the balance again at the
 * moment of writing.
 */
export function checkTransfer(
  input: { from: string | null | undefined; to: string | null | undefined; amount: string | null | undefined },
  available?: Micros,
  whole: Micros | undefined = available,
): TransferCheck {
  const from = accountTypeOf(input.from);
  if (from === null) return { ok: false, error: "transfer.err_account", field: "from" };
  const to = accountTypeOf(input.to);
  if (to === null) return { ok: false, error: "transfer.err_account", field: "to" };
  if (from === to) return { ok: false, error: "transfer.err_same_account", field: "to" };
  const text = (input.amount ?? "").trim();
  if (!text) return { ok: false, error: "transfer.err_amount_required", field: "balance" };
  const amount = parseAmount(text, 2) ?? (whole !== undefined && parseAmount(text, 6) === whole ? whole : null);
  if (amount === null || amount <= 0) return { ok: false, error: "transfer.err_amount_invalid", field: "balance" };
  if (amount > MAX_TRANSFER_MICROS) return { ok: false, error: "transfer.err_amount_max", field: "balance" };
  if (available !== undefined && amount > available) return { ok: false, error: insufficientTransfer(from), field: "balance" };
  return { ok: true, from, to, amount };
}

/**
 * Today's percentage (spec §9: profit / total balance × 100) as a decimal string with 2
 * decimals, rounded half away from zero, computed on integers. "0.00" when there is no balance.
 */
export function profitPercent(profit: Micros, total: Micros): string {
  if (total <= 0) return "0.00";
  const num = BigInt(profit) * 10_000n; // hundredths of a percent, before the division
  const den = BigInt(total);
  const negative = num < 0n;
  const abs = negative ? -num : num;
  let q = abs / den;
  if ((abs % den) * 2n >= den) q += 1n;
  const whole = q / 100n;
  const frac = String(q % 100n).padStart(2, "0");
  return `${negative && q > 0n ? "-" : ""}${whole}.${frac}`;
}

/** A page number from a query value (1 for anything odd), bounded. */
export function pageParam(raw: string | null | undefined, max = 10_000): number {
  if (!raw || !/^\d{1,6}$/.test(raw)) return 1;
  return Math.min(max, Math.max(1, Number(raw)));
}

export function lastPageOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** A CSV cell that must stay a number (an amount such as "-12.50"): written as is. */
export interface CsvNumber {
  number: string;
}

const NUMERIC = /^-?\d+(\.\d+)?$/;

/**
 * One CSV cell (RFC 4180 quoting). Text that a spreadsheet would run as a formula (starting with
 * = + - @, a tab or a carriage return) gets a leading apostrophe (OWASP CSV injection); numbers
 * pass only when they are plain decimals, so they stay numeric.
 */
export function csvCell(value: string | CsvNumber): string {
  let text: string;
  if (typeof value === "object") {
    if (!NUMERIC.test(value.number)) throw new RangeError(`not a plain number: ${value.number}`);
    text = value.number;
  } else {
    text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  }
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows of cells as CSV text (CRLF line ends, as RFC 4180 says). */
export function toCsv(rows: (string | CsvNumber)[][]): string {
  return rows.map((r) => r.map(csvCell).join(",")).join("\r\n") + "\r\n";
}
