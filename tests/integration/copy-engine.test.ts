// The copy engine in workerd (issue 11 §2): the real main market room copies a trader's new
// positions to the followers within the same tick (one batch per trader order, caps checked at
// write time, skips recorded with their reason) and closes the copies with the trader's order at
// its price — each copy once, the ledger whole after every test.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { Side } from "~/domain/contract";
import { closeOrder, placeOrder, setStops } from "~/services/contract/commands.server";
import { myFollowers } from "~/services/copy/views.server";
import { checkInvariants } from "~/services/ledger/accounts.server";
import { aFollower, aTrader, loggedInSocket, tickMain as tick, holdPrice as hold, accountBalances as balances } from "./helpers";

const USD = 1_000_000;
async function copiesOf(originId: number) {
  const { results } = await env.DB.prepare(
    "SELECT id, user_id AS userId, status, lots, margin, fee, open_price AS openPrice, close_price AS closePrice, profit, close_reason AS reason, follow_type AS followType FROM contract_orders WHERE origin_id = ?1 ORDER BY user_id",
  )
    .bind(originId)
    .all<{
      id: number;
      userId: number;
      status: number;
      lots: number;
      margin: number;
      fee: number;
      openPrice: number;
      closePrice: number | null;
      profit: number | null;
      reason: string | null;
      followType: number;
    }>();
  return results;
}
async function skipsOf(originId: number) {
  const { results } = await env.DB.prepare(
    "SELECT follower_id AS userId, reason FROM copy_skips WHERE trader_order_id = ?1 ORDER BY follower_id",
  )
    .bind(originId)
    .all<{ userId: number; reason: string }>();
  return results;
}

async function statsAt(traderId: number) {
  return (await env.DB.prepare("SELECT stats_at AS at FROM traders WHERE user_id = ?1").bind(traderId).first<{ at: number }>())!.at;
}
afterEach(async () => {
  expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
});

describe("copy trading engine", () => {
  it("a trader's market buy of 0.01 BTC is copied in the next tick: ×2 → 0.02 lots (margin 100, fee 0.05); the cap and a short balance skip with their reason; a paused follow gets nothing", async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const trader = await aTrader();
    const double = await aFollower(trader.id, { multiple: 2, bond: 1_000 * USD, balance: 1_000 * USD });
    const capped = await aFollower(trader.id, { multiple: 3, bond: 120 * USD, balance: 1_000 * USD });
    const poor = await aFollower(trader.id, { multiple: 1, bond: 1_000 * USD, balance: 30 * USD });
    const paused = await aFollower(trader.id, { multiple: 1, bond: 1_000 * USD, balance: 1_000 * USD, status: 2 });
    // a follow from a demo account (made before demo accounts were refused) gets no copy
    const demo = await aFollower(trader.id, { multiple: 1, bond: 1_000 * USD, balance: 1_000 * USD, isDemo: true });
    const placed = await placeOrder(ctx, trader.id, { side: Side.Buy, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10 });
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    expect(await copiesOf(placed.value.id)).toEqual([]);
    await tick();
    const copies = await copiesOf(placed.value.id);
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatchObject({
      userId: double.id,
      status: 1,
      lots: 20_000,
      margin: 100 * USD,
      fee: 50_000,
      openPrice: 5_000_000,
      followType: 2,
    });
    expect(await balances(double.accounts.contract)).toEqual({ balance: 1_000 * USD - 100 * USD - 50_000, locked: 100 * USD });
    expect(await skipsOf(placed.value.id)).toEqual(
      [
        { userId: capped.id, reason: "copy.skip_cap" },
        { userId: poor.id, reason: "copy.skip_balance" },
      ].sort((a, b) => a.userId - b.userId),
    );
    expect(await balances(capped.accounts.contract)).toEqual({ balance: 1_000 * USD, locked: 0 });
    expect(await balances(poor.accounts.contract)).toEqual({ balance: 30 * USD, locked: 0 });
    expect(await balances(paused.accounts.contract)).toEqual({ balance: 1_000 * USD, locked: 0 });
    expect(await balances(demo.accounts.contract)).toEqual({ balance: 1_000 * USD, locked: 0 });
    // a replayed tick copies nothing twice
    await tick();
    await tick();
    expect(await copiesOf(placed.value.id)).toHaveLength(1);
    expect((await skipsOf(placed.value.id)).length).toBe(2);
  });

  it("the trader's manual close closes the copies at the same price in the next tick; a follower who closed earlier keeps that result; the trader's statistics are recomputed at the next read", async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const trader = await aTrader();
    const a = await aFollower(trader.id, { multiple: 2, bond: 1_000 * USD, balance: 1_000 * USD });
    const b = await aFollower(trader.id, { multiple: 1, bond: 1_000 * USD, balance: 1_000 * USD });
    const placed = await placeOrder(ctx, trader.id, { side: Side.Buy, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10 });
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    await tick();
    const [copyA, copyB] = await copiesOf(placed.value.id);
    expect(copyA!.userId).toBe(a.id);
    // b closes their copy at 50,500: +5.00
    await hold("BTCUSDT", 50_500);
    expect((await closeOrder(ctx, b.id, copyB!.id)).ok).toBe(true);
    expect(await statsAt(trader.id)).toBeGreaterThan(0); // a follower's close leaves the trader's statistics alone
    // the trader closes at 51,000
    await hold("BTCUSDT", 51_000);
    expect((await closeOrder(ctx, trader.id, placed.value.id)).ok).toBe(true);
    expect(await statsAt(trader.id)).toBe(0); // the ranking recomputes at its next read
    await tick();
    const after = await copiesOf(placed.value.id);
    expect(after[0]).toMatchObject({ userId: a.id, status: 3, closePrice: 5_100_000, profit: 20 * USD, reason: "trader_close" });
    expect(after[1]).toMatchObject({ userId: b.id, status: 3, closePrice: 5_050_000, profit: 5 * USD, reason: "manual" });
    expect(await balances(a.accounts.contract)).toEqual({ balance: 1_000 * USD - 50_000 + 20 * USD, locked: 0 });
    expect(await balances(b.accounts.contract)).toEqual({ balance: 1_000 * USD - 25_000 + 5 * USD, locked: 0 });
    // once: a later tick changes nothing
    await tick();
    expect(await balances(a.accounts.contract)).toEqual({ balance: 1_000 * USD - 50_000 + 20 * USD, locked: 0 });
  });

  it("a stop-loss the engine triggers on the trader's order closes the copies in the same tick at the same price", async () => {
    await hold("ETHUSDT", 2_000);
    const ctx = await createServiceContext(env);
    const trader = await aTrader();
    const f = await aFollower(trader.id, { multiple: 3, bond: 5_000 * USD, balance: 5_000 * USD });
    const placed = await placeOrder(ctx, trader.id, { side: Side.Sell, lots: "0.1", instrumentId: 2, entry: 1, leverage: 20 });
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    await tick();
    const [copy] = await copiesOf(placed.value.id);
    expect(copy).toMatchObject({ userId: f.id, status: 1, lots: 300_000 });
    expect((await setStops(ctx, trader.id, { id: placed.value.id, stopLoss: "2050" })).ok).toBe(true);
    await tick();
    await hold("ETHUSDT", 2_060);
    const trader_ = (await env.DB.prepare("SELECT status, close_price AS price, close_reason AS reason FROM contract_orders WHERE id = ?1")
      .bind(placed.value.id)
      .first<{ status: number; price: number; reason: string }>())!;
    expect(trader_).toMatchObject({ status: 3, reason: "stop_loss" });
    expect(await statsAt(trader.id)).toBe(0); // the engine's close also makes the ranking recompute
    const [closed] = await copiesOf(placed.value.id);
    expect(closed).toMatchObject({ status: 3, reason: "trader_close", closePrice: trader_.price });
    // sell 0.3 ETH from 2,000 to the stop's execution price
    expect(closed!.profit).toBe(-((trader_.price - 200_000) * 300_000 * 1_000_000) / 100 / 1_000_000);
  });

  it("a trader's close racing a follower's close of the same copy settles the copy once", async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const trader = await aTrader();
    const f = await aFollower(trader.id, { multiple: 1, bond: 1_000 * USD, balance: 1_000 * USD });
    const placed = await placeOrder(ctx, trader.id, { side: Side.Buy, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10 });
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    await tick();
    const [copy] = await copiesOf(placed.value.id);
    await hold("BTCUSDT", 50_200);
    await Promise.all([closeOrder(ctx, trader.id, placed.value.id), closeOrder(ctx, f.id, copy!.id), tick()]);
    await tick();
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM order_exits WHERE order_id = ?1").bind(copy!.id).first<{ n: number }>();
    expect(n!.n).toBe(1);
    const [closed] = await copiesOf(placed.value.id);
    expect(closed).toMatchObject({ status: 3, profit: 2 * USD });
    expect(await balances(f.accounts.contract)).toEqual({ balance: 1_000 * USD - 25_000 + 2 * USD, locked: 0 });
  });

  it("a pending order of the trader is copied when the engine fills it; a suspended trader is not copied", async () => {
    await hold("ETHUSDT", 2_000);
    const ctx = await createServiceContext(env);
    const trader = await aTrader();
    const f = await aFollower(trader.id, { multiple: 2, bond: 5_000 * USD, balance: 5_000 * USD });
    const pending = await placeOrder(ctx, trader.id, {
      side: Side.Buy,
      lots: "0.1",
      instrumentId: 2,
      entry: 0,
      targetPrice: "1990",
      leverage: 20,
    });
    if (!pending.ok) throw new Error(JSON.stringify(pending.errors));
    await tick();
    expect(await copiesOf(pending.value.id)).toEqual([]);
    await hold("ETHUSDT", 1_985);
    const [copy] = await copiesOf(pending.value.id);
    expect(copy).toMatchObject({ userId: f.id, status: 1, lots: 200_000, openPrice: 199_000 });

    const suspended = await aTrader();
    await env.DB.prepare("UPDATE traders SET status = 0 WHERE user_id = ?1").bind(suspended.id).run();
    await aFollower(suspended.id, { multiple: 1, bond: 5_000 * USD, balance: 5_000 * USD });
    const own = await placeOrder(ctx, suspended.id, { side: Side.Buy, lots: "0.1", instrumentId: 2, entry: 1, leverage: 20 });
    if (!own.ok) throw new Error(JSON.stringify(own.errors));
    await tick();
    expect(await copiesOf(own.value.id)).toEqual([]);
  });

  it("profit sharing at 10 %: a copy closing +20.00 with the trader pays 2.00 to the trader, a follower's own close +5.00 pays 0.50, a loss pays nothing", async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const trader = await aTrader();
    await env.DB.prepare("UPDATE traders SET profit_share = '0.1' WHERE user_id = ?1").bind(trader.id).run();
    const a = await aFollower(trader.id, { multiple: 2, bond: 1_000 * USD, balance: 1_000 * USD });
    const b = await aFollower(trader.id, { multiple: 1, bond: 1_000 * USD, balance: 1_000 * USD });
    const placed = await placeOrder(ctx, trader.id, { side: Side.Buy, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10 });
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    await tick();
    const [, copyB] = await copiesOf(placed.value.id);
    const traderBefore = await balances(trader.accounts.contract);
    await hold("BTCUSDT", 50_500);
    expect((await closeOrder(ctx, b.id, copyB!.id)).ok).toBe(true);
    await hold("BTCUSDT", 51_000);
    expect((await closeOrder(ctx, trader.id, placed.value.id)).ok).toBe(true);
    await tick();
    // a: +20.00, pays 2.00; b: +5.00, pays 0.50
    expect(await balances(a.accounts.contract)).toEqual({ balance: 1_000 * USD - 50_000 + 20 * USD - 2 * USD, locked: 0 });
    expect(await balances(b.accounts.contract)).toEqual({ balance: 1_000 * USD - 25_000 + 5 * USD - 500_000, locked: 0 });
    const traderAfter = await balances(trader.accounts.contract);
    // the trader's own order: margin 50 back + 10.00 profit; the shares 2.50 on top
    expect(traderAfter.balance - traderBefore.balance).toBe(50 * USD + 10 * USD + 2_500_000);
    const paid = await env.DB.prepare(
      "SELECT follower_id AS userId, paid_share AS paid FROM follows WHERE trader_id = ?1 ORDER BY follower_id",
    )
      .bind(trader.id)
      .all<{ userId: number; paid: number }>();
    expect(paid.results.map((r) => r.paid)).toEqual([2 * USD, 500_000]);
    // my-follower's will-pay profit is what the ledger moved: 2.50, and the operator changing the share later does not rewrite it
    const willPay = async () => {
      const r = await myFollowers(ctx, trader.id);
      return r.ok ? r.value.willPay : NaN;
    };
    expect(await willPay()).toBe(2_500_000);
    await env.DB.prepare("UPDATE traders SET profit_share = '0.5' WHERE user_id = ?1").bind(trader.id).run();
    expect(await willPay()).toBe(2_500_000);
    await env.DB.prepare("UPDATE traders SET profit_share = '0.1' WHERE user_id = ?1").bind(trader.id).run();

    // a losing copy pays nothing
    const second = await placeOrder(ctx, trader.id, { side: Side.Buy, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10 });
    if (!second.ok) throw new Error(JSON.stringify(second.errors));
    await tick();
    const aBefore = await balances(a.accounts.contract);
    await hold("BTCUSDT", 50_000);
    expect((await closeOrder(ctx, trader.id, second.value.id)).ok).toBe(true);
    await tick();
    const [lost] = (await copiesOf(second.value.id)).filter((c) => c.userId === a.id);
    expect(lost).toMatchObject({ status: 3, profit: -20 * USD });
    expect((await balances(a.accounts.contract)).balance).toBe(aBefore.balance + aBefore.locked - 20 * USD);
  });

  it("a copy stop-loss of 15.00: when the copies' combined loss reaches it, they close at the tick's price and the follow is paused; the trader's order stays open", async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const trader = await aTrader();
    const f = await aFollower(trader.id, { multiple: 2, bond: 1_000 * USD, balance: 1_000 * USD });
    await env.DB.prepare("UPDATE follows SET copy_stop_loss = ?2 WHERE follower_id = ?1")
      .bind(f.id, 15 * USD)
      .run();
    const placed = await placeOrder(ctx, trader.id, { side: Side.Buy, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10 });
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    await tick();
    // 0.02 BTC: −14.00 at 49,300 is not yet the limit
    await hold("BTCUSDT", 49_300);
    expect((await copiesOf(placed.value.id))[0]).toMatchObject({ status: 1 });
    // −16.00 at 49,200 reaches it
    await hold("BTCUSDT", 49_200);
    expect((await copiesOf(placed.value.id))[0]).toMatchObject({
      status: 3,
      reason: "copy_stop",
      closePrice: 4_920_000,
      profit: -16 * USD,
    });
    const follow = await env.DB.prepare("SELECT status FROM follows WHERE follower_id = ?1").bind(f.id).first<{ status: number }>();
    expect(follow!.status).toBe(2);
    const own = await env.DB.prepare("SELECT status FROM contract_orders WHERE id = ?1").bind(placed.value.id).first<{ status: number }>();
    expect(own!.status).toBe(1);
    expect(await balances(f.accounts.contract)).toEqual({ balance: 1_000 * USD - 50_000 - 16 * USD, locked: 0 });
    // paused: the trader's next order is not copied
    const next = await placeOrder(ctx, trader.id, { side: Side.Buy, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10 });
    if (!next.ok) throw new Error(JSON.stringify(next.errors));
    await tick();
    expect(await copiesOf(next.value.id)).toEqual([]);
  });

  it("FOREX_FOLLOW_TRADE reaches a follower who watches it: the trader, the follower and the copy's price and profit", async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const trader = await aTrader();
    const f = await aFollower(trader.id, { multiple: 1, bond: 1_000 * USD, balance: 1_000 * USD });
    const placed = await placeOrder(ctx, trader.id, { side: Side.Buy, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10 });
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    await tick();
    const [copy] = await copiesOf(placed.value.id);
    const socket = await loggedInSocket(f.id);
    socket.send({ type: "sub", topic: "FOREX_FOLLOW_TRADE" });
    await new Promise((r) => setTimeout(r, 100));
    await hold("BTCUSDT", 50_400);
    await tick();
    const msg = (await socket.next((m) => m.type === "FOREX_FOLLOW_TRADE")) as {
      data: { user_id: number; follower_id: number; list: { Id: number; UpdatePrice: number; FactProfits: string }[] };
    };
    expect(msg.data).toMatchObject({ user_id: trader.id, follower_id: f.id });
    expect(msg.data.list).toContainEqual({ Id: copy!.id, UpdatePrice: 50_400, FactProfits: "4.00" });
    socket.ws.close();
  });
});
