/**
 * Copy trading: what the screens and calls read about traders and follows (issue 11) — the
 * ranking, the traders' list and detail, a trader's cached statistics and their refresh, and the
 * follow lookups the commands build on. Rows are the drizzle schema's types (`$inferSelect`).
 *
 * The tables the copy engine (./engine.server.ts) and these services share:
 *   - a copy is a contract_orders row with follow_type 2, origin_id = the trader's order and
 *     follow_id = the follow; UNIQUE (origin_id, user_id) guards against double copies;
 *   - a follow receives copies only while follows.status = 1 and traders.status = 1; its cap is
 *     Σ margin of its open copies (contract_orders.follow_id, status 1) + the copy's ≤ max_amount;
 *   - skipped copies are rows of copy_skips (reason: an i18n key of the copy.skip_* family);
 *   - a paid profit share is added to follows.paid_share in the paying batch;
 *   - a trader's close (by hand or by the engine) resets traders.stats_at in its own batch, so the
 *     next read of the ranking recomputes the statistics (refreshTraderStats).
 *
 * Rows owned by a user are looked up by (id, user) together.
 */
import { and, desc, eq, ne } from "drizzle-orm";
import type { ServiceContext } from "~/context.server";
import { columnList, columnListExcept, selectFields, type RowOf } from "~/db/columns";
import { follows, traderApplications, traders } from "~/db/schema";
import { NICKNAME_MAX, STATS_TTL_MS, THREE_WEEKS_MS, statsFromSums, type WindowSums } from "~/domain/copy";

export const COPY_PAGE_SIZE = 20;

export const isUnique = (error: unknown, index: string) =>
  error instanceof Error && /UNIQUE/i.test(error.message) && error.message.includes(index);
export const pageOf = (page: number) => Math.max(1, Math.min(10_000, Math.floor(page) || 1));

/**
 * The public name of a new trader (and of a follower on the trader's list): their nickname, else
 * the first two letters of their e-mail and the last four digits of their UID ("ab***4821"), else
 * the last digits of their mobile, else their UID. Never the address or the number.
 */
export const NICKNAME_SQL = `substr(COALESCE(NULLIF(u.nickname, ''),
    CASE WHEN u.email IS NOT NULL THEN substr(u.email, 1, 2) || '***' || substr(u.uid, -4) END,
    CASE WHEN u.mobile IS NOT NULL THEN '***' || substr(u.mobile, -4) END,
    u.uid), 1, ${NICKNAME_MAX})`;

// ---- applications ----

const APPLICATION_KEYS = ["id", "status", "reason", "createdAt", "reviewedAt"] as const;
export const APPLICATION_COLUMNS = columnList(traderApplications, APPLICATION_KEYS);
export type Application = RowOf<typeof APPLICATION_COLUMNS>;

/** The user's latest application (null when they never applied). */
export async function applicationOf(ctx: ServiceContext, userId: number): Promise<Application | null> {
  const [row] = await ctx.db
    .select(selectFields(traderApplications, APPLICATION_KEYS))
    .from(traderApplications)
    .where(eq(traderApplications.userId, userId))
    .orderBy(desc(traderApplications.id))
    .limit(1);
  return row ?? null;
}

/** Whether the user is a trader now (read from the database: a cached session may be older than an approval). */
export async function isTrader(ctx: ServiceContext, userId: number): Promise<boolean> {
  const row = await ctx.d1.prepare("SELECT is_trader AS t FROM users WHERE id = ?1").bind(userId).first<{ t: number }>();
  return row?.t === 1;
}

// ---- traders and their statistics ----

const TRADER_ROW = columnListExcept(traders, [], "t");
/** A trader's row with their live follower count. */
export type TraderRow = RowOf<typeof TRADER_ROW> & { followNum: number };

const TRADER_COLUMNS = `${TRADER_ROW}, (SELECT COUNT(*) FROM follows f WHERE f.trader_id = t.user_id AND f.status <> 0) AS followNum`;

/**
 * Recomputes the cached statistics of these traders from their closed own orders (follow_type 1):
 * the three weeks ending `now` and all time, by the rules of app/domain/copy.ts (`traderStats`:
 * SQL sums each window, `statsFromSums` turns the sums into the figures; the property test in
 * tests/integration/copy-stats.test.ts holds the two equal). One read, one write per trader, in two
 * round trips whatever the number of traders.
 */
export async function refreshTraderStats(ctx: ServiceContext, traderIds: readonly number[], now = Date.now()): Promise<void> {
  const ids = [...new Set(traderIds)].filter((id) => Number.isSafeInteger(id)).slice(0, 90);
  if (ids.length === 0) return;
  const marks = ids.map((_, i) => `?${i + 3}`).join(", ");
  const { results } = await ctx.d1
    .prepare(
      `SELECT user_id AS userId,
              COALESCE(SUM(profit), 0) AS profit, COALESCE(SUM(margin), 0) AS margin, COALESCE(SUM(profit > 0), 0) AS wins, COUNT(*) AS count,
              COALESCE(SUM(CASE WHEN closed_at > ?1 THEN profit END), 0) AS wProfit, COALESCE(SUM(CASE WHEN closed_at > ?1 THEN margin END), 0) AS wMargin,
              COALESCE(SUM(CASE WHEN closed_at > ?1 THEN profit > 0 END), 0) AS wWins, COALESCE(SUM(closed_at > ?1), 0) AS wCount
         FROM contract_orders
        WHERE user_id IN (${marks}) AND status = 3 AND follow_type = 1 AND closed_at <= ?2
        GROUP BY user_id`,
    )
    .bind(now - THREE_WEEKS_MS, now, ...ids)
    .all<{
      userId: number;
      profit: number;
      margin: number;
      wins: number;
      count: number;
      wProfit: number;
      wMargin: number;
      wWins: number;
      wCount: number;
    }>();
  const byId = new Map(results.map((r) => [r.userId, r]));
  const zero: WindowSums = { profit: 0, margin: 0, wins: 0, count: 0 };
  await ctx.d1.batch(
    ids.map((id) => {
      const r = byId.get(id);
      const total = statsFromSums(r ? { profit: r.profit, margin: r.margin, wins: r.wins, count: r.count } : zero);
      const recent = statsFromSums(r ? { profit: r.wProfit, margin: r.wMargin, wins: r.wWins, count: r.wCount } : zero);
      return ctx.d1
        .prepare(
          `UPDATE traders SET three_week_rate = ?2, three_week_win = ?3, three_week_profit = ?4, total_rate = ?5, total_profit = ?6, total_trade_num = ?7, stats_at = ?8
            WHERE user_id = ?1`,
        )
        .bind(id, recent.rate, recent.win, recent.profit, total.rate, total.profit, total.count, now);
    }),
  );
}

/** Refreshes the statistics of these rows when older than STATS_TTL_MS; answers the rows as they are now. */
async function fresh(ctx: ServiceContext, rows: TraderRow[], now = Date.now()): Promise<TraderRow[]> {
  const stale = rows.filter((r) => now - r.statsAt > STATS_TTL_MS).map((r) => r.userId);
  if (stale.length === 0) return rows;
  await refreshTraderStats(ctx, stale, now);
  const marks = rows.map((_, i) => `?${i + 1}`).join(", ");
  const { results } = await ctx.d1
    .prepare(`SELECT ${TRADER_COLUMNS} FROM traders t WHERE t.user_id IN (${marks})`)
    .bind(...rows.map((r) => r.userId))
    .all<TraderRow>();
  const byId = new Map(results.map((r) => [r.userId, r]));
  return rows.map((r) => byId.get(r.userId) ?? r);
}

/** One trader (any status), with fresh statistics; null when unknown. */
export async function traderOf(ctx: ServiceContext, traderId: number): Promise<TraderRow | null> {
  if (!Number.isSafeInteger(traderId) || traderId <= 0) return null;
  const row = await ctx.d1.prepare(`SELECT ${TRADER_COLUMNS} FROM traders t WHERE t.user_id = ?1`).bind(traderId).first<TraderRow>();
  return row ? (await fresh(ctx, [row]))[0]! : null;
}

export interface Leader extends TraderRow {
  rank: number;
  /** The leverage and instrument of the trader's latest own order (the card's multiple and code). */
  multiple: number;
  code: string;
}

/** The ranking: active traders by three-week rate (then total profit), statistics refreshed when stale. */
export async function leaders(
  ctx: ServiceContext,
  page = 1,
  pageSize = COPY_PAGE_SIZE,
): Promise<{ data: Leader[]; total: number; page: number; lastPage: number }> {
  const p = pageOf(page);
  const [rows, count] = await ctx.d1.batch([
    ctx.d1
      .prepare(
        `SELECT ${TRADER_COLUMNS} FROM traders t WHERE t.status = 1 ORDER BY t.three_week_rate DESC, t.total_profit DESC, t.user_id ASC LIMIT ?1 OFFSET ?2`,
      )
      .bind(pageSize, (p - 1) * pageSize),
    ctx.d1.prepare("SELECT COUNT(*) AS n FROM traders WHERE status = 1"),
  ]);
  const list = await fresh(ctx, (rows!.results ?? []) as TraderRow[]);
  const latest = new Map<number, { leverage: number; code: string }>();
  if (list.length > 0) {
    const reads = list.map((r) =>
      ctx.d1
        .prepare(
          "SELECT user_id AS userId, leverage, code FROM contract_orders WHERE user_id = ?1 AND follow_type = 1 ORDER BY id DESC LIMIT 1",
        )
        .bind(r.userId),
    );
    for (const res of await ctx.d1.batch(reads)) {
      const r = (res.results?.[0] ?? null) as { userId: number; leverage: number; code: string } | null;
      if (r) latest.set(r.userId, r);
    }
  }
  // a refresh may reorder the page: rank by the figures shown
  list.sort((a, b) => b.threeWeekRate - a.threeWeekRate || b.totalProfit - a.totalProfit || a.userId - b.userId);
  const total = (count!.results[0] as { n: number }).n;
  return {
    data: list.map((r, i) => ({
      ...r,
      rank: (p - 1) * pageSize + i + 1,
      multiple: latest.get(r.userId)?.leverage ?? 0,
      code: latest.get(r.userId)?.code ?? "",
    })),
    total,
    page: p,
    lastPage: Math.max(1, Math.ceil(total / pageSize)),
  };
}

/** Active traders for the follow screens (spec §3 Trader), with whether the viewer follows each. */
export async function traderList(ctx: ServiceContext, viewerId: number | null, page = 1, pageSize = COPY_PAGE_SIZE) {
  const p = pageOf(page);
  const [rows, count] = await ctx.d1.batch([
    ctx.d1
      .prepare(`SELECT ${TRADER_COLUMNS} FROM traders t WHERE t.status = 1 ORDER BY t.total_profit DESC, t.user_id ASC LIMIT ?1 OFFSET ?2`)
      .bind(pageSize, (p - 1) * pageSize),
    ctx.d1.prepare("SELECT COUNT(*) AS n FROM traders WHERE status = 1"),
  ]);
  const list = await fresh(ctx, (rows!.results ?? []) as TraderRow[]);
  const followed = new Set<number>();
  if (viewerId !== null && list.length > 0) {
    const { results } = await ctx.d1
      .prepare("SELECT trader_id AS t FROM follows WHERE follower_id = ?1 AND status <> 0")
      .bind(viewerId)
      .all<{ t: number }>();
    for (const r of results) followed.add(r.t);
  }
  const total = (count!.results[0] as { n: number }).n;
  return {
    data: list.map((t) => ({ ...t, isFollowed: followed.has(t.userId) })),
    total,
    page: p,
    lastPage: Math.max(1, Math.ceil(total / pageSize)),
  };
}

// ---- follows ----

export const FOLLOW_COLUMNS = columnListExcept(follows, []);
export type FollowRow = RowOf<typeof FOLLOW_COLUMNS>;

/** The follower's live (active or paused) follow of a trader, or null. */
export async function liveFollow(ctx: ServiceContext, followerId: number, traderId: number): Promise<FollowRow | null> {
  const [row] = await ctx.db
    .select()
    .from(follows)
    .where(and(eq(follows.followerId, followerId), eq(follows.traderId, traderId), ne(follows.status, 0)));
  return row ?? null;
}

/** A follow of this follower by id (any status); null for another user's or a missing one. */
export async function ownFollow(ctx: ServiceContext, followerId: number, followId: number): Promise<FollowRow | null> {
  if (!Number.isSafeInteger(followId) || followId <= 0) return null;
  const [row] = await ctx.db
    .select()
    .from(follows)
    .where(and(eq(follows.id, followId), eq(follows.followerId, followerId)));
  return row ?? null;
}

export interface TraderDetail {
  trader: TraderRow;
  follow: FollowRow | null;
}

/** The trader detail (spec: summary, is_followed): null for an unknown trader. */
export async function traderDetail(ctx: ServiceContext, viewerId: number | null, traderId: number): Promise<TraderDetail | null> {
  const trader = await traderOf(ctx, traderId);
  if (!trader) return null;
  const follow = viewerId === null ? null : await liveFollow(ctx, viewerId, traderId);
  return { trader, follow };
}
