/**
 * Withdrawals (issue 10 §3 and §6): the currencies on offer, the user's payout methods (coin
 * addresses and bank accounts), requesting a withdrawal, the records, and the operator's review.
 *
 * - Requesting is ONE ledger transaction (kind "withdraw"): the amount moves from the funding
 *   account's available bucket to its locked bucket, and the withdrawals row is inserted in the
 *   same batch. Its idempotency key `withdraw:<userId>:<request_id>` (the form's one-time nonce)
 *   makes a double submit one request; the accounts CHECK refuses an overdraft, whatever the
 *   concurrency.
 * - Approving (operator, fresh step-up) pays the locked amount out: amount − fee to the external
 *   withdrawals account and the fee to the fees account; rejecting (a reason required) unlocks it.
 *   Each review's batch starts with the once-only decision row, so of two concurrent reviews one
 *   wins and the other changes nothing; an approval also re-checks the step-up inside its batch.
 * Rules and figures come from app/domain/withdraw.ts (the browser's preview uses the same).
 */
import type { ServiceContext } from "~/context.server";
import { fail, type Outcome } from "~/services/outcome";
import type { BankMethodInput, CoinMethodInput } from "~/forms/withdraw";
import { toDecimalString, type Micros } from "~/domain/money";
import {
  DrawType,
  MAX_METHODS_PER_TYPE,
  WithdrawStatus,
  checkWithdrawal,
  isValidAddress,
  normaliseAddress,
  type WithdrawFigures,
} from "~/domain/withdraw";
import { AccountKind, Bucket, LedgerError, PlatformAccount, post, type Posting } from "~/services/ledger.server";
import { assertOperator, decisionStatement, isAlreadyDecided, isStepUpExpired, stepUpGuard } from "~/services/operator.server";
import type { SessionUser } from "~/services/session.server";

export const PAGE_SIZE = 20;

// ---- currencies ----

export interface WithdrawCurrency {
  id: number;
  drawType: DrawType;
  code: string;
  protocol: string;
  drawRate: string;
  feeType: number;
  usdPrice: string;
  minAmount: Micros;
}

const CURRENCY_COLUMNS =
  "id, draw_type AS drawType, code, protocol, draw_rate AS drawRate, fee_type AS feeType, usd_price AS usdPrice, min_amount AS minAmount";

/** The currencies on offer for a method type (spec §7 draw_symbol_list). */
export async function listWithdrawCurrencies(ctx: ServiceContext, drawType: DrawType): Promise<WithdrawCurrency[]> {
  const { results } = await ctx.d1
    .prepare(`SELECT ${CURRENCY_COLUMNS} FROM withdraw_currencies WHERE status = 1 AND draw_type = ?1 ORDER BY sort, id`)
    .bind(drawType)
    .all<WithdrawCurrency>();
  return results;
}

async function findCurrency(ctx: ServiceContext, id: number): Promise<WithdrawCurrency | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  return ctx.d1
    .prepare(`SELECT ${CURRENCY_COLUMNS} FROM withdraw_currencies WHERE id = ?1 AND status = 1`)
    .bind(id)
    .first<WithdrawCurrency>();
}

// ---- payout methods ----

export interface PayoutMethod {
  id: number;
  drawType: DrawType;
  drawCurrencyId: number;
  code: string;
  protocol: string;
  dcAddress: string;
  bankName: string;
  bankAddress: string;
  bankSwift: string;
  payeeName: string;
  payeeAccount: string;
  createdAt: number;
}

const METHOD_COLUMNS = `m.id, m.draw_type AS drawType, m.draw_currency_id AS drawCurrencyId, COALESCE(c.code, '') AS code, COALESCE(c.protocol, '') AS protocol,
  m.dc_address AS dcAddress, m.bank_name AS bankName, m.bank_address AS bankAddress, m.bank_swift AS bankSwift, m.payee_name AS payeeName,
  m.payee_account AS payeeAccount, m.created_at AS createdAt`;

/** The user's live methods of a type (spec §2 coin-address-list / bank-card-list), newest first. */
export async function listMethods(ctx: ServiceContext, userId: number, drawType: DrawType): Promise<PayoutMethod[]> {
  const { results } = await ctx.d1
    .prepare(
      `SELECT ${METHOD_COLUMNS} FROM payout_methods m LEFT JOIN withdraw_currencies c ON c.id = m.draw_currency_id
        WHERE m.user_id = ?1 AND m.draw_type = ?2 AND m.deleted_at IS NULL ORDER BY m.id DESC LIMIT ${MAX_METHODS_PER_TYPE * 2}`,
    )
    .bind(userId, drawType)
    .all<PayoutMethod>();
  return results;
}

/** One live method of the user (null for a missing, deleted or another user's one: the same answer). */
export async function findMethod(ctx: ServiceContext, userId: number, id: number): Promise<PayoutMethod | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  return ctx.d1
    .prepare(
      `SELECT ${METHOD_COLUMNS} FROM payout_methods m LEFT JOIN withdraw_currencies c ON c.id = m.draw_currency_id WHERE m.id = ?1 AND m.user_id = ?2 AND m.deleted_at IS NULL`,
    )
    .bind(id, userId)
    .first<PayoutMethod>();
}

export type MethodInput = CoinMethodInput | BankMethodInput;

/**
 * Binds a payout method (spec §7 bind_draw_method). A coin address is checked against its
 * currency's network; at most MAX_METHODS_PER_TYPE live methods per type (counted inside the
 * insert itself, so concurrent binds cannot pass the limit).
 */
export async function bindMethod(ctx: ServiceContext, user: SessionUser, input: MethodInput): Promise<Outcome<PayoutMethod>> {
  if (user.isDemo) return fail({ form: "errors.only_real_account" }, 403);
  const drawType = input.draw_type === "2" ? DrawType.Bank : DrawType.Coin;
  const currency = await findCurrency(ctx, input.draw_currency_id);
  if (!currency || currency.drawType !== drawType) return fail({ draw_currency_id: "withdraw.choose_currency" });
  let fields: { dcAddress: string; bankName: string; bankAddress: string; bankSwift: string; payeeName: string; payeeAccount: string };
  if (input.draw_type === "1") {
    const address = normaliseAddress(input.dc_address);
    if (!isValidAddress(currency.protocol, address))
      return fail({ dc_address: `wallet.address_invalid_for|${currency.protocol || currency.code}` });
    fields = { dcAddress: address, bankName: "", bankAddress: "", bankSwift: "", payeeName: "", payeeAccount: "" };
  } else {
    fields = {
      dcAddress: "",
      bankName: input.bank_name,
      bankAddress: input.bank_address,
      bankSwift: input.bank_swift,
      payeeName: input.payee_name,
      payeeAccount: input.payee_account,
    };
  }
  const row = await ctx.d1
    .prepare(
      `INSERT INTO payout_methods (user_id, draw_type, draw_currency_id, dc_address, bank_name, bank_address, bank_swift, payee_name, payee_account)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9
        WHERE (SELECT COUNT(*) FROM payout_methods WHERE user_id = ?1 AND draw_type = ?2 AND deleted_at IS NULL) < ?10
       RETURNING id`,
    )
    .bind(
      user.id,
      drawType,
      currency.id,
      fields.dcAddress,
      fields.bankName,
      fields.bankAddress,
      fields.bankSwift,
      fields.payeeName,
      fields.payeeAccount,
      MAX_METHODS_PER_TYPE,
    )
    .first<{ id: number }>();
  if (!row) return fail({ form: `wallet.too_many_methods|${MAX_METHODS_PER_TYPE}` });
  const method = await findMethod(ctx, user.id, row.id);
  return method ? { ok: true, value: method } : fail({ form: "errors.try_again" }, 500);
}

/** Deletes a method of the user (the row stays, marked deleted: withdrawals refer to it). False when there is none to delete. */
export async function deleteMethod(ctx: ServiceContext, user: SessionUser, id: number, now = Date.now()): Promise<boolean> {
  if (!Number.isSafeInteger(id) || id <= 0) return false;
  const result = await ctx.d1
    .prepare("UPDATE payout_methods SET deleted_at = ?3 WHERE id = ?1 AND user_id = ?2 AND deleted_at IS NULL")
    .bind(id, user.id, now)
    .run();
  return (result.meta.changes ?? 0) > 0;
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

// ---- requests ----

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

export interface WithdrawalRow {
  id: number;
  userId: number;
  drawCurrencyId: number;
  methodId: number;
  type: DrawType;
  currencyCode: string;
  amount: Micros;
  fee: Micros;
  realNumber: string;
  address: string;
  payeeAccount: string;
  memo: string;
  status: WithdrawStatus;
  notes: string;
  reviewedAt: number | null;
  createdAt: number;
}

const WITHDRAWAL_COLUMNS = `id, user_id AS userId, draw_currency_id AS drawCurrencyId, method_id AS methodId, type, currency_code AS currencyCode, amount, fee,
  real_number AS realNumber, address, payee_account AS payeeAccount, memo, status, notes, reviewed_at AS reviewedAt, created_at AS createdAt`;

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
  try {
    await post(ctx.d1, {
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
  } catch (error) {
    if (error instanceof LedgerError && error.code === "insufficient_funds") return fail({ number: "withdraw.insufficient_balance" });
    // the same request_id with other values: the first request stands
    if (!(error instanceof LedgerError && error.code === "idempotency_conflict")) throw error;
  }
  const row = await withdrawalByRequest(ctx, user.id, requestId);
  return row ? { ok: true, value: row } : fail({ form: "errors.try_again" }, 500);
}

async function withdrawalByRequest(ctx: ServiceContext, userId: number, requestId: string): Promise<WithdrawalRow | null> {
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

// ---- the operator's review ----

export interface QueueItem extends WithdrawalRow {
  uid: string;
  email: string | null;
  protocol: string;
  bankName: string;
  bankSwift: string;
  payeeName: string;
  reviewer: string | null;
}

/** The review queue: pending requests (oldest first) and the latest decided ones. */
export async function withdrawalQueue(
  ctx: ServiceContext,
  operator: SessionUser | null,
  decidedLimit = 20,
): Promise<{ pending: QueueItem[]; decided: QueueItem[] }> {
  assertOperator(operator);
  const select = `SELECT w.id, w.user_id AS userId, w.draw_currency_id AS drawCurrencyId, w.method_id AS methodId, w.type, w.currency_code AS currencyCode,
      w.amount, w.fee, w.real_number AS realNumber, w.address, w.payee_account AS payeeAccount, w.memo, w.status, w.notes, w.reviewed_at AS reviewedAt,
      w.created_at AS createdAt, u.uid, u.email, COALESCE(c.protocol, '') AS protocol, COALESCE(m.bank_name, '') AS bankName,
      COALESCE(m.bank_swift, '') AS bankSwift, COALESCE(m.payee_name, '') AS payeeName, COALESCE(r.email, r.uid) AS reviewer
    FROM withdrawals w JOIN users u ON u.id = w.user_id
    LEFT JOIN withdraw_currencies c ON c.id = w.draw_currency_id
    LEFT JOIN payout_methods m ON m.id = w.method_id
    LEFT JOIN users r ON r.id = w.reviewed_by`;
  const [pending, decided] = await ctx.d1.batch([
    ctx.d1.prepare(`${select} WHERE w.status = 0 ORDER BY w.id LIMIT 100`),
    ctx.d1.prepare(`${select} WHERE w.status <> 0 ORDER BY w.reviewed_at DESC, w.id DESC LIMIT ?1`).bind(decidedLimit),
  ]);
  return { pending: pending!.results as QueueItem[], decided: decided!.results as QueueItem[] };
}

export type ReviewError = "errors.not_found" | "admin.already_decided" | "admin.step_up_expired" | "admin.reason_required";
export type ReviewResult = { ok: true } | { ok: false; error: ReviewError };

async function pendingWithdrawal(ctx: ServiceContext, id: number) {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  return ctx.d1
    .prepare(
      `SELECT w.id, w.user_id AS userId, w.amount, w.fee, w.status, a.id AS accountId
         FROM withdrawals w JOIN accounts a ON a.user_id = w.user_id AND a.kind = ?2 WHERE w.id = ?1`,
    )
    .bind(id, AccountKind.Funding.kind)
    .first<{ id: number; userId: number; amount: Micros; fee: Micros; status: number; accountId: number }>();
}

function settleStatement(
  ctx: ServiceContext,
  id: number,
  status: WithdrawStatus,
  operatorId: number,
  key: string,
  notes: string | null,
  now: number,
) {
  return ctx.d1
    .prepare(
      `UPDATE withdrawals SET status = ?2, reviewed_by = ?3, reviewed_at = ?4, notes = COALESCE(?6, notes),
              settle_tx = (SELECT id FROM ledger_transactions WHERE idempotency_key = ?5)
        WHERE id = ?1 AND status = 0`,
    )
    .bind(id, status, operatorId, now, key, notes);
}

function reviewFailure(error: unknown): ReviewResult {
  if (isStepUpExpired(error)) return { ok: false, error: "admin.step_up_expired" };
  if (isAlreadyDecided(error) || (error instanceof LedgerError && error.code === "idempotency_conflict"))
    return { ok: false, error: "admin.already_decided" };
  throw error;
}

/**
 * Approves (pays out) a pending withdrawal: the locked amount leaves the user's funding account,
 * amount − fee to external withdrawals and the fee to the fees account. The batch starts with the
 * decision row (once per withdrawal) and re-checks the session's step-up (`sessionId`).
 */
export async function approveWithdrawal(
  ctx: ServiceContext,
  operator: SessionUser | null,
  sessionId: string,
  id: number,
  now = Date.now(),
): Promise<ReviewResult> {
  assertOperator(operator);
  const w = await pendingWithdrawal(ctx, id);
  if (!w) return { ok: false, error: "errors.not_found" };
  if (w.status !== WithdrawStatus.Review) return { ok: false, error: "admin.already_decided" };
  const key = `withdrawal:${w.id}:approve`;
  const postings: Posting[] = [
    { accountId: w.accountId, bucket: Bucket.Locked, amount: -w.amount },
    { accountId: PlatformAccount.ExternalWithdrawals.id, amount: w.amount - w.fee },
  ];
  if (w.fee > 0) postings.push({ accountId: PlatformAccount.Fees.id, amount: w.fee });
  try {
    const posted = await post(ctx.d1, {
      idempotencyKey: key,
      kind: "withdraw",
      memo: "withdraw.memo_paid",
      userId: w.userId,
      postings,
      guards: [
        decisionStatement(ctx.d1, { operatorId: operator.id, subject: "withdrawal", subjectId: w.id, decision: "approve" }, now),
        stepUpGuard(ctx.d1, sessionId, now),
      ],
      effects: [settleStatement(ctx, w.id, WithdrawStatus.Paid, operator.id, key, null, now)],
    });
    // the same approval posted before (a double click): decided already
    if (posted.replayed) return { ok: false, error: "admin.already_decided" };
  } catch (error) {
    return reviewFailure(error);
  }
  return { ok: true };
}

/** Rejects a pending withdrawal with a reason: the locked amount returns to the available balance. */
export async function rejectWithdrawal(
  ctx: ServiceContext,
  operator: SessionUser | null,
  id: number,
  reason: string,
  now = Date.now(),
): Promise<ReviewResult> {
  assertOperator(operator);
  const why = reason.trim();
  if (!why || why.length > 200 || /[\u0000-\u001f\u007f]/.test(why)) return { ok: false, error: "admin.reason_required" };
  const w = await pendingWithdrawal(ctx, id);
  if (!w) return { ok: false, error: "errors.not_found" };
  if (w.status !== WithdrawStatus.Review) return { ok: false, error: "admin.already_decided" };
  const key = `withdrawal:${w.id}:reject`;
  try {
    const posted = await post(ctx.d1, {
      idempotencyKey: key,
      kind: "withdraw_refund",
      memo: "withdraw.memo_refund",
      userId: w.userId,
      postings: [
        { accountId: w.accountId, bucket: Bucket.Locked, amount: -w.amount },
        { accountId: w.accountId, bucket: Bucket.Available, amount: w.amount },
      ],
      guards: [
        decisionStatement(
          ctx.d1,
          { operatorId: operator.id, subject: "withdrawal", subjectId: w.id, decision: "reject", reason: why },
          now,
        ),
      ],
      effects: [settleStatement(ctx, w.id, WithdrawStatus.Rejected, operator.id, key, why, now)],
    });
    if (posted.replayed) return { ok: false, error: "admin.already_decided" };
  } catch (error) {
    return reviewFailure(error);
  }
  return { ok: true };
}
