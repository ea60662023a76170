/**
 * Deposits (issue 10 §2, spec §2 /mine/charge, §3 Charge, §5, §7 quickCharge): a user asks to
 * be credited for a coin transfer or a bank wire, with a proof image; an operator approves
 * (the funding account is credited through the ledger, once) or rejects (nothing moves).
 *
 * - A request is one row (status 0 unchecked). Its per-form request_id is UNIQUE per user, so a
 *   double-submitted form creates one request.
 * - Every rule is checked here, for the page and the JSON API alike, and all refusals of one
 *   submission come back together (field → i18n key); nothing is written unless all pass.
 * - Approval is ONE ledger post: the decision row (once-only key) and the operator's step-up
 *   are its guards, the status change its effect, `deposit:<id>` its idempotency key. Of any
 *   number of concurrent reviews exactly one decides.
 */
import type { ServiceContext } from "~/context.server";
import { columnList, joinLists, nullable, type RowOf } from "~/db/columns";
import { chargeCurrencies as chargeCurrencyTable, deposits, users, wireAccounts as wireAccountTable } from "~/db/schema";
import { DepositStatus, DepositType, depositAmount, senderAddressOk, type AmountUnit } from "~/domain/deposit";
import type { Micros } from "~/domain/money";
import { AccountKind, PlatformAccount } from "~/services/ledger/accounts.server";
import { LedgerError, post, txOfKey } from "~/services/ledger/post.server";
import { assertOperator, decisionStatement, isAlreadyDecided, isStepUpExpired, stepUpGuard } from "~/services/operator.server";
import type { SessionUser } from "~/services/session.server";
import { ownedUpload, uploadFieldError, uploadIdOf } from "~/services/uploads.server";
import { fail, type FieldErrors, type Outcome } from "~/services/outcome";
import type { DepositFormInput } from "~/forms/deposit";

export const RECORDS_PAGE_SIZE = 10;
const REQUEST_ID = /^[A-Za-z0-9_-]{8,64}$/;
const ID = /^\d{1,9}$/;

const CURRENCY_COLUMNS = columnList(chargeCurrencyTable, ["id", "currencyCode", "protocolCode", "address", "usdPrice"]);
/** A deposit currency on offer (spec §3 Charge currency). */
export type ChargeCurrency = RowOf<typeof CURRENCY_COLUMNS>;

const WIRE_COLUMNS = columnList(wireAccountTable, [
  "id",
  "bankName",
  "bankAddress",
  "bankSwift",
  "payeeName",
  "payeeAccount",
  "bankRemark",
]);
/** A platform bank account for wires (spec §3 Wire info). */
export type WireAccount = RowOf<typeof WIRE_COLUMNS>;

/** The deposit currencies on offer (spec §3 Charge currency), in the operators' order. */
export async function chargeCurrencies(ctx: ServiceContext): Promise<ChargeCurrency[]> {
  const { results } = await ctx.d1
    .prepare(`SELECT ${CURRENCY_COLUMNS} FROM charge_currencies WHERE status = 1 ORDER BY sort, id`)
    .all<ChargeCurrency>();
  return results;
}

/** The platform's bank accounts for wires (spec §3 Wire info). */
export async function wireAccounts(ctx: ServiceContext): Promise<WireAccount[]> {
  const { results } = await ctx.d1
    .prepare(`SELECT ${WIRE_COLUMNS} FROM wire_accounts WHERE status = 1 ORDER BY sort, id`)
    .all<WireAccount>();
  return results;
}

async function chargeCurrency(ctx: ServiceContext, id: string | undefined): Promise<ChargeCurrency | null> {
  if (!id || !ID.test(id.trim())) return null;
  return (await chargeCurrencies(ctx)).find((c) => c.id === Number(id.trim())) ?? null;
}

async function wireAccount(ctx: ServiceContext, id: string | undefined): Promise<WireAccount | null> {
  if (!id || !ID.test(id.trim())) return null;
  return (await wireAccounts(ctx)).find((w) => w.id === Number(id.trim())) ?? null;
}

/** A deposit as its form or call sends it (app/forms/deposit.ts), of a type (coin or bank). */
export type DepositInput = DepositFormInput & { type: DepositType };

/** A checked request, ready to store (and to show on the confirm step). */
export interface CheckedDeposit {
  type: DepositType;
  chargeCurrency: ChargeCurrency | null;
  wire: WireAccount | null;
  currencyCode: string;
  amount: Micros;
  coinCount: string | null;
  usdPrice: string;
  address: string;
  proofUploadId: string;
  requestId: string;
}

async function checkProof(ctx: ServiceContext, userId: number, value: string | undefined): Promise<{ id: string } | { error: string }> {
  const refused = uploadFieldError(value ?? null);
  if (refused) return { error: refused };
  if (!value?.trim()) return { error: "deposit.proof_required" };
  const id = uploadIdOf(value);
  const upload = id ? await ownedUpload(ctx, userId, id) : null;
  // a proof must be this user's stored photo, uploaded as a payment proof (or with no purpose named)
  if (!upload || (upload.purpose !== "deposit_proof" && upload.purpose !== "other")) return { error: "deposit.proof_invalid" };
  return { id: upload.id };
}

/** Checks every rule of a deposit request; all refusals at once. Writes nothing. */
export async function checkDeposit(ctx: ServiceContext, user: SessionUser, input: DepositInput): Promise<Outcome<CheckedDeposit>> {
  if (user.isDemo) return fail({ form: "errors.only_real_account" }, 403);
  const errors: FieldErrors = {};
  const coin = input.type === DepositType.Coin;
  const [currency, wire, proof] = await Promise.all([
    coin ? chargeCurrency(ctx, input.charge_id) : Promise.resolve(null),
    coin ? Promise.resolve(null) : wireAccount(ctx, input.wire_id),
    checkProof(ctx, user.id, input.proofImg),
  ]);
  if (coin && !currency) errors.charge_id = "deposit.choose_currency";
  if (!coin && !wire) errors.wire_id = "withdraw.no_pay_way";
  const unit: AmountUnit = coin && input.unit === "coin" ? "coin" : "usd";
  const usdPrice = currency?.usdPrice ?? "1";
  const amount = depositAmount(input.number, unit, usdPrice);
  if (!amount.ok) errors.number = amount.error;
  const address = coin ? (input.address ?? "").trim() : "";
  if (!senderAddressOk(address)) errors.address = "deposit.address_invalid";
  if ("error" in proof) errors.proofImg = proof.error;
  if (Object.keys(errors).length > 0 || !amount.ok || "error" in proof) return fail(errors);
  const requestId = input.request_id && REQUEST_ID.test(input.request_id) ? input.request_id : crypto.randomUUID();
  return {
    ok: true,
    value: {
      type: input.type,
      chargeCurrency: currency,
      wire,
      currencyCode: currency?.currencyCode ?? "USD",
      amount: amount.amount,
      coinCount: amount.coinCount,
      usdPrice: unit === "coin" ? usdPrice : "1",
      address,
      proofUploadId: proof.id,
      requestId,
    },
  };
}

/**
 * Stores a deposit request (status 0). A request_id already used by this user returns that
 * request (created: false): a double submit creates one row.
 */
export async function submitDeposit(
  ctx: ServiceContext,
  user: SessionUser,
  input: DepositInput,
): Promise<Outcome<{ id: number; created: boolean }>> {
  const checked = await checkDeposit(ctx, user, input);
  if (!checked.ok) return checked;
  const d = checked.value;
  const row = await ctx.d1
    .prepare(
      `INSERT INTO deposits (user_id, type, charge_currency_id, wire_id, currency_code, amount, coin_count, usd_price, address, proof_upload_id, request_id, created_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
       ON CONFLICT (user_id, request_id) DO NOTHING
       RETURNING id`,
    )
    .bind(
      user.id,
      d.type,
      d.chargeCurrency?.id ?? null,
      d.wire?.id ?? null,
      d.currencyCode,
      d.amount,
      d.coinCount,
      d.usdPrice,
      d.address,
      d.proofUploadId,
      d.requestId,
      Date.now(),
    )
    .first<{ id: number }>();
  if (row) return { ok: true, value: { id: row.id, created: true } };
  const existing = await ctx.d1
    .prepare("SELECT id FROM deposits WHERE user_id = ?1 AND request_id = ?2")
    .bind(user.id, d.requestId)
    .first<{ id: number }>();
  if (!existing) return fail({ form: "errors.try_again" }, 409);
  return { ok: true, value: { id: existing.id, created: false } };
}

const RECORD_COLUMNS = columnList(deposits, ["id", "type", "currencyCode", "amount", "coinCount", "status", "remark", "createdAt"]);
/** A user's own deposit request (spec §3 Charge record). */
export type DepositRecord = Omit<RowOf<typeof RECORD_COLUMNS>, "type" | "status"> & { type: DepositType; status: DepositStatus };

export interface DepositPage {
  records: DepositRecord[];
  page: number;
  lastPage: number;
  total: number;
}

/** The user's own deposit requests, newest first (spec §3 Charge record), optionally of one type. */
export async function depositRecords(
  ctx: ServiceContext,
  userId: number,
  page: number,
  type: DepositType | null = null,
): Promise<DepositPage> {
  const current = Math.max(1, Math.min(10_000, Math.floor(page) || 1));
  const [{ results }, count] = await Promise.all([
    ctx.d1
      .prepare(
        `SELECT ${RECORD_COLUMNS}
           FROM deposits WHERE user_id = ?1 AND (?2 IS NULL OR type = ?2)
          ORDER BY id DESC LIMIT ?3 OFFSET ?4`,
      )
      .bind(userId, type, RECORDS_PAGE_SIZE, (current - 1) * RECORDS_PAGE_SIZE)
      .all<DepositRecord>(),
    ctx.d1
      .prepare("SELECT COUNT(*) AS n FROM deposits WHERE user_id = ?1 AND (?2 IS NULL OR type = ?2)")
      .bind(userId, type)
      .first<{ n: number }>(),
  ]);
  const total = count?.n ?? 0;
  return { records: results, page: current, lastPage: Math.max(1, Math.ceil(total / RECORDS_PAGE_SIZE)), total };
}

/* ---------------------------------------------------------------------------------------------
 * Operator side
 * ------------------------------------------------------------------------------------------- */

/** A request with its user, coin protocol and bank (`d` the deposit, `u` the user; `c`, `w` LEFT JOINed: a coin request has no bank). */
const QUEUE_COLUMNS = joinLists(
  columnList(deposits, ["id", "userId"], "d"),
  columnList(users, ["uid", "email"], "u"),
  columnList(deposits, ["type", "currencyCode"], "d"),
  nullable(columnList(chargeCurrencyTable, ["protocolCode"], "c")),
  nullable(columnList(wireAccountTable, ["bankName", "payeeAccount"], "w")),
  columnList(deposits, ["amount", "coinCount", "usdPrice", "address", "proofUploadId", "status", "remark", "createdAt"], "d"),
);

export type QueuedDeposit = Omit<RowOf<typeof QUEUE_COLUMNS>, "type" | "status"> & {
  type: DepositType;
  status: DepositStatus;
  decidedBy: string | null;
  decidedAt: number | null;
};

/** Requests waiting for review, oldest first. */
export async function pendingDeposits(ctx: ServiceContext, operator: SessionUser, limit = 50): Promise<QueuedDeposit[]> {
  assertOperator(operator);
  const { results } = await ctx.d1
    .prepare(
      `SELECT ${QUEUE_COLUMNS}, NULL AS decidedBy, NULL AS decidedAt
         FROM deposits d JOIN users u ON u.id = d.user_id
         LEFT JOIN charge_currencies c ON c.id = d.charge_currency_id
         LEFT JOIN wire_accounts w ON w.id = d.wire_id
        WHERE d.status = 0 ORDER BY d.id LIMIT ?1`,
    )
    .bind(limit)
    .all<QueuedDeposit>();
  return results;
}

/** The latest decisions, with the operator and the time. */
export async function decidedDeposits(ctx: ServiceContext, operator: SessionUser, limit = 20): Promise<QueuedDeposit[]> {
  assertOperator(operator);
  const { results } = await ctx.d1
    .prepare(
      `SELECT ${QUEUE_COLUMNS}, COALESCE(o.email, o.uid) AS decidedBy, od.created_at AS decidedAt
         FROM operator_decisions od
         JOIN deposits d ON od.subject = 'deposit' AND od.subject_id = CAST(d.id AS TEXT)
         JOIN users u ON u.id = d.user_id
         JOIN users o ON o.id = od.operator_id
         LEFT JOIN charge_currencies c ON c.id = d.charge_currency_id
         LEFT JOIN wire_accounts w ON w.id = d.wire_id
        WHERE od.subject = 'deposit'
        ORDER BY od.id DESC LIMIT ?1`,
    )
    .bind(limit)
    .all<QueuedDeposit>();
  return results;
}

async function depositForReview(ctx: ServiceContext, id: number) {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  return ctx.d1
    .prepare("SELECT id, user_id AS userId, amount, status FROM deposits WHERE id = ?1")
    .bind(id)
    .first<{ id: number; userId: number; amount: Micros; status: number }>();
}

/**
 * Approves a request: credits the user's funding account from external:deposits in one ledger
 * post whose guards are the decision row and the session's step-up. Exactly once, whatever the
 * concurrency: a second review fails on the decision key (or finds the transaction posted).
 */
export async function approveDeposit(
  ctx: ServiceContext,
  operator: SessionUser,
  sessionId: string,
  id: number,
  now = Date.now(),
): Promise<Outcome<{ id: number; transactionId: number }>> {
  assertOperator(operator);
  const deposit = await depositForReview(ctx, id);
  if (!deposit) return fail({ form: "errors.not_found" }, 404);
  if (deposit.status !== DepositStatus.Unchecked) return fail({ form: "admin.already_decided" }, 409);
  const funding = await ctx.d1
    .prepare("SELECT id FROM accounts WHERE user_id = ?1 AND kind = ?2")
    .bind(deposit.userId, AccountKind.Funding.kind)
    .first<{ id: number }>();
  if (!funding) return fail({ form: "errors.try_again" }, 500);
  const key = `deposit:${deposit.id}`;
  try {
    const posted = await post(ctx.d1, {
      idempotencyKey: key,
      kind: "deposit",
      memo: `deposit.memo|${deposit.id}`,
      userId: deposit.userId,
      postings: [
        { accountId: PlatformAccount.ExternalDeposits.id, amount: -deposit.amount },
        { accountId: funding.id, amount: deposit.amount },
      ],
      guards: [
        decisionStatement(ctx.d1, { operatorId: operator.id, subject: "deposit", subjectId: deposit.id, decision: "approve" }, now),
        stepUpGuard(ctx.d1, sessionId, now),
      ],
      effects: [
        ctx.d1
          .prepare(
            `UPDATE deposits SET status = ?2, reviewed_by = ?3, reviewed_at = ?4, ledger_tx = ${txOfKey("?5")} WHERE id = ?1 AND status = 0`,
          )
          .bind(deposit.id, DepositStatus.Finished, operator.id, now, key),
      ],
    });
    // a replay means another review posted it first: this one decided nothing
    if (posted.replayed) return fail({ form: "admin.already_decided" }, 409);
    return { ok: true, value: { id: deposit.id, transactionId: posted.transactionId } };
  } catch (error) {
    if (isStepUpExpired(error)) return fail({ form: "admin.step_up_expired" }, 403);
    if (isAlreadyDecided(error) || (error instanceof LedgerError && error.code === "idempotency_conflict"))
      return fail({ form: "admin.already_decided" }, 409);
    throw error;
  }
}

/**
 * Rejects a request (status 2), or marks its proof invalid (status 3): the decision row and the
 * status change in one batch, the reason shown to the user as the record's remark. No money moves.
 */
export async function rejectDeposit(
  ctx: ServiceContext,
  operator: SessionUser,
  id: number,
  reason: string,
  status: typeof DepositStatus.Rejected | typeof DepositStatus.Invalid = DepositStatus.Rejected,
  now = Date.now(),
): Promise<Outcome<{ id: number }>> {
  assertOperator(operator);
  const text = reason.trim();
  if (!text) return fail({ reason: "admin.reason_required" });
  if (text.length > 200) return fail({ reason: "errors.too_long" });
  const deposit = await depositForReview(ctx, id);
  if (!deposit) return fail({ form: "errors.not_found" }, 404);
  if (deposit.status !== DepositStatus.Unchecked) return fail({ form: "admin.already_decided" }, 409);
  try {
    await ctx.d1.batch([
      decisionStatement(
        ctx.d1,
        { operatorId: operator.id, subject: "deposit", subjectId: deposit.id, decision: "reject", reason: text },
        now,
      ),
      ctx.d1
        .prepare("UPDATE deposits SET status = ?2, remark = ?3, reviewed_by = ?4, reviewed_at = ?5 WHERE id = ?1 AND status = 0")
        .bind(deposit.id, status, text, operator.id, now),
    ]);
  } catch (error) {
    if (isAlreadyDecided(error)) return fail({ form: "admin.already_decided" }, 409);
    throw error;
  }
  return { ok: true, value: { id: deposit.id } };
}
