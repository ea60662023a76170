/**
 * Mining / fund products, the operator's side (spec §6 console): the redemption queue, its
 * approval (the refund of commands.server.ts, with the decision row and the step-up as guards)
 * and rejection, and the products' terms.
 */
import type { ServiceContext } from "~/context.server";
import { columnList, joinLists, type RowOf } from "~/db/columns";
import { fundSubscriptions, users } from "~/db/schema";
import { FundStatus, SubscriptionStatus, isPercent } from "~/domain/fund";
import { parseAmount } from "~/domain/money";
import { assertOperator, decisionStatement, isAlreadyDecided } from "~/services/operator.server";
import { fail, type FieldErrors, type Outcome } from "~/services/outcome";
import type { SessionUser } from "~/services/session.server";
import { refund } from "./commands.server";
import { FUND_COLUMNS, SUB_COLUMNS, type Fund } from "./queries.server";

const QUEUE_COLUMNS = joinLists(
  SUB_COLUMNS,
  columnList(fundSubscriptions, ["userId"], "s"),
  columnList(users, ["uid", "email"], "u"),
  columnList(fundSubscriptions, ["refundRequestedAt"], "s"),
);
/** A redemption waiting for review (status 2: its request time is set). */
export type QueuedRedemption = Omit<RowOf<typeof QUEUE_COLUMNS>, "refundRequestedAt"> & { refundRequestedAt: number };

export async function pendingRedemptions(ctx: ServiceContext, operator: SessionUser, limit = 50): Promise<QueuedRedemption[]> {
  assertOperator(operator);
  const { results } = await ctx.d1
    .prepare(
      `SELECT ${QUEUE_COLUMNS}
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
