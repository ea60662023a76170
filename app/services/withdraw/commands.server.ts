/**
 * Withdrawals, the user's request (issue 10 §3; spec §7 draw). Requesting is ONE ledger
 * transaction (kind "withdraw"): the amount moves from the funding account's available bucket to
 * its locked bucket, and the withdrawals row is inserted in the same batch. Its idempotency key
 * `withdraw:<userId>:<request_id>` (the form's one-time nonce) makes a double submit one
 * request; the accounts CHECK refuses an overdraft, whatever the concurrency. Rules and figures
 * come from app/domain/withdraw.ts (the browser's preview uses the same).
 */
import type { AppContext, ServiceContext } from "~/context.server";
import { toDecimalString } from "~/domain/money";
import { checkWithdrawal, type DrawType, type WithdrawFigures } from "~/domain/withdraw";
import { Bucket } from "~/services/ledger/accounts.server";
import { LedgerError, post } from "~/services/ledger/post.server";
import { fail, type Outcome } from "~/services/outcome";
import type { SessionUser } from "~/services/session.server";
import { noticeWithdrawal } from "./notices.server";
import { upstreamBalances } from "~/services/upstream/account.server";
import { upstreamCurrencies, upstreamDraw, upstreamMethods } from "~/services/upstream/withdraw.server";
import { findMethod, type PayoutMethod } from "./methods.server";
import {
  findCurrency,
  fundingBalance,
  withdrawalByRequest,
  type FundingBalance,
  type WithdrawCurrency,
  type WithdrawalRow,
} from "./queries.server";

export interface WithdrawRequestInput {
  drawCurrencyId: number;
  methodId: number;
  /** number: the amount in USD as typed. */
  amount: string;
  memo: string;
  /** The form's one-time nonce (a double submit creates one request). */
  requestId?: string;
  /** The page's method type, when the request comes from /mine/withdraw?type. */
  drawType?: DrawType;
}

export interface PreparedWithdrawal {
  currency: WithdrawCurrency;
  method: PayoutMethod;
  figures: WithdrawFigures;
  balance: FundingBalance;
}

/** Everything a request is checked against (the confirm step shows the result): currency, method, amount, balance. */
export async function prepareWithdrawal(
  ctx: ServiceContext,
  user: SessionUser,
  input: WithdrawRequestInput,
): Promise<Outcome<PreparedWithdrawal>> {
  if (user.isDemo) return fail({ form: "errors.only_real_account" }, 403);
  const [currency, method, balance] = await Promise.all([
    findCurrency(ctx, input.drawCurrencyId),
    findMethod(ctx, user.id, input.methodId),
    fundingBalance(ctx, user.id),
  ]);
  return checkPrepared(input, currency, method, balance);
}

/** The request's checks over its currency, method and balance, wherever they were read. */
function checkPrepared(
  input: WithdrawRequestInput,
  currency: WithdrawCurrency | null,
  method: PayoutMethod | null,
  balance: FundingBalance | null,
): Outcome<PreparedWithdrawal> {
  if (!currency || (input.drawType !== undefined && currency.drawType !== input.drawType))
    return fail({ draw_currency_id: "withdraw.choose_currency" });
  if (!method) return fail({ draw_method_id: "withdraw.method_not_found" });
  if (method.drawType !== currency.drawType || method.drawCurrencyId !== currency.id)
    return fail({ draw_method_id: "withdraw.method_mismatch" });
  if (!balance) return fail({ form: "errors.try_again" }, 500);
  const checked = checkWithdrawal(input.amount, currency, balance.available);
  if (!checked.ok) return fail({ number: "value" in checked ? `${checked.error}|${toDecimalString(checked.value, 2)}` : checked.error });
  return { ok: true, value: { currency, method, figures: checked.figures, balance } };
}

const REQUEST_ID = /^[A-Za-z0-9_-]{8,64}$/;

/**
 * Requests a withdrawal: one ledger transaction locks the amount (funding available → locked)
 * and inserts the record. A replay of the same request_id returns the first request.
 */
export async function requestWithdrawal(
  ctx: ServiceContext,
  user: SessionUser,
  input: WithdrawRequestInput,
): Promise<Outcome<WithdrawalRow>> {
  const requestId = input.requestId && REQUEST_ID.test(input.requestId) ? input.requestId : crypto.randomUUID();
  // A double submit whose first request has landed: the same answer, nothing new.
  const existing = await withdrawalByRequest(ctx, user.id, requestId);
  if (existing) return { ok: true, value: existing };
  const prepared = await prepareWithdrawal(ctx, user, input);
  if (!prepared.ok) return prepared;
  const { currency, method, figures, balance } = prepared.value;
  const key = `withdraw:${user.id}:${requestId}`;
  const insert = ctx.d1
    .prepare(
      `INSERT INTO withdrawals (user_id, draw_currency_id, method_id, type, currency_code, amount, fee, real_number, address, payee_account, memo, request_id, lock_tx)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, (SELECT id FROM ledger_transactions WHERE idempotency_key = ?13))`,
    )
    .bind(
      user.id,
      currency.id,
      method.id,
      method.drawType,
      currency.code,
      figures.amount,
      figures.fee,
      toDecimalString(figures.received, 2),
      method.dcAddress,
      method.payeeAccount,
      input.memo.slice(0, 200),
      requestId,
      key,
    );
  let placed = false;
  try {
    const posted = await post(ctx.d1, {
      idempotencyKey: key,
      kind: "withdraw",
      memo: "withdraw.memo_lock",
      userId: user.id,
      postings: [
        { accountId: balance.accountId, bucket: Bucket.Available, amount: -figures.amount },
        { accountId: balance.accountId, bucket: Bucket.Locked, amount: figures.amount },
      ],
      effects: [insert],
    });
    placed = !posted.replayed;
  } catch (error) {
    if (error instanceof LedgerError && error.code === "insufficient_funds") return fail({ number: "withdraw.insufficient_balance" });
    // the same request_id with other values: the first request stands
    if (!(error instanceof LedgerError && error.code === "idempotency_conflict")) throw error;
  }
  const row = await withdrawalByRequest(ctx, user.id, requestId);
  // the e-mail goes once, for the request that placed it (not for a replay of it)
  if (row && placed) noticeWithdrawal(ctx, row.id, "requested");
  return row ? { ok: true, value: row } : fail({ form: "errors.try_again" }, 500);
}

/**
 * The signed-in user's request on whichever platform holds the money (ADR 024). Upstream mode
 * reads the currency, the method and the balance from the backend and checks them with the same
 * rule before asking the backend, which decides and locks the amount.
 */
export async function prepareMyWithdrawal(
  ctx: AppContext,
  user: SessionUser,
  input: WithdrawRequestInput,
): Promise<Outcome<PreparedWithdrawal>> {
  if (ctx.config.platform.kind !== "upstream") return prepareWithdrawal(ctx, user, input);
  if (user.isDemo) return fail({ form: "errors.only_real_account" }, 403);
  const drawType = input.drawType ?? 1;
  const [currencies, methods, balances] = await Promise.all([
    upstreamCurrencies(ctx, drawType),
    upstreamMethods(ctx, drawType),
    upstreamBalances(ctx),
  ]);
  if (!currencies.ok || !methods.ok || !balances.ok) return fail({ form: "errors.service_unavailable" }, 503);
  const funding = balances.value.accounts.find((a) => a.kind === "funding");
  return checkPrepared(
    input,
    currencies.value.find((c) => c.id === input.drawCurrencyId) ?? null,
    methods.value.find((m) => m.id === input.methodId) ?? null,
    funding ? { accountId: 0, available: funding.balance, locked: funding.lockBalance } : null,
  );
}

export async function requestMyWithdrawal(
  ctx: AppContext,
  user: SessionUser,
  input: WithdrawRequestInput,
): Promise<Outcome<WithdrawalRow>> {
  if (ctx.config.platform.kind !== "upstream") return requestWithdrawal(ctx, user, input);
  const prepared = await prepareMyWithdrawal(ctx, user, input);
  if (!prepared.ok) return prepared;
  return upstreamDraw(ctx, user.id, { ...input, amount: input.amount.trim() });
}
