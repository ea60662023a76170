/**
 * The wallet's use cases (spec §2 /mine/wallet, /mine/accounts, /mine/transfer, /mine/history;
 * §7 forexDetail, forexChange, transfer, transfer_log): one account's detail and log (paged, and
 * whole for the CSV statement), transfers between a user's own sub-accounts, and their log.
 * Every query is scoped by the owner's id. A transfer is one ledger transaction whose batch also
 * inserts the transfer's row.
 */
import type { AppContext, ServiceContext } from "~/context.server";
import { columnList, type RowOf } from "~/db/columns";
import { transfers } from "~/db/schema";
import {
  accountTypeOf,
  checkTransfer,
  insufficientTransfer,
  lastPageOf,
  walletAccount,
  type AccountTypeId,
  type TransferError,
  type WalletKind,
} from "~/domain/wallet";
import type { TransferCommand } from "~/forms/wallet";
import { accountLog, userAccounts, type AccountLogRow, type AccountRow } from "~/services/ledger/accounts.server";
import { LedgerError, post } from "~/services/ledger/post.server";
import { fail, type Outcome } from "~/services/outcome";
import { balances, type Balances } from "~/services/account.server";
import { upstreamAccountHistory, upstreamBalances, upstreamTransfer, upstreamTransferLog } from "~/services/upstream/account.server";
import type { UpstreamRead } from "~/services/upstream/wire";

export const HISTORY_PAGE_SIZE = 20;
export const TRANSFER_PAGE_SIZE = 20;
/** The CSV statement holds at most this many entries (the newest). */
export const STATEMENT_MAX_ROWS = 10_000;

/** The user's sub-account of that type (null if they have none). */
export async function accountDetail(ctx: ServiceContext, userId: number, accountTypeId: AccountTypeId): Promise<AccountRow | null> {
  return (
    (await ctx.d1
      .prepare(
        "SELECT id, kind, account_type_id AS accountTypeId, currency_id AS currencyId, balance, lock_balance AS lockBalance FROM accounts WHERE user_id = ?1 AND account_type_id = ?2",
      )
      .bind(userId, accountTypeId)
      .first<AccountRow>()) ?? null
  );
}

export interface HistoryPage {
  entries: AccountLogRow[];
  total: number;
  page: number;
  lastPage: number;
  pageSize: number;
}

/** One page of an account's log (spec §3 Account log), newest first; a page past the end shows the last one. */
export async function accountHistory(
  ctx: ServiceContext,
  userId: number,
  accountTypeId: AccountTypeId,
  page: number,
  pageSize = HISTORY_PAGE_SIZE,
): Promise<HistoryPage> {
  const count = await ctx.d1
    .prepare(
      `SELECT COUNT(*) AS n FROM ledger_entries e JOIN accounts a ON a.id = e.account_id
        WHERE a.user_id = ?1 AND a.account_type_id = ?2 AND e.bucket = 0`,
    )
    .bind(userId, accountTypeId)
    .first<{ n: number }>();
  const total = count?.n ?? 0;
  const lastPage = lastPageOf(total, pageSize);
  const p = Math.min(Math.max(1, page), lastPage);
  const entries = total === 0 ? [] : await accountLog(ctx.d1, userId, accountTypeId, p, pageSize);
  return { entries, total, page: p, lastPage, pageSize };
}

/** The whole log of an account for the CSV statement (the newest STATEMENT_MAX_ROWS entries). */
export async function accountStatement(ctx: ServiceContext, userId: number, accountTypeId: AccountTypeId): Promise<AccountLogRow[]> {
  return accountLog(ctx.d1, userId, accountTypeId, 1, STATEMENT_MAX_ROWS);
}

const TRANSFER_COLUMNS = columnList(transfers, ["id", "fromKind", "toKind", "amount", "createdAt"]);

/** A transfer between two of the user's sub-accounts (its kinds are the wallet's). */
export type TransferRow = Omit<RowOf<typeof TRANSFER_COLUMNS>, "fromKind" | "toKind"> & { fromKind: WalletKind; toKind: WalletKind };

/** A refusal of a transfer: the field it concerns, its message key (the one the rules gave). */
function refused(field: string, key: TransferError | "transfer.err_currency" | "transfer.err_resubmitted", status = 400) {
  return fail({ [field]: key }, status);
}

/**
 * Moves money between two of the user's own sub-accounts: one ledger transaction (kind
 * "transfer") whose batch also inserts the transfers row. The amount is checked against the
 * available balance inside the batch (the accounts CHECK); the idempotency key
 * `transfer:<userId>:<request_id>` makes a double submission one transfer. Demo users are
 * refused (spec §5).
 */
export async function transfer(
  ctx: ServiceContext,
  user: { id: number; isDemo: boolean },
  input: TransferCommand,
): Promise<Outcome<TransferRow>> {
  if (user.isDemo) return fail({ form: "errors.only_real_account" }, 403);
  const accounts = await userAccounts(ctx.d1, user.id);
  // an amount of more than 2 decimals is accepted as the whole available balance ("transfer all")
  const whole = accounts.find((a) => a.accountTypeId === accountTypeOf(input.from))?.balance;
  const check = checkTransfer(input, undefined, whole);
  if (!check.ok) return refused(check.field, check.error, check.error.startsWith("transfer.err_insufficient_") ? 409 : 400);
  const from = accounts.find((a) => a.accountTypeId === check.from);
  const to = accounts.find((a) => a.accountTypeId === check.to);
  if (!from || !to) return fail({ form: "errors.try_again" });
  const currency = input.currencyId?.trim();
  if (currency && (currency !== String(from.currencyId) || currency !== String(to.currencyId)))
    return refused("currency_id", "transfer.err_currency");
  const nonce = input.requestId ?? crypto.randomUUID();
  const key = `transfer:${user.id}:${nonce}`;
  const fromKind = walletAccount(check.from).kind;
  const toKind = walletAccount(check.to).kind;
  let transactionId: number;
  try {
    const posted = await post(ctx.d1, {
      idempotencyKey: key,
      kind: "transfer",
      memo: `transfer.memo|${fromKind}|${toKind}`,
      userId: user.id,
      postings: [
        { accountId: from.id, amount: -check.amount },
        { accountId: to.id, amount: check.amount },
      ],
      effects: [
        ctx.d1
          .prepare(
            "INSERT INTO transfers (user_id, from_kind, to_kind, amount, ledger_tx) VALUES (?1, ?2, ?3, ?4, (SELECT id FROM ledger_transactions WHERE idempotency_key = ?5))",
          )
          .bind(user.id, fromKind, toKind, check.amount, key),
      ],
    });
    transactionId = posted.transactionId;
  } catch (error) {
    if (error instanceof LedgerError && error.code === "insufficient_funds")
      return refused("balance", insufficientTransfer(check.from), 409);
    if (error instanceof LedgerError && error.code === "idempotency_conflict") return refused("form", "transfer.err_resubmitted");
    throw error;
  }
  const row = await ctx.d1
    .prepare(`SELECT ${TRANSFER_COLUMNS} FROM transfers WHERE ledger_tx = ?1 AND user_id = ?2`)
    .bind(transactionId, user.id)
    .first<TransferRow>();
  if (!row) return fail({ form: "errors.try_again" });
  return { ok: true, value: row };
}

export interface TransferPage {
  transfers: TransferRow[];
  total: number;
  page: number;
  lastPage: number;
}

/** The user's transfers, newest first; with an account type, only those from or to it. */
export async function transferLog(
  ctx: ServiceContext,
  userId: number,
  page: number,
  accountTypeId: AccountTypeId | null = null,
  pageSize = TRANSFER_PAGE_SIZE,
): Promise<TransferPage> {
  const kind = accountTypeId === null ? null : walletAccount(accountTypeId).kind;
  const where = kind === null ? "user_id = ?1" : "user_id = ?1 AND (from_kind = ?2 OR to_kind = ?2)";
  const args = kind === null ? [userId] : [userId, kind];
  const count = await ctx.d1
    .prepare(`SELECT COUNT(*) AS n FROM transfers WHERE ${where}`)
    .bind(...args)
    .first<{ n: number }>();
  const total = count?.n ?? 0;
  const lastPage = lastPageOf(total, pageSize);
  const p = Math.min(Math.max(1, page), lastPage);
  const { results } =
    total === 0
      ? { results: [] as TransferRow[] }
      : await ctx.d1
          .prepare(
            `SELECT ${TRANSFER_COLUMNS} FROM transfers WHERE ${where} ORDER BY id DESC LIMIT ${pageSize} OFFSET ${(p - 1) * pageSize}`,
          )
          .bind(...args)
          .all<TransferRow>();
  return { transfers: results, total, page: p, lastPage };
}

/**
 * The signed-in user's side of the wallet from whichever platform holds it (ADR 024): this one's
 * ledger, or the backend's in upstream mode, where a read can also be missing (the backend down)
 * or the session over, and a transfer's outcome unknown (its answer never came; never resent).
 */
export async function myBalances(ctx: AppContext, userId: number): Promise<UpstreamRead<Balances>> {
  if (ctx.config.platform.kind === "upstream") return upstreamBalances(ctx);
  return { ok: true, value: await balances(ctx, userId) };
}

export async function myTransferLog(ctx: AppContext, userId: number, page: number, accountTypeId: AccountTypeId | null = null) {
  if (ctx.config.platform.kind === "upstream") return upstreamTransferLog(ctx, page, accountTypeId);
  return { ok: true as const, value: await transferLog(ctx, userId, page, accountTypeId) };
}

export async function myTransfer(
  ctx: AppContext,
  user: { id: number; isDemo: boolean },
  input: TransferCommand,
): Promise<Outcome<TransferRow>> {
  if (ctx.config.platform.kind === "upstream") {
    if (user.isDemo) return fail({ form: "errors.only_real_account" }, 403);
    return upstreamTransfer(ctx, input);
  }
  return transfer(ctx, user, input);
}

/** One of the user's accounts and a page of its log, from whichever platform holds them. */
export async function myAccountHistory(
  ctx: AppContext,
  userId: number,
  accountTypeId: AccountTypeId,
  page: number,
): Promise<UpstreamRead<{ account: Pick<AccountRow, "kind" | "balance" | "lockBalance"> | null; history: HistoryPage }>> {
  if (ctx.config.platform.kind === "upstream") {
    const [b, history] = await Promise.all([upstreamBalances(ctx), upstreamAccountHistory(ctx, accountTypeId, page)]);
    if (!b.ok) return b;
    if (!history.ok) return history;
    const found = b.value.accounts.find((a) => a.kind === walletAccount(accountTypeId).kind);
    const account = found ? { kind: found.kind as AccountRow["kind"], balance: found.balance, lockBalance: found.lockBalance } : null;
    return { ok: true, value: { account, history: history.value } };
  }
  const [account, history] = await Promise.all([
    accountDetail(ctx, userId, accountTypeId),
    accountHistory(ctx, userId, accountTypeId, page),
  ]);
  return { ok: true, value: { account, history } };
}
