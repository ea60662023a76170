/**
 * The ledger's accounts: the buckets, the platform accounts (fixed ids) and the user sub-accounts,
 * the reads of a user's accounts and account log, and the invariant check. Money moves only
 * through ledger/post.server (one transaction) and ledger/batch.server (the engine's batches).
 */
import type { LedgerKind } from "~/domain/ledger";
import type { Micros } from "~/domain/money";

export const Bucket = { Available: 0, Locked: 1 } as const;
export type Bucket = (typeof Bucket)[keyof typeof Bucket];

/** Platform accounts, seeded with fixed ids. They may go negative (they are the other side). */
export const PlatformAccount = {
  Fees: { id: 1, code: "platform:fees" },
  Counterparty: { id: 2, code: "platform:counterparty" },
  Options: { id: 3, code: "platform:options" },
  Loans: { id: 4, code: "platform:loans" },
  Funds: { id: 5, code: "platform:funds" },
  ExternalDeposits: { id: 6, code: "external:deposits" },
  ExternalWithdrawals: { id: 7, code: "external:withdrawals" },
  DemoFunding: { id: 8, code: "platform:demo" },
  /*
   * Accounts added after launch take negative ids: user accounts are AUTOINCREMENT from 1, so a
   * negative id can never collide with one already created on a live database. The migration
   * that needs them inserts them (and the seed does too, idempotently).
   */
  LoanInterest: { id: -1, code: "platform:loan_interest" },
  LoanPenalties: { id: -2, code: "platform:loan_penalties" },
  /* Demo users' trades settle against these, never against the real fees, counterparty and options pool. */
  DemoFees: { id: -3, code: "platform:demo_fees" },
  DemoCounterparty: { id: -4, code: "platform:demo_counterparty" },
  DemoOptions: { id: -5, code: "platform:demo_options" },
} as const;

/** The platform account on the other side of a user's trade: the demo books for demo users. */
export function tradingAccount(side: "fees" | "counterparty" | "options", isDemo: boolean): number {
  if (side === "fees") return isDemo ? PlatformAccount.DemoFees.id : PlatformAccount.Fees.id;
  if (side === "counterparty") return isDemo ? PlatformAccount.DemoCounterparty.id : PlatformAccount.Counterparty.id;
  return isDemo ? PlatformAccount.DemoOptions.id : PlatformAccount.Options.id;
}

/** User sub-accounts (spec §3): type change/micro/forex shown as funding/option/contract. */
export const AccountKind = {
  Funding: { kind: "funding", type: "change", accountTypeId: 1 },
  Options: { kind: "options", type: "micro", accountTypeId: 2 },
  Contract: { kind: "contract", type: "forex", accountTypeId: 3 },
} as const;
export type AccountKindName = (typeof AccountKind)[keyof typeof AccountKind]["kind"];
export const ACCOUNT_KINDS = [AccountKind.Funding, AccountKind.Options, AccountKind.Contract];

export interface AccountRow {
  id: number;
  kind: AccountKindName;
  accountTypeId: number;
  currencyId: number;
  balance: Micros;
  lockBalance: Micros;
}

/** The user's three sub-accounts, sorted by accountTypeId (spec §3). */
export async function userAccounts(db: D1Database, userId: number): Promise<AccountRow[]> {
  const { results } = await db
    .prepare(
      "SELECT id, kind, account_type_id AS accountTypeId, currency_id AS currencyId, balance, lock_balance AS lockBalance FROM accounts WHERE user_id = ?1 ORDER BY account_type_id",
    )
    .bind(userId)
    .all<AccountRow>();
  return results;
}

export interface AccountLogRow {
  id: number;
  amount: Micros;
  kind: LedgerKind;
  memo: string;
  createdAt: number;
  /** Upstream mode: the backend's own words for the kind and the memo (its kinds need not be ours). */
  kindText?: string;
  memoText?: string;
}

/** The account log of spec §3 (Value, Type, Memo, CreatedAt): entries of one owned account. */
export async function accountLog(
  db: D1Database,
  userId: number,
  accountTypeId: number,
  page: number,
  pageSize = 20,
): Promise<AccountLogRow[]> {
  const { results } = await db
    .prepare(
      `SELECT e.id, e.amount, t.kind, t.memo, e.created_at AS createdAt
         FROM ledger_entries e
         JOIN accounts a ON a.id = e.account_id
         JOIN ledger_transactions t ON t.id = e.transaction_id
        WHERE a.user_id = ?1 AND a.account_type_id = ?2 AND e.bucket = 0
        ORDER BY e.id DESC LIMIT ?3 OFFSET ?4`,
    )
    .bind(userId, accountTypeId, pageSize, (Math.max(1, page) - 1) * pageSize)
    .all<AccountLogRow>();
  return results;
}

/** Invariant check used by tests and the operator: every transaction sums to zero, and every balance equals its entries. */
export async function checkInvariants(db: D1Database) {
  const unbalanced = await db
    .prepare("SELECT transaction_id, SUM(amount) AS total FROM ledger_entries GROUP BY transaction_id HAVING total <> 0")
    .all();
  const drift = await db
    .prepare(
      `SELECT a.id, a.balance, a.lock_balance,
              COALESCE(SUM(CASE WHEN e.bucket = 0 THEN e.amount END), 0) AS entries_balance,
              COALESCE(SUM(CASE WHEN e.bucket = 1 THEN e.amount END), 0) AS entries_lock
         FROM accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id
        GROUP BY a.id
       HAVING a.balance <> entries_balance OR a.lock_balance <> entries_lock`,
    )
    .all();
  const negative = await db.prepare("SELECT id FROM accounts WHERE user_id IS NOT NULL AND (balance < 0 OR lock_balance < 0)").all();
  return {
    unbalancedTransactions: unbalanced.results.length,
    driftingAccounts: drift.results.length,
    negativeAccounts: negative.results.length,
  };
}
