/**
 * Timed options' set-based settlement (issue 9, ADR 011): every option due in one engine tick
 * settled in one D1 batch.
 */
import type { ServiceContext } from "~/context.server";
import type { OptionSettlementRequest, OptionSettlementResult } from "~/domain/engine";
import { PlatformAccount } from "~/services/ledger/accounts.server";
import { batchPostingStatements, openBatch, postBatch } from "~/services/ledger/batch.server";

/**
 * Settles every option due in one tick in ONE D1 batch (the options travel as one JSON
 * parameter; the statement count does not depend on how many): each option's unique settlement
 * key (INSERT OR IGNORE … WHERE it is still open), one ledger transaction per option and its
 * entries, balances and the per-transaction check, the options' new state.
 *   win:  locked −stake, available +(stake + profit), options platform account −profit;
 *   loss: locked −stake, available +(what the loss leaves), options platform account +loss.
 */
export async function settleOptions(ctx: ServiceContext, req: OptionSettlementRequest): Promise<OptionSettlementResult> {
  const db = ctx.d1;
  const b = req.batchId;
  const items = JSON.stringify(
    req.items.map((i) => ({ id: i.id, p: i.endPrice, t: i.endTickAt, f: i.endFeed, l: i.late ? 1 : 0, pl: i.profit, po: i.payout })),
  );
  const statements = [
    openBatch(db, b),
    db
      .prepare(
        `INSERT OR IGNORE INTO option_settlements (option_id, batch_id, end_price, end_tick_at, end_feed, late, profit, payout)
         SELECT o.id, ?1, json_extract(j.value, '$.p'), json_extract(j.value, '$.t'), json_extract(j.value, '$.f'), json_extract(j.value, '$.l'),
                json_extract(j.value, '$.pl'), json_extract(j.value, '$.po')
           FROM json_each(?2) j CROSS JOIN options o ON o.id = json_extract(j.value, '$.id') AND o.status = 1
         RETURNING option_id`,
      )
      .bind(b, items),
    db
      .prepare(
        `INSERT INTO ledger_transactions (idempotency_key, kind, memo, user_id, batch_id)
         SELECT 'option_settle:' || s.option_id, 'option_settle',
                CASE WHEN s.profit >= 0 THEN 'memo.option_win' ELSE 'memo.option_loss' END, o.user_id, ?1
           FROM option_settlements s JOIN options o ON o.id = s.option_id WHERE s.batch_id = ?1 ORDER BY s.option_id`,
      )
      .bind(b),
    db
      .prepare(
        `INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount)
         SELECT t.id, e.account_id, e.bucket, e.amount FROM (
           SELECT s.option_id AS oid, o.account_id AS account_id, 1 AS bucket, -o.amount AS amount, 1 AS n
             FROM option_settlements s JOIN options o ON o.id = s.option_id WHERE s.batch_id = ?1
           UNION ALL
           SELECT s.option_id, o.account_id, 0, s.payout, 2
             FROM option_settlements s JOIN options o ON o.id = s.option_id WHERE s.batch_id = ?1
           UNION ALL
           -- the other side: the options pool, or the demo one for a demo user's option
           SELECT s.option_id, CASE WHEN u.is_demo = 1 THEN ?3 ELSE ?2 END, 0, o.amount - s.payout, 3
             FROM option_settlements s JOIN options o ON o.id = s.option_id JOIN users u ON u.id = o.user_id WHERE s.batch_id = ?1
         ) e JOIN ledger_transactions t ON t.idempotency_key = 'option_settle:' || e.oid
          WHERE e.amount <> 0 ORDER BY e.oid, e.n`,
      )
      .bind(b, PlatformAccount.Options.id, PlatformAccount.DemoOptions.id),
    ...batchPostingStatements(db, b),
    db
      .prepare(
        `UPDATE options SET status = 3, end_price = s.end_price, end_tick_at = s.end_tick_at, end_feed = s.end_feed, late = s.late,
                profit = s.profit, settled_at = ?2, updated_at = ?2
           FROM option_settlements s WHERE s.batch_id = ?1 AND s.option_id = options.id`,
      )
      .bind(b, req.time),
  ];
  const results = await postBatch(db, statements);
  const settled = new Set(((results[1]!.results ?? []) as { option_id: number }[]).map((r) => r.option_id));
  return { settled: req.items.filter((i) => settled.has(i.id)).map((i) => ({ id: i.id, userId: i.userId, profit: i.profit })) };
}
