/**
 * Withdrawals, the reading side (spec §2 /mine/withdraw, §7 draw_symbol_list, draw_list): the
 * currencies on offer, the funding balance a request is checked against, and the user's records.
 */
import type { AppContext, ServiceContext } from "~/context.server";
import { columnList, type RowOf } from "~/db/columns";
import { withdrawCurrencies, withdrawals } from "~/db/schema";
import type { Micros } from "~/domain/money";
import type { DrawType, WithdrawStatus } from "~/domain/withdraw";
import { AccountKind } from "~/services/ledger/accounts.server";
import { upstreamBalances } from "~/services/upstream/account.server";
import type { UpstreamRead } from "~/services/upstream/wire";
import { upstreamCurrencies, upstreamWithdrawals } from "~/services/upstream/withdraw.server";

export const PAGE_SIZE = 20;

// ---- currencies ----

const CURRENCY_COLUMNS = columnList(withdrawCurrencies, [
  "id",
  "drawType",
  "code",
  "protocol",
  "drawRate",
  "feeType",
  "usdPrice",
  "minAmount",
]);

/** A currency on offer (spec §3 Withdraw currency). */
export type WithdrawCurrency = Omit<RowOf<typeof CURRENCY_COLUMNS>, "drawType"> & { drawType: DrawType };

/** The currencies on offer for a method type (spec §7 draw_symbol_list). */
export async function listWithdrawCurrencies(ctx: ServiceContext, drawType: DrawType): Promise<WithdrawCurrency[]> {
  const { results } = await ctx.d1
    .prepare(`SELECT ${CURRENCY_COLUMNS} FROM withdraw_currencies WHERE status = 1 AND draw_type = ?1 ORDER BY sort, id`)
    .bind(drawType)
    .all<WithdrawCurrency>();
  return results;
}

export async function findCurrency(ctx: ServiceContext, id: number): Promise<WithdrawCurrency | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  return ctx.d1
    .prepare(`SELECT ${CURRENCY_COLUMNS} FROM withdraw_currencies WHERE id = ?1 AND status = 1`)
    .bind(id)
    .first<WithdrawCurrency>();
}

// ---- balances ----

export interface FundingBalance {
  accountId: number;
  available: Micros;
  locked: Micros;
}

export async function fundingBalance(ctx: ServiceContext, userId: number): Promise<FundingBalance | null> {
  return ctx.d1
    .prepare("SELECT id AS accountId, balance AS available, lock_balance AS locked FROM accounts WHERE user_id = ?1 AND kind = ?2")
    .bind(userId, AccountKind.Funding.kind)
    .first<FundingBalance>();
}

/** A withdrawal request as the user's records and the operator's queue show it. */
export const WITHDRAWAL_KEYS = [
  "id",
  "userId",
  "drawCurrencyId",
  "methodId",
  "type",
  "currencyCode",
  "amount",
  "fee",
  "realNumber",
  "address",
  "payeeAccount",
  "memo",
  "status",
  "notes",
  "txId",
  "txNetwork",
  "reviewedAt",
  "createdAt",
] as const;
const WITHDRAWAL_COLUMNS = columnList(withdrawals, WITHDRAWAL_KEYS);

/** A withdrawal request as the user's records show it. */
export type WithdrawalRow = Omit<RowOf<typeof WITHDRAWAL_COLUMNS>, "type" | "status"> & { type: DrawType; status: WithdrawStatus };

export async function withdrawalByRequest(ctx: ServiceContext, userId: number, requestId: string): Promise<WithdrawalRow | null> {
  return ctx.d1
    .prepare(`SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE user_id = ?1 AND request_id = ?2`)
    .bind(userId, requestId)
    .first<WithdrawalRow>();
}

export interface WithdrawalPage {
  records: WithdrawalRow[];
  total: number;
  page: number;
  lastPage: number;
}

/** The user's records (spec §7 draw_list), newest first; of one method type, or all. */
export async function listWithdrawals(
  ctx: ServiceContext,
  userId: number,
  drawType: DrawType | null,
  page: number,
  pageSize = PAGE_SIZE,
): Promise<WithdrawalPage> {
  const p = Math.max(1, Math.min(10_000, Math.floor(page) || 1));
  const where = drawType === null ? "user_id = ?1" : "user_id = ?1 AND type = ?2";
  const args = drawType === null ? [userId] : [userId, drawType];
  const [rows, count] = await ctx.d1.batch([
    ctx.d1
      .prepare(
        `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE ${where} ORDER BY id DESC LIMIT ${pageSize} OFFSET ${(p - 1) * pageSize}`,
      )
      .bind(...args),
    ctx.d1.prepare(`SELECT COUNT(*) AS n FROM withdrawals WHERE ${where}`).bind(...args),
  ]);
  const total = (count!.results[0] as { n: number }).n;
  return { records: rows!.results as WithdrawalRow[], total, page: p, lastPage: Math.max(1, Math.ceil(total / pageSize)) };
}

/** One record of the user (null for a missing or another user's one). */
export async function withdrawalOf(ctx: ServiceContext, userId: number, id: number): Promise<WithdrawalRow | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  return ctx.d1
    .prepare(`SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE id = ?1 AND user_id = ?2`)
    .bind(id, userId)
    .first<WithdrawalRow>();
}

/**
 * The signed-in user's side of withdrawals from whichever platform holds it (ADR 024): this one's
 * tables, or the backend's calls in upstream mode.
 */
export async function myWithdrawCurrencies(ctx: AppContext, drawType: DrawType): Promise<UpstreamRead<WithdrawCurrency[]>> {
  if (ctx.config.platform.kind === "upstream") return upstreamCurrencies(ctx, drawType);
  return { ok: true, value: await listWithdrawCurrencies(ctx, drawType) };
}

export async function myWithdrawBalance(ctx: AppContext, userId: number): Promise<UpstreamRead<FundingBalance | null>> {
  if (ctx.config.platform.kind !== "upstream") return { ok: true, value: await fundingBalance(ctx, userId) };
  const b = await upstreamBalances(ctx);
  if (!b.ok) return b;
  const funding = b.value.accounts.find((a) => a.kind === "funding");
  return { ok: true, value: funding ? { accountId: 0, available: funding.balance, locked: funding.lockBalance } : null };
}

export async function myWithdrawals(
  ctx: AppContext,
  userId: number,
  drawType: DrawType | null,
  page: number,
): Promise<UpstreamRead<WithdrawalPage>> {
  if (ctx.config.platform.kind === "upstream") return upstreamWithdrawals(ctx, userId, drawType, page);
  return { ok: true, value: await listWithdrawals(ctx, userId, drawType, page) };
}
