// Contract trading end to end in workerd: real D1, the real main market room and its engine.
// Prices are held through the room's scripted mode; ticks are run on demand.
import { SELF, env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { Side, checkEffectiveLeverage, margin as marginOf, orderFigures, parsePrice, toScaled6 } from "~/domain/contract";
import { cancelOrder, closeOrder, placeOrder, setStops } from "~/services/contract/commands.server";
import { feeMode, listOrders } from "~/services/contract/queries.server";
import { resetDemoAccount } from "~/services/demo.server";
import { buyOption } from "~/services/option/commands.server";
import { PlatformAccount, checkInvariants } from "~/services/ledger/accounts.server";
import {
  createUser,
  form,
  forgetAllInstruments,
  formErrors,
  fund,
  get,
  loggedInSocket,
  sessionFor,
  signedSessionCookie,
  visibleText,
  tickMain as tick,
  holdPrice as hold,
  accountBalances as balances,
  mainRoom as main,
} from "./helpers";

const USD = 1_000_000;
async function platform(id: number) {
  return (await env.DB.prepare("SELECT balance FROM accounts WHERE id = ?1").bind(id).first<{ balance: number }>())!.balance;
}

async function order(id: number) {
  return (await env.DB.prepare(
    "SELECT status, close_reason AS reason, profit, close_price AS closePrice, open_price AS openPrice FROM contract_orders WHERE id = ?1",
  )
    .bind(id)
    .first<{
      status: number;
      reason: string | null;
      profit: number | null;
      closePrice: number | null;
      openPrice: number | null;
    }>())!;
}

async function trader(amount = 10_000 * USD) {
  const user = await createUser();
  await fund(user.accounts.contract, amount);
  return user;
}

afterEach(async () => {
  expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
});

describe("placing orders", () => {
  it("a market buy of 0.01 BTC at 50,000.00 × 10: margin 50.000000 and fee 0.025000 move in one transaction", async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const user = await trader(1_000 * USD);
    const feesBefore = await platform(PlatformAccount.Fees.id);
    const result = await placeOrder(ctx, user.id, { side: Side.Buy, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10 });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const o = result.value;
    const expected = orderFigures(
      { marginMode: 2, contractSize: toScaled6("1")!, pricePrecision: 2, feeRate: "0.0005", feeMode: await feeMode(ctx) },
      Side.Buy,
      10_000,
      5_000_000,
      10,
    );
    expect(o.margin).toBe(50 * USD);
    expect(o.margin).toBe(expected.margin);
    expect(o.fee).toBe(25_000);
    expect(o.status).toBe(1);
    expect(o.openPrice).toBe(5_000_000);
    expect(o.liquidation).toBe(expected.liquidation);
    expect(await balances(user.accounts.contract)).toEqual({ balance: 1_000 * USD - 50 * USD - 25_000, locked: 50 * USD });
    expect((await platform(PlatformAccount.Fees.id)) - feesBefore).toBe(25_000);
  });

  it("refuses bad input with a clear message and changes nothing", async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const user = await trader(100 * USD);
    const cases: [Parameters<typeof placeOrder>[2], string][] = [
      [{ side: 1, lots: "-1", instrumentId: 1, entry: 1, leverage: 10 }, "errors.lots_invalid"],
      [{ side: 1, lots: "0", instrumentId: 1, entry: 1, leverage: 10 }, "errors.lots_invalid"],
      [{ side: 1, lots: "NaN", instrumentId: 1, entry: 1, leverage: 10 }, "errors.lots_invalid"],
      [{ side: 1, lots: "", instrumentId: 1, entry: 1, leverage: 10 }, "errors.lots_required"],
      [{ side: 1, lots: "0.015", instrumentId: 1, entry: 1, leverage: 10 }, "errors.lots_step"],
      [{ side: 1, lots: "99999999", instrumentId: 1, entry: 1, leverage: 10 }, "errors.lots_max"],
      [{ side: 1, lots: "0.01", instrumentId: 1, entry: 1, leverage: 7 }, "errors.multiple_invalid"],
      [{ side: 1, lots: "0.01", instrumentId: 999, entry: 1, leverage: 10 }, "errors.instrument_not_found"],
      [{ side: 1, lots: "0.01", instrumentId: 1, entry: 0, leverage: 10 }, "errors.price_required"],
      [{ side: 1, lots: "0.01", instrumentId: 1, entry: 0, leverage: 10, targetPrice: "1.234" }, "errors.price_invalid"],
      // a huge buy price (its margin would pass a safe integer: it was a 500) and one far off the market
      [{ side: 1, lots: "0.01", instrumentId: 1, entry: 0, leverage: 10, targetPrice: "90000000000000" }, "errors.price_far"],
      [{ side: 1, lots: "0.01", instrumentId: 1, entry: 0, leverage: 10, targetPrice: "500001" }, "errors.price_far"],
      [{ side: 1, lots: "0.01", instrumentId: 1, entry: 0, leverage: 10, targetPrice: "4999.99" }, "errors.price_far"],
      [{ side: 1, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10, stopLoss: "51000" }, "errors.stop_loss_side"],
      [{ side: 2, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10, takeProfit: "51000" }, "errors.take_profit_side"],
      [{ side: 1, lots: "1", instrumentId: 1, entry: 1, leverage: 5 }, "errors.insufficient_balance"],
    ];
    for (const [input, error] of cases) {
      const r = await placeOrder(ctx, user.id, input);
      expect(r.ok ? "ok" : Object.values(r.errors)[0]!.split("|")[0], JSON.stringify(input)).toBe(error);
    }
    expect(await balances(user.accounts.contract)).toEqual({ balance: 100 * USD, locked: 0 });
    expect((await listOrders(ctx, user.id, 1, 1)).total).toBe(0);
    // the band's edges are accepted (a tenth and ten times the market)
    const edge = await placeOrder(ctx, user.id, { side: 1, lots: "0.01", instrumentId: 1, entry: 0, leverage: 10, targetPrice: "5000" });
    expect(edge.ok).toBe(true);
    const far = await placeOrder(ctx, user.id, { side: 1, lots: "0.01", instrumentId: 1, entry: 0, leverage: 10, targetPrice: "4999.99" });
    expect(far).toEqual({ ok: false, errors: { targetPrice: "errors.price_far|5000.00 – 500000.00" }, status: 400 });
    if (edge.ok) await cancelOrder(ctx, user.id, edge.value.id);
  });

  it("the JSON call answers a huge buy price with a translated message, never a 5xx", async () => {
    await hold("BTCUSDT", 50_000);
    const user = await trader(100 * USD);
    const res = await get("/v2/api/forex/submit?type=1&cont=0.01&forex_id=1&status=0&multiple=10&target_price=90000000000000", {
      headers: { authorization: await sessionFor(user.id) },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { code: number; msg: string };
    expect(body.code).toBe(0);
    expect(body.msg).toBe("Enter a buy price between a tenth of the market price and ten times it: 5000.00 – 500000.00.");
  });

  it("100 concurrent orders whose margins exceed the balance never overdraw it", async () => {
    await hold("ETHUSDT", 2_000);
    const ctx = await createServiceContext(env);
    const user = await trader(1_000 * USD);
    // each: 0.1 ETH × 2000 / 20 = 10 USD margin + 0.005 fee; 100 of them need 1,000.50
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        placeOrder(ctx, user.id, { side: Side.Sell, lots: "0.1", instrumentId: 2, entry: 1, leverage: 20 }),
      ),
    );
    const placed = results.filter((r) => r.ok).length;
    expect(placed).toBe(99);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.errors.lots === "errors.insufficient_balance" && r.status === 409)).toBe(
      true,
    );
    const b = await balances(user.accounts.contract);
    expect(b.balance).toBeGreaterThanOrEqual(0);
    expect(b.locked).toBe(placed * 10 * USD);
    expect(b.balance).toBe(1_000 * USD - placed * 10_005_000);
  });

  it("a double-submitted form places one order", async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const user = await trader(1_000 * USD);
    const input = { side: Side.Buy, lots: "0.01", instrumentId: 1, entry: 1 as const, leverage: 10, requestKey: "form-token-123456" };
    const [a, b] = await Promise.all([placeOrder(ctx, user.id, input), placeOrder(ctx, user.id, input)]);
    expect(a.ok && b.ok && a.value.id === b.value.id).toBe(true);
    expect((await listOrders(ctx, user.id, 1, 1)).total).toBe(1);
  });
});

describe("closing", () => {
  it("a manual close realises the profit against the counterparty: buy 0.01 BTC 50,000 → 51,000 = +10.00", async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const user = await trader(1_000 * USD);
    const placed = await placeOrder(ctx, user.id, { side: Side.Buy, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10 });
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    const counterBefore = await platform(PlatformAccount.Counterparty.id);
    await hold("BTCUSDT", 51_000);
    const closed = await closeOrder(ctx, user.id, placed.value.id);
    expect(closed.ok).toBe(true);
    expect(await order(placed.value.id)).toMatchObject({ status: 3, reason: "manual", profit: 10 * USD, closePrice: 5_100_000 });
    expect(await balances(user.accounts.contract)).toEqual({ balance: 1_000 * USD - 25_000 + 10 * USD, locked: 0 });
    expect((await platform(PlatformAccount.Counterparty.id)) - counterBefore).toBe(-10 * USD);
  });

  it("50 concurrent closes of one order realise it once", async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const user = await trader(1_000 * USD);
    const placed = await placeOrder(ctx, user.id, { side: Side.Sell, lots: "0.02", instrumentId: 1, entry: 1, leverage: 10 });
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    await hold("BTCUSDT", 49_000);
    const results = await Promise.all(Array.from({ length: 50 }, () => closeOrder(ctx, user.id, placed.value.id)));
    expect(results.filter((r) => r.ok).length).toBeGreaterThanOrEqual(1);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.errors.form === "errors.order_closed")).toBe(true);
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_transactions WHERE idempotency_key = ?1")
      .bind(`contract_exit:${placed.value.id}`)
      .first<{ n: number }>();
    expect(n!.n).toBe(1);
    // sell 0.02 × (50,000 − 49,000) = +20; fee 100 × 0.0005 = 0.05
    expect(await balances(user.accounts.contract)).toEqual({ balance: 1_000 * USD - 50_000 + 20 * USD, locked: 0 });
  });

  it("another user's order, a missing one and a closed one are refused; nothing is revealed", async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const owner = await trader(1_000 * USD);
    const stranger = await trader(1_000 * USD);
    const placed = await placeOrder(ctx, owner.id, { side: Side.Buy, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10 });
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    const r1 = await closeOrder(ctx, stranger.id, placed.value.id);
    const r2 = await closeOrder(ctx, stranger.id, 987_654_321);
    expect(r1).toEqual(r2);
    expect(r1).toEqual({ ok: false, errors: { form: "errors.not_found" }, status: 404 });
    expect((await cancelOrder(ctx, stranger.id, placed.value.id)).ok).toBe(false);
    expect((await setStops(ctx, stranger.id, { id: placed.value.id, stopLoss: "1" })).ok).toBe(false);
    // over the API too: 404 with the same text for both
    const token = await sessionFor(stranger.id);
    const a = await get(`/v2/api/forex/close?id=${placed.value.id}`, { headers: { authorization: token } });
    const b = await get(`/v2/api/forex/close?id=987654321`, { headers: { authorization: token } });
    expect(a.status).toBe(404);
    expect(await a.json()).toEqual(await b.json());
    for (const call of [`cancel_trade?id=${placed.value.id}`, `set_stop_price?id=${placed.value.id}&stop_loss_price=1`]) {
      const res = await get(`/v2/api/forex/${call}`, { headers: { authorization: token } });
      expect(res.status, `${call} ${await res.clone().text()}`).toBe(404);
    }
    expect((await order(placed.value.id)).status).toBe(1);
    expect((await closeOrder(ctx, owner.id, placed.value.id)).ok).toBe(true);
    expect(await closeOrder(ctx, owner.id, placed.value.id)).toEqual({ ok: false, errors: { form: "errors.order_closed" }, status: 404 });
    // one's own pending order: closing or setting stops says why, not "not found"
    const pending = await placeOrder(ctx, owner.id, {
      side: Side.Buy,
      lots: "0.01",
      instrumentId: 1,
      entry: 0,
      leverage: 10,
      targetPrice: "40000",
    });
    if (!pending.ok) throw new Error(JSON.stringify(pending.errors));
    expect(await closeOrder(ctx, owner.id, pending.value.id)).toEqual({ ok: false, errors: { form: "errors.close_pending" }, status: 400 });
    const stopsOnPending = await get(`/v2/api/forex/set_stop_price?id=${pending.value.id}&stop_loss_price=30000`, {
      headers: { authorization: await sessionFor(owner.id) },
    });
    expect(((await stopsOnPending.json()) as { msg: string }).msg).toBe("Stop-loss and take-profit can be set only on a holding order.");
    expect((await cancelOrder(ctx, owner.id, pending.value.id)).ok).toBe(true);
    const again = await get(`/v2/api/forex/close?id=${placed.value.id}`, { headers: { authorization: await sessionFor(owner.id) } });
    expect(again.status).toBe(404);
    expect(((await again.json()) as { msg: string }).msg).toBe("This order is already closed.");
  });

  it("a state-changing GET needs the authorization header (a forged link with the cookie only is refused)", async () => {
    const user = await trader(1_000 * USD);
    const token = await sessionFor(user.id);
    const { signedSessionCookie } = await import("./helpers");
    const res = await get("/v2/api/forex/submit?type=1&cont=0.01&forex_id=1&status=1&multiple=10", {
      cookie: await signedSessionCookie(token),
    });
    expect(((await res.json()) as { code: number }).code).toBe(999);
    expect(await balances(user.accounts.contract)).toEqual({ balance: 1_000 * USD, locked: 0 });
  });
});

describe("the engine on the tick", () => {
  it("a pending buy below the market fills when the price comes down to it; its fee is taken at the fill", async () => {
    await hold("ETHUSDT", 2_000);
    const ctx = await createServiceContext(env);
    const user = await trader(1_000 * USD);
    const placed = await placeOrder(ctx, user.id, {
      side: Side.Buy,
      lots: "0.1",
      instrumentId: 2,
      entry: 0,
      targetPrice: "1990",
      leverage: 20,
    });
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    // margin 0.1 × 1990 / 20 = 9.95, fee 0.004975: both held
    expect(await balances(user.accounts.contract)).toEqual({ balance: 1_000 * USD - 9_954_975, locked: 9_954_975 });
    await hold("ETHUSDT", 1_995);
    expect((await order(placed.value.id)).status).toBe(0);
    await hold("ETHUSDT", 1_989.5);
    expect(await order(placed.value.id)).toMatchObject({ status: 1, openPrice: 199_000 });
    expect(await balances(user.accounts.contract)).toEqual({ balance: 1_000 * USD - 9_954_975, locked: 9_950_000 });
  });

  it("cancelling a pending order releases its margin and fee", async () => {
    await hold("ETHUSDT", 2_000);
    const ctx = await createServiceContext(env);
    const user = await trader(1_000 * USD);
    const placed = await placeOrder(ctx, user.id, {
      side: Side.Sell,
      lots: "0.1",
      instrumentId: 2,
      entry: 0,
      targetPrice: "2100",
      leverage: 20,
    });
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    expect((await cancelOrder(ctx, user.id, placed.value.id)).ok).toBe(true);
    expect(await balances(user.accounts.contract)).toEqual({ balance: 1_000 * USD, locked: 0 });
    expect((await cancelOrder(ctx, user.id, placed.value.id)).ok).toBe(false);
    // the engine no longer fills it
    await hold("ETHUSDT", 2_100);
    expect((await order(placed.value.id)).status).toBe(4);
  });

  it("take-profit, stop-loss and liquidation close positions (a price that jumps past a level fills at the first price after the gap), and the user's socket hears FOREX_CLOSED", async () => {
    await hold("ETHUSDT", 2_000);
    const ctx = await createServiceContext(env);
    const user = await trader(5_000 * USD);
    const socket = await loggedInSocket(user.id);
    socket.send({ type: "sub", topic: "FOREX_CLOSED" });
    const tp = await placeOrder(ctx, user.id, { side: Side.Buy, lots: "0.1", instrumentId: 2, entry: 1, leverage: 20, takeProfit: "2050" });
    const sl = await placeOrder(ctx, user.id, { side: Side.Buy, lots: "0.1", instrumentId: 2, entry: 1, leverage: 20, stopLoss: "1980" });
    const liq = await placeOrder(ctx, user.id, { side: Side.Sell, lots: "0.1", instrumentId: 2, entry: 1, leverage: 20 });
    if (!tp.ok || !sl.ok || !liq.ok) throw new Error("placing failed");
    // sell at 2000 with margin 10: liquidation at 2000 + 10 / 0.1 = 2100
    expect(liq.value.liquidation).toBe(210_000);
    await hold("ETHUSDT", 2_060);
    expect(await order(tp.value.id)).toMatchObject({ status: 3, reason: "take_profit", closePrice: 206_000, profit: 6 * USD });
    expect((await order(sl.value.id)).status).toBe(1);
    const closedMsg = await socket.next((m) => m.type === "FOREX_CLOSED");
    expect(closedMsg.data).toEqual([tp.value.id]);
    await hold("ETHUSDT", 1_970);
    expect(await order(sl.value.id)).toMatchObject({ status: 3, reason: "stop_loss", closePrice: 197_000, profit: -3 * USD });
    // a gap straight past the liquidation price: the loss stops at the margin
    await hold("ETHUSDT", 2_300);
    expect(await order(liq.value.id)).toMatchObject({ status: 3, reason: "liquidation", profit: -10 * USD });
    const b = await balances(user.accounts.contract);
    expect(b.locked).toBe(0);
    socket.ws.close();
  });

  it("a stop-loss set after opening fires; clearing it (0) stops it firing", async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const user = await trader(1_000 * USD);
    const a = await placeOrder(ctx, user.id, { side: Side.Buy, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10 });
    const b = await placeOrder(ctx, user.id, { side: Side.Buy, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10 });
    if (!a.ok || !b.ok) throw new Error("placing failed");
    expect(await setStops(ctx, user.id, { id: a.value.id, stopLoss: "49900" })).toMatchObject({ ok: true });
    expect(await setStops(ctx, user.id, { id: b.value.id, stopLoss: "49900" })).toMatchObject({ ok: true });
    expect(await setStops(ctx, user.id, { id: b.value.id, stopLoss: "0" })).toMatchObject({ ok: true });
    expect(await setStops(ctx, user.id, { id: a.value.id, stopLoss: "50100" })).toMatchObject({
      ok: false,
      errors: { stopLoss: "errors.stop_loss_side" },
    });
    await hold("BTCUSDT", 49_800);
    expect(await order(a.value.id)).toMatchObject({ status: 3, reason: "stop_loss" });
    expect((await order(b.value.id)).status).toBe(1);
  });

  it("a manual close racing the engine's stop-loss realises once", async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const user = await trader(1_000 * USD);
    const placed = await placeOrder(ctx, user.id, {
      side: Side.Buy,
      lots: "0.01",
      instrumentId: 1,
      entry: 1,
      leverage: 10,
      stopLoss: "49900",
    });
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    await main().setPrice("BTCUSDT", 49_800);
    const [closed] = await Promise.all([closeOrder(ctx, user.id, placed.value.id), tick()]);
    const row = await order(placed.value.id);
    expect(row.status).toBe(3);
    expect(closed.ok ? "manual" : "stop_loss").toBe(row.reason);
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM order_exits WHERE order_id = ?1")
      .bind(placed.value.id)
      .first<{ n: number }>();
    expect(n!.n).toBe(1);
    const b = await balances(user.accounts.contract);
    expect(b.locked).toBe(0);
    expect(b.balance).toBe(1_000 * USD - 25_000 + row.profit!);
  });

  it("a lost engine notification is repaired by the next tick's catch-up read", async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const user = await trader(1_000 * USD);
    const placed = await placeOrder(ctx, user.id, { side: Side.Buy, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10 });
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    await tick();
    // a stop-loss is set (committed in D1) but the engine never hears about it
    await main().triggersChanged([{ op: "remove", id: placed.value.id }]);
    await env.DB.prepare("UPDATE contract_orders SET stop_loss = 4990000, updated_at = ?2 WHERE id = ?1")
      .bind(placed.value.id, Date.now())
      .run();
    await hold("BTCUSDT", 49_800);
    expect(await order(placed.value.id)).toMatchObject({ status: 3, reason: "stop_loss" });
  });

  it("live profit (FOREX_TRADE) reaches a user who watches it", async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const user = await trader(1_000 * USD);
    const placed = await placeOrder(ctx, user.id, { side: Side.Buy, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10 });
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    const socket = await loggedInSocket(user.id);
    socket.send({ type: "sub", topic: "FOREX_TRADE" });
    await new Promise((r) => setTimeout(r, 100));
    await hold("BTCUSDT", 50_500);
    await tick();
    const msg = (await socket.next((m) => m.type === "FOREX_TRADE")) as {
      data: { all_fact_profits: string; list: { Id: number; FactProfits: string; UpdatePrice: number }[] };
    };
    expect(msg.data.list).toContainEqual({ Id: placed.value.id, UpdatePrice: 50_500, FactProfits: "5.00" });
    socket.ws.close();
  });

  it("delivery closes every position of the instrument at the first price after the instant and rolls the date", async () => {
    const ctx = await createServiceContext(env);
    await hold("SOLUSDT", 200);
    const user = await trader(1_000 * USD);
    const held = await placeOrder(ctx, user.id, { side: Side.Buy, lots: "1", instrumentId: 12, entry: 1, leverage: 10 });
    const pending = await placeOrder(ctx, user.id, {
      side: Side.Buy,
      lots: "1",
      instrumentId: 12,
      entry: 0,
      targetPrice: "150",
      leverage: 10,
    });
    if (!held.ok || !pending.ok) throw new Error("placing failed");
    const at = Date.now() + 500;
    await env.DB.prepare("UPDATE instruments SET delivery_days = 7, delivery_at = ?1 WHERE id = 12").bind(at).run();
    await main().reconcileNow();
    await main().setPrice("SOLUSDT", 201);
    await new Promise((r) => setTimeout(r, 600));
    await tick();
    expect(await order(held.value.id)).toMatchObject({ status: 3, reason: "delivery", closePrice: 20_100, profit: 1 * USD });
    expect(await order(pending.value.id)).toMatchObject({ status: 4, reason: "delivery" });
    const next = await env.DB.prepare("SELECT delivery_at AS at FROM instruments WHERE id = 12").first<{ at: number }>();
    expect(next!.at).toBeGreaterThan(at);
    expect(await balances(user.accounts.contract)).toEqual({ balance: 1_000 * USD - 10_000 + 1 * USD, locked: 0 });
    await env.DB.prepare("UPDATE instruments SET delivery_days = 0, delivery_at = NULL WHERE id = 12").run();
    await main().reconcileNow();
  });
});

describe("demo trading", () => {
  it("a demo user trades the simulated balance; the reset closes the positions and restores the starting balances in one transaction", async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const user = await createUser({ isDemo: true });
    await fund(user.accounts.contract, 100_000 * USD);
    const a = await placeOrder(ctx, user.id, { side: Side.Buy, lots: "0.1", instrumentId: 1, entry: 1, leverage: 10 });
    const p = await placeOrder(ctx, user.id, {
      side: Side.Buy,
      lots: "0.1",
      instrumentId: 1,
      entry: 0,
      targetPrice: "40000",
      leverage: 10,
    });
    if (!a.ok || !p.ok) throw new Error("placing failed");
    expect((await balances(user.accounts.contract)).locked).toBeGreaterThan(0);
    await resetDemoAccount(ctx, user.id);
    expect(await order(a.value.id)).toMatchObject({ status: 3, reason: "reset", profit: 0 });
    expect(await order(p.value.id)).toMatchObject({ status: 4, reason: "reset" });
    expect(await balances(user.accounts.contract)).toEqual({ balance: 100_000 * USD, locked: 0 });
    // the closed position cannot be closed again
    expect((await closeOrder(ctx, user.id, a.value.id)).ok).toBe(false);
    expect(marginOf({ marginMode: 2, contractSize: 1_000_000, pricePrecision: 2 }, 100_000, 5_000_000, 10)).toBe(500 * USD);
  });
});

describe("demo books", () => {
  /** What a user's transactions moved on the platform's trading accounts, real and demo (micros), by account id. */
  async function platformMoves(userId: number) {
    const rows = await env.DB.prepare(
      `SELECT e.account_id AS id, SUM(e.amount) AS total FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id JOIN accounts a ON a.id = e.account_id
        WHERE t.user_id = ?1 AND a.kind = 'platform' AND e.account_id IN (?2, ?3, ?4, ?5, ?6, ?7) GROUP BY e.account_id`,
    )
      .bind(
        userId,
        ...[
          PlatformAccount.Fees,
          PlatformAccount.Counterparty,
          PlatformAccount.Options,
          PlatformAccount.DemoFees,
          PlatformAccount.DemoCounterparty,
          PlatformAccount.DemoOptions,
        ].map((a) => a.id),
      )
      .all<{ id: number; total: number }>();
    return Object.fromEntries(rows.results.map((r) => [r.id, r.total]));
  }

  it("a demo user's fees, profits and losses and option results settle against the demo books, never the real fee, counterparty and options accounts", async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const user = await createUser({ isDemo: true });
    await fund(user.accounts.contract, 10_000 * USD);
    await fund(user.accounts.options, 1_000 * USD);
    const real = await createUser();
    await fund(real.accounts.contract, 10_000 * USD);

    // a market buy closed by hand in profit: fee 0.25, profit +100.00
    const a = await placeOrder(ctx, user.id, { side: Side.Buy, lots: "0.1", instrumentId: 1, entry: 1, leverage: 10 });
    const r = await placeOrder(ctx, real.id, { side: Side.Buy, lots: "0.1", instrumentId: 1, entry: 1, leverage: 10 });
    if (!a.ok || !r.ok) throw new Error("placing failed");
    await hold("BTCUSDT", 51_000);
    expect((await closeOrder(ctx, user.id, a.value.id)).ok).toBe(true);
    expect((await closeOrder(ctx, real.id, r.value.id)).ok).toBe(true);
    // a pending buy filled by the engine (fee 0.245 at the fill), then liquidated by it (−490.00)
    const p = await placeOrder(ctx, user.id, {
      side: Side.Buy,
      lots: "0.1",
      instrumentId: 1,
      entry: 0,
      targetPrice: "49000",
      leverage: 10,
    });
    if (!p.ok) throw new Error(JSON.stringify(p.errors));
    await hold("BTCUSDT", 48_990);
    expect((await order(p.value.id)).status).toBe(1);
    await hold("BTCUSDT", 44_000);
    expect(await order(p.value.id)).toMatchObject({ status: 3, reason: "liquidation", profit: -490 * USD });
    // an option settled by the engine: a lost 100.00 stake
    await hold("ETHUSDT", 2_000);
    const o = await buyOption(ctx, user.id, { instrumentId: 2, direction: 1, amount: "100", seconds: 30 });
    if (!o.ok) throw new Error(JSON.stringify(o.errors));
    await main().setPrice("ETHUSDT", 1_990);
    await tick(o.value.expiresAt);
    expect((await env.DB.prepare("SELECT status FROM options WHERE id = ?1").bind(o.value.id).first<{ status: number }>())!.status).toBe(3);

    expect(await platformMoves(user.id)).toEqual({
      [PlatformAccount.DemoFees.id]: 250_000 + 245_000,
      [PlatformAccount.DemoCounterparty.id]: -100 * USD + 490 * USD,
      [PlatformAccount.DemoOptions.id]: 100 * USD,
    });
    // the real user's trade still settles against the real books
    expect(await platformMoves(real.id)).toEqual({ [PlatformAccount.Fees.id]: 250_000, [PlatformAccount.Counterparty.id]: -100 * USD });
  });
});

describe("the spec §7 forex calls", () => {
  it("submit, my_deal, set_stop_price, close and cancel_trade answer the envelope with the spec §3 order fields", async () => {
    await hold("BTCUSDT", 50_000);
    const user = await trader(1_000 * USD);
    const auth = { authorization: await sessionFor(user.id), lang: "en" };
    const call = async (path: string) =>
      (await (await get(path, { headers: auth })).json()) as { code: number; msg: string; data: Record<string, unknown> };
    const placed = await call(
      "/v2/api/forex/submit?type=1&cont=0.01&forex_id=1&status=1&multiple=10&stop_loss_price=0&target_profit_price=0",
    );
    expect(placed.code).toBe(1);
    expect(placed.msg).toBe("Order confirmed");
    expect(placed.data).toMatchObject({
      OrderType: 1,
      Quantity: 0.01,
      Price: 50_000,
      CautionMoney: "50.000000",
      TradeFee: "0.025000",
      Status: 1,
      TargetLossPrice: 0,
      ForexTradeLists: { ShowCode: "BTC/USDT" },
    });
    const id = placed.data.Id as number;
    const pending = await call("/v2/api/forex/submit?type=2&cont=0.01&forex_id=1&status=0&target_price=60000&multiple=10");
    expect(pending.data).toMatchObject({ Status: 0, OriginPrice: 60_000 });

    const stops = await call(`/v2/api/forex/set_stop_price?id=${id}&stop_loss_price=49000&target_profit_price=55000`);
    expect(stops.data).toMatchObject({ TargetLossPrice: 49_000, TargetProfitPrice: 55_000 });
    const wrong = await call(`/v2/api/forex/set_stop_price?id=${id}&stop_loss_price=51000&target_profit_price=0`);
    expect(wrong.code).toBe(0);
    expect(wrong.msg).toMatch(/stop-loss/i);

    await hold("BTCUSDT", 50_100);
    const holding = await call("/v2/api/forex/my_deal?status=1&page=1");
    expect(holding.data).toMatchObject({ total: 1, all_fact_profits: "1.00" });
    expect((holding.data.data as unknown[])[0]).toMatchObject({ Id: id, UpdatePrice: 50_100, FactProfits: "1.00", RiskRate: "102.00" });
    expect((await call("/v2/api/forex/my_deal?status=0&page=1")).data).toMatchObject({ total: 1 });

    expect((await call(`/v2/api/forex/close?id=${id}`)).data).toMatchObject({ Status: 3, FactProfits: "1.00", ClosePrice: 50_100 });
    expect((await call(`/v2/api/forex/cancel_trade?id=${pending.data.Id}`)).data).toMatchObject({ Status: 4 });
    // history (status 3) lists and counts the closed position only, never the cancelled order
    const history = await call("/v2/api/forex/my_deal?status=3&page=1");
    expect(history.data).toMatchObject({ total: 1, all_fact_profits: "1.00" });
    expect((history.data.data as { Id: number; Status: number }[]).map((o) => [o.Id, o.Status])).toEqual([[id, 3]]);
    const cancelled = await call("/v2/api/forex/my_deal?status=4&page=1");
    expect(cancelled.data).toMatchObject({ total: 1, all_fact_profits: "0.00" });
    expect((cancelled.data.data as { Id: number; Status: number }[]).map((o) => [o.Id, o.Status])).toEqual([[pending.data.Id, 4]]);
    expect((await call("/v2/api/forex/my_deal?status=7")).code).toBe(0);
  });

  it("parse through the trade page's order form, answering malformed parameters as they always have", async () => {
    await hold("BTCUSDT", 50_000);
    const user = await trader(1_000 * USD);
    const auth = { authorization: await sessionFor(user.id), lang: "en" };
    const answer = async (path: string) => {
      const res = await get(path, { headers: auth });
      return { status: res.status, ...((await res.json()) as { code: number; msg: string; data: Record<string, unknown> | null }) };
    };
    const refusal = (field: string, msg: string, status = 200) => ({ status, code: 0, msg, data: { errors: { [field]: msg } } });
    const badRequest = "The request could not be understood.";
    // no side, or one that is neither buy nor sell: a bad request (the page asks for a button instead)
    expect(await answer("/v2/api/forex/submit?cont=0.01&forex_id=1&status=1&multiple=10")).toEqual(refusal("type", badRequest));
    expect(await answer("/v2/api/forex/submit?type=3&cont=0.01&forex_id=1&status=1&multiple=10")).toEqual(refusal("type", badRequest));
    expect(await answer("/v2/api/forex/submit?type=1&cont=0.01&forex_id=x&status=1&multiple=10")).toEqual(
      refusal("forex_id", "This instrument doesn't exist."),
    );
    expect(await answer("/v2/api/forex/submit?type=1&forex_id=1&status=1&multiple=10")).toEqual(
      refusal("cont", "Please enter the number of lots."),
    );
    // a malformed multiple is none, a malformed stop price is the service's (at the instrument's precision)
    expect(await answer("/v2/api/forex/submit?type=1&cont=0.01&forex_id=1&status=1&multiple=ten")).toEqual(
      refusal("multiple", "Please choose a multiple from the list."),
    );
    expect(await answer("/v2/api/forex/submit?type=1&cont=0.01&forex_id=1&status=1&multiple=10&stop_loss_price=abc")).toEqual(
      refusal("stop_loss_price", "Enter a price with at most 2 decimals, or switch it off."),
    );
    // any status but 0 is a market order, and a malformed request id is no deduplication
    const market = await answer("/v2/api/forex/submit?type=1&cont=0.01&forex_id=1&status=9&multiple=10&request_id=x");
    expect(market).toMatchObject({ status: 200, code: 1, data: { Status: 1, Price: 50_000 } });
    const id = (market.data as { Id: number }).Id;
    // an order's own calls: an id that is not one is not found (404); a stop price the order's precision refuses names its field
    expect(await answer("/v2/api/forex/close?id=abc")).toEqual(refusal("id", "Not found", 404));
    expect(await answer("/v2/api/forex/deal_info?id=")).toEqual(refusal("id", "Not found", 404));
    expect(await answer(`/v2/api/forex/set_stop_price?id=${id}&stop_loss_price=1.234`)).toEqual(
      refusal("stop_loss_price", "Enter a price with at most 2 decimals, or switch it off."),
    );
    expect(await answer(`/v2/api/forex/cancel_trade?id=${id}`)).toMatchObject({
      status: 200,
      code: 0,
      data: { errors: { id: expect.any(String) } },
    });
    // my_deal reads its list as a number: an empty status is the pending list
    expect(await answer("/v2/api/forex/my_deal?status=")).toMatchObject({ code: 1, data: { total: 0 } });
    expect(await answer("/v2/api/forex/my_deal")).toMatchObject({ code: 1, data: { total: 1 } });
  });
});

describe("an instrument set up past the platform's maximum leverage", () => {
  it("refuses orders with a clear message (service, JSON call and the no-JavaScript form) rather than opening them to be liquidated", async () => {
    // BNB/USDT at 905 under margin mode 1 (1 USD per unit): an effective leverage of 905×
    await env.DB.prepare("UPDATE instruments SET margin_mode = 1, multiples = '[]' WHERE code = 'BNBUSDT'").run();
    forgetAllInstruments();
    try {
      await hold("BNBUSDT", 905);
      const ctx = await createServiceContext(env);
      const user = await trader(1_000 * USD);
      const refused = await placeOrder(ctx, user.id, { side: Side.Buy, lots: "0.01", instrumentId: 14, entry: 1 });
      expect(refused).toEqual({ ok: false, errors: { form: "errors.leverage_too_high|200" }, status: 400 });
      const message =
        "This instrument is set up with more leverage than the platform allows (at most 200×), so it cannot be traded for now.";
      const token = await sessionFor(user.id);
      const api = (await (
        await get("/v2/api/forex/submit?type=1&cont=0.01&forex_id=14&status=1", { headers: { authorization: token, lang: "en" } })
      ).json()) as { code: number; msg: string };
      expect(api).toMatchObject({ code: 0, msg: message });
      const page = await form(
        "/trade?code=BNBUSDT",
        { forex_id: "14", type: "1", cont: "0.01", status: "1" },
        { cookie: await signedSessionCookie(token) },
      );
      expect(page.status).toBe(400);
      expect(formErrors(await page.text())).toContain(message);
      expect(await balances(user.accounts.contract)).toEqual({ balance: 1_000 * USD, locked: 0 });
      expect((await listOrders(ctx, user.id, 1, 1)).total).toBe(0);
    } finally {
      await env.DB.prepare("UPDATE instruments SET margin_mode = 2, multiples = '[5,10,20,50]' WHERE code = 'BNBUSDT'").run();
      forgetAllInstruments();
    }
  });
});

describe("migration 0011", () => {
  it("moves a database seeded before it (GER40 under margin mode 1, 1 unit per lot) to a leveraged GER40 within the maximum", async () => {
    await env.DB.prepare("UPDATE instruments SET margin_mode = 1, multiples = '[]' WHERE code = 'GER40'").run();
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0011_"))!;
    for (const sql of migration.queries) await env.DB.prepare(sql).run();
    const row = await env.DB.prepare(
      "SELECT margin_mode AS mode, multiples, price_precision AS precision, base_price AS price FROM instruments WHERE code = 'GER40'",
    ).first<{ mode: number; multiples: string; precision: number; price: string }>();
    expect(row).toMatchObject({ mode: 2, multiples: "[10,20,50]" });
    expect(
      checkEffectiveLeverage(
        { marginMode: row!.mode, pricePrecision: row!.precision, leverages: JSON.parse(row!.multiples) },
        parsePrice(row!.price, row!.precision)!,
      ),
    ).toBe("ok");
  });
});

describe("the order history page", () => {
  it("History lists the closed position only; the cancelled pending order is under its own Cancelled tab", async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const user = await trader(1_000 * USD);
    const closed = await placeOrder(ctx, user.id, { side: Side.Buy, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10 });
    const pending = await placeOrder(ctx, user.id, {
      side: Side.Buy,
      lots: "0.02",
      instrumentId: 1,
      entry: 0,
      leverage: 10,
      targetPrice: "40000",
    });
    if (!closed.ok || !pending.ok) throw new Error("placing failed");
    expect((await cancelOrder(ctx, user.id, pending.value.id)).ok).toBe(true);
    await hold("BTCUSDT", 50_100);
    expect((await closeOrder(ctx, user.id, closed.value.id)).ok).toBe(true);
    const cookie = await signedSessionCookie(await sessionFor(user.id));
    const page = async (type: string) => {
      const res = await get(`/order?source=0&type=${type}`, { cookie });
      expect(res.status).toBe(200);
      const html = await res.text();
      return { ids: [...html.matchAll(/data-order-id="(\d+)"/g)].map((m) => Number(m[1])), text: visibleText(html) };
    };
    const history = await page("3");
    expect(history.ids).toEqual([closed.value.id]);
    expect(history.text).toContain("Realised profit");
    const cancelled = await page("4");
    expect(cancelled.ids).toEqual([pending.value.id]);
    expect(cancelled.text).toContain("Cancelled");
  });
});

describe("sessions and orders", () => {
  it("an ended session cannot place an order, even while the isolate remembers its lookup (the batch re-checks it)", async () => {
    await hold("BTCUSDT", 50_000);
    const user = await trader(1_000 * USD);
    const token = await sessionFor(user.id);
    const submit = async () =>
      (await (
        await get("/v2/api/forex/submit?type=1&cont=0.01&forex_id=1&status=1&multiple=10", { headers: { authorization: token } })
      ).json()) as { code: number };
    expect((await submit()).code).toBe(1);
    // the session ends in D1 (another device logs out, a password change…), behind the isolate's back
    await env.DB.prepare(
      "UPDATE sessions SET revoked_at = ?2 WHERE id = (SELECT id FROM sessions WHERE user_id = ?1 ORDER BY created_at DESC LIMIT 1)",
    )
      .bind(user.id, Date.now())
      .run();
    expect((await submit()).code).toBe(999);
    expect((await submit()).code).toBe(999);
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM contract_orders WHERE user_id = ?1").bind(user.id).first<{ n: number }>();
    expect(n!.n).toBe(1);
    expect(await balances(user.accounts.contract)).toEqual({ balance: 1_000 * USD - 50 * USD - 25_000, locked: 50 * USD });
  });
});

describe("the benchmark's bare write", () => {
  it("is the order's own batch: the same money moves, the same order row and the same entries as a market order through placeOrder", async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const placed = await trader(1_000 * USD);
    const bare = await trader(1_000 * USD);
    await sessionFor(bare.id);
    const result = await placeOrder(ctx, placed.id, { side: Side.Buy, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10 });
    expect(result.ok).toBe(true);
    const sessionId = (await env.DB.prepare("SELECT id FROM sessions WHERE user_id = ?1").bind(bare.id).first<{ id: string }>())!.id;
    const res = await SELF.fetch(
      `http://localhost/dev/bench/batch?user=${bare.id}&account=${bare.accounts.contract}&session=${sessionId}&demo=0&instrument=1&lots=10000&leverage=10&price=5000000`,
      {
        method: "POST",
        headers: { host: "localhost" },
      },
    );
    expect(res.status).toBe(200);
    expect(await balances(bare.accounts.contract)).toEqual(await balances(placed.accounts.contract));
    const columns =
      "instrument_id, code, side, status, lots, contract_size, precision, leverage, margin_mode, origin_price, open_price, pending_crossing, margin, fee, stop_loss, take_profit, liquidation, close_reason";
    const row = (userId: number) => env.DB.prepare(`SELECT ${columns} FROM contract_orders WHERE user_id = ?1`).bind(userId).first();
    expect(await row(bare.id)).toEqual(await row(placed.id));
    const entries = (account: number) =>
      env.DB.prepare(
        `SELECT t.kind, t.memo, e.bucket, e.amount, e.account_id = ?1 AS own FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
          WHERE e.transaction_id = (SELECT transaction_id FROM ledger_entries WHERE account_id = ?1 ORDER BY id DESC LIMIT 1) ORDER BY e.id`,
      )
        .bind(account)
        .all();
    expect((await entries(bare.accounts.contract)).results).toEqual((await entries(placed.accounts.contract)).results);
  });
});
