// The trader's statistics are one rule (app/domain/copy.ts traderStats: the three weeks ending now
// and all time, over the trader's closed own orders) that production applies in bulk as SQL sums
// (refreshTraderStats, which the ranking and the trader's page run when the cache is stale). This
// property test runs that SQL on real D1 and the domain rule on the same random orders, seed after
// seed, and expects the same figures: the windows' edges, wins, losses, zero margins, large amounts,
// and the rows that must not count (copies, open orders, other traders', closes after now).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { THREE_WEEKS_MS, traderStats, type ClosedTrade } from "~/domain/copy";
import { refreshTraderStats } from "~/services/copy/queries.server";
import { createUser } from "./helpers";

const SEEDS = 60;
const TRADERS = 3;
const DAY = 86_400_000;

/** mulberry32: a small seeded generator, so a failing seed can be replayed. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Row = ClosedTrade & { status: 1 | 3; followType: 1 | 2 };

function ordersOf(next: () => number, now: number): Row[] {
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]) => items[int(items.length)]!;
  const amount = () => pick([0, 1, int(100), int(1_000_000), int(50_000_000), int(2_000_000_000_000)]);
  const from = now - THREE_WEEKS_MS;
  return Array.from({ length: int(25) }, () => {
    const profit = pick([1, 1, -1, 0]) * amount();
    return {
      profit,
      margin: amount(),
      // the window's edges (from is outside it, now inside), a close after now, and anywhere in 60 days
      closedAt: pick([from, from + 1, from - 1, now, now + 1, now - int(60 * DAY), now - int(THREE_WEEKS_MS)]),
      status: next() < 0.85 ? 3 : 1,
      followType: next() < 0.85 ? 1 : 2,
    };
  });
}

async function aStatsTrader() {
  const user = await createUser();
  await env.DB.prepare("INSERT INTO traders (user_id, nickname, status, approved_at) VALUES (?1, ?2, 1, ?3)")
    .bind(user.id, `stats-${user.id}`, Date.now())
    .run();
  return user;
}

async function replaceOrders(trader: { id: number; accounts: { contract: number } }, rows: Row[]) {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM contract_orders WHERE user_id = ?1").bind(trader.id),
    ...rows.map((r) =>
      env.DB.prepare(
        `INSERT INTO contract_orders (user_id, account_id, instrument_id, code, side, status, lots, contract_size, precision, leverage, margin_mode,
           origin_price, open_price, close_price, margin, fee, profit, close_reason, follow_type, filled_at, closed_at, updated_at)
         VALUES (?1, ?2, 1, 'BTCUSDT', 1, ?3, 10000, 1000000, 2, 10, 2, 5000000, 5000000, ?4, ?5, 0, ?6, ?7, ?8, ?9, ?10, ?9)`,
      ).bind(
        trader.id,
        trader.accounts.contract,
        r.status,
        r.status === 3 ? 5_000_000 : null,
        r.margin,
        r.status === 3 ? r.profit : null,
        r.status === 3 ? "manual" : null,
        r.followType,
        r.closedAt - DAY,
        r.status === 3 ? r.closedAt : null,
      ),
    ),
  ]);
}

describe("the trader's statistics: the SQL of refreshTraderStats against the domain rule", () => {
  it(`equal figures on ${SEEDS} seeds of random closed orders`, async () => {
    const ctx = await createServiceContext(env);
    const traders = [];
    for (let i = 0; i < TRADERS; i++) traders.push(await aStatsTrader());
    const now = Date.UTC(2026, 10, 27, 12);
    for (let seed = 1; seed <= SEEDS; seed++) {
      const next = random(seed);
      const orders = traders.map(() => ordersOf(next, now));
      for (const [i, trader] of traders.entries()) await replaceOrders(trader, orders[i]!);
      // the ranking refreshes a page of traders at once
      await refreshTraderStats(
        ctx,
        traders.map((t) => t.id),
        now,
      );
      for (const [i, trader] of traders.entries()) {
        const own = orders[i]!.filter((o) => o.status === 3 && o.followType === 1);
        const expected = traderStats(own, now);
        const row = await env.DB.prepare(
          `SELECT three_week_rate AS threeWeekRate, three_week_win AS threeWeekWin, three_week_profit AS threeWeekProfit,
                  total_rate AS totalRate, total_profit AS totalProfit, total_trade_num AS totalTradeNum, stats_at AS statsAt
             FROM traders WHERE user_id = ?1`,
        )
          .bind(trader.id)
          .first();
        expect(row, `seed ${seed}, trader ${i}: ${JSON.stringify(own)}`).toEqual({
          threeWeekRate: expected.threeWeek.rate,
          threeWeekWin: expected.threeWeek.win,
          threeWeekProfit: expected.threeWeek.profit,
          totalRate: expected.total.rate,
          totalProfit: expected.total.profit,
          totalTradeNum: expected.total.count,
          statsAt: now,
        });
      }
    }
  });
});
