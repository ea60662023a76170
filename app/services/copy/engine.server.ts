/**
 * The copy engine's D1 side (issue 11 §2), called by the market room's engine once per tick.
 *
 * - `copyOrigins` narrows the orders that opened this tick to those of active traders with
 *   active followers (one query for all of them).
 * - `openCopies` opens every follower's copy of ONE trader order in batches of at most
 *   SETTLE_CHUNK copies (within D1's limits; a chunk that fails splits in halves, so one bad row
 *   holds up no other follower): the followers are read once, each copy is sized by the domain rules
 *   (app/domain/copy.ts copySize, once per multiple: lots × multiple rounded down to the lot step,
 *   margin and fee at the trader's fill price and leverage; copyRefusal: the bond cap and the
 *   balance), and the batch inserts the copies with the bond cap and
 *   the follower's available balance checked again in SQL at write time, records the skips with
 *   their reason, and posts one ledger transaction per copy (set-based, like the engine's
 *   settlements). The unique key (origin_id, user_id) makes a copy happen at most once, so a
 *   replayed tick or a restarted room copies nothing twice.
 * - `closedPrices` gives the close price of trader orders that left (a manual close), so their
 *   copies close at the same price in the engine's next settlement batch.
 */
import type { ServiceContext } from "~/context.server";
import { liquidationPrice, type Side } from "~/domain/contract";
import { copyRefusal, copySize, FollowStatus, FollowType, TraderStatus, type CopyPlan } from "~/domain/copy";
import { SETTLE_CHUNK, chunked } from "~/domain/engine";
import { PlatformAccount } from "~/services/ledger/accounts.server";
import { batchPostingStatements, openBatch, postBatch } from "~/services/ledger/batch.server";
import { newBatchId } from "~/domain/ledger";
import { feeMode, termsOf } from "~/services/contract/queries.server";
import { findInstrument } from "~/services/market.server";

/** Of these orders, those that are open own orders of an active trader with at least one active follower. */
export async function copyOrigins(ctx: ServiceContext, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const { results } = await ctx.d1
    .prepare(
      `SELECT o.id FROM json_each(?1) j
         CROSS JOIN contract_orders o ON o.id = j.value
         JOIN traders t ON t.user_id = o.user_id AND t.status = ?2
        WHERE o.status = 1 AND o.follow_type = ?3
          AND EXISTS (SELECT 1 FROM follows f WHERE f.trader_id = o.user_id AND f.status = ?4)
        ORDER BY o.id`,
    )
    .bind(JSON.stringify(ids), TraderStatus.Active, FollowType.Own, FollowStatus.Active)
    .all<{ id: number }>();
  return results.map((r) => r.id);
}

interface Origin {
  id: number;
  userId: number;
  instrumentId: number;
  side: Side;
  lots: number;
  leverage: number;
  openPrice: number;
  precision: number;
  contractSize: number;
  filledAt: number;
}

interface FollowerRow {
  followId: number;
  userId: number;
  multiple: number;
  maxAmount: number;
  accountId: number;
  available: number;
  openCopyMargin: number;
}

export interface OpenedCopies {
  originId: number;
  opened: { id: number; userId: number }[];
  skipped: { userId: number; reason: string }[];
}

/** Opens the copies of one trader order (see the module comment). */
export async function openCopies(ctx: ServiceContext, originId: number, now = Date.now()): Promise<OpenedCopies> {
  const db = ctx.d1;
  const origin = await db
    .prepare(
      `SELECT id, user_id AS userId, instrument_id AS instrumentId, side, lots, leverage, open_price AS openPrice, precision,
              contract_size AS contractSize, COALESCE(filled_at, created_at) AS filledAt
         FROM contract_orders WHERE id = ?1 AND status = 1 AND follow_type = ?2 AND open_price IS NOT NULL`,
    )
    .bind(originId, FollowType.Own)
    .first<Origin>();
  const none: OpenedCopies = { originId, opened: [], skipped: [] };
  if (!origin) return none;
  const instrument = await findInstrument(ctx, origin.instrumentId);
  const terms = instrument ? termsOf(instrument, await feeMode(ctx)) : null;
  if (!instrument || !terms) return none;
  // followers who follow (active) since before the fill and have neither a copy nor a skip of it
  const { results: followers } = await db
    .prepare(
      `SELECT f.id AS followId, f.follower_id AS userId, f.multiple, f.max_amount AS maxAmount, a.id AS accountId, a.balance AS available,
              (SELECT COALESCE(SUM(c.margin), 0) FROM contract_orders c WHERE c.follow_id = f.id AND c.status IN (0, 1)) AS openCopyMargin
         FROM follows f
         JOIN traders t ON t.user_id = f.trader_id AND t.status = ?3
         JOIN accounts a ON a.user_id = f.follower_id AND a.kind = 'contract'
         JOIN users fu ON fu.id = f.follower_id AND fu.is_demo = 0
        WHERE f.trader_id = ?1 AND f.status = ?4 AND f.created_at <= ?2
          AND NOT EXISTS (SELECT 1 FROM contract_orders c WHERE c.origin_id = ?5 AND c.user_id = f.follower_id)
          AND NOT EXISTS (SELECT 1 FROM copy_skips s WHERE s.follow_id = f.id AND s.trader_order_id = ?5)`,
    )
    .bind(origin.userId, origin.filledAt, TraderStatus.Active, FollowStatus.Active, origin.id)
    .all<FollowerRow>();
  if (followers.length === 0) return none;

  const copies: CopyItem[] = [];
  const skips: SkipItem[] = [];
  // a copy's size (and so its liquidation price) depends on the follow's multiple only
  const sizes = new Map<number, { size: CopyPlan; liquidation: number } | null>();
  const sizeFor = (multiple: number) => {
    let known = sizes.get(multiple);
    if (known === undefined) {
      const size = copySize(terms, { lots: origin.lots, price: origin.openPrice, leverage: origin.leverage }, instrument, multiple);
      known = size && {
        size,
        liquidation: liquidationPrice(origin.side, origin.openPrice, size.margin, size.lots, origin.contractSize, origin.precision) ?? 0,
      };
      sizes.set(multiple, known);
    }
    return known;
  };
  for (const f of followers) {
    const sized = sizeFor(f.multiple);
    const skip = sized ? copyRefusal(sized.size, f) : "copy.skip_min_lots";
    if (skip) {
      skips.push({ f: f.followId, u: f.userId, r: skip });
      continue;
    }
    const { size, liquidation } = sized!;
    copies.push({ f: f.followId, u: f.userId, a: f.accountId, l: size.lots, m: size.margin, fe: size.fee, q: liquidation });
  }

  // the copies in chunks, each its own batch (its own batch id); a failed chunk splits in halves
  const opened: OpenedCopies["opened"] = [];
  const skipped: OpenedCopies["skipped"] = [];
  let failure: unknown = null;
  const write = async (part: CopyItem[], partSkips: SkipItem[]): Promise<void> => {
    try {
      // the rows each statement wrote come back with it (RETURNING): no read afterwards
      const results = await postBatch(db, copyStatements(db, origin.id, newBatchId(), part, partSkips, now));
      skipped.push(...(results[1].results as OpenedCopies["skipped"]), ...(results[3].results as OpenedCopies["skipped"]));
      opened.push(...(results[2].results as OpenedCopies["opened"]));
    } catch (error) {
      if (part.length <= 1) {
        failure = error;
        return;
      }
      const half = Math.ceil(part.length / 2);
      await write(part.slice(0, half), partSkips);
      await write(part.slice(half), []);
    }
  };
  const copyParts = chunked(copies, SETTLE_CHUNK);
  const skipParts = chunked(skips, SETTLE_CHUNK);
  for (let i = 0; i < Math.max(copyParts.length, skipParts.length); i++) await write(copyParts[i] ?? [], skipParts[i] ?? []);
  // a copy that failed even alone: the others are open; the engine tries this order again (its
  // copies' unique key makes that safe) and gives up after a few ticks
  if (failure) throw failure;
  return { originId, opened, skipped };
}

type CopyItem = { f: number; u: number; a: number; l: number; m: number; fe: number; q: number };
type SkipItem = { f: number; u: number; r: string };

/** One chunk's batch: skips, the copies (caps checked again at write time), refusals, one ledger transaction per copy. */
function copyStatements(
  db: D1Database,
  originId: number,
  batchId: number,
  copies: CopyItem[],
  skips: SkipItem[],
  now: number,
): D1PreparedStatement[] {
  const copyJson = JSON.stringify(copies);
  return [
    openBatch(db, batchId),
    db
      .prepare(
        `INSERT INTO copy_skips (follow_id, trader_order_id, follower_id, reason, created_at)
         SELECT json_extract(j.value, '$.f'), ?1, json_extract(j.value, '$.u'), json_extract(j.value, '$.r'), ?3 FROM json_each(?2) j
         WHERE true ON CONFLICT DO NOTHING
         RETURNING follower_id AS userId, reason`,
      )
      .bind(originId, JSON.stringify(skips), now),
    // the copies, with the bond cap and the available balance checked again at write time
    db
      .prepare(
        `INSERT INTO contract_orders (user_id, account_id, instrument_id, code, side, status, lots, contract_size, precision, leverage, margin_mode,
                                      origin_price, open_price, margin, fee, liquidation, follow_type, origin_id, follow_id,
                                      created_at, filled_at, updated_at)
         SELECT c.u, c.a, o.instrument_id, o.code, o.side, 1, c.l, o.contract_size, o.precision, o.leverage, o.margin_mode,
                o.open_price, o.open_price, c.m, c.fe, c.q, ?3, o.id, c.f,
                ?4, ?4, ?4
           FROM (SELECT json_extract(value, '$.f') AS f, json_extract(value, '$.u') AS u, json_extract(value, '$.a') AS a, json_extract(value, '$.l') AS l,
                        json_extract(value, '$.m') AS m, json_extract(value, '$.fe') AS fe, json_extract(value, '$.q') AS q FROM json_each(?2)) c
           CROSS JOIN contract_orders o ON o.id = ?1 AND o.status = 1
           JOIN follows f ON f.id = c.f AND f.status = ?5
           JOIN accounts acc ON acc.id = c.a
          WHERE acc.balance >= c.m + c.fe
            AND (SELECT COALESCE(SUM(x.margin), 0) FROM contract_orders x WHERE x.follow_id = c.f AND x.status IN (0, 1)) + c.m <= f.max_amount
         ON CONFLICT DO NOTHING
         RETURNING id, user_id AS userId`,
      )
      .bind(originId, copyJson, FollowType.Copy, now, FollowStatus.Active),
    // planned copies that the write refused: the reason, recorded once
    db
      .prepare(
        `INSERT INTO copy_skips (follow_id, trader_order_id, follower_id, reason, created_at)
         SELECT json_extract(j.value, '$.f'), ?1, json_extract(j.value, '$.u'),
                CASE WHEN acc.balance < json_extract(j.value, '$.m') + json_extract(j.value, '$.fe') THEN 'copy.skip_balance'
                     WHEN f.status <> ?4 THEN 'copy.skip_paused' ELSE 'copy.skip_cap' END, ?3
           FROM json_each(?2) j
           JOIN accounts acc ON acc.id = json_extract(j.value, '$.a')
           JOIN follows f ON f.id = json_extract(j.value, '$.f')
          WHERE NOT EXISTS (SELECT 1 FROM contract_orders x WHERE x.origin_id = ?1 AND x.user_id = json_extract(j.value, '$.u'))
         ON CONFLICT DO NOTHING
         RETURNING follower_id AS userId, reason`,
      )
      .bind(originId, copyJson, now, FollowStatus.Active),
    // one ledger transaction per copy opened by this batch (the copies without one yet), key
    // copy_open:<trader's order>:<follower>; the copy's open_tx is set to its id
    db
      .prepare(
        `INSERT INTO ledger_transactions (idempotency_key, kind, memo, user_id, batch_id)
         SELECT 'copy_open:' || c.origin_id || ':' || c.user_id, 'trade_margin', 'memo.contract_copy', c.user_id, ?2
           FROM contract_orders c
          WHERE c.origin_id = ?1 AND c.follow_type = ?3 AND c.open_tx IS NULL ORDER BY c.id`,
      )
      .bind(originId, batchId, FollowType.Copy),
    db
      .prepare(
        `UPDATE contract_orders SET open_tx = (SELECT t.id FROM ledger_transactions t WHERE t.idempotency_key = 'copy_open:' || contract_orders.origin_id || ':' || contract_orders.user_id)
          WHERE origin_id = ?1 AND open_tx IS NULL`,
      )
      .bind(originId),
    // margin + fee leave the available balance; the margin is locked, the fee goes to the fee account
    db
      .prepare(
        `INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount)
         SELECT tx, account_id, bucket, amount FROM (
           SELECT t.id AS tx, c.account_id AS account_id, 0 AS bucket, -(c.margin + c.fee) AS amount, c.id AS oid, 1 AS n
             FROM ledger_transactions t JOIN contract_orders c ON c.open_tx = t.id WHERE t.batch_id = ?1
           UNION ALL
           SELECT t.id, c.account_id, 1, c.margin, c.id, 2
             FROM ledger_transactions t JOIN contract_orders c ON c.open_tx = t.id WHERE t.batch_id = ?1
           UNION ALL
           SELECT t.id, ?2, 0, c.fee, c.id, 3
             FROM ledger_transactions t JOIN contract_orders c ON c.open_tx = t.id WHERE t.batch_id = ?1
         ) WHERE amount <> 0 ORDER BY oid, n`,
      )
      .bind(batchId, PlatformAccount.Fees.id),
    ...batchPostingStatements(db, batchId),
  ];
}

/** The close price and time of orders that have closed (status 3), for the close cascade of their copies. */
export async function closedPrices(ctx: ServiceContext, ids: number[]): Promise<{ id: number; price: number; closedAt: number }[]> {
  if (ids.length === 0) return [];
  const { results } = await ctx.d1
    .prepare(
      `SELECT o.id, o.close_price AS price, o.closed_at AS closedAt FROM json_each(?1) j CROSS JOIN contract_orders o ON o.id = j.value
        WHERE o.status = 3 AND o.close_price IS NOT NULL`,
    )
    .bind(JSON.stringify(ids))
    .all<{ id: number; price: number; closedAt: number }>();
  return results;
}

/** The copy stop-losses set on these follows (0 = none are returned). */
export async function copyStops(ctx: ServiceContext, followIds: number[]): Promise<{ id: number; copyStopLoss: number }[]> {
  if (followIds.length === 0) return [];
  const { results } = await ctx.d1
    .prepare(
      `SELECT f.id, f.copy_stop_loss AS copyStopLoss FROM json_each(?1) j CROSS JOIN follows f ON f.id = j.value
        WHERE f.copy_stop_loss > 0 AND f.status <> ?2`,
    )
    .bind(JSON.stringify(followIds), FollowStatus.Ended)
    .all<{ id: number; copyStopLoss: number }>();
  return results;
}

/** Stops copying for follows whose copy stop-loss was reached: they are paused (settings kept; resuming is the follower's choice). */
export async function pauseFollows(ctx: ServiceContext, followIds: number[]): Promise<void> {
  if (followIds.length === 0) return;
  await ctx.d1
    .prepare(
      "UPDATE follows SET status = ?2 FROM (SELECT value AS id FROM json_each(?1)) AS j WHERE follows.id = j.id AND follows.status = ?3",
    )
    .bind(JSON.stringify(followIds), FollowStatus.Paused, FollowStatus.Active)
    .run();
}
