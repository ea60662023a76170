/**
 * Withdrawals, the operator's review (issue 10 §6). Approving (fresh step-up) pays the locked
 * amount out: amount − fee to the external withdrawals account and the fee to the fees account;
 * rejecting (a reason required) unlocks it. Each review's batch starts with the once-only
 * decision row, so of two concurrent reviews one wins and the other changes nothing; an approval
 * also re-checks the step-up inside its batch.
 */
import type { ServiceContext } from "~/context.server";
import { columnList, joinLists, type RowOf } from "~/db/columns";
import { users, withdrawals } from "~/db/schema";
import type { Micros } from "~/domain/money";
import { DrawType, WithdrawStatus, normaliseTxId } from "~/domain/withdraw";
import { AccountKind, Bucket, PlatformAccount } from "~/services/ledger/accounts.server";
import { LedgerError, post, type Posting } from "~/services/ledger/post.server";
import { assertOperator, decisionStatement, isAlreadyDecided, isStepUpExpired, stepUpGuard } from "~/services/operator.server";
import type { SessionUser } from "~/services/session.server";
import { noticeWithdrawal } from "./notices.server";
import { WITHDRAWAL_KEYS, type WithdrawalRow } from "./queries.server";

/** A request as the user's records show it (`w`), with its user (`u`). */
const QUEUE_COLUMNS = joinLists(columnList(withdrawals, WITHDRAWAL_KEYS, "w"), columnList(users, ["uid", "email"], "u"));

/** A request in the review queue, with its currency's network, the method's bank and its reviewer ('' or null when gone). */
export type QueueItem = WithdrawalRow &
  Pick<RowOf<typeof QUEUE_COLUMNS>, "uid" | "email"> & {
    protocol: string;
    bankName: string;
    bankSwift: string;
    payeeName: string;
    reviewer: string | null;
  };

/** The review queue: pending requests (oldest first) and the latest decided ones. */
export async function withdrawalQueue(
  ctx: ServiceContext,
  operator: SessionUser | null,
  decidedLimit = 20,
): Promise<{ pending: QueueItem[]; decided: QueueItem[] }> {
  assertOperator(operator);
  const select = `SELECT ${QUEUE_COLUMNS}, COALESCE(c.protocol, '') AS protocol, COALESCE(m.bank_name, '') AS bankName,
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

export type ReviewError =
  "errors.not_found" | "admin.already_decided" | "admin.step_up_expired" | "admin.reason_required" | "withdraw.tx_id_invalid";
export type ReviewResult = { ok: true } | { ok: false; error: ReviewError };

async function pendingWithdrawal(ctx: ServiceContext, id: number) {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  return ctx.d1
    .prepare(
      `SELECT w.id, w.user_id AS userId, w.amount, w.fee, w.status, w.type, COALESCE(c.protocol, '') AS protocol, a.id AS accountId
         FROM withdrawals w JOIN accounts a ON a.user_id = w.user_id AND a.kind = ?2
         LEFT JOIN withdraw_currencies c ON c.id = w.draw_currency_id WHERE w.id = ?1`,
    )
    .bind(id, AccountKind.Funding.kind)
    .first<{
      id: number;
      userId: number;
      amount: Micros;
      fee: Micros;
      status: number;
      type: DrawType;
      protocol: string;
      accountId: number;
    }>();
}

function settleStatement(
  ctx: ServiceContext,
  id: number,
  status: WithdrawStatus,
  operatorId: number,
  key: string,
  notes: string | null,
  now: number,
  tx: { id: string; network: string } | null = null,
) {
  return ctx.d1
    .prepare(
      `UPDATE withdrawals SET status = ?2, reviewed_by = ?3, reviewed_at = ?4, notes = COALESCE(?6, notes),
              settle_tx = (SELECT id FROM ledger_transactions WHERE idempotency_key = ?5), tx_id = ?7, tx_network = ?8
        WHERE id = ?1 AND status = 0`,
    )
    .bind(id, status, operatorId, now, key, notes, tx?.id ?? null, tx?.network ?? null);
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
  txId: string,
  now = Date.now(),
): Promise<ReviewResult> {
  assertOperator(operator);
  const w = await pendingWithdrawal(ctx, id);
  if (!w) return { ok: false, error: "errors.not_found" };
  if (w.status !== WithdrawStatus.Review) return { ok: false, error: "admin.already_decided" };
  // the payout's transaction id, in its network's format: the user sees it (and its explorer page)
  const tx = normaliseTxId(w.type, w.protocol, txId);
  if (!tx) return { ok: false, error: "withdraw.tx_id_invalid" };
  const network = w.type === DrawType.Bank ? "" : w.protocol.trim().toUpperCase();
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
      effects: [settleStatement(ctx, w.id, WithdrawStatus.Paid, operator.id, key, null, now, { id: tx, network })],
    });
    // the same approval posted before (a double click): decided already
    if (posted.replayed) return { ok: false, error: "admin.already_decided" };
  } catch (error) {
    return reviewFailure(error);
  }
  noticeWithdrawal(ctx, w.id, "paid");
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
  noticeWithdrawal(ctx, w.id, "rejected");
  return { ok: true };
}
