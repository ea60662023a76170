/**
 * Copy trading for the operator (issue 11 §4, ADR 013): the queue of trader applications and
 * their review (each decided once, whatever the concurrency), and the traders (suspend with a
 * reason the followers see, resume, the profit share). No money moves here: no step-up.
 */
import type { ServiceContext } from "~/context.server";
import { ApplicationStatus, TraderStatus, type ProfitShareCommand, type ReviewInput, type TraderStatusInput } from "~/domain/copy";
import { reasonProblem } from "~/services/identity.server";
import { assertOperator, decisionStatement, isAlreadyDecided, type Decision } from "~/services/operator.server";
import { fail, type Outcome } from "~/services/outcome";
import type { SessionUser } from "~/services/session.server";
import { NICKNAME_SQL } from "./queries.server";

/** Deciding one application (app/forms/copy.ts ReviewSchema; the button pressed names the decision). */
export type ReviewCommand = ReviewInput & { decision: Decision };

/** Suspending or resuming a trader (app/forms/copy.ts TraderStatusSchema; the button pressed says which). */
export type TraderStatusCommand = TraderStatusInput & { suspend: boolean };

export interface PendingApplication {
  id: number;
  userId: number;
  uid: string;
  email: string | null;
  mobile: string | null;
  createdAt: number;
  closedOrders: number;
}

export interface DecidedApplication {
  id: number;
  applicationId: number;
  uid: string | null;
  email: string | null;
  decision: Decision;
  reason: string;
  decidedAt: number;
  operator: string;
}

/** The operator's queue: applications waiting (oldest first) and the latest decisions. */
export async function applicationQueue(
  ctx: ServiceContext,
  operator: Pick<SessionUser, "role"> | null,
  limits = { pending: 50, decided: 20 },
) {
  assertOperator(operator);
  const [pending, decided] = await ctx.d1.batch([
    ctx.d1
      .prepare(
        `SELECT a.id, a.user_id AS userId, u.uid, u.email, u.mobile, a.created_at AS createdAt,
                (SELECT COUNT(*) FROM contract_orders c WHERE c.user_id = a.user_id AND c.status = 3 AND c.follow_type = 1) AS closedOrders
           FROM trader_applications a JOIN users u ON u.id = a.user_id
          WHERE a.status = 0 ORDER BY a.id ASC LIMIT ?1`,
      )
      .bind(limits.pending),
    ctx.d1
      .prepare(
        `SELECT d.id, CAST(d.subject_id AS INTEGER) AS applicationId, u.uid, u.email, d.decision, d.reason, d.created_at AS decidedAt, COALESCE(op.email, op.uid) AS operator
           FROM operator_decisions d
           JOIN users op ON op.id = d.operator_id
           LEFT JOIN trader_applications a ON a.id = CAST(d.subject_id AS INTEGER)
           LEFT JOIN users u ON u.id = a.user_id
          WHERE d.subject = 'trader' ORDER BY d.id DESC LIMIT ?1`,
      )
      .bind(limits.decided),
  ]);
  return { pending: (pending!.results ?? []) as PendingApplication[], decided: (decided!.results ?? []) as DecidedApplication[] };
}

/**
 * Approves (→ a trader: the traders row and users.is_trader = 1 in the same batch) or rejects
 * (with the reason the applicant sees) one application. Exactly one decision per application:
 * the decision row's unique key comes first, and a guard undoes the batch when the application
 * was no longer waiting.
 */
export async function reviewApplication(
  ctx: ServiceContext,
  operator: Pick<SessionUser, "id" | "role"> | null,
  command: ReviewCommand,
  now = Date.now(),
): Promise<Outcome<{ decision: Decision; userId: number }>> {
  assertOperator(operator);
  const reason = (command.reason ?? "").normalize("NFC").trim();
  const problem = reasonProblem(reason, command.decision);
  if (problem) return fail({ reason: problem });
  if (!Number.isSafeInteger(command.id) || command.id <= 0) return fail({ form: "errors.not_found" }, 404);
  const app = await ctx.d1
    .prepare("SELECT user_id AS userId, status FROM trader_applications WHERE id = ?1")
    .bind(command.id)
    .first<{ userId: number; status: number }>();
  if (!app) return fail({ form: "errors.not_found" }, 404);
  if (app.status !== ApplicationStatus.Waiting) return fail({ form: "admin.already_decided" }, 409);
  const status = command.decision === "approve" ? ApplicationStatus.Approved : ApplicationStatus.Rejected;
  const statements = [
    decisionStatement(
      ctx.d1,
      { operatorId: operator.id, subject: "trader", subjectId: command.id, decision: command.decision, reason },
      now,
    ),
    ctx.d1
      .prepare("UPDATE trader_applications SET status = ?2, reason = ?3, reviewed_by = ?4, reviewed_at = ?5 WHERE id = ?1 AND status = 0")
      .bind(command.id, status, command.decision === "reject" ? reason : "", operator.id, now),
    ctx.d1.prepare("INSERT INTO session_guard (session_id) SELECT 'application_not_waiting' WHERE changes() = 0"),
  ];
  if (command.decision === "approve") {
    statements.push(
      ctx.d1
        .prepare(
          `INSERT INTO traders (user_id, nickname, approved_at) SELECT u.id, ${NICKNAME_SQL}, ?2 FROM users u WHERE u.id = ?1 ON CONFLICT (user_id) DO NOTHING`,
        )
        .bind(app.userId, now),
      ctx.d1.prepare("UPDATE users SET is_trader = 1 WHERE id = ?1").bind(app.userId),
    );
  }
  try {
    await ctx.d1.batch(statements);
  } catch (error) {
    if (isAlreadyDecided(error) || (error instanceof Error && /session_valid|session_guard/.test(error.message)))
      return fail({ form: "admin.already_decided" }, 409);
    throw error;
  }
  return { ok: true, value: { decision: command.decision, userId: app.userId } };
}

export interface TraderAdminRow {
  userId: number;
  uid: string;
  email: string | null;
  nickname: string;
  status: number;
  suspendedReason: string;
  profitShare: string;
  approvedAt: number;
  followNum: number;
}

export async function traderAdminList(
  ctx: ServiceContext,
  operator: Pick<SessionUser, "role"> | null,
  limit = 100,
): Promise<TraderAdminRow[]> {
  assertOperator(operator);
  const { results } = await ctx.d1
    .prepare(
      `SELECT t.user_id AS userId, u.uid, u.email, t.nickname, t.status, t.suspended_reason AS suspendedReason, t.profit_share AS profitShare,
              t.approved_at AS approvedAt, (SELECT COUNT(*) FROM follows f WHERE f.trader_id = t.user_id AND f.status <> 0) AS followNum
         FROM traders t JOIN users u ON u.id = t.user_id ORDER BY t.approved_at DESC LIMIT ?1`,
    )
    .bind(limit)
    .all<TraderAdminRow>();
  return results;
}

/** Suspends (a reason required: followers are told why, and receive no copies) or resumes a trader. */
export async function setTraderStatus(
  ctx: ServiceContext,
  operator: Pick<SessionUser, "id" | "role"> | null,
  command: TraderStatusCommand,
): Promise<Outcome<{ status: number }>> {
  assertOperator(operator);
  const reason = (command.reason ?? "").normalize("NFC").trim();
  if (command.suspend) {
    const problem = reasonProblem(reason, "reject");
    if (problem) return fail({ reason: problem });
  }
  const status = command.suspend ? TraderStatus.Suspended : TraderStatus.Active;
  const result = await ctx.d1
    .prepare("UPDATE traders SET status = ?2, suspended_reason = ?3 WHERE user_id = ?1")
    .bind(command.traderId, status, command.suspend ? reason : "")
    .run();
  if (!result.meta.changes) return fail({ form: "errors.not_found" }, 404);
  return { ok: true, value: { status } };
}

/** Sets a trader's profit share (the form typed it as a percentage 0–50 with at most 2 decimals). */
export async function setProfitShare(
  ctx: ServiceContext,
  operator: Pick<SessionUser, "id" | "role"> | null,
  command: ProfitShareCommand,
): Promise<Outcome<{ share: string }>> {
  assertOperator(operator);
  const result = await ctx.d1
    .prepare("UPDATE traders SET profit_share = ?2 WHERE user_id = ?1")
    .bind(command.traderId, command.share)
    .run();
  if (!result.meta.changes) return fail({ form: "errors.not_found" }, 404);
  return { ok: true, value: { share: command.share } };
}
