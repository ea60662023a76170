/**
 * Mining / fund subscriptions, the user's commands (issue 12 §2, spec §3 Fund, §4 Subscription
 * states, §5, §9). docs/decisions/015-funds.md.
 *
 * - subscribe: ONE ledger post (funding account → platform:funds, kind fund_subscribe) whose
 *   effect is the subscription row. The row takes the product's terms from `funds` WHERE status
 *   = 1 inside the batch (a product closed meanwhile makes the NOT NULL insert fail and the
 *   whole batch roll back); the per-form request_id is the idempotency key, so a double submit
 *   is one subscription; the accounts CHECK refuses an overdraft.
 * - redemption request: status 1 → 2 with the penalty snapshotted, one conditional UPDATE (of
 *   concurrent requests exactly one matches). Products with auto_refund approve it at once.
 * - the refund (here, shared with the operator's approval in operator.server.ts): ONE ledger post
 *   returning share − penalty (kind fund_redeem) whose guard moves the status 2 → 3 and violates
 *   the status CHECK for any other status (the batch rolls back).
 * - the daily job (`payFundIncome`, in income.server.ts): one set-based batch with a fixed number
 *   of statements, whatever the number of subscriptions (see the function).
 */
import type { AppContext, ServiceContext } from "~/context.server";
import { SubscriptionStatus, checkSubscribeAmount, fundTermsKey } from "~/domain/fund";
import type { Micros } from "~/domain/money";
import type { SubscribeCommand } from "~/forms/fund";
import { PlatformAccount } from "~/services/ledger/accounts.server";
import { LedgerError, post, txOfKey } from "~/services/ledger/post.server";
import { decisionStatement, isAlreadyDecided, isStepUpExpired, stepUpGuard } from "~/services/operator.server";
import { fail, type Outcome } from "~/services/outcome";
import type { SessionUser } from "~/services/session.server";
import {
  fundInfo,
  fundingAccount,
  myFundingBalance,
  ownedSubscription,
  quoteOf,
  redemptionOf,
  type SubscribeQuote,
} from "./queries.server";
import { upstreamRedeem, upstreamSubscribe } from "~/services/upstream/fund.server";
import type { UpstreamRead } from "~/services/upstream/wire";

/** Checks a subscription (product open, amount within bounds and the funding balance). Writes nothing. */
export async function checkSubscription(
  ctx: ServiceContext,
  user: SessionUser,
  input: Pick<SubscribeCommand, "fundId" | "amount">,
  now = Date.now(),
  /** The available funding balance (this platform's account by default; the backend's in upstream mode). */
  available: () => Promise<UpstreamRead<Micros>> = async () => ({ ok: true, value: (await fundingAccount(ctx, user.id))?.balance ?? 0 }),
): Promise<Outcome<SubscribeQuote>> {
  if (user.isDemo) return fail({ form: "errors.only_real_account" }, 403);
  const fund = await fundInfo(ctx, input.fundId);
  if (!fund) return fail({ form: "fund.closed" }, 404);
  const balance = await available();
  if (!balance.ok) return fail({ form: balance.kind === "session_ended" ? "errors.session_invalid" : "errors.service_unavailable" }, 503);
  const check = checkSubscribeAmount(input.amount, fund, balance.value);
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
  input: SubscribeCommand,
  now = Date.now(),
): Promise<Outcome<SubscribeResult>> {
  const checked = await checkSubscription(ctx, user, input, now);
  if (!checked.ok) return checked;
  const q = checked.value;
  const requestId = input.requestId ?? crypto.randomUUID();
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
export async function refund(
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

/**
 * The signed-in user's side of subscribing and redeeming, on whichever platform holds the money
 * (ADR 024). Upstream mode checks what the front end can (the product as the backend last
 * described it, the backend's balance, the terms the confirm step showed) before the backend,
 * which decides and moves the money.
 */
export async function checkMySubscription(
  ctx: AppContext,
  user: SessionUser,
  input: Pick<SubscribeCommand, "fundId" | "amount">,
  now = Date.now(),
): Promise<Outcome<SubscribeQuote>> {
  return checkSubscription(ctx, user, input, now, () => myFundingBalance(ctx, user.id));
}

export async function subscribeMine(
  ctx: AppContext,
  user: SessionUser,
  input: SubscribeCommand,
  now = Date.now(),
): Promise<Outcome<{ id: number }>> {
  if (ctx.config.platform.kind !== "upstream") {
    const made = await subscribe(ctx, user, input, now);
    return made.ok ? { ok: true, value: { id: made.value.id } } : made;
  }
  const checked = await checkMySubscription(ctx, user, input, now);
  if (!checked.ok) return checked;
  if (input.terms !== undefined && input.terms !== fundTermsKey(checked.value.fund)) return fail({ form: "fund.terms_changed" }, 409);
  return upstreamSubscribe(ctx, checked.value.fund.id, input.amount.trim(), input.requestId);
}

export async function redeemMine(ctx: AppContext, user: SessionUser, subId: number | null, now = Date.now()) {
  if (ctx.config.platform.kind !== "upstream") return requestRedemption(ctx, user, subId, now);
  if (subId === null) return fail({ form: "errors.not_found" }, 404);
  return upstreamRedeem(ctx, subId);
}
