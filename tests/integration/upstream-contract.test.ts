// Upstream mode's contract trading (issue 23, ADR 024) against a real §7 backend (this Worker as
// the platform): orders placed, listed, closed, cancelled and given stops through the backend's
// calls come back as the platform's own rows, to the step and the micro; the same form sent in
// parallel places one order; the ledger stays whole.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { cancelMyOrder, closeMyOrder, placeMyOrder, setMyStops } from "~/services/contract/commands.server";
import { listOrders, myHoldingsOn, myOrder, myOrders, orderDetail } from "~/services/contract/queries.server";
import { checkInvariants } from "~/services/ledger/accounts.server";
import { accountBalances, holdPrice } from "./helpers";
import { upstreamCustomer } from "./upstream-helpers";

const USD = 1_000_000;

async function trader(amount = 10_000 * USD) {
  const { user, front } = await upstreamCustomer("contract", amount);
  return { user, front, session: { id: user.id, isTrader: false } };
}

const ordersOf = async (userId: number) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM contract_orders WHERE user_id = ?1").bind(userId).first<{ n: number }>())!.n;

/** The fields both platforms state of an order (the platform's own row is the reference). */
const figures = (order: object) => {
  const o = order as Record<string, unknown>;
  const picked: Record<string, unknown> = {};
  for (const k of [
    "id",
    "code",
    "side",
    "status",
    "lots",
    "contractSize",
    "precision",
    "leverage",
    "originPrice",
    "openPrice",
    "closePrice",
  ])
    picked[k] = o[k];
  for (const k of ["margin", "fee", "stopLoss", "takeProfit", "liquidation", "currentProfit", "markPrice"]) picked[k] = o[k];
  return picked;
};

afterEach(async () => {
  expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
});

describe("contract trading through the backend", () => {
  it("a market order placed through the front end is the backend's, figure for figure; listed, then closed", async () => {
    await holdPrice("BTCUSDT", 50_000);
    const { user, front, session } = await trader();
    const local = await createServiceContext(env, { lang: "en" });
    const placed = await placeMyOrder(front, session, {
      side: 1,
      lots: "0.01",
      instrumentId: 1,
      entry: 1,
      leverage: 10,
      requestKey: crypto.randomUUID(),
    });
    expect(placed.ok).toBe(true);
    if (!placed.ok) return;
    const own = (await orderDetail(local, user.id, placed.value.id))!;
    expect(figures(placed.value)).toEqual(figures(own));
    expect(placed.value).toMatchObject({ margin: 50 * USD, fee: 25_000, status: 1 });
    // the holding list and the trade page's positions
    const holding = await myOrders(front, user.id, 1, 1);
    expect(holding.ok && holding.value.orders.map(figures)).toEqual((await listOrders(local, user.id, 1, 1)).orders.map(figures));
    const on = await myHoldingsOn(front, user.id, "BTCUSDT");
    expect(on.ok && on.value.map((r) => r.id)).toEqual([own.id]);
    // a move, then the close: the backend realises it; the history shows its profit
    await holdPrice("BTCUSDT", 51_000);
    const closed = await closeMyOrder(front, user.id, own.id);
    expect(closed).toMatchObject({ ok: true, value: { id: own.id, status: 3 } });
    const history = await myOrders(front, user.id, 3, 1);
    const ownHistory = await listOrders(local, user.id, 3, 1);
    expect(history.ok && history.value.orders.map(figures)).toEqual(ownHistory.orders.map(figures));
    expect(history.ok && history.value.orders[0]!.currentProfit).toBe(10 * USD);
    expect(await accountBalances(user.accounts.contract)).toEqual({ balance: 10_010 * USD - 25_000, locked: 0 });
    // another user's order, or an unknown one: nothing
    expect(await myOrder(front, user.id, own.id + 1_000_000)).toEqual({ ok: true, value: null });
  });

  it("the same order form sent four times at once places one order", async () => {
    await holdPrice("BTCUSDT", 50_000);
    const { user, front, session } = await trader();
    const requestKey = crypto.randomUUID();
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        placeMyOrder(front, session, { side: 2, lots: "0.02", instrumentId: 1, entry: 1, leverage: 10, requestKey }),
      ),
    );
    expect(results.some((r) => r.ok)).toBe(true);
    expect(await ordersOf(user.id)).toBe(1);
    expect((await accountBalances(user.accounts.contract)).locked).toBe(100 * USD);
  });

  it("a pending order with stops, changed, then cancelled; refusals are the backend's, on their fields", async () => {
    await holdPrice("BTCUSDT", 50_000);
    const { user, front, session } = await trader(1_000 * USD);
    const pending = await placeMyOrder(front, session, {
      side: 1,
      lots: "0.01",
      instrumentId: 1,
      entry: 0,
      leverage: 10,
      targetPrice: "49000",
    });
    expect(pending).toMatchObject({ ok: true, value: { status: 0, openPrice: null, originPrice: 4_900_000 } });
    if (!pending.ok) return;
    // stops are for holding positions: the backend says so, in its words
    const early = await setMyStops(front, user.id, { id: pending.value.id, stopLoss: "48000", takeProfit: "52000" });
    expect(Object.values(early.ok ? {} : early.errors)[0]).toMatch(/^errors\.upstream_refused\|.+/);
    const cancelled = await cancelMyOrder(front, user.id, pending.value.id);
    expect(cancelled).toMatchObject({ ok: true, value: { status: 4 } });
    expect(await accountBalances(user.accounts.contract)).toEqual({ balance: 1_000 * USD, locked: 0 });
    // a holding position's stops, as the backend keeps them
    const held = await placeMyOrder(front, session, { side: 1, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10 });
    if (!held.ok) throw new Error("not placed");
    const stops = await setMyStops(front, user.id, { id: held.value.id, stopLoss: "48000", takeProfit: "52000" });
    expect(stops).toMatchObject({ ok: true, value: { stopLoss: 4_800_000, takeProfit: 5_200_000 } });
    expect(await closeMyOrder(front, user.id, held.value.id)).toMatchObject({ ok: true, value: { status: 3 } });
    // more than the balance: the backend's refusal
    const tooBig = await placeMyOrder(front, session, { side: 1, lots: "10", instrumentId: 1, entry: 1, leverage: 10 });
    expect(tooBig.ok).toBe(false);
    expect(Object.values(tooBig.ok ? {} : tooBig.errors)[0]).toMatch(/^errors\.upstream_refused\|.+/);
  });
});
