/**
 * Contract trading's set-based settlement (issue 8, ADR 010): everything one engine tick triggers
 * (exits, fills, cancels, delivery rolls) settled in one D1 batch, copy trading's profit share of
 * closing copies, and the engine told of orders another service moved.
 */
import type { ServiceContext } from "~/context.server";
import { profitShareOf } from "~/domain/copy";
import type { EngineChange, SettlementRequest, SettlementResult } from "~/domain/engine";
import type { Micros } from "~/domain/money";
import { PlatformAccount } from "~/services/ledger/accounts.server";
import { batchPostingStatements, openBatch, postBatch } from "~/services/ledger/batch.server";
import { notifyEngine } from "~/services/live.server";

export interface ProfitShare {
  followId: number;
  traderAccount: number;
  amount: Micros;
}

/**
 * Copy trading: the trader's share of the realised profit of closing copies (app/domain/copy.ts
 * profitShareOf, at the share the operator set for the trader), with the trader's contract
 * account that receives it. Copies closing at a loss, and own orders, pay nothing.
 */
export async function profitShareFor(ctx: ServiceContext, exits: { id: number; profit: Micros }[]): Promise<Map<number, ProfitShare>> {
  const out = new Map<number, ProfitShare>();
  const winners = exits.filter((e) => e.profit > 0);
  if (winners.length === 0) return out;
  const { results } = await ctx.d1
    .prepare(
      `SELECT o.id, f.id AS followId, t.profit_share AS share, a.id AS traderAccount
         FROM json_each(?1) j CROSS JOIN contract_orders o ON o.id = j.value
         JOIN follows f ON f.id = o.follow_id
         JOIN traders t ON t.user_id = f.trader_id
         JOIN accounts a ON a.user_id = t.user_id AND a.kind = 'contract'
        WHERE o.follow_type = 2`,
    )
    .bind(JSON.stringify(winners.map((w) => w.id)))
    .all<{ id: number; followId: number; share: string; traderAccount: number }>();
  const profits = new Map(winners.map((w) => [w.id, w.profit]));
  for (const r of results) {
    const amount = profitShareOf(profits.get(r.id) ?? 0, r.share);
    if (amount > 0) out.set(r.id, { followId: r.followId, traderAccount: r.traderAccount, amount });
  }
  return out;
}

/**
 * Copy trading's part of an exit's entries: the trader's share of a copy's profit moves from the
 * follower to the trader (driven by the list, each exit found by its key: a join on a json_each
 * subquery has no index and made this quadratic in the number of exits). ?1 is the batch, ?3 the
 * exits with their shares.
 */
const SHARE_ENTRIES = `UNION ALL
             SELECT x.order_id, o.account_id, 0, -json_extract(j.value, '$.sh'), 4
               FROM json_each(?3) j
               CROSS JOIN order_exits x ON x.order_id = json_extract(j.value, '$.id') AND x.from_status = 1
               JOIN contract_orders o ON o.id = x.order_id
              WHERE x.batch_id = ?1 AND json_extract(j.value, '$.sh') > 0
             UNION ALL
             SELECT x.order_id, json_extract(j.value, '$.ta'), 0, json_extract(j.value, '$.sh'), 5
               FROM json_each(?3) j
               CROSS JOIN order_exits x ON x.order_id = json_extract(j.value, '$.id') AND x.from_status = 1
              WHERE x.batch_id = ?1 AND json_extract(j.value, '$.sh') > 0`;

/**
 * Settles everything one tick triggered in ONE D1 batch whose statement count does not depend on
 * how many orders it moves (the orders travel as one JSON parameter):
 *   1. each order's unique exit key (INSERT OR IGNORE … WHERE the order is still in its state):
 *      an order another path moved first is skipped, never moved twice;
 *   2. one ledger transaction per moved order (its own idempotency key), and their entries,
 *      INSERT … SELECT from the exit rows of this batch;
 *   3. balances, empty-transaction removal and the per-transaction balance check
 *      (batchPostingStatements);
 *   4. the orders' new state, and delivery instruments rolled to their next date.
 */
export async function settleContracts(ctx: ServiceContext, req: SettlementRequest): Promise<SettlementResult> {
  const db = ctx.d1;
  const b = req.batchId;
  const shares = await profitShareFor(ctx, req.exits);
  const exits = JSON.stringify(
    req.exits.map((e) => ({
      id: e.id,
      r: e.reason,
      p: e.price,
      pl: e.profit,
      sh: shares.get(e.id)?.amount ?? 0,
      ta: shares.get(e.id)?.traderAccount ?? 0,
      fo: shares.get(e.id)?.followId ?? 0,
    })),
  );
  const pend = JSON.stringify([
    ...req.fills.map((f) => ({ id: f.id, r: "fill", p: f.price })),
    ...req.cancels.map((c) => ({ id: c.id, r: c.reason, p: null })),
  ]);
  const rolls = JSON.stringify(req.rolls.map((r) => ({ id: r.instrumentId, from: r.from, to: r.to })));
  // Only the statements this tick needs: a tick of stop-loss exits alone skips the pending
  // orders' statements, one without copies skips the profit share's, one without rolls the roll.
  const hasExits = req.exits.length > 0;
  const hasPending = req.fills.length + req.cancels.length > 0;
  const hasShares = shares.size > 0;
  const statements: D1PreparedStatement[] = [openBatch(db, b)];
  const exitInsert = hasExits
    ? statements.push(
        db
          .prepare(
            `INSERT OR IGNORE INTO order_exits (order_id, from_status, batch_id, reason, price, profit)
             SELECT o.id, 1, ?1, json_extract(j.value, '$.r'), json_extract(j.value, '$.p'), json_extract(j.value, '$.pl')
               FROM json_each(?2) j CROSS JOIN contract_orders o ON o.id = json_extract(j.value, '$.id') AND o.status = 1
             RETURNING order_id, reason`,
          )
          .bind(b, exits),
      ) - 1
    : -1;
  const pendingInsert = hasPending
    ? statements.push(
        db
          .prepare(
            `INSERT OR IGNORE INTO order_exits (order_id, from_status, batch_id, reason, price, profit)
             SELECT o.id, 0, ?1, json_extract(j.value, '$.r'), json_extract(j.value, '$.p'), 0
               FROM json_each(?2) j CROSS JOIN contract_orders o ON o.id = json_extract(j.value, '$.id') AND o.status = 0
             RETURNING order_id, reason`,
          )
          .bind(b, pend),
      ) - 1
    : -1;
  statements.push(
    db
      .prepare(
        `INSERT INTO ledger_transactions (idempotency_key, kind, memo, user_id, batch_id)
         SELECT CASE x.from_status WHEN 1 THEN 'contract_exit:' ELSE 'contract_pending_exit:' END || x.order_id,
                CASE WHEN x.from_status = 1 THEN 'trade_settle' WHEN x.reason = 'fill' THEN 'trade_fee' ELSE 'trade_margin' END,
                'memo.contract_' || x.reason, o.user_id, ?1
           FROM order_exits x JOIN contract_orders o ON o.id = x.order_id
          WHERE x.batch_id = ?1 ORDER BY x.order_id, x.from_status`,
      )
      .bind(b),
  );
  if (hasExits) {
    // Entries of positions leaving status 1: the margin leaves the locked balance, margin + profit
    // returns to the available balance, the counterparty takes the other side of the profit.
    statements.push(
      db
        .prepare(
          `INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount)
           SELECT t.id, e.account_id, e.bucket, e.amount FROM (
             SELECT x.order_id AS oid, o.account_id AS account_id, 1 AS bucket, -o.margin AS amount, 1 AS n
               FROM order_exits x JOIN contract_orders o ON o.id = x.order_id WHERE x.batch_id = ?1 AND x.from_status = 1
             UNION ALL
             SELECT x.order_id, o.account_id, 0, o.margin + x.profit, 2
               FROM order_exits x JOIN contract_orders o ON o.id = x.order_id WHERE x.batch_id = ?1 AND x.from_status = 1
             UNION ALL
             -- the other side: the trading counterparty, or the demo books for a demo user's order
             SELECT x.order_id, CASE WHEN u.is_demo = 1 THEN ?4 ELSE ?2 END, 0, -x.profit, 3
               FROM order_exits x JOIN contract_orders o ON o.id = x.order_id JOIN users u ON u.id = o.user_id WHERE x.batch_id = ?1 AND x.from_status = 1
             ${hasShares ? SHARE_ENTRIES : ""}
           ) e JOIN ledger_transactions t ON t.idempotency_key = 'contract_exit:' || e.oid
            WHERE e.amount <> 0 ORDER BY e.oid, e.n`,
        )
        .bind(b, PlatformAccount.Counterparty.id, exits, PlatformAccount.DemoCounterparty.id),
    );
  }
  if (hasShares) {
    statements.push(
      db
        .prepare(
          `UPDATE follows SET paid_share = follows.paid_share + s.total
             FROM (SELECT json_extract(j.value, '$.fo') AS fo, SUM(json_extract(j.value, '$.sh')) AS total
                     FROM json_each(?2) j JOIN order_exits x ON x.order_id = json_extract(j.value, '$.id') AND x.batch_id = ?1 AND x.from_status = 1
                    WHERE json_extract(j.value, '$.sh') > 0 GROUP BY 1) AS s
            WHERE follows.id = s.fo`,
        )
        .bind(b, exits),
    );
  }
  if (hasPending) {
    // Entries of pending orders leaving status 0: a fill pays the held fee to the fee account (the demo one for a demo user); a
    // cancel returns margin and fee to the available balance.
    statements.push(
      db
        .prepare(
          `INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount)
           SELECT t.id, e.account_id, e.bucket, e.amount FROM (
             SELECT x.order_id AS oid, o.account_id AS account_id, 1 AS bucket,
                    CASE WHEN x.reason = 'fill' THEN -o.fee ELSE -(o.margin + o.fee) END AS amount, 1 AS n
               FROM order_exits x JOIN contract_orders o ON o.id = x.order_id WHERE x.batch_id = ?1 AND x.from_status = 0
             UNION ALL
             SELECT x.order_id, CASE WHEN x.reason <> 'fill' THEN o.account_id WHEN u.is_demo = 1 THEN ?3 ELSE ?2 END, 0,
                    CASE WHEN x.reason = 'fill' THEN o.fee ELSE o.margin + o.fee END, 2
               FROM order_exits x JOIN contract_orders o ON o.id = x.order_id JOIN users u ON u.id = o.user_id WHERE x.batch_id = ?1 AND x.from_status = 0
           ) e JOIN ledger_transactions t ON t.idempotency_key = 'contract_pending_exit:' || e.oid
            WHERE e.amount <> 0 ORDER BY e.oid, e.n`,
        )
        .bind(b, PlatformAccount.Fees.id, PlatformAccount.DemoFees.id),
    );
  }
  statements.push(
    ...batchPostingStatements(db, b),
    db
      .prepare(
        `UPDATE contract_orders
            SET status = CASE WHEN x.from_status = 1 THEN 3 WHEN x.reason = 'fill' THEN 1 ELSE 4 END,
                open_price = CASE WHEN x.from_status = 0 AND x.reason = 'fill' THEN x.price ELSE contract_orders.open_price END,
                filled_at = CASE WHEN x.from_status = 0 AND x.reason = 'fill' THEN ?2 ELSE contract_orders.filled_at END,
                close_price = CASE WHEN x.from_status = 1 THEN x.price ELSE contract_orders.close_price END,
                profit = CASE WHEN x.from_status = 1 THEN x.profit ELSE contract_orders.profit END,
                close_reason = CASE WHEN x.reason = 'fill' THEN contract_orders.close_reason ELSE x.reason END,
                closed_at = CASE WHEN x.reason = 'fill' THEN contract_orders.closed_at ELSE ?2 END,
                updated_at = ?2
           FROM order_exits x
          WHERE x.batch_id = ?1 AND x.order_id = contract_orders.id`,
      )
      .bind(b, req.time),
  );
  if (req.rolls.length > 0) {
    statements.push(
      db
        .prepare(
          `UPDATE instruments SET delivery_at = r.next
             FROM (SELECT json_extract(value, '$.id') AS id, json_extract(value, '$.from') AS prev, json_extract(value, '$.to') AS next FROM json_each(?1)) AS r
            WHERE instruments.id = r.id AND instruments.delivery_at = r.prev`,
        )
        .bind(rolls),
    );
  }
  if (hasExits) {
    // a trader's own position closed: the ranking's statistics are recomputed at the next read
    statements.push(
      db
        .prepare(
          `UPDATE traders SET stats_at = 0
            WHERE user_id IN (SELECT o.user_id FROM order_exits x JOIN contract_orders o ON o.id = x.order_id
                               WHERE x.batch_id = ?1 AND x.from_status = 1 AND o.follow_type <> 2)`,
        )
        .bind(b),
    );
  }
  const results = await postBatch(db, statements);
  const moved1 = (exitInsert < 0 ? [] : (results[exitInsert]!.results ?? [])) as { order_id: number; reason: string }[];
  const moved0 = (pendingInsert < 0 ? [] : (results[pendingInsert]!.results ?? [])) as { order_id: number; reason: string }[];
  const ids = [...moved1, ...moved0].map((m) => m.order_id);
  const owners = new Map<number, number>();
  if (ids.length > 0) {
    const { results: rows } = await db
      .prepare("SELECT o.id, o.user_id AS userId FROM order_exits x JOIN contract_orders o ON o.id = x.order_id WHERE x.batch_id = ?1")
      .bind(b)
      .all<{ id: number; userId: number }>();
    for (const r of rows) owners.set(r.id, r.userId);
  }
  return {
    exited: moved1.map((m) => ({ id: m.order_id, userId: owners.get(m.order_id) ?? 0, reason: m.reason })),
    filled: moved0.filter((m) => m.reason === "fill").map((m) => ({ id: m.order_id, userId: owners.get(m.order_id) ?? 0 })),
    cancelled: moved0.filter((m) => m.reason !== "fill").map((m) => ({ id: m.order_id, userId: owners.get(m.order_id) ?? 0 })),
  };
}

/** Engine changes for orders that a service moved (e.g. a demo reset). */
export async function notifyRemoved(ctx: ServiceContext, ids: number[]) {
  const changes: EngineChange[] = ids.map((id) => ({ op: "remove", id }));
  await notifyEngine(ctx, changes);
}
