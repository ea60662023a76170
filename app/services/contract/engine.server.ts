/**
 * What the engine's rooms read of contract trading (issue 8, ADR 010, 018): an order as the engine
 * holds it, the open orders at a room's start and the catch-up of each tick, the delivery
 * schedules, and the order's opening batch (`openOrderWrite`: placeOrder posts it, and the bench
 * posts it alone as the bare write the order path is measured against).
 */
import type { ServiceContext } from "~/context.server";
import { OrderStatus, nextDelivery, pendingCrossing, type PriceSteps, type Side } from "~/domain/contract";
import { LOAD_PAGE, type DeliverySchedule, type EngineOrder } from "~/domain/engine";
import type { ShardFilter } from "~/domain/engine-shards";
import type { Instrument } from "~/domain/instrument";
import type { Micros } from "~/domain/money";
import { Bucket, tradingAccount } from "~/services/ledger/accounts.server";
import { txOfKey, type Posting, type PostRequest } from "~/services/ledger/post.server";
import { writeSessionGuard } from "~/services/session.server";
import { ORDER_COLUMNS } from "./columns";
import type { ContractOrderRow } from "./views";

/** The engine's read: an order's columns and, for a copy, its trader (live profit names the trader followed). */
const ENGINE_COLUMNS = `${ORDER_COLUMNS}, (SELECT f.trader_id FROM follows f WHERE f.id = contract_orders.follow_id) AS traderId`;

export function engineOrderOf(row: ContractOrderRow & { traderId?: number | null }): EngineOrder {
  return {
    id: row.id,
    originId: row.followType === 2 ? (row.originId ?? null) : null,
    followId: row.followType === 2 ? (row.followId ?? null) : null,
    ...(row.followType === 2 && row.traderId ? { traderId: row.traderId } : {}),
    userId: row.userId,
    code: row.code,
    side: row.side,
    status: row.status === OrderStatus.Pending ? 0 : 1,
    lots: row.lots,
    contractSize: row.contractSize,
    precision: row.precision,
    price: row.openPrice ?? row.originPrice,
    margin: row.margin,
    fee: row.fee,
    stopLoss: row.stopLoss,
    takeProfit: row.takeProfit,
    liquidation: row.liquidation,
    pendingCrossing: row.pendingCrossing,
    updatedAt: row.updatedAt,
  };
}

/** Everything an order's opening batch needs, decided and checked by placeOrder. */
export interface OpenOrderWrite {
  userId: number;
  accountId: number;
  isDemo: boolean;
  instrument: Pick<Instrument, "id" | "code" | "pricePrecision" | "marginMode">;
  contractSize: number;
  side: Side;
  lots: number;
  pending: boolean;
  target: PriceSteps;
  market: PriceSteps;
  leverage: number;
  figures: { margin: Micros; fee: Micros; liquidation: PriceSteps | null };
  stopLoss: PriceSteps;
  takeProfit: PriceSteps;
  key: string;
  now: number;
  sessionId?: string;
}

/**
 * The order's one ledger transaction (margin and fee move, the session re-checked, the order row
 * inserted): the batch placeOrder posts. The benchmark's bare write (/dev/bench/batch) posts the
 * same request built here, so the order path is measured against exactly its own write.
 */
export function openOrderWrite(db: D1Database, w: OpenOrderWrite): PostRequest {
  const { accountId, figures, pending } = w;
  const postings: Posting[] = pending
    ? [
        { accountId, bucket: Bucket.Available, amount: -(figures.margin + figures.fee) },
        { accountId, bucket: Bucket.Locked, amount: figures.margin + figures.fee },
      ]
    : [
        { accountId, bucket: Bucket.Available, amount: -(figures.margin + figures.fee) },
        { accountId, bucket: Bucket.Locked, amount: figures.margin },
        { accountId: tradingAccount("fees", w.isDemo), amount: figures.fee },
      ];
  const insert = db
    .prepare(
      `INSERT INTO contract_orders (user_id, account_id, instrument_id, code, side, status, lots, contract_size, precision, leverage, margin_mode,
         origin_price, open_price, pending_crossing, margin, fee, stop_loss, take_profit, liquidation, open_tx, filled_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ${txOfKey("?20")}, ?21, ?22)
       RETURNING ${ORDER_COLUMNS}`,
    )
    .bind(
      w.userId,
      accountId,
      w.instrument.id,
      w.instrument.code,
      w.side,
      pending ? OrderStatus.Pending : OrderStatus.Holding,
      w.lots,
      w.contractSize,
      w.instrument.pricePrecision,
      w.leverage,
      w.instrument.marginMode,
      pending ? w.target : w.market,
      pending ? null : w.market,
      pending ? (pendingCrossing(w.target, w.market) === "up" ? 1 : -1) : 0,
      figures.margin,
      figures.fee,
      w.stopLoss,
      w.takeProfit,
      figures.liquidation ?? 0,
      w.key,
      pending ? null : w.now,
      w.now,
    );
  return {
    idempotencyKey: w.key,
    kind: "trade_margin",
    memo: pending ? "memo.contract_pending" : "memo.contract_open",
    userId: w.userId,
    postings: postings.filter((p) => p.amount !== 0),
    guards: w.sessionId ? [writeSessionGuard(db, w.sessionId, w.now)] : [],
    effects: [insert],
  };
}

/**
 * For the engine's index. At room start (`changedSince` 0): every open order (pending and
 * holding). Afterwards, the catch-up: orders inserted after `afterId` (ids are given in commit
 * order, so each new order is read once) and orders of at most `afterId` changed since
 * `changedSince` (stop changes, fills, closes). `lastId` is the highest order id seen.
 */
export async function engineOrders(
  ctx: ServiceContext,
  changedSince = 0,
  afterId = 0,
  page = LOAD_PAGE,
  filter?: ShardFilter,
): Promise<{
  open: EngineOrder[];
  gone: number[];
  goneRows: { id: number; code: string; userId: number }[];
  watermark: number;
  lastId: number;
  more: boolean;
}> {
  const watermark = Date.now();
  const [rows, max] = await ctx.d1.batch([
    changedSince > 0
      ? ctx.d1
          .prepare(
            // new rows a page at a time (a burst of inserts is read over several ticks, never in one answer)
            `SELECT * FROM (SELECT ${ENGINE_COLUMNS} FROM contract_orders WHERE id > ?2 ORDER BY id LIMIT ?3)
             UNION ALL
             SELECT ${ENGINE_COLUMNS} FROM contract_orders WHERE status IN (0, 1, 3, 4) AND updated_at >= ?1 AND id <= ?2`,
          )
          .bind(changedSince, afterId, page)
      : // parked settlements wait for an operator (app/services/engine.server.ts), even across a restart
        // (a page by id: the start reads at most `page` rows per query)
        ctx.d1
          .prepare(
            `SELECT ${ENGINE_COLUMNS} FROM contract_orders WHERE status IN (0, 1) AND id > ?1 AND id NOT IN (SELECT item_id FROM engine_parked WHERE kind = 'contract')
               AND (?3 IS NULL OR (code IN (SELECT value FROM json_each(?3)) AND user_id % ?4 = ?5)) ORDER BY id LIMIT ?2`,
          )
          .bind(afterId, page, filter ? JSON.stringify(filter.codes) : null, filter?.parts ?? 1, filter?.part ?? 0),
    ctx.d1.prepare("SELECT COALESCE(MAX(id), 0) AS id FROM contract_orders"),
  ]);
  const open: EngineOrder[] = [];
  const gone: number[] = [];
  const goneRows: { id: number; code: string; userId: number }[] = [];
  let fresh = 0;
  let lastFresh = afterId;
  for (const row of rows!.results as ContractOrderRow[]) {
    if (row.id > afterId) {
      fresh += 1;
      lastFresh = Math.max(lastFresh, row.id);
    }
    if (row.status === OrderStatus.Pending || row.status === OrderStatus.Holding) open.push(engineOrderOf(row));
    else {
      gone.push(row.id);
      goneRows.push({ id: row.id, code: row.code, userId: row.userId });
    }
  }
  // a catch-up that read a full page of new rows goes on from the last of them next time
  if (changedSince > 0 && fresh === page) return { open, gone, goneRows, watermark, lastId: lastFresh, more: true };
  return {
    open,
    gone,
    goneRows,
    watermark,
    lastId: (max!.results[0] as { id: number }).id,
    more: changedSince === 0 && open.length === page,
  };
}

/** Delivery contracts and their next delivery; an unset (or long past with nothing open) instant is set from the schedule. */
export async function deliverySchedules(ctx: ServiceContext, now = Date.now()): Promise<DeliverySchedule[]> {
  const { results } = await ctx.d1
    .prepare("SELECT id, code, delivery_days AS days, delivery_at AS at FROM instruments WHERE status = 1 AND delivery_days > 0")
    .all<{ id: number; code: string; days: number; at: number | null }>();
  const out: DeliverySchedule[] = [];
  for (const r of results) {
    let at = r.at;
    if (at === null) {
      at = nextDelivery(r.days, now);
      await ctx.d1.prepare("UPDATE instruments SET delivery_at = ?2 WHERE id = ?1 AND delivery_at IS NULL").bind(r.id, at).run();
    }
    out.push({ instrumentId: r.id, code: r.code, days: r.days, at });
  }
  return out;
}
