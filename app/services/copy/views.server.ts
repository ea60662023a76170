/**
 * Copy trading: what a follower and a trader see of their copies (issue 11 §1, spec §3 Master list
 * item and Follower item) — the follower's cards, the copies of a follow (my_deal_follow_order),
 * the skipped copies, a trader's closed history, the trader's followers (my_follower) and the
 * traders' names on copied orders.
 */
import type { ServiceContext } from "~/context.server";
import type { copySkips } from "~/db/schema";
import { followerReturn } from "~/domain/copy";
import type { Micros } from "~/domain/money";
import { ORDER_COLUMNS } from "~/services/contract/columns";
import { withFigures } from "~/services/contract/queries.server";
import type { ContractOrder, ContractOrderRow } from "~/services/contract/views";
import { listInstruments, marketQuotes } from "~/services/market.server";
import { fail, type Outcome } from "~/services/outcome";
import { COPY_PAGE_SIZE, NICKNAME_SQL, ownFollow, pageOf } from "./queries.server";

// ---- what the follower sees ----

export interface FollowCard {
  followId: number;
  traderId: number;
  nickname: string;
  avatar: string | null;
  traderStatus: number;
  suspendedReason: string;
  followNum: number;
  status: number;
  multiple: number;
  maxAmount: Micros;
  copyStopLoss: Micros;
  /** Open copies (position_num) and closed copies (total_num). */
  positionNum: number;
  totalNum: number;
  /** Σ margin of every copy (total follow amount). */
  totalAmount: Micros;
  /** Σ realised profit of the closed copies (copy profit). */
  totalProfits: Micros;
  /** Margin of the open copies (what the bond cap counts). */
  openMargin: Micros;
  skips: number;
}

/** The follower's live follows as cards (spec §3 Master list item), newest first. */
export async function followCards(ctx: ServiceContext, followerId: number): Promise<FollowCard[]> {
  const { results } = await ctx.d1
    .prepare(
      `SELECT f.id AS followId, f.trader_id AS traderId, t.nickname, t.avatar, t.status AS traderStatus, t.suspended_reason AS suspendedReason,
              (SELECT COUNT(*) FROM follows g WHERE g.trader_id = f.trader_id AND g.status <> 0) AS followNum,
              f.status, f.multiple, f.max_amount AS maxAmount, f.copy_stop_loss AS copyStopLoss,
              COALESCE(SUM(c.status = 1), 0) AS positionNum, COALESCE(SUM(c.status = 3), 0) AS totalNum,
              COALESCE(SUM(c.margin), 0) AS totalAmount, COALESCE(SUM(CASE WHEN c.status = 3 THEN c.profit END), 0) AS totalProfits,
              COALESCE(SUM(CASE WHEN c.status = 1 THEN c.margin END), 0) AS openMargin,
              (SELECT COUNT(*) FROM copy_skips s WHERE s.follow_id = f.id) AS skips
         FROM follows f
         JOIN traders t ON t.user_id = f.trader_id
         LEFT JOIN contract_orders c ON c.follow_id = f.id AND c.user_id = f.follower_id
        WHERE f.follower_id = ?1 AND f.status <> 0
        GROUP BY f.id ORDER BY f.id DESC LIMIT 100`,
    )
    .bind(followerId)
    .all<FollowCard>();
  return results;
}

export type CopySkipRow = Pick<typeof copySkips.$inferSelect, "id" | "traderOrderId" | "reason" | "createdAt">;

/** The latest skipped copies of a follow of this follower. */
export async function copySkipsOf(ctx: ServiceContext, followerId: number, followId: number, limit = 20): Promise<CopySkipRow[]> {
  const { results } = await ctx.d1
    .prepare(
      "SELECT id, trader_order_id AS traderOrderId, reason, created_at AS createdAt FROM copy_skips WHERE follow_id = ?1 AND follower_id = ?2 ORDER BY id DESC LIMIT ?3",
    )
    .bind(followId, followerId, limit)
    .all<CopySkipRow>();
  return results;
}

export interface OrdersPage {
  orders: ContractOrder[];
  total: number;
  allProfit: Micros;
  page: number;
  lastPage: number;
}

async function figures(ctx: ServiceContext, rows: ContractOrderRow[]): Promise<ContractOrder[]> {
  if (rows.length === 0) return [];
  const [list, market] = await Promise.all([listInstruments(ctx), marketQuotes(ctx)]);
  const names = new Map(list.map((i) => [i.code, i.showCode]));
  return rows.map((r) => withFigures(r, market.quotes, names));
}

/**
 * The follower's copies (spec my_deal_follow_order): filter 1 following (open) or 3 closed; of
 * one follow (by id, owned) or of every follow of one trader, or all. Another user's follow → null.
 */
export async function followOrders(
  ctx: ServiceContext,
  followerId: number,
  input: { followId?: number; traderId?: number; status: number; page: number },
  pageSize = COPY_PAGE_SIZE,
): Promise<OrdersPage | null> {
  const p = pageOf(input.page);
  const statuses = input.status === 3 ? "3" : "1";
  let scope = "";
  const binds: (number | string)[] = [followerId];
  if (input.followId !== undefined) {
    const follow = await ownFollow(ctx, followerId, input.followId);
    if (!follow) return null;
    scope = " AND follow_id = ?2";
    binds.push(follow.id);
  } else if (input.traderId !== undefined) {
    scope = " AND follow_id IN (SELECT id FROM follows WHERE follower_id = ?1 AND trader_id = ?2)";
    binds.push(input.traderId);
  }
  const where = `user_id = ?1 AND follow_type = 2 AND status = ${statuses}${scope}`;
  const order = statuses === "3" ? "closed_at DESC, id DESC" : "id DESC";
  const [rows, count] = await ctx.d1.batch([
    ctx.d1
      .prepare(
        `SELECT ${ORDER_COLUMNS} FROM contract_orders WHERE ${where} ORDER BY ${order} LIMIT ${pageSize} OFFSET ${(p - 1) * pageSize}`,
      )
      .bind(...binds),
    ctx.d1.prepare(`SELECT COUNT(*) AS n, COALESCE(SUM(profit), 0) AS realised FROM contract_orders WHERE ${where}`).bind(...binds),
  ]);
  const orders = await figures(ctx, (rows!.results ?? []) as ContractOrderRow[]);
  const totals = count!.results[0] as { n: number; realised: number };
  const allProfit = statuses === "3" ? totals.realised : orders.reduce((s, o) => s + o.currentProfit, 0);
  return { orders, total: totals.n, allProfit, page: p, lastPage: Math.max(1, Math.ceil(totals.n / pageSize)) };
}

/** A trader's closed own orders (the detail's history), newest first. */
export async function traderClosedOrders(
  ctx: ServiceContext,
  traderId: number,
  page: number,
  pageSize = COPY_PAGE_SIZE,
): Promise<OrdersPage> {
  const p = pageOf(page);
  const [rows, count] = await ctx.d1.batch([
    ctx.d1
      .prepare(
        `SELECT ${ORDER_COLUMNS} FROM contract_orders WHERE user_id = ?1 AND follow_type = 1 AND status = 3 ORDER BY closed_at DESC, id DESC LIMIT ${pageSize} OFFSET ${(p - 1) * pageSize}`,
      )
      .bind(traderId),
    ctx.d1
      .prepare(
        "SELECT COUNT(*) AS n, COALESCE(SUM(profit), 0) AS realised FROM contract_orders WHERE user_id = ?1 AND follow_type = 1 AND status = 3",
      )
      .bind(traderId),
  ]);
  const totals = count!.results[0] as { n: number; realised: number };
  return {
    orders: await figures(ctx, (rows!.results ?? []) as ContractOrderRow[]),
    total: totals.n,
    allProfit: totals.realised,
    page: p,
    lastPage: Math.max(1, Math.ceil(totals.n / pageSize)),
  };
}

// ---- what the trader sees ----

export interface FollowerCard {
  followId: number;
  followerId: number;
  nickname: string;
  avatar: string | null;
  status: number;
  /** Realised profit of the follower's closed copies ÷ their margin, hundredths of a percent. */
  profitability: number;
  totalProfits: Micros;
}

export interface MyFollowers {
  /**
   * Will-pay profit (issue 11): the trader's share of followers' realised profit, as the ledger
   * moved it when each copy closed with a profit (at the share in force then), micros.
   */
  willPay: Micros;
  /** Σ followers' realised copy profit. */
  totalProfits: Micros;
  /** Σ followers' open copies' current profit. */
  positionProfits: Micros;
  followNum: number;
  profitShare: string;
  /** The trader's own picture (null: the initial is shown). */
  avatar: string | null;
  data: FollowerCard[];
  total: number;
  page: number;
  lastPage: number;
}

/**
 * The trader's followers (spec my_follower): will-pay profit, total profit, follower count and a
 * page of followers. Not a trader → "copy.not_trader" (403).
 */
export async function myFollowers(
  ctx: ServiceContext,
  traderId: number,
  page = 1,
  pageSize = COPY_PAGE_SIZE,
): Promise<Outcome<MyFollowers>> {
  const trader = await ctx.d1
    .prepare("SELECT profit_share AS share, avatar FROM traders WHERE user_id = ?1")
    .bind(traderId)
    .first<{ share: string; avatar: string | null }>();
  if (!trader) return fail({ form: "copy.not_trader" }, 403);
  const p = pageOf(page);
  const [list, count, closed, open, paid] = await ctx.d1.batch([
    ctx.d1
      .prepare(
        `SELECT f.id AS followId, f.follower_id AS followerId, ${NICKNAME_SQL} AS nickname, NULL AS avatar, f.status,
                COALESCE(SUM(CASE WHEN c.status = 3 THEN c.profit END), 0) AS totalProfits, COALESCE(SUM(CASE WHEN c.status = 3 THEN c.margin END), 0) AS usedMargin
           FROM follows f JOIN users u ON u.id = f.follower_id
           LEFT JOIN contract_orders c ON c.follow_id = f.id AND c.user_id = f.follower_id
          WHERE f.trader_id = ?1 AND f.status <> 0
          GROUP BY f.id ORDER BY f.id DESC LIMIT ?2 OFFSET ?3`,
      )
      .bind(traderId, pageSize, (p - 1) * pageSize),
    ctx.d1.prepare("SELECT COUNT(*) AS n FROM follows WHERE trader_id = ?1 AND status <> 0").bind(traderId),
    ctx.d1
      .prepare(
        "SELECT COALESCE(SUM(profit), 0) AS total FROM contract_orders WHERE follow_id IN (SELECT id FROM follows WHERE trader_id = ?1) AND status = 3 AND follow_type = 2",
      )
      .bind(traderId),
    ctx.d1
      .prepare(
        `SELECT ${ORDER_COLUMNS} FROM contract_orders WHERE follow_id IN (SELECT id FROM follows WHERE trader_id = ?1) AND status = 1 AND follow_type = 2 LIMIT 1000`,
      )
      .bind(traderId),
    ctx.d1.prepare("SELECT COALESCE(SUM(paid_share), 0) AS paid FROM follows WHERE trader_id = ?1").bind(traderId),
  ]);
  const totalProfits = (closed!.results[0] as { total: number }).total;
  // the shares the ledger moved as each copy closed with a profit, at the share in force then
  const paidShare = (paid!.results[0] as { paid: number }).paid;
  const openOrders = await figures(ctx, (open!.results ?? []) as ContractOrderRow[]);
  const followNum = (count!.results[0] as { n: number }).n;
  const data = ((list!.results ?? []) as (Omit<FollowerCard, "profitability"> & { usedMargin: number })[]).map(({ usedMargin, ...r }) => ({
    ...r,
    profitability: followerReturn(r.totalProfits, usedMargin),
  }));
  return {
    ok: true,
    value: {
      willPay: paidShare,
      totalProfits,
      positionProfits: openOrders.reduce((s, o) => s + o.currentProfit, 0),
      followNum,
      profitShare: trader.share,
      avatar: trader.avatar,
      data,
      total: followNum,
      page: p,
      lastPage: Math.max(1, Math.ceil(followNum / pageSize)),
    },
  };
}

/** The traders' names of copied orders (for /order's mark): follow id → nickname. */
export async function copiedFrom(ctx: ServiceContext, followIds: readonly number[]): Promise<Map<number, string>> {
  const ids = [...new Set(followIds)].filter((id) => Number.isSafeInteger(id)).slice(0, 90);
  if (ids.length === 0) return new Map();
  const { results } = await ctx.d1
    .prepare(
      `SELECT f.id, t.nickname FROM follows f JOIN traders t ON t.user_id = f.trader_id WHERE f.id IN (${ids.map((_, i) => `?${i + 1}`).join(", ")})`,
    )
    .bind(...ids)
    .all<{ id: number; nickname: string }>();
  return new Map(results.map((r) => [r.id, r.nickname]));
}
