/**
 * The funds' daily income job (issue 12; docs/decisions/015-funds.md, 018-scale.md): its
 * set-based statements, one chunk of users at a time (the queue consumer's unit of work), the
 * chunks' user ranges, and the whole job at once for the local control and tests.
 */
import type { ServiceContext } from "~/context.server";
import { utcDay } from "~/domain/fund";
import { FUND_INCOME_CHUNK, chunkStartsSql, userRanges, type UserRange } from "~/domain/jobs";
import { PlatformAccount, batchPostingStatements, postBatch } from "~/services/ledger.server";

/* ---------------------------------------------------------------------------------------------
 * The daily job
 * ------------------------------------------------------------------------------------------- */

/**
 * Pays the daily income of every subscription in progress up to `runDay` and returns the share of
 * those whose lock ended, in ONE D1 batch with a fixed number of statements (whatever the number
 * of subscriptions). For each subscription with status 1, the unpaid days are those from
 * start_day + paid days (paid days = sum_profit / day_profit, kept in step in this same batch) to
 * min(runDay, end_day): a recursive CTE lists them, so a missed run is caught up.
 *   1. one ledger transaction per (subscription, day), idempotency key fund_income:<sub>:<day>
 *      (INSERT OR IGNORE: a concurrent run's rows are skipped), tagged with this run's batch id;
 *   2. the income rows from this batch's transactions (UNIQUE (sub_id, day): a day is paid once);
 *   3. their entries (platform:funds → the user's funding account);
 *   4. sum_profit += the batch's income per subscription;
 *   5. ledger.batchPostingStatements: balances, per-transaction balance check (same invariants as post());
 *   6. the finish: one transaction per subscription whose end day has come and whose days are all
 *      paid (key fund_finish:<sub>), its entries, the status → 4, and batchPostingStatements again.
 * Running it twice on the same date changes nothing the second time.
 */
export function fundIncomeStatements(db: D1Database, runDay: string, now: number, incomeBatch: string, finishBatch: string, users: UserRange = ALL_USERS): D1PreparedStatement[] {
  const to = users.to ?? Number.MAX_SAFE_INTEGER;
  const prefixLength = incomeBatch.length + 2; // "<batch>:" then "<sub>:<YYYY-MM-DD>"
  const thisBatch = `SELECT t.id AS tx, t.user_id AS user_id, CAST(substr(t.id, ?2, length(t.id) - ?2 - 10) AS INTEGER) AS sub_id, substr(t.id, -10) AS day
                       FROM ledger_transactions t WHERE t.batch_id = ?1`;
  return [
    db
      .prepare(
        `WITH RECURSIVE due(sub_id, user_id, day, last) AS (
           SELECT id, user_id, date(start_day, '+' || (sum_profit / day_profit) || ' days'), MIN(end_day, ?2)
             FROM fund_subscriptions
            WHERE status = 1 AND day_profit > 0 AND start_day <= ?2 AND sum_profit < day_profit * lock_days AND user_id >= ?3 AND user_id < ?4
           UNION ALL
           SELECT sub_id, user_id, date(day, '+1 day'), last FROM due WHERE day < last
         )
         INSERT OR IGNORE INTO ledger_transactions (id, idempotency_key, request_hash, kind, memo, user_id, batch_id)
         SELECT ?1 || ':' || sub_id || ':' || day, 'fund_income:' || sub_id || ':' || day, ?1, 'fund_income', 'fund.memo_income', user_id, ?1
           FROM due WHERE day <= last`,
      )
      .bind(incomeBatch, runDay, users.from, to),
    db
      .prepare(
        `INSERT INTO fund_incomes (sub_id, user_id, day, interest, ledger_tx, created_at)
         SELECT b.sub_id, b.user_id, b.day, s.day_profit, b.tx, ?3
           FROM (${thisBatch}) b JOIN fund_subscriptions s ON s.id = b.sub_id`,
      )
      .bind(incomeBatch, prefixLength, now),
    db
      .prepare(
        `INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount)
         SELECT tx, account_id, 0, amount FROM (
           SELECT b.tx AS tx, ?3 AS account_id, -s.day_profit AS amount, b.sub_id AS sid, b.day AS d, 1 AS n
             FROM (${thisBatch}) b JOIN fund_subscriptions s ON s.id = b.sub_id
           UNION ALL
           SELECT b.tx, a.id, s.day_profit, b.sub_id, b.day, 2
             FROM (${thisBatch}) b JOIN fund_subscriptions s ON s.id = b.sub_id JOIN accounts a ON a.user_id = s.user_id AND a.kind = 'funding'
         )`,
      )
      .bind(incomeBatch, prefixLength, PlatformAccount.Funds.id),
    db
      .prepare(
        `UPDATE fund_subscriptions SET sum_profit = sum_profit + fund_subscriptions.day_profit * p.n
           FROM (SELECT sub_id, COUNT(*) AS n FROM (${thisBatch}) GROUP BY sub_id) AS p
          WHERE fund_subscriptions.id = p.sub_id`,
      )
      .bind(incomeBatch, prefixLength),
    ...batchPostingStatements(db, incomeBatch),
    // the finish: the lock has ended and every day is paid (or there is no income to pay)
    db
      .prepare(
        `INSERT OR IGNORE INTO ledger_transactions (id, idempotency_key, request_hash, kind, memo, user_id, batch_id)
         SELECT ?1 || ':' || id, 'fund_finish:' || id, ?1, 'fund_redeem', 'fund.memo_finish', user_id, ?1
           FROM fund_subscriptions
          WHERE status = 1 AND end_day <= ?2 AND (day_profit = 0 OR sum_profit >= day_profit * lock_days) AND user_id >= ?3 AND user_id < ?4`,
      )
      .bind(finishBatch, runDay, users.from, to),
    db
      .prepare(
        `INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount)
         SELECT tx, account_id, 0, amount FROM (
           SELECT t.id AS tx, ?2 AS account_id, -s.share_amount AS amount, s.id AS sid, 1 AS n
             FROM ledger_transactions t JOIN fund_subscriptions s ON s.id = CAST(substr(t.id, ?3) AS INTEGER) WHERE t.batch_id = ?1
           UNION ALL
           SELECT t.id, a.id, s.share_amount, s.id, 2
             FROM ledger_transactions t JOIN fund_subscriptions s ON s.id = CAST(substr(t.id, ?3) AS INTEGER)
             JOIN accounts a ON a.user_id = s.user_id AND a.kind = 'funding' WHERE t.batch_id = ?1
         )`,
      )
      .bind(finishBatch, PlatformAccount.Funds.id, finishBatch.length + 2),
    ...batchPostingStatements(db, finishBatch),
    db
      .prepare(
        `UPDATE fund_subscriptions SET status = 4, return_tx = 'fund_finish:' || fund_subscriptions.id, closed_at = ?3
           FROM (SELECT CAST(substr(id, ?2) AS INTEGER) AS sub_id FROM ledger_transactions WHERE batch_id = ?1) AS f
          WHERE fund_subscriptions.id = f.sub_id AND fund_subscriptions.status = 1`,
      )
      .bind(finishBatch, finishBatch.length + 2, now),
  ];
}

export interface FundJobReport {
  day: string;
  paid: number;
  finished: number;
  statements: number;
}

const ALL_USERS: UserRange = { from: 0, to: null };

/**
 * The "fund-income" job for one range of users, in one batch (idempotent on the subscription and
 * the date, so a queue message delivered twice, or two runs at once, pay each day once).
 */
export async function payFundIncomeChunk(ctx: Pick<ServiceContext, "d1">, now: number, runDay: string, users: UserRange): Promise<FundJobReport> {
  const incomeBatch = `fi-${crypto.randomUUID()}`;
  const finishBatch = `ff-${crypto.randomUUID()}`;
  const statements = fundIncomeStatements(ctx.d1, runDay, now, incomeBatch, finishBatch, users);
  await postBatch(ctx.d1, statements);
  const counts = await ctx.d1
    .prepare("SELECT (SELECT COUNT(*) FROM ledger_transactions WHERE batch_id = ?1) AS paid, (SELECT COUNT(*) FROM ledger_transactions WHERE batch_id = ?2) AS finished")
    .bind(incomeBatch, finishBatch)
    .first<{ paid: number; finished: number }>();
  return { day: runDay, paid: counts?.paid ?? 0, finished: counts?.finished ?? 0, statements: statements.length };
}

/**
 * The job's chunks: user id ranges holding about FUND_INCOME_CHUNK subscriptions in progress each
 * (a user's subscriptions always fall in one range), read in one query.
 */
export async function fundIncomeRanges(ctx: Pick<ServiceContext, "d1">, chunk = FUND_INCOME_CHUNK): Promise<UserRange[]> {
  const { results } = await ctx.d1
    .prepare(chunkStartsSql("SELECT user_id FROM fund_subscriptions WHERE status = 1"))
    .bind(chunk)
    .all<{ id: number }>();
  return userRanges(results.map((r) => r.id));
}

/**
 * The whole job at once, chunk after chunk in this request (the local /dev/fund/income control and
 * tests; production enqueues the chunks, see jobs.server.ts).
 */
export async function payFundIncome(ctx: Pick<ServiceContext, "d1">, now = Date.now(), runDay = utcDay(now)): Promise<FundJobReport> {
  const report: FundJobReport = { day: runDay, paid: 0, finished: 0, statements: 0 };
  for (const range of await fundIncomeRanges(ctx)) {
    const r = await payFundIncomeChunk(ctx, now, runDay, range);
    report.paid += r.paid;
    report.finished += r.finished;
    report.statements += r.statements;
  }
  return report;
}
