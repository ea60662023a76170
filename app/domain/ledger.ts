/** The ledger's vocabulary shared by services and screens (no I/O). */
import type { Micros } from "~/domain/money";

/** Every kind of ledger transaction (each has a translated label, `ledger_kind.<kind>`, for the account log). */
export const LEDGER_KINDS = [
  "demo_grant",
  "demo_reset",
  "deposit",
  "withdraw",
  "withdraw_refund",
  "transfer",
  "trade_margin",
  "trade_fee",
  "trade_settle",
  "option_stake",
  "option_settle",
  "loan",
  "loan_repay",
  "fund_subscribe",
  "fund_redeem",
  "fund_income",
  "demo_expire",
  "adjustment",
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/**
 * A set-based batch's id: a random positive safe integer (53 bits). Its row in ledger_batches,
 * inserted first in the batch, makes an id drawn twice fail the second batch whole.
 */
export function newBatchId(): number {
  const [hi, lo] = crypto.getRandomValues(new Uint32Array(2));
  return (hi! & 0x1fffff) * 0x1_0000_0000 + lo! || 1;
}

/*
 * Today's profit (docs/glossary.md "Today's profit"): the realised result of the user's day.
 *
 * In a transaction of a RESULT kind, every amount that only changes place between the user's own
 * buckets (a margin or a stake locked, then released) nets to zero over the user's entries; what
 * remains is what the user won or lost: fees (charged when the position opens or the pending
 * order fills, even while it is still open), contract profit and loss, option profits and lost
 * stakes, the copy-trading share a follower pays (and the trader receives, in the same
 * transaction), a fund's income. Deposits, withdrawals, transfers, loans, fund subscriptions and
 * redemptions and demo grants are not results: capital only comes and goes.
 *
 * A loan's interest and penalty are paid from outside the user's accounts (the repayment's
 * proof): they are read on the platform's side, as what the CHARGE accounts received in the
 * user's repayment, and count as a loss.
 */
export const RESULT_KINDS = [
  "trade_margin",
  "trade_fee",
  "trade_settle",
  "option_stake",
  "option_settle",
  "fund_income",
] as const satisfies readonly LedgerKind[];
export const CHARGE_KINDS = ["loan_repay"] as const satisfies readonly LedgerKind[];
/** The platform accounts (their codes) that take a loan's interest and penalty. */
export const CHARGE_ACCOUNTS = ["platform:loan_interest", "platform:loan_penalties"] as const;

/** One kind of transaction of the user's day: the sum of the user's own entries (both buckets) and of the charge accounts' entries. */
export interface DayEntries {
  kind: string;
  own: Micros;
  charges: Micros;
}

/** The realised result of a day (micros) from its transactions' sums: the user's own entries of the result kinds, less the charges of the charge kinds. */
export function realisedResult(rows: readonly DayEntries[]): Micros {
  let total = 0;
  for (const r of rows) {
    if ((RESULT_KINDS as readonly string[]).includes(r.kind)) total += r.own;
    else if ((CHARGE_KINDS as readonly string[]).includes(r.kind)) total -= r.charges;
  }
  return total;
}
