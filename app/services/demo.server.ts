/**
 * Demo (mock) accounts: the starting grant, the reset, and the expiry of unused ones. Simulated
 * money still moves only through the ledger, against the platform's demo account, so the ledger
 * stays balanced and the account log shows every step.
 */
import type { AppContext, ServiceContext } from "~/context.server";
import { fail, type Outcome } from "~/services/outcome";
import { upstreamResetDemo } from "~/services/upstream/account.server";
import { MAIN_COMPANY_ID } from "~/lib/constants";
import { notifyRemoved } from "~/services/contract/settlement.server";
import { ACCOUNT_KINDS, PlatformAccount } from "~/services/ledger/accounts.server";
import { LedgerError, post, postSet, txOfKey, type Posting } from "~/services/ledger/post.server";
import { openBatch } from "~/services/ledger/batch.server";
import { newBatchId } from "~/domain/ledger";

/** An unused demo account (no sign-in for this long) expires: its demo id stops working. */
export const DEMO_TTL_MS = 30 * 24 * 60 * 60_000;

/** The configured starting balances of a demo account, per account kind (micros). */
export async function demoStartingBalances(ctx: ServiceContext) {
  const row = await ctx.d1
    .prepare(
      "SELECT demo_funding_balance AS funding, demo_options_balance AS options, demo_contract_balance AS contract FROM base_settings WHERE company_id = ?1",
    )
    .bind(MAIN_COMPANY_ID)
    .first<{ funding: number; options: number; contract: number }>();
  return row ?? { funding: 0, options: 0, contract: 0 };
}

/**
 * Resets a demo user's accounts: every open demo position, pending order and open option is
 * closed (with no profit: the simulation restarts), the locked balances are released and the available balances
 * set back to the starting balances — all in one ledger transaction. The amounts are computed
 * inside it (target − balance at the moment of writing), so nothing that happens between reading
 * and writing can make them wrong; each closed order takes its unique exit key, so the engine or
 * a manual close of the same order cannot move it again. A second reset right after the first
 * moves nothing and writes nothing.
 */
export async function resetDemoAccount(ctx: ServiceContext, userId: number): Promise<{ changed: boolean }> {
  const start = await demoStartingBalances(ctx);
  const batch = newBatchId();
  const now = Date.now();
  try {
    await postSet(ctx.d1, {
      idempotencyKey: `demo_reset:${userId}:${crypto.randomUUID()}`,
      kind: "demo_reset",
      memo: "memo.demo_reset",
      userId,
      payload: JSON.stringify(start),
      guards: [
        openBatch(ctx.d1, batch),
        ctx.d1
          .prepare(
            `INSERT OR IGNORE INTO order_exits (order_id, from_status, batch_id, reason, price, profit)
             SELECT o.id, o.status, ?2, 'reset', NULL, 0 FROM contract_orders o JOIN users u ON u.id = o.user_id
              WHERE o.user_id = ?1 AND u.is_demo = 1 AND o.status IN (0, 1)`,
          )
          .bind(userId, batch),
        // open options end too: their stakes are in the locked balance the reset releases, so
        // each takes its settlement key here and the engine can never settle it afterwards
        ctx.d1
          .prepare(
            `INSERT OR IGNORE INTO option_settlements (option_id, batch_id, end_price, end_tick_at, end_feed, late, profit, payout)
             SELECT o.id, ?2, o.open_price, ?3, 'reset', 0, 0, o.amount FROM options o JOIN users u ON u.id = o.user_id
              WHERE o.user_id = ?1 AND u.is_demo = 1 AND o.status = 1`,
          )
          .bind(userId, batch, now),
      ],
      entries: (key) => [
        ctx.d1
          .prepare(
            `INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount)
             SELECT ${txOfKey("?1")}, a.id, 0, t.target - a.balance
               FROM accounts a
               JOIN (SELECT 'funding' AS kind, ?3 AS target UNION ALL SELECT 'options', ?4 UNION ALL SELECT 'contract', ?5) t ON t.kind = a.kind
               JOIN users u ON u.id = a.user_id
              WHERE a.user_id = ?2 AND u.is_demo = 1 AND a.balance <> t.target
             UNION ALL
             SELECT ${txOfKey("?1")}, a.id, 1, -a.lock_balance
               FROM accounts a JOIN users u ON u.id = a.user_id
              WHERE a.user_id = ?2 AND u.is_demo = 1 AND a.lock_balance <> 0`,
          )
          .bind(key, userId, start.funding, start.options, start.contract),
        counterEntry(ctx, key),
      ],
      effects: [
        ctx.d1
          .prepare(
            `UPDATE contract_orders SET status = CASE status WHEN 0 THEN 4 ELSE 3 END, profit = CASE status WHEN 1 THEN 0 ELSE profit END,
                    close_reason = 'reset', closed_at = ?3, updated_at = ?3
              WHERE id IN (SELECT order_id FROM order_exits WHERE batch_id = ?2) AND user_id = ?1`,
          )
          .bind(userId, batch, now),
        ctx.d1
          .prepare(
            `UPDATE options SET status = 3, end_price = s.end_price, end_tick_at = s.end_tick_at, end_feed = s.end_feed, profit = 0, settled_at = ?2, updated_at = ?2
               FROM option_settlements s WHERE s.batch_id = ?1 AND s.option_id = options.id`,
          )
          .bind(batch, now),
      ],
    });
    const { results } = await ctx.d1
      .prepare("SELECT order_id AS id FROM order_exits WHERE batch_id = ?1")
      .bind(batch)
      .all<{ id: number }>();
    if (results.length > 0)
      await notifyRemoved(
        ctx,
        results.map((r) => r.id),
      );
    return { changed: true };
  } catch (error) {
    if (error instanceof LedgerError && error.code === "empty") return { changed: false };
    throw error;
  }
}

/** The platform's demo account takes the other side of whatever the transaction moved so far. */
function counterEntry(ctx: ServiceContext, key: string) {
  return ctx.d1
    .prepare(
      `INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount)
       SELECT t.id, ?2, 0, -s FROM ledger_transactions t, (SELECT SUM(amount) AS s FROM ledger_entries WHERE transaction_id = ${txOfKey("?1")})
        WHERE t.idempotency_key = ?1 AND s IS NOT NULL AND s <> 0`,
    )
    .bind(key, PlatformAccount.DemoFunding.id);
}

/** The starting balances of a new demo user: one grant per user (idempotent by user id). */
export async function grantDemoBalances(ctx: ServiceContext, userId: number) {
  const start: Record<string, number> = await demoStartingBalances(ctx);
  const { results } = await ctx.d1
    .prepare("SELECT id, kind FROM accounts WHERE user_id = ?1")
    .bind(userId)
    .all<{ id: number; kind: string }>();
  const postings: Posting[] = [];
  let total = 0;
  for (const k of ACCOUNT_KINDS) {
    const account = results.find((r) => r.kind === k.kind);
    const amount = start[k.kind] ?? 0;
    if (account && amount > 0) {
      postings.push({ accountId: account.id, amount });
      total += amount;
    }
  }
  if (total === 0) return;
  postings.push({ accountId: PlatformAccount.DemoFunding.id, amount: -total });
  await post(ctx.d1, { idempotencyKey: `demo_grant:${userId}`, kind: "demo_grant", memo: "memo.demo_grant", userId, postings });
}

/**
 * The scheduled expiry of unused demo accounts (created, and last signed in, over DEMO_TTL_MS
 * ago). Each one: its balances (available and locked) go back to the platform's demo account in
 * one ledger transaction, its sessions and demo id are removed and the user is closed (status 0),
 * so the browser's demo id starts a fresh demo account. The ledger keeps its history (entries are
 * never deleted). Returns how many expired.
 */
export async function expireDemoAccounts(ctx: ServiceContext, now = Date.now(), limit = 200): Promise<number> {
  const cutoff = now - DEMO_TTL_MS;
  const { results } = await ctx.d1
    .prepare(
      `SELECT u.id FROM users u
        WHERE u.is_demo = 1 AND u.status = 1 AND u.created_at < ?1
          AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.user_id = u.id AND s.created_at >= ?1)
        ORDER BY u.id LIMIT ?2`,
    )
    .bind(cutoff, limit)
    .all<{ id: number }>();
  let expired = 0;
  for (const { id } of results) {
    const close = [
      ctx.d1.prepare("UPDATE users SET status = 0, demo_id = NULL WHERE id = ?1 AND is_demo = 1").bind(id),
      ctx.d1.prepare("DELETE FROM sessions WHERE user_id = ?1").bind(id),
    ];
    try {
      await postSet(ctx.d1, {
        idempotencyKey: `demo_expire:${id}`,
        kind: "demo_expire",
        memo: "memo.demo_expire",
        userId: id,
        payload: String(id),
        entries: (key) => [
          ctx.d1
            .prepare(
              `INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount)
               SELECT ${txOfKey("?1")}, id, 0, -balance FROM accounts WHERE user_id = ?2 AND balance <> 0
               UNION ALL
               SELECT ${txOfKey("?1")}, id, 1, -lock_balance FROM accounts WHERE user_id = ?2 AND lock_balance <> 0`,
            )
            .bind(key, id),
          counterEntry(ctx, key),
        ],
        effects: close,
      });
    } catch (error) {
      if (!(error instanceof LedgerError && error.code === "empty")) throw error;
      await ctx.d1.batch(close);
    }
    expired += 1;
  }
  return expired;
}

/** The signed-in demo user's reset, on whichever platform holds the account (ADR 024). */
export async function resetMyDemo(ctx: AppContext, user: { id: number; isDemo: boolean }): Promise<Outcome<null>> {
  if (!user.isDemo) return fail({ form: "errors.demo_only" }, 403);
  if (ctx.config.platform.kind === "upstream") return upstreamResetDemo(ctx);
  await resetDemoAccount(ctx, user.id);
  return { ok: true, value: null };
}

/** The starting balances a reset restores, where this platform knows them (upstream mode: the backend's, not shown). */
export async function myDemoStartingBalances(ctx: ServiceContext) {
  return ctx.config.platform.kind === "upstream" ? null : demoStartingBalances(ctx);
}
