/**
 * Mining / fund subscriptions (issue 12 §2, spec §3 Fund, §4 Subscription states, §5, §9).
 * docs/decisions/015-funds.md.
 *
 * - subscribe: ONE ledger post (funding account → platform:funds, kind fund_subscribe) whose
 *   effect is the subscription row. The row takes the product's terms from `funds` WHERE status
 *   = 1 inside the batch (a product closed meanwhile makes the NOT NULL insert fail and the
 *   whole batch roll back); the per-form request_id is the idempotency key, so a double submit
 *   is one subscription; the accounts CHECK refuses an overdraft.
 * - redemption request: status 1 → 2 with the penalty snapshotted, one conditional UPDATE (of
 *   concurrent requests exactly one matches). Products with auto_refund approve it at once.
 * - approval: ONE ledger post returning share − penalty (kind fund_redeem) whose guard moves the
 *   status 2 → 3 and violates the status CHECK for any other status (the batch rolls back).
 * - the daily job (`payFundIncome`, in fund-income.server.ts): one set-based batch with a fixed number of statements,
 *   whatever the number of subscriptions (see the function).
 */
import type { ServiceContext } from "~/context.server";
import {
  FundStatus,
  SubscriptionStatus,
  checkSubscribeAmount,
  dayProfit,
  fundTermsKey,
  isPercent,
  redemptionPenalty,
  subscriptionDays,
  totalProfit,
  utcDay,
} from "~/domain/fund";
import { parseAmount, type Micros } from "~/domain/money";
import { AccountKind, LedgerError, PlatformAccount, post, txOfKey } from "~/services/ledger.server";
import { assertOperator, decisionStatement, isAlreadyDecided, isStepUpExpired, stepUpGuard } from "~/services/operator.server";
import type { SessionUser } from "~/services/session.server";
import { fail, type FieldErrors, type Outcome } from "~/services/outcome";

export const FUNDS_PAGE_SIZE = 10;
export const RECORDS_PAGE_SIZE = 10;
export const INCOME_PAGE_SIZE = 20;
const REQUEST_ID = /^[A-Za-z0-9_-]{8,64}$/;
const ID = /^\d{1,9}$/;

export interface Paged<T> {
  items: T[];
  page: number;
  lastPage: number;
  total: number;
}

export function pageNumber(value: string | null | undefined): number {
  return value && /^\d{1,5}$/.test(value) ? Math.max(1, Number(value)) : 1;
}

export function idParam(value: string | null | undefined): number | null {
  return value && ID.test(value.trim()) ? Number(value.trim()) : null;
}

export interface Fund {
  id: number;
  title: string;
  image: string;
  currencyCode: string;
  dividendPercentage: string;
  startingSubAmount: Micros;
  lockDividendDays: number;
  maxSubAmount: Micros;
  desc: string;
  liquidatedDamages: string;
  autoRefund: number;
  status: number;
  sort: number;
}

const FUND_COLUMNS = `id, title, image, currency_code AS currencyCode, dividend_percentage AS dividendPercentage,
  starting_sub_amount AS startingSubAmount, lock_dividend_days AS lockDividendDays, max_sub_amount AS maxSubAmount,
  "desc", liquidated_damages AS liquidatedDamages, auto_refund AS autoRefund, status, sort`;

function paged<T>(items: T[], page: number, total: number, size: number): Paged<T> {
  return { items, page, lastPage: Math.max(1, Math.ceil(total / size)), total };
}

/** Products open for subscription, in the operators' order (spec §2 /mining). */
export async function listFunds(ctx: ServiceContext, page = 1): Promise<Paged<Fund>> {
  const [{ results }, count] = await Promise.all([
    ctx.d1
      .prepare(`SELECT ${FUND_COLUMNS} FROM funds WHERE status = 1 ORDER BY sort, id LIMIT ?1 OFFSET ?2`)
      .bind(FUNDS_PAGE_SIZE, (page - 1) * FUNDS_PAGE_SIZE)
      .all<Fund>(),
    ctx.d1.prepare("SELECT COUNT(*) AS n FROM funds WHERE status = 1").first<{ n: number }>(),
  ]);
  return paged(results, page, count?.n ?? 0, FUNDS_PAGE_SIZE);
}

/** One product open for subscription (a closed or unknown one: null). */
export async function fundInfo(ctx: ServiceContext, id: number | null): Promise<Fund | null> {
  if (id === null) return null;
  return ctx.d1.prepare(`SELECT ${FUND_COLUMNS} FROM funds WHERE id = ?1 AND status = 1`).bind(id).first<Fund>();
}

/** What the confirmation step shows (spec §2: rent, mining time, day profit, total profit, amount). */
export interface SubscribeQuote {
  fund: Fund;
  amount: Micros;
  dayProfit: Micros;
  totalProfit: Micros;
  startDay: string;
  endDay: string;
}

export function quoteOf(fund: Fund, amount: Micros, now = Date.now()): SubscribeQuote {
  const days = subscriptionDays(utcDay(now), fund.lockDividendDays);
  return {
    fund,
    amount,
    dayProfit: dayProfit(amount, fund.dividendPercentage),
    totalProfit: totalProfit(amount, fund.dividendPercentage, fund.lockDividendDays),
    ...days,
  };
}

async function fundingAccount(ctx: ServiceContext, userId: number) {
  return ctx.d1
    .prepare("SELECT id, balance FROM accounts WHERE user_id = ?1 AND kind = ?2")
    .bind(userId, AccountKind.Funding.kind)
    .first<{ id: number; balance: Micros }>();
}

/** Checks a subscription (product open, amount within bounds and the funding balance). Writes nothing. */
export async function checkSubscription(
  ctx: ServiceContext,
  user: SessionUser,
  input: { id?: string | null; amount?: string | null },
  now = Date.now(),
): Promise<Outcome<SubscribeQuote>> {
  if (user.isDemo) return fail({ form: "errors.only_real_account" }, 403);
  const fund = await fundInfo(ctx, idParam(input.id));
  if (!fund) return fail({ form: "fund.closed" }, 404);
  const account = await fundingAccount(ctx, user.id);
  const check = checkSubscribeAmount(input.amount, fund, account?.balance ?? 0);
  if (!check.ok) return fail({ amount: check.error });
  return { ok: true, value: quoteOf(fund, check.amount, now) };
}

export interface SubscribeResult {
  id: number;
  created: boolean;
  quote: SubscribeQuote;
}

/** Subscribes: one ledger transaction with the subscription row (see the module comment). */
export async function subscribe(
  ctx: ServiceContext,
  user: SessionUser,
  input: { id?: string | null; amount?: string | null; request_id?: string | null; terms?: string | null },
  now = Date.now(),
): Promise<Outcome<SubscribeResult>> {
  const checked = await checkSubscription(ctx, user, input, now);
  if (!checked.ok) return checked;
  const q = checked.value;
  const requestId = input.request_id && REQUEST_ID.test(input.request_id) ? input.request_id : crypto.randomUUID();
  const existing = () =>
    ctx.d1
      .prepare(
        "SELECT id, share_amount AS amount, day_profit AS dayProfit, lock_days AS lockDays, start_day AS startDay, end_day AS endDay FROM fund_subscriptions WHERE user_id = ?1 AND request_id = ?2",
      )
      .bind(user.id, requestId)
      .first<{ id: number; amount: Micros; dayProfit: Micros; lockDays: number; startDay: string; endDay: string }>();
  /** A form sent again (even with other figures) answers with the subscription it made, as it was made. */
  const made = (row: NonNullable<Awaited<ReturnType<typeof existing>>>): Outcome<SubscribeResult> => ({
    ok: true,
    value: {
      id: row.id,
      created: false,
      quote: {
        fund: q.fund,
        amount: row.amount,
        dayProfit: row.dayProfit,
        totalProfit: row.lockDays * row.dayProfit,
        startDay: row.startDay,
        endDay: row.endDay,
      },
    },
  });
  // the web form's confirm step carries the terms it showed: changed since, the user confirms again
  // (unless this very form already subscribed: a second send answers with what it made)
  if (input.terms !== undefined && input.terms !== fundTermsKey(q.fund)) {
    const row = await existing();
    return row ? made(row) : fail({ form: "fund.terms_changed" }, 409);
  }
  const account = await fundingAccount(ctx, user.id);
  if (!account) return fail({ form: "errors.try_again" }, 500);
  const key = `fund_subscribe:${user.id}:${requestId}`;
  try {
    const posted = await post(ctx.d1, {
      idempotencyKey: key,
      kind: "fund_subscribe",
      memo: "fund.memo_subscribe",
      userId: user.id,
      postings: [
        { accountId: account.id, amount: -q.amount },
        { accountId: PlatformAccount.Funds.id, amount: q.amount },
      ],
      effects: [
        // the product's terms are read inside the batch: closed meanwhile → NULL → NOT NULL fails → nothing happens
        ctx.d1
          .prepare(
            `INSERT INTO fund_subscriptions (user_id, fund_id, share_amount, day_profit, lock_days, liquidated_damages, status, start_day, end_day, request_id, sub_tx, created_at)
             VALUES (?1, ?2, ?3, ?4,
                     (SELECT lock_dividend_days FROM funds WHERE id = ?2 AND status = 1 AND dividend_percentage = ?5),
                     (SELECT liquidated_damages FROM funds WHERE id = ?2 AND status = 1),
                     1, ?6, ?7, ?8, ${txOfKey("?9")}, ?10)
             RETURNING id`,
          )
          .bind(user.id, q.fund.id, q.amount, q.dayProfit, q.fund.dividendPercentage, q.startDay, q.endDay, requestId, key, now),
      ],
    });
    if (posted.replayed) {
      const row = await existing();
      if (!row) return fail({ form: "errors.try_again" }, 409);
      return made(row);
    }
    const row = (posted.results?.[0]?.results?.[0] ?? null) as { id: number } | null;
    return { ok: true, value: { id: row?.id ?? (await existing())?.id ?? 0, created: true, quote: q } };
  } catch (error) {
    if (error instanceof LedgerError && error.code === "insufficient_funds") return fail({ amount: "fund.insufficient" }, 409);
    if (error instanceof LedgerError && (error.code === "idempotency_conflict" || error.code === "guard_failed")) {
      const row = await existing();
      if (row) return made(row);
      return fail({ form: "errors.try_again" }, 409);
    }
    if (error instanceof Error && /NOT NULL constraint failed: fund_subscriptions/.test(error.message))
      return fail({ form: "fund.closed" }, 409);
    throw error;
  }
}

export interface SubscriptionRecord {
  id: number;
  fundId: number;
  title: string;
  currencyCode: string;
  status: number;
  shareAmount: Micros;
  dayProfit: Micros;
  sumProfit: Micros;
  lockDays: number;
  liquidatedDamages: string;
  penalty: Micros;
  startDay: string;
  endDay: string;
  subTime: number;
  closedAt: number | null;
}

const SUB_COLUMNS = `s.id, s.fund_id AS fundId, f.title, f.currency_code AS currencyCode, s.status, s.share_amount AS shareAmount,
  s.day_profit AS dayProfit, s.sum_profit AS sumProfit, s.lock_days AS lockDays, s.liquidated_damages AS liquidatedDamages,
  s.penalty, s.start_day AS startDay, s.end_day AS endDay, s.created_at AS subTime, s.closed_at AS closedAt`;

/** The user's subscriptions, newest first (spec §2 /mining/record). */
export async function subscriptionRecords(ctx: ServiceContext, userId: number, page = 1): Promise<Paged<SubscriptionRecord>> {
  const [{ results }, count] = await Promise.all([
    ctx.d1
      .prepare(
        `SELECT ${SUB_COLUMNS} FROM fund_subscriptions s JOIN funds f ON f.id = s.fund_id WHERE s.user_id = ?1 ORDER BY s.id DESC LIMIT ?2 OFFSET ?3`,
      )
      .bind(userId, RECORDS_PAGE_SIZE, (page - 1) * RECORDS_PAGE_SIZE)
      .all<SubscriptionRecord>(),
    ctx.d1.prepare("SELECT COUNT(*) AS n FROM fund_subscriptions WHERE user_id = ?1").bind(userId).first<{ n: number }>(),
  ]);
  return paged(results, page, count?.n ?? 0, RECORDS_PAGE_SIZE);
}

/** One subscription of this user (another user's or a missing one: null alike). */
export async function ownedSubscription(ctx: ServiceContext, userId: number, id: number | null): Promise<SubscriptionRecord | null> {
  if (id === null) return null;
  return ctx.d1
    .prepare(`SELECT ${SUB_COLUMNS} FROM fund_subscriptions s JOIN funds f ON f.id = s.fund_id WHERE s.id = ?1 AND s.user_id = ?2`)
    .bind(id, userId)
    .first<SubscriptionRecord>();
}

export interface IncomeRecord {
  id: number;
  day: string;
  interest: Micros;
  createdAt: number;
}

/** The daily income of one owned subscription, newest first; null when it is not this user's. */
export async function incomeRecords(
  ctx: ServiceContext,
  userId: number,
  subId: number | null,
  page = 1,
): Promise<(Paged<IncomeRecord> & { sub: SubscriptionRecord }) | null> {
  const sub = await ownedSubscription(ctx, userId, subId);
  if (!sub) return null;
  const [{ results }, count] = await Promise.all([
    ctx.d1
      .prepare(
        "SELECT id, day, interest, created_at AS createdAt FROM fund_incomes WHERE sub_id = ?1 AND user_id = ?2 ORDER BY day DESC LIMIT ?3 OFFSET ?4",
      )
      .bind(sub.id, userId, INCOME_PAGE_SIZE, (page - 1) * INCOME_PAGE_SIZE)
      .all<IncomeRecord>(),
    ctx.d1.prepare("SELECT COUNT(*) AS n FROM fund_incomes WHERE sub_id = ?1 AND user_id = ?2").bind(sub.id, userId).first<{ n: number }>(),
  ]);
  return { ...paged(results, page, count?.n ?? 0, INCOME_PAGE_SIZE), sub };
}

/** What a redemption costs now (the confirm step): penalty = share × liquidated damages / 100. */
export function redemptionOf(sub: Pick<SubscriptionRecord, "shareAmount" | "liquidatedDamages">): { penalty: Micros; returned: Micros } {
  const penalty = redemptionPenalty(sub.shareAmount, sub.liquidatedDamages);
  return { penalty, returned: sub.shareAmount - penalty };
}

/**
 * A redemption request: status 1 → 2 with the penalty snapshotted (one conditional UPDATE: of
 * concurrent requests exactly one matches). When the product approves automatically the refund
 * follows at once (→ 3).
 */
export async function requestRedemption(
  ctx: ServiceContext,
  user: SessionUser,
  subId: number | null,
  now = Date.now(),
): Promise<Outcome<{ id: number; status: number; penalty: Micros }>> {
  const sub = await ownedSubscription(ctx, user.id, subId);
  if (!sub) return fail({ form: "errors.not_found" }, 404);
  if (sub.status !== SubscriptionStatus.InProgress) return fail({ form: "fund.not_redeemable" }, 409);
  const { penalty } = redemptionOf(sub);
  const row = await ctx.d1
    .prepare(
      "UPDATE fund_subscriptions SET status = 2, penalty = ?3, refund_requested_at = ?4 WHERE id = ?1 AND user_id = ?2 AND status = 1 RETURNING id",
    )
    .bind(sub.id, user.id, penalty, now)
    .first<{ id: number }>();
  if (!row) return fail({ form: "fund.not_redeemable" }, 409);
  const auto = await ctx.d1
    .prepare("SELECT auto_refund AS autoRefund FROM funds WHERE id = ?1")
    .bind(sub.fundId)
    .first<{ autoRefund: number }>();
  if (auto?.autoRefund === 1) {
    const refunded = await refund(ctx, sub.id, null, now);
    if (refunded.ok) return { ok: true, value: { id: sub.id, status: SubscriptionStatus.Refunded, penalty } };
  }
  return { ok: true, value: { id: sub.id, status: SubscriptionStatus.Refunding, penalty } };
}

/**
 * Returns share − penalty for a subscription in status 2 (→ 3): one ledger post. The first guard
 * moves the status and fails the status CHECK unless it was 2; with an operator, the decision
 * row and the step-up are guards too. The idempotency key `fund_refund:<id>` refunds once.
 */
async function refund(
  ctx: ServiceContext,
  subId: number,
  review: { operator: SessionUser; sessionId: string; requestedAt: number } | null,
  now = Date.now(),
): Promise<Outcome<{ id: number; transactionId: number | null }>> {
  const sub = await ctx.d1
    .prepare(
      `SELECT s.id, s.user_id AS userId, s.share_amount AS shareAmount, s.penalty, s.status, a.id AS accountId
         FROM fund_subscriptions s JOIN accounts a ON a.user_id = s.user_id AND a.kind = 'funding' WHERE s.id = ?1`,
    )
    .bind(subId)
    .first<{ id: number; userId: number; shareAmount: Micros; penalty: Micros; status: number; accountId: number }>();
  if (!sub) return fail({ form: "errors.not_found" }, 404);
  if (sub.status !== SubscriptionStatus.Refunding) return fail({ form: "admin.already_decided" }, 409);
  const returned = sub.shareAmount - sub.penalty;
  const key = `fund_refund:${sub.id}`;
  const guards: D1PreparedStatement[] = [];
  if (review) {
    guards.push(
      decisionStatement(
        ctx.d1,
        { operatorId: review.operator.id, subject: "fund_refund", subjectId: `${sub.id}:${review.requestedAt}`, decision: "approve" },
        now,
      ),
      stepUpGuard(ctx.d1, review.sessionId, now),
    );
  }
  guards.push(
    ctx.d1
      .prepare(
        `UPDATE fund_subscriptions SET status = CASE WHEN status = 2 THEN 3 ELSE 0 END, return_tx = ${txOfKey("?2")}, reviewed_by = ?3, closed_at = ?4 WHERE id = ?1`,
      )
      .bind(sub.id, key, review?.operator.id ?? null, now),
  );
  const postings =
    returned > 0
      ? [
          { accountId: PlatformAccount.Funds.id, amount: -returned },
          { accountId: sub.accountId, amount: returned },
        ]
      : null;
  try {
    if (!postings) {
      await ctx.d1.batch(guards);
      return { ok: true, value: { id: sub.id, transactionId: null } };
    }
    const posted = await post(ctx.d1, {
      idempotencyKey: key,
      kind: "fund_redeem",
      memo: "fund.memo_redeem",
      userId: sub.userId,
      postings,
      guards,
    });
    if (posted.replayed) return fail({ form: "admin.already_decided" }, 409);
    return { ok: true, value: { id: sub.id, transactionId: posted.transactionId } };
  } catch (error) {
    if (isStepUpExpired(error)) return fail({ form: "admin.step_up_expired" }, 403);
    // the status guard (CHECK) or a second decision (UNIQUE): someone decided first
    if (
      isAlreadyDecided(error) ||
      error instanceof LedgerError ||
      (error instanceof Error && /CHECK constraint failed/.test(error.message))
    ) {
      return fail({ form: "admin.already_decided" }, 409);
    }
    throw error;
  }
}

/* ---------------------------------------------------------------------------------------------
 * Operator side
 * ------------------------------------------------------------------------------------------- */

export interface QueuedRedemption extends SubscriptionRecord {
  userId: number;
  uid: string;
  email: string | null;
  refundRequestedAt: number;
}

export async function pendingRedemptions(ctx: ServiceContext, operator: SessionUser, limit = 50): Promise<QueuedRedemption[]> {
  assertOperator(operator);
  const { results } = await ctx.d1
    .prepare(
      `SELECT ${SUB_COLUMNS}, s.user_id AS userId, u.uid, u.email, s.refund_requested_at AS refundRequestedAt
         FROM fund_subscriptions s JOIN funds f ON f.id = s.fund_id JOIN users u ON u.id = s.user_id
        WHERE s.status = 2 ORDER BY s.refund_requested_at, s.id LIMIT ?1`,
    )
    .bind(limit)
    .all<QueuedRedemption>();
  return results;
}

export async function approveRedemption(ctx: ServiceContext, operator: SessionUser, sessionId: string, subId: number, now = Date.now()) {
  assertOperator(operator);
  const row = await ctx.d1
    .prepare("SELECT refund_requested_at AS at, status FROM fund_subscriptions WHERE id = ?1")
    .bind(subId)
    .first<{ at: number | null; status: number }>();
  if (!row) return fail({ form: "errors.not_found" }, 404);
  if (row.status !== SubscriptionStatus.Refunding) return fail({ form: "admin.already_decided" }, 409);
  return refund(ctx, subId, { operator, sessionId, requestedAt: row.at ?? 0 }, now);
}

/** Rejects a redemption request: back to status 1 (in progress), the penalty cleared; no money moves. */
export async function rejectRedemption(
  ctx: ServiceContext,
  operator: SessionUser,
  subId: number,
  reason: string,
  now = Date.now(),
): Promise<Outcome<{ id: number }>> {
  assertOperator(operator);
  const text = reason.trim();
  if (!text) return fail({ reason: "admin.reason_required" });
  if (text.length > 200) return fail({ reason: "errors.too_long" });
  const row = await ctx.d1
    .prepare("SELECT refund_requested_at AS at, status FROM fund_subscriptions WHERE id = ?1")
    .bind(subId)
    .first<{ at: number | null; status: number }>();
  if (!row) return fail({ form: "errors.not_found" }, 404);
  if (row.status !== SubscriptionStatus.Refunding) return fail({ form: "admin.already_decided" }, 409);
  try {
    await ctx.d1.batch([
      decisionStatement(
        ctx.d1,
        { operatorId: operator.id, subject: "fund_refund", subjectId: `${subId}:${row.at ?? 0}`, decision: "reject", reason: text },
        now,
      ),
      ctx.d1
        .prepare(
          "UPDATE fund_subscriptions SET status = CASE WHEN status = 2 THEN 1 ELSE 0 END, penalty = 0, refund_requested_at = NULL, reviewed_by = ?2 WHERE id = ?1",
        )
        .bind(subId, operator.id),
    ]);
  } catch (error) {
    if (isAlreadyDecided(error) || (error instanceof Error && /CHECK constraint failed/.test(error.message)))
      return fail({ form: "admin.already_decided" }, 409);
    throw error;
  }
  return { ok: true, value: { id: subId } };
}

export async function allFunds(ctx: ServiceContext, operator: SessionUser): Promise<Fund[]> {
  assertOperator(operator);
  const { results } = await ctx.d1.prepare(`SELECT ${FUND_COLUMNS} FROM funds ORDER BY sort, id`).all<Fund>();
  return results;
}

export interface FundEdit {
  id: number;
  dividend_percentage?: string;
  starting_sub_amount?: string;
  max_sub_amount?: string;
  lock_dividend_days?: string;
  liquidated_damages?: string;
  status?: string;
  auto_refund?: string;
}

/** An operator's edit of a product (terms of existing subscriptions are snapshots and stay). */
export async function updateFund(ctx: ServiceContext, operator: SessionUser, input: FundEdit): Promise<Outcome<{ id: number }>> {
  assertOperator(operator);
  const errors: FieldErrors = {};
  const pct = (input.dividend_percentage ?? "").trim();
  if (!isPercent(pct) || Number(pct) > 100) errors.dividend_percentage = "fund.admin_percent_invalid";
  const ld = (input.liquidated_damages ?? "").trim();
  if (!isPercent(ld) || Number(ld) > 100) errors.liquidated_damages = "fund.admin_percent_invalid";
  const min = parseAmount(input.starting_sub_amount ?? "", 2);
  if (min === null || min <= 0) errors.starting_sub_amount = "fund.admin_amount_invalid";
  const max = parseAmount(input.max_sub_amount ?? "", 2);
  if (max === null || max <= 0) errors.max_sub_amount = "fund.admin_amount_invalid";
  else if (min !== null && max < min) errors.max_sub_amount = "fund.admin_max_below_min";
  const days = /^\d{1,4}$/.test((input.lock_dividend_days ?? "").trim()) ? Number(input.lock_dividend_days) : 0;
  if (days < 1 || days > 3650) errors.lock_dividend_days = "fund.admin_days_invalid";
  const status = input.status === "1" ? FundStatus.Open : FundStatus.Closed;
  const autoRefund = input.auto_refund === "1" ? 1 : 0;
  if (Object.keys(errors).length > 0) return fail(errors);
  const row = await ctx.d1
    .prepare(
      `UPDATE funds SET dividend_percentage = ?2, starting_sub_amount = ?3, max_sub_amount = ?4, lock_dividend_days = ?5, liquidated_damages = ?6, status = ?7, auto_refund = ?8
        WHERE id = ?1 RETURNING id`,
    )
    .bind(input.id, pct, min, max, days, ld, status, autoRefund)
    .first<{ id: number }>();
  if (!row) return fail({ form: "errors.not_found" }, 404);
  return { ok: true, value: { id: row.id } };
}
