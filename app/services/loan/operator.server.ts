/**
 * Loans, the operator's side (issue 12 §1, spec §4): the queues (KYC, applications, repayment
 * proofs) and their counts, the decisions, and editing the terms. Every decision is recorded once
 * (decisionStatement: a second approval of the same thing answers admin.already_decided).
 *
 * - Approval credits the user's funding account from platform:loans in ONE ledger post whose
 *   guards are the decision row (once-only key per loan) and the operator's step-up, and whose
 *   effect is the status change: of any number of concurrent approvals, one credits.
 * - Repayment approval: external:deposits pays principal → platform:loans, interest →
 *   platform:loan_interest, penalty → platform:loan_penalties, with the figures snapshotted in
 *   loan_repayments when the proof was sent.
 */
import type { ServiceContext } from "~/context.server";
import { columnList, joinLists, nullable, type RowOf } from "~/db/columns";
import { chargeCurrencies, loanRepayments, users } from "~/db/schema";
import { KycStatus, LoanStatus, MAX_LOAN_AMOUNT, configErrors, repaymentDate, type LoanTerms } from "~/domain/loan";
import type { Micros } from "~/domain/money";
import { AccountKind, PlatformAccount } from "~/services/ledger/accounts.server";
import { LedgerError, post, txOfKey, type Posting } from "~/services/ledger/post.server";
import { assertOperator, decisionStatement, isAlreadyDecided, isStepUpExpired, stepUpGuard } from "~/services/operator.server";
import { fail, type Failure, type FieldErrors, type Outcome } from "~/services/outcome";
import type { SessionUser } from "~/services/session.server";
import { KYC_LIST, kycOf } from "./kyc.server";
import { LOAN_COLUMNS } from "./queries.server";

const KYC_QUEUE_COLUMNS = joinLists(KYC_LIST, columnList(users, ["uid", "email"], "u"));
export type QueuedKyc = RowOf<typeof KYC_QUEUE_COLUMNS>;

export async function pendingKyc(ctx: ServiceContext, operator: SessionUser, limit = 50): Promise<QueuedKyc[]> {
  assertOperator(operator);
  const { results } = await ctx.d1
    .prepare(
      `SELECT ${KYC_QUEUE_COLUMNS}
         FROM loan_kyc k JOIN users u ON u.id = k.user_id WHERE k.status = 1 ORDER BY k.updated_at LIMIT ?1`,
    )
    .bind(limit)
    .all<QueuedKyc>();
  return results;
}

/** Approves (2) or rejects (3, with a reason) a waiting KYC; exactly once per submission. */
export async function decideKyc(
  ctx: ServiceContext,
  operator: SessionUser,
  userId: number,
  approve: boolean,
  reason: string,
  now = Date.now(),
): Promise<Outcome<{ userId: number }>> {
  assertOperator(operator);
  const text = reason.trim();
  if (!approve && !text) return fail({ reason: "admin.reason_required" });
  if (text.length > 200) return fail({ reason: "errors.too_long" });
  const kyc = await kycOf(ctx, userId);
  if (!kyc) return fail({ form: "errors.not_found" }, 404);
  if (kyc.status !== KycStatus.Waiting) return fail({ form: "admin.already_decided" }, 409);
  try {
    await ctx.d1.batch([
      decisionStatement(
        ctx.d1,
        {
          operatorId: operator.id,
          subject: "loan_kyc",
          subjectId: userId,
          step: kyc.submission,
          decision: approve ? "approve" : "reject",
          reason: text,
        },
        now,
      ),
      ctx.d1
        .prepare(
          "UPDATE loan_kyc SET status = ?2, reason = ?3, reviewed_by = ?4, reviewed_at = ?5, updated_at = ?5 WHERE user_id = ?1 AND status = 1",
        )
        .bind(userId, approve ? KycStatus.Approved : KycStatus.Rejected, approve ? "" : text, operator.id, now),
    ]);
  } catch (error) {
    if (isAlreadyDecided(error)) return fail({ form: "admin.already_decided" }, 409);
    throw error;
  }
  return { ok: true, value: { userId } };
}

const QUEUE_COLUMNS = joinLists(LOAN_COLUMNS, columnList(users, ["uid", "email"], "u"));
export type QueuedLoan = RowOf<typeof QUEUE_COLUMNS> & { borrower: string };

export async function pendingLoans(ctx: ServiceContext, operator: SessionUser, limit = 50): Promise<QueuedLoan[]> {
  assertOperator(operator);
  const { results } = await ctx.d1
    .prepare(
      `SELECT ${QUEUE_COLUMNS}, COALESCE(k.first_name || ' ' || k.last_name, '') AS borrower
         FROM loans l JOIN users u ON u.id = l.user_id LEFT JOIN loan_kyc k ON k.user_id = l.user_id
        WHERE l.status = 1 ORDER BY l.id LIMIT ?1`,
    )
    .bind(limit)
    .all<QueuedLoan>();
  return results;
}

function ledgerFailure(error: unknown): Failure {
  if (isStepUpExpired(error)) return fail({ form: "admin.step_up_expired" }, 403);
  if (isAlreadyDecided(error) || (error instanceof LedgerError && error.code === "idempotency_conflict"))
    return fail({ form: "admin.already_decided" }, 409);
  throw error;
}

/**
 * Approves a loan: one ledger post crediting the user's funding account from platform:loans,
 * guarded by the decision row and the step-up; the loan → 2 with its repayment date.
 */
export async function approveLoan(
  ctx: ServiceContext,
  operator: SessionUser,
  sessionId: string,
  id: number,
  now = Date.now(),
): Promise<Outcome<{ id: number; transactionId: number }>> {
  assertOperator(operator);
  const loan = await ctx.d1
    .prepare("SELECT id, user_id AS userId, amount, loan_period AS loanPeriod, status FROM loans WHERE id = ?1")
    .bind(id)
    .first<{ id: number; userId: number; amount: Micros; loanPeriod: number; status: number }>();
  if (!loan) return fail({ form: "errors.not_found" }, 404);
  if (loan.status !== LoanStatus.Review) return fail({ form: "admin.already_decided" }, 409);
  const funding = await ctx.d1
    .prepare("SELECT id FROM accounts WHERE user_id = ?1 AND kind = ?2")
    .bind(loan.userId, AccountKind.Funding.kind)
    .first<{ id: number }>();
  if (!funding) return fail({ form: "errors.try_again" }, 500);
  const key = `loan:${loan.id}`;
  try {
    const posted = await post(ctx.d1, {
      idempotencyKey: key,
      kind: "loan",
      memo: `loan.memo_loan|${loan.id}`,
      userId: loan.userId,
      postings: [
        { accountId: PlatformAccount.Loans.id, amount: -loan.amount },
        { accountId: funding.id, amount: loan.amount },
      ],
      guards: [
        decisionStatement(ctx.d1, { operatorId: operator.id, subject: "loan", subjectId: loan.id, decision: "approve" }, now),
        stepUpGuard(ctx.d1, sessionId, now),
      ],
      effects: [
        ctx.d1
          .prepare(
            `UPDATE loans SET status = 2, reviewed_by = ?2, reviewed_at = ?3, due_at = ?4, loan_tx = ${txOfKey("?5")} WHERE id = ?1 AND status = 1`,
          )
          .bind(loan.id, operator.id, now, repaymentDate(now, loan.loanPeriod), key),
      ],
    });
    if (posted.replayed) return fail({ form: "admin.already_decided" }, 409);
    return { ok: true, value: { id: loan.id, transactionId: posted.transactionId } };
  } catch (error) {
    return ledgerFailure(error);
  }
}

/** Rejects a loan application (3) with a reason; nothing moves. */
export async function rejectLoan(
  ctx: ServiceContext,
  operator: SessionUser,
  id: number,
  reason: string,
  now = Date.now(),
): Promise<Outcome<{ id: number }>> {
  assertOperator(operator);
  const text = reason.trim();
  if (!text) return fail({ reason: "admin.reason_required" });
  if (text.length > 200) return fail({ reason: "errors.too_long" });
  const loan = await ctx.d1.prepare("SELECT id, status FROM loans WHERE id = ?1").bind(id).first<{ id: number; status: number }>();
  if (!loan) return fail({ form: "errors.not_found" }, 404);
  if (loan.status !== LoanStatus.Review) return fail({ form: "admin.already_decided" }, 409);
  try {
    await ctx.d1.batch([
      decisionStatement(ctx.d1, { operatorId: operator.id, subject: "loan", subjectId: id, decision: "reject", reason: text }, now),
      ctx.d1
        .prepare("UPDATE loans SET status = 3, reason = ?2, reviewed_by = ?3, reviewed_at = ?4 WHERE id = ?1 AND status = 1")
        .bind(id, text, operator.id, now),
    ]);
  } catch (error) {
    if (isAlreadyDecided(error)) return fail({ form: "admin.already_decided" }, 409);
    throw error;
  }
  return { ok: true, value: { id } };
}

/** A repayment proof with its user and currency (`r` the repayment, `u` the user, `c` the charge currency: null when it is gone). */
const REPAYMENT_QUEUE_COLUMNS = joinLists(
  columnList(loanRepayments, ["id", "loanId", "userId"], "r"),
  columnList(users, ["uid", "email"], "u"),
  columnList(loanRepayments, ["chargeId"], "r"),
  nullable(columnList(chargeCurrencies, ["currencyCode"], "c")),
  columnList(loanRepayments, ["proofUploadId", "principal", "interest", "penalty", "status", "createdAt"], "r"),
);
/** A repayment proof waiting for the operator's check. */
export type QueuedRepayment = RowOf<typeof REPAYMENT_QUEUE_COLUMNS>;

export async function pendingRepayments(ctx: ServiceContext, operator: SessionUser, limit = 50): Promise<QueuedRepayment[]> {
  assertOperator(operator);
  const { results } = await ctx.d1
    .prepare(
      `SELECT ${REPAYMENT_QUEUE_COLUMNS}
         FROM loan_repayments r JOIN users u ON u.id = r.user_id LEFT JOIN charge_currencies c ON c.id = r.charge_id
        WHERE r.status = 0 ORDER BY r.id LIMIT ?1`,
    )
    .bind(limit)
    .all<QueuedRepayment>();
  return results;
}

/**
 * Approves a repayment: external:deposits pays the snapshotted principal to platform:loans, the
 * interest to platform:loan_interest and the penalty to platform:loan_penalties; the repayment → 1,
 * the loan → 5 with its repayment time. One ledger post, guarded like a loan approval.
 */
export async function approveRepayment(
  ctx: ServiceContext,
  operator: SessionUser,
  sessionId: string,
  id: number,
  now = Date.now(),
): Promise<Outcome<{ id: number; loanId: number }>> {
  assertOperator(operator);
  const r = await ctx.d1
    .prepare("SELECT id, loan_id AS loanId, user_id AS userId, principal, interest, penalty, status FROM loan_repayments WHERE id = ?1")
    .bind(id)
    .first<{ id: number; loanId: number; userId: number; principal: Micros; interest: Micros; penalty: Micros; status: number }>();
  if (!r) return fail({ form: "errors.not_found" }, 404);
  if (r.status !== 0) return fail({ form: "admin.already_decided" }, 409);
  const total = r.principal + r.interest + r.penalty;
  const postings: Posting[] = [
    { accountId: PlatformAccount.ExternalDeposits.id, amount: -total },
    { accountId: PlatformAccount.Loans.id, amount: r.principal },
  ];
  if (r.interest > 0) postings.push({ accountId: PlatformAccount.LoanInterest.id, amount: r.interest });
  if (r.penalty > 0) postings.push({ accountId: PlatformAccount.LoanPenalties.id, amount: r.penalty });
  const key = `loan_repay:${r.id}`;
  try {
    const posted = await post(ctx.d1, {
      idempotencyKey: key,
      kind: "loan_repay",
      memo: `loan.memo_repay|${r.loanId}`,
      userId: r.userId,
      postings,
      guards: [
        decisionStatement(ctx.d1, { operatorId: operator.id, subject: "repayment", subjectId: r.id, decision: "approve" }, now),
        stepUpGuard(ctx.d1, sessionId, now),
      ],
      effects: [
        ctx.d1
          .prepare("UPDATE loan_repayments SET status = 1, reviewed_by = ?2, reviewed_at = ?3 WHERE id = ?1 AND status = 0")
          .bind(r.id, operator.id, now),
        ctx.d1
          .prepare(`UPDATE loans SET status = 5, repayment_time = ?2, repay_tx = ${txOfKey("?3")} WHERE id = ?1 AND status = 4`)
          .bind(r.loanId, now, key),
      ],
    });
    if (posted.replayed) return fail({ form: "admin.already_decided" }, 409);
    return { ok: true, value: { id: r.id, loanId: r.loanId } };
  } catch (error) {
    return ledgerFailure(error);
  }
}

/** Rejects a repayment proof: the repayment → 2 with the reason, the loan back to 2 (to repay) with it. */
export async function rejectRepayment(
  ctx: ServiceContext,
  operator: SessionUser,
  id: number,
  reason: string,
  now = Date.now(),
): Promise<Outcome<{ id: number }>> {
  assertOperator(operator);
  const text = reason.trim();
  if (!text) return fail({ reason: "admin.reason_required" });
  if (text.length > 200) return fail({ reason: "errors.too_long" });
  const r = await ctx.d1
    .prepare("SELECT id, loan_id AS loanId, status FROM loan_repayments WHERE id = ?1")
    .bind(id)
    .first<{ id: number; loanId: number; status: number }>();
  if (!r) return fail({ form: "errors.not_found" }, 404);
  if (r.status !== 0) return fail({ form: "admin.already_decided" }, 409);
  try {
    await ctx.d1.batch([
      decisionStatement(ctx.d1, { operatorId: operator.id, subject: "repayment", subjectId: id, decision: "reject", reason: text }, now),
      ctx.d1
        .prepare("UPDATE loan_repayments SET status = 2, reason = ?2, reviewed_by = ?3, reviewed_at = ?4 WHERE id = ?1 AND status = 0")
        .bind(id, text, operator.id, now),
      ctx.d1.prepare("UPDATE loans SET status = 2, reason = ?2 WHERE id = ?1 AND status = 4").bind(r.loanId, text),
    ]);
  } catch (error) {
    if (isAlreadyDecided(error)) return fail({ form: "admin.already_decided" }, 409);
    throw error;
  }
  return { ok: true, value: { id } };
}

/** Edited terms (app/forms/loan.ts ConfigSchema): numbers NaN and rates as typed where the text is not one; configErrors says which. */
export interface ConfigCommand extends LoanTerms {
  status: 0 | 1;
}

/** Edits a loan config (bounds validated); existing loans keep the terms they were signed with. */
export async function updateLoanConfig(
  ctx: ServiceContext,
  operator: SessionUser,
  id: number,
  command: ConfigCommand,
  now = Date.now(),
): Promise<Outcome<{ id: number }>> {
  assertOperator(operator);
  const { status, ...terms } = command;
  const problems = configErrors(terms);
  const errors: FieldErrors = {};
  const names: Record<keyof LoanTerms, string> = {
    loanPeriod: "loan_period",
    freePeriod: "free_period",
    minAmount: "min_amount",
    maxAmount: "max_amount",
    interestRate: "interest_rate",
    penaltyRate: "penalty_rate",
  };
  for (const [k, v] of Object.entries(problems)) errors[names[k as keyof LoanTerms]] = v;
  if (terms.maxAmount > MAX_LOAN_AMOUNT) errors.max_amount = "loan.config_max_invalid";
  if (Object.keys(errors).length > 0) return fail(errors);
  const changed = await ctx.d1
    .prepare(
      `UPDATE loan_configs SET loan_period = ?2, free_period = ?3, min_amount = ?4, max_amount = ?5, interest_rate = ?6, penalty_rate = ?7, status = ?8, updated_at = ?9
        WHERE id = ?1 RETURNING id`,
    )
    .bind(id, terms.loanPeriod, terms.freePeriod, terms.minAmount, terms.maxAmount, terms.interestRate, terms.penaltyRate, status, now)
    .first<{ id: number }>();
  if (!changed) return fail({ form: "errors.not_found" }, 404);
  return { ok: true, value: { id } };
}

/** Queue counts for the console. */
export async function loanQueueCounts(ctx: ServiceContext) {
  const row = await ctx.d1
    .prepare(
      `SELECT (SELECT COUNT(*) FROM loan_kyc WHERE status = 1) AS kyc, (SELECT COUNT(*) FROM loans WHERE status = 1) AS loans,
              (SELECT COUNT(*) FROM loan_repayments WHERE status = 0) AS repayments`,
    )
    .first<{ kyc: number; loans: number; repayments: number }>();
  return row ?? { kyc: 0, loans: 0, repayments: 0 };
}
