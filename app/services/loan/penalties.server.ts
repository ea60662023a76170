/**
 * Late penalties (spec §9; the daily job, and before a repayment's snapshot): one
 * loan_penalty_days row per loan and late UTC day (INSERT … ON CONFLICT DO NOTHING), each at one
 * day's fee, and penalty_amount recomputed from the rows; set-based, one batch per chunk of users
 * (the daily cron enqueues the chunks on the jobs queue, docs/decisions/018-scale.md). Only loans
 * at status 2 accrue: while a repayment is under check (4) nothing accrues; if the proof is
 * rejected the loan is back at 2 and the next accrual catches up those days too (the proof was
 * not a payment). The fee is app/domain/loan.ts's dailyPenalty, its SQL generated there.
 */
import type { ServiceContext } from "~/context.server";
import { LOAN_PENALTY_CHUNK, chunkStartsSql, userRanges, type UserRange } from "~/domain/jobs";
import { dailyPenaltySql, utcDay } from "~/domain/loan";

/** One late day's fee of a row of loans (dailyPenalty). */
const DAILY_FEE_SQL = dailyPenaltySql("amount", "penalty_rate");

const ALL_USERS: UserRange = { from: 0, to: null };

/**
 * The accrual statements: a row per late UTC day of every loan at status 2 (or of one loan, or of
 * the loans of one range of users) up to `today`, catching up any missed day, then penalty_amount
 * recomputed from the rows. Two statements whatever the number of loans; running them twice the
 * same day changes nothing (the rows are UNIQUE per (loan, day)).
 */
export function accrualStatements(
  db: D1Database,
  now: number,
  loanId: number | null = null,
  users: UserRange = ALL_USERS,
  today = utcDay(now),
): D1PreparedStatement[] {
  const to = users.to ?? Number.MAX_SAFE_INTEGER;
  return [
    db
      .prepare(
        `WITH RECURSIVE late(loan_id, day, fee) AS (
           SELECT id, date(due_at / 1000, 'unixepoch', '+1 day'), ${DAILY_FEE_SQL}
             FROM loans
            WHERE status = 2 AND due_at IS NOT NULL AND date(due_at / 1000, 'unixepoch') < ?1 AND (?2 IS NULL OR id = ?2) AND user_id >= ?4 AND user_id < ?5
           UNION ALL
           SELECT loan_id, date(day, '+1 day'), fee FROM late WHERE day < ?1
         )
         INSERT INTO loan_penalty_days (loan_id, day, amount, created_at)
         SELECT loan_id, day, fee, ?3 FROM late WHERE true
         ON CONFLICT (loan_id, day) DO NOTHING`,
      )
      .bind(today, loanId, now, users.from, to),
    db
      .prepare(
        `UPDATE loans SET penalty_amount = (SELECT COALESCE(SUM(p.amount), 0) FROM loan_penalty_days p WHERE p.loan_id = loans.id)
          WHERE status = 2 AND due_at IS NOT NULL AND (?1 IS NULL OR id = ?1) AND user_id >= ?2 AND user_id < ?3
            AND penalty_amount <> (SELECT COALESCE(SUM(p.amount), 0) FROM loan_penalty_days p WHERE p.loan_id = loans.id)`,
      )
      .bind(loanId, users.from, to),
  ];
}

/**
 * The "loan-penalties" job for one range of users, in one batch (the queue consumer's unit of
 * work, docs/decisions/018-scale.md): idempotent per (loan, day), so a message delivered twice, or
 * two runs at once, charge each late day once. Answers how many late-day rows it added.
 */
export async function accrueLoanPenaltiesChunk(
  ctx: Pick<ServiceContext, "d1">,
  now: number,
  runDay: string,
  users: UserRange,
): Promise<number> {
  const [inserted] = await ctx.d1.batch(accrualStatements(ctx.d1, now, null, users, runDay));
  return inserted?.meta.changes ?? 0;
}

/** The job's chunks: user id ranges holding about LOAN_PENALTY_CHUNK loans at status 2 each, read in one query. */
export async function loanPenaltyRanges(ctx: Pick<ServiceContext, "d1">, chunk = LOAN_PENALTY_CHUNK): Promise<UserRange[]> {
  const { results } = await ctx.d1
    .prepare(chunkStartsSql("SELECT user_id FROM loans WHERE status = 2 AND due_at IS NOT NULL"))
    .bind(chunk)
    .all<{ id: number }>();
  return userRanges(results.map((r) => r.id));
}

/**
 * The whole "loan-penalties" job at once, chunk after chunk in this request (tests and local use;
 * the daily cron enqueues the chunks, see jobs.server.ts). Answers how many late-day rows it added.
 */
export async function accrueLoanPenalties(ctx: Pick<ServiceContext, "d1">, now = Date.now()): Promise<number> {
  let added = 0;
  for (const range of await loanPenaltyRanges(ctx)) added += await accrueLoanPenaltiesChunk(ctx, now, utcDay(now), range);
  return added;
}
