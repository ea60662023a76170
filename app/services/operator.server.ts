/**
 * The operator role: one guard for every /admin route and every operator service, the step-up
 * (a fresh e-mail code) before money-moving approvals, and the decision record that makes each
 * review happen exactly once.
 *
 * - Anyone who is not a signed-in operator gets 404 under /admin (the console's existence is not
 *   revealed).
 * - A step-up lasts STEP_UP_TTL_MS for the session that verified it. Approvals re-check it inside
 *   their write batch (`stepUpGuard`), so a step-up that expires between the page and the click
 *   changes nothing.
 * - `decisionStatement` inserts the decision row under a UNIQUE (subject, subject_id, step) key;
 *   put it first in the batch that moves the money: of two concurrent reviews, one wins and the
 *   other's batch rolls back whole.
 */
import { redirect } from "@remix-run/cloudflare";
import type { AppContext } from "~/context.server";
import { safeRedirect } from "~/lib/redirect";
import { consumeStepUpCode } from "~/services/auth/passwords.server";
import { LedgerError } from "~/services/ledger/post.server";
import { sessionIdOf, type SessionUser } from "~/services/session.server";

export const STEP_UP_TTL_MS = 15 * 60_000;

export type DecisionSubject = "deposit" | "withdrawal" | "identity" | "loan" | "loan_kyc" | "repayment" | "trader" | "fund_refund";
export type Decision = "approve" | "reject";

export class OperatorOnly extends Error {
  constructor() {
    super("operator only");
    this.name = "OperatorOnly";
  }
}

/** For services: refuses anyone but an operator. */
export function assertOperator(user: Pick<SessionUser, "role"> | null | undefined): asserts user is SessionUser {
  if (!user || user.role !== "operator") throw new OperatorOnly();
}

function notFound() {
  return new Response("Not Found", { status: 404, headers: { "cache-control": "private, no-store" } });
}

/** Every /admin loader and action starts here: a non-operator (or a visitor) gets 404. */
export async function requireOperator(context: AppContext): Promise<SessionUser> {
  const user = await context.user();
  if (!user || user.role !== "operator") throw notFound();
  return user;
}

async function currentSessionId(context: AppContext): Promise<string | null> {
  const token = await context.token();
  return token ? sessionIdOf(token) : null;
}

/** Until when this session's step-up lasts (0 when there is none). */
export async function stepUpUntil(context: AppContext, now = Date.now()): Promise<number> {
  const sessionId = await currentSessionId(context);
  if (!sessionId) return 0;
  const row = await context.d1
    .prepare("SELECT verified_at AS at FROM operator_step_ups WHERE session_id = ?1")
    .bind(sessionId)
    .first<{ at: number }>();
  const until = row ? row.at + STEP_UP_TTL_MS : 0;
  return until > now ? until : 0;
}

/** A money-moving operator page: without a fresh step-up, the operator is sent to confirm one first. */
export async function requireStepUp(context: AppContext, request: Request): Promise<{ user: SessionUser; sessionId: string }> {
  const user = await requireOperator(context);
  const sessionId = await currentSessionId(context);
  if (!sessionId || (await stepUpUntil(context)) === 0) {
    const url = new URL(request.url);
    throw redirect(`/admin/verify?from=${encodeURIComponent(safeRedirect(url.pathname + url.search, "/admin"))}`);
  }
  return { user, sessionId };
}

/** Checks the operator's code and starts (or renews) this session's step-up. */
export async function verifyStepUp(context: AppContext, user: SessionUser, code: string, now = Date.now()): Promise<boolean> {
  assertOperator(user);
  const sessionId = await currentSessionId(context);
  if (!sessionId || !/^\d{6}$/.test(code)) return false;
  if (!(await consumeStepUpCode(context, user, code))) return false;
  await context.d1
    .prepare(
      "INSERT INTO operator_step_ups (session_id, verified_at) VALUES (?1, ?2) ON CONFLICT (session_id) DO UPDATE SET verified_at = excluded.verified_at",
    )
    .bind(sessionId, now)
    .run();
  return true;
}

/**
 * A statement for an approval's batch that aborts it unless the session's step-up is still
 * fresh: it inserts into session_guard (whose CHECK refuses every row) exactly when it is not.
 */
export function stepUpGuard(db: D1Database, sessionId: string, now = Date.now()): D1PreparedStatement {
  return db
    .prepare(
      "INSERT INTO session_guard (session_id) SELECT ?1 WHERE NOT EXISTS (SELECT 1 FROM operator_step_ups WHERE session_id = ?1 AND verified_at > ?2)",
    )
    .bind(sessionId, now - STEP_UP_TTL_MS);
}

/** The decision row (operator, time, reason) under its once-only key: put it first in the review's batch. */
export function decisionStatement(
  db: D1Database,
  input: { operatorId: number; subject: DecisionSubject; subjectId: string | number; step?: number; decision: Decision; reason?: string },
  now = Date.now(),
): D1PreparedStatement {
  return db
    .prepare(
      "INSERT INTO operator_decisions (operator_id, subject, subject_id, step, decision, reason, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )
    .bind(input.operatorId, input.subject, String(input.subjectId), input.step ?? 1, input.decision, input.reason ?? "", now);
}

/**
 * Errors of a review's batch. Inside ledger.post(): a second decision fails its guard
 * (LedgerError "guard_failed") and an expired step-up is LedgerError "session_ended". In a batch
 * of the caller's own (a rejection that moves no money), the raw D1 errors name the constraint.
 */
export function isAlreadyDecided(error: unknown): boolean {
  if (error instanceof LedgerError) return error.code === "guard_failed";
  return error instanceof Error && /UNIQUE/i.test(error.message) && /operator_decisions/.test(error.message);
}

export function isStepUpExpired(error: unknown): boolean {
  if (error instanceof LedgerError) return error.code === "session_ended";
  return error instanceof Error && /session_valid|session_guard/.test(error.message);
}

/** Pending items in each review queue (the console's overview). */
export async function queueCounts(context: AppContext) {
  const row = await context.d1
    .prepare(
      `SELECT (SELECT COUNT(*) FROM deposits WHERE status = 0) AS deposits,
              (SELECT COUNT(*) FROM withdrawals WHERE status = 0) AS withdrawals,
              (SELECT COUNT(*) FROM identity_verifications WHERE review_status = 1) AS identity,
              (SELECT COUNT(*) FROM trader_applications WHERE status = 0) AS traders,
              (SELECT COUNT(*) FROM loan_kyc WHERE status = 1) + (SELECT COUNT(*) FROM loans WHERE status = 1) + (SELECT COUNT(*) FROM loan_repayments WHERE status = 0) AS loans,
              (SELECT COUNT(*) FROM fund_subscriptions WHERE status = 2) AS funds,
              (SELECT COUNT(*) FROM feedback WHERE status = 0) AS feedback,
              (SELECT COUNT(*) FROM engine_parked) + (SELECT COUNT(*) FROM job_dead_letters) AS engine`,
    )
    .first<{
      deposits: number;
      withdrawals: number;
      identity: number;
      traders: number;
      loans: number;
      funds: number;
      feedback: number;
      engine: number;
    }>();
  return row ?? { deposits: 0, withdrawals: 0, identity: 0, traders: 0, loans: 0, funds: 0, feedback: 0, engine: 0 };
}
