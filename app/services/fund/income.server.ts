/**
 * The funds' daily income job (issue 12; docs/decisions/015-funds.md, 018-scale.md): its
 * set-based statements, one chunk of users at a time (the queue consumer's unit of work), the
 * chunks' user ranges, and the whole job at once for the local control and tests.
 */
import type { ServiceContext } from "~/context.server";
import { utcDay } from "~/domain/fund";
import { FUND_INCOME_CHUNK, chunkStartsSql, userRanges, type UserRange } from "~/domain/jobs";
import { PlatformAccount } from "~/services/ledger/accounts.server";
import { batchPostingStatements, openBatch, postBatch } from "~/services/ledger/batch.server";
import { newBatchId } from "~/domain/ledger";

/* ---------------------------------------------------------------------------------------------
 * The daily job
 * ------------------------------------------------------------------------------------------- */

/**
 * The unpaid (subscription, day) pairs of the users from ?3 (inclusive) to ?4 (exclusive) up to
 * the run day ?2: the days from start_day + paid days to min(?2, end_day), less any already paid
 * (its income row exists: UNIQUE (sub_id, day)). The paid days are sum_profit / day_profit
 * (integer division). `+status` keeps SQLite off the status index: a chunk reads its own users'
 * subscriptions through the (user_id, …) index, not every subscription in progress. The rule is
 * app/domain/fund.ts's dueIncomeDays and isDueToFinish; tests/integration/fund-income-rule.test.ts
 * runs this SQL and those functions on the same random subscriptions.
 */
export const DUE_INCOME = `due(sub_id, user_id, day, last) AS (
             SELECT id, user_id, date(start_day, '+' || (sum_profit / day_profit) || ' days'), MIN(end_day, ?2)
               FROM fund_subscriptions
              WHERE +status = 1 AND day_profit > 0 AND start_day <= ?2 AND sum_profit < day_profit * lock_days AND user_id >= ?3 AND user_id < ?4
             UNION ALL
             SELECT sub_id, user_id, date(day, '+1 day'), last FROM due WHERE day < last
           ),
           unpaid AS (SELECT sub_id, user_id, day FROM due d WHERE day <= last AND NOT EXISTS (SELECT 1 FROM fund_incomes f WHERE f.sub_id = d.sub_id AND f.day = d.day))`;

/**
 * Pays the daily income of every subscription in progress up to `runDay` and returns the share of
 * those whose lock ended, in ONE D1 batch with a fixed number of statements (whatever the number
 * of subscriptions). For each subscription with status 1, the unpaid days are those from
 * start_day + paid days (paid days = sum_profit / day_profit, kept in step in this same batch) to
 * min(runDay, end_day): a recursive CTE lists them, so a missed run is caught up.
 *   0. the batch's row (ledger_batches), with the largest income row id so far as its mark: the
 *      income rows above it are this batch's;
 *   1. ONE ledger transaction per user and day with unpaid subscriptions (docs/decisions/
 *      003-money-and-ledger.md "A compact ledger"), key fund_income:<user>:<day>:<first
 *      subscription paid in it>, tagged with the batch;
 *   2. an income row per unpaid (subscription, day), with its transaction's id (ledger_tx):
 *      UNIQUE (sub_id, day) is the idempotency key, so a day is paid once (a redelivered or
 *      concurrent run finds it paid and skips it);
 *   3. the entries: a line per income row (platform:funds → the user's funding account, one
 *      entry on the user's side per subscription) and one platform:funds entry per transaction;
 *   4. sum_profit += the batch's income per subscription;
 *   5. ledger.batchPostingStatements: balances, per-transaction balance check (same invariants as post());
 *   6. the finish: its own batch id, one transaction per subscription whose end day has come and
 *      whose days are all paid (key fund_finish:<sub>), its entries, batchPostingStatements again,
 *      and the status → 4 with return_tx.
 * Running it twice on the same date changes nothing the second time.
 */
export function fundIncomeStatements(
  db: D1Database,
  runDay: string,
  now: number,
  incomeBatch: number,
  finishBatch: number,
  users: UserRange = ALL_USERS,
): D1PreparedStatement[] {
  const to = users.to ?? Number.MAX_SAFE_INTEGER;
  // this batch's income rows: above the mark its batch row recorded
  const mine = "(SELECT mark FROM ledger_batches WHERE id = ?1)";
  const finishIdAt = "fund_finish:".length + 1; // substr() position of the subscription id in a finish key
  return [
    openBatch(db, incomeBatch, "SELECT COALESCE(MAX(id), 0) FROM fund_incomes"),
    db
      .prepare(
        `WITH RECURSIVE ${DUE_INCOME}
         INSERT INTO ledger_transactions (idempotency_key, kind, memo, user_id, batch_id)
         SELECT 'fund_income:' || user_id || ':' || day || ':' || MIN(sub_id), 'fund_income', 'fund.memo_income', user_id, ?1
           FROM unpaid GROUP BY user_id, day ORDER BY user_id, day`,
      )
      .bind(incomeBatch, runDay, users.from, to),
    db
      .prepare(
        `WITH RECURSIVE ${DUE_INCOME}
         INSERT INTO fund_incomes (sub_id, user_id, day, interest, ledger_tx, created_at)
         SELECT d.sub_id, d.user_id, d.day, s.day_profit,
                (SELECT t.id FROM ledger_transactions t WHERE t.idempotency_key = 'fund_income:' || d.user_id || ':' || d.day || ':' || d.first), ?1
           FROM (SELECT sub_id, user_id, day, MIN(sub_id) OVER (PARTITION BY user_id, day) AS first FROM unpaid) d
           JOIN fund_subscriptions s ON s.id = d.sub_id
          ORDER BY d.user_id, d.day, d.sub_id`,
      )
      .bind(now, runDay, users.from, to),
    db
      .prepare(
        `INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount)
         SELECT tx, account_id, 0, amount FROM (
           SELECT ledger_tx AS tx, ?2 AS account_id, -SUM(interest) AS amount, MIN(id) AS n
             FROM fund_incomes WHERE id > ${mine} GROUP BY ledger_tx
           UNION ALL
           SELECT f.ledger_tx, a.id, f.interest, f.id
             FROM fund_incomes f JOIN accounts a ON a.user_id = f.user_id AND a.kind = 'funding' WHERE f.id > ${mine}
         ) ORDER BY tx, n, account_id = ?2 DESC`,
      )
      .bind(incomeBatch, PlatformAccount.Funds.id),
    db
      .prepare(
        `UPDATE fund_subscriptions SET sum_profit = sum_profit + fund_subscriptions.day_profit * p.n
           FROM (SELECT sub_id, COUNT(*) AS n FROM fund_incomes WHERE id > ${mine} GROUP BY sub_id) AS p
          WHERE fund_subscriptions.id = p.sub_id`,
      )
      .bind(incomeBatch),
    ...batchPostingStatements(db, incomeBatch),
    // the finish: the lock has ended and every day is paid (or there is no income to pay)
    openBatch(db, finishBatch),
    db
      .prepare(
        `INSERT OR IGNORE INTO ledger_transactions (idempotency_key, kind, memo, user_id, batch_id)
         SELECT 'fund_finish:' || id, 'fund_redeem', 'fund.memo_finish', user_id, ?1
           FROM fund_subscriptions
          WHERE status = 1 AND end_day <= ?2 AND (day_profit = 0 OR sum_profit >= day_profit * lock_days) AND user_id >= ?3 AND user_id < ?4
          ORDER BY id`,
      )
      .bind(finishBatch, runDay, users.from, to),
    db
      .prepare(
        `INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount)
         SELECT tx, account_id, 0, amount FROM (
           SELECT t.id AS tx, ?2 AS account_id, -s.share_amount AS amount, 1 AS n
             FROM ledger_transactions t JOIN fund_subscriptions s ON s.id = CAST(substr(t.idempotency_key, ?3) AS INTEGER) WHERE t.batch_id = ?1
           UNION ALL
           SELECT t.id, a.id, s.share_amount, 2
             FROM ledger_transactions t JOIN fund_subscriptions s ON s.id = CAST(substr(t.idempotency_key, ?3) AS INTEGER)
             JOIN accounts a ON a.user_id = s.user_id AND a.kind = 'funding' WHERE t.batch_id = ?1
         ) ORDER BY tx, n`,
      )
      .bind(finishBatch, PlatformAccount.Funds.id, finishIdAt),
    ...batchPostingStatements(db, finishBatch),
    db
      .prepare(
        `UPDATE fund_subscriptions SET status = 4, return_tx = f.tx, closed_at = ?3
           FROM (SELECT id AS tx, CAST(substr(idempotency_key, ?2) AS INTEGER) AS sub_id FROM ledger_transactions WHERE batch_id = ?1) AS f
          WHERE fund_subscriptions.id = f.sub_id AND fund_subscriptions.status = 1`,
      )
      .bind(finishBatch, finishIdAt, now),
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
export async function payFundIncomeChunk(
  ctx: Pick<ServiceContext, "d1">,
  now: number,
  runDay: string,
  users: UserRange,
): Promise<FundJobReport> {
  const incomeBatch = newBatchId();
  const finishBatch = newBatchId();
  const statements = fundIncomeStatements(ctx.d1, runDay, now, incomeBatch, finishBatch, users);
  await postBatch(ctx.d1, statements);
  // paid: the subscription-days, i.e. the lines of this batch's transactions (all but one entry each)
  const counts = await ctx.d1
    .prepare(
      `SELECT (SELECT COUNT(*) FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id WHERE t.batch_id = ?1)
                - (SELECT COUNT(*) FROM ledger_transactions WHERE batch_id = ?1) AS paid,
              (SELECT COUNT(*) FROM ledger_transactions WHERE batch_id = ?2) AS finished`,
    )
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
