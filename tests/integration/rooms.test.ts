// The market room the engine hangs on (clock, price book, engine hook, idle rule, restarts),
// per-user pushes, the live socket's hardening, and the scheduled jobs.
import {
  SELF,
  abortAllDurableObjects,
  createExecutionContext,
  createScheduledController,
  env,
  runDurableObjectAlarm,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import worker from "../../app/server";
import { describe, expect, it } from "vitest";
import type { EngineOrder, PriceRange } from "~/domain/engine";
import { cancelOrder, placeOrder } from "~/services/contract/commands.server";
import { notifyEngine, publishToUsers } from "~/services/live.server";
import { createServiceContext } from "~/context.server";
import { ORIGIN, createUser, fund, loggedInSocket, openSocket, sessionFor } from "./helpers";

const room = (name: string) => env.MARKET_ROOM.get(env.MARKET_ROOM.idFromName(name));
/** The Worker's cron handler, called as the platform calls it. */
async function scheduled(options: { cron: string; scheduledTime?: Date }) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: options.cron, scheduledTime: options.scheduledTime ?? new Date() }), env);
  await waitOnExecutionContext(ctx);
}

describe("the engine hook: every tick hands over the ranges crossed since the previous one", () => {
  it("the ranges of a minute's ticks are exactly the minute's candle (no price is missing)", async () => {
    const r = room("test-engine-ranges");
    const t0 = Math.ceil(Date.now() / 60_000) * 60_000 + 120_000;
    await r.tickNow(t0 - 1000);
    for (let t = t0; t < t0 + 60_000; t += 1000 + (t % 3000 === 0 ? 2000 : 0)) await r.tickNow(t);
    await r.tickNow(t0 + 59_000);
    const view = await r.engineView();
    const ticks = view.ticks.filter((tick) => tick.time >= t0 && tick.time < t0 + 60_000);
    expect(ticks.length).toBeGreaterThan(10);
    // ticks are contiguous: each starts where the previous ended
    for (let i = 1; i < ticks.length; i++) expect(ticks[i]!.since).toBe(ticks[i - 1]!.time);
    const btc = ticks.map((tick) => tick.ranges.find((x) => x.code === "BTCUSDT")).filter(Boolean) as PriceRange[];
    const candle = (await r.klines("BTCUSDT", "1min", 5))!.find((c) => c.timestamp === t0)!;
    expect(Math.max(...btc.map((x) => x.high))).toBe(candle.high);
    expect(Math.min(...btc.map((x) => x.low))).toBe(candle.low);
    expect(btc[0]!.open).toBe(candle.open);
    expect(btc.at(-1)!.last).toBe(candle.close);
    // a tick that skipped seconds says so and still covers them
    expect(ticks.some((tick) => tick.catchUp)).toBe(true);
  });

  it("a held (scripted) price reaches the engine in the next tick's range", async () => {
    const r = room("test-engine-held");
    await r.tickNow(Date.now());
    await r.setPrice("ETHUSDT", 1234.56);
    const when = Date.now() + 1000;
    await r.tickNow(when);
    const tick = (await r.engineView()).ticks.find((x) => x.time === when)!;
    expect(tick.ranges.find((x) => x.code === "ETHUSDT")).toMatchObject({ last: 1234.56 });
  });

  it("reads never move prices: reads between two ticks see the same quotes, stamped with the tick's time", async () => {
    const r = room("test-engine-reads");
    await r.snapshot(); // the room is built (its history generated) before the clock is read
    const tickTime = Date.now();
    await r.tickNow(tickTime);
    await runInDurableObject(r, async (_instance, state) => {
      await state.storage.deleteAlarm();
    });
    const a = await r.snapshot();
    const b = await r.snapshot();
    // the tick's own alarm (a second later) may have fired before it was deleted on a loaded
    // machine: then the reads see that tick, and still the same one twice
    expect(a.time).toBeGreaterThanOrEqual(tickTime);
    expect(b.time).toBe(a.time);
    expect(b.quotes).toEqual(a.quotes);
  });
});

const engineOrder = (id: number, code = "BTCUSDT"): EngineOrder => ({
  id,
  userId: 1,
  code,
  side: 1,
  status: 0,
  lots: 10_000,
  contractSize: 1_000_000,
  precision: 2,
  price: 100,
  margin: 1,
  fee: 0,
  stopLoss: 0,
  takeProfit: 0,
  liquidation: 0,
  pendingCrossing: -1,
});

/**
 * The room's armed alarm. From the moment the platform delivers an alarm until its handler arms
 * the next one, the storage reports none (getAlarm() is null), so a clock that keeps running can
 * read as stopped for a few milliseconds each second: "armed" is polled; "stopped" is final.
 */
const armed = (stub: ReturnType<typeof room>) =>
  expect.poll(async () => (await stub.engineView()).alarm, { timeout: 3000, interval: 20 }).not.toBeNull();
/** Takes the room's alarm away (again, if a handler in flight armed the next one meanwhile). */
const disarm = (stub: ReturnType<typeof room>) =>
  expect
    .poll(
      async () => {
        await runInDurableObject(stub, async (_instance, state) => {
          await state.storage.deleteAlarm();
        });
        return (await stub.engineView()).alarm;
      },
      { timeout: 3000, interval: 20 },
    )
    .toBeNull();

/** A funded user's pending buy (10,000, far below the held 50,000) the main room must keep. */
async function pendingOrderOnMain() {
  const ctx = await createServiceContext(env);
  const user = await createUser();
  await fund(user.accounts.contract, 1_000_000_000);
  await room("main").setPrice("BTCUSDT", 50_000);
  await room("main").tickNow(Date.now());
  const placed = await placeOrder(ctx, user.id, { side: 1, lots: "0.01", instrumentId: 1, entry: 0, targetPrice: "10000", leverage: 10 });
  return { ctx, user, placed };
}

describe("the idle rule and restarts", () => {
  it("sleeps when nobody listens and nothing waits; keeps ticking while work waits", async () => {
    const name = "test-idle";
    await room(name).snapshot();
    await room(name).forgetReads();
    await runDurableObjectAlarm(room(name));
    expect(await room(name).engineView()).toMatchObject({ alarm: null, running: false });

    // a service reports an open order after its commit
    const stub = room(name);
    expect(await stub.triggersChanged([{ op: "upsert", order: engineOrder(9001) }])).toBe(1);
    await armed(stub);
    await stub.forgetReads();
    await runDurableObjectAlarm(stub);
    expect((await stub.engineView()).running).toBe(true);
    await armed(stub);

    // the order leaves: nothing waits, the clock may stop again
    await stub.triggersChanged([{ op: "remove", id: 9001 }]);
    await stub.forgetReads();
    await runDurableObjectAlarm(stub);
    expect(await stub.engineView()).toMatchObject({ alarm: null, running: false });
  });

  it("a clock kept running by waiting work re-arms itself every second, through the platform's own alarms", async () => {
    const stub = room("test-idle-platform");
    expect(await stub.triggersChanged([{ op: "upsert", order: engineOrder(9002) }])).toBe(1);
    await stub.forgetReads();
    const before = (await stub.engineView()).ticks.length;
    // no test hook runs the alarm here: only the platform does, three times in a row
    await expect
      .poll(async () => (await stub.engineView()).ticks.length, { timeout: 6000, interval: 100 })
      .toBeGreaterThanOrEqual(before + 3);
    await armed(stub);
    await stub.triggersChanged([{ op: "remove", id: 9002 }]);
  });

  it("after a restart the main room reloads open orders from D1 and re-arms its alarm by itself", async () => {
    const { ctx, user, placed } = await pendingOrderOnMain();
    expect(placed.ok).toBe(true);
    await disarm(room("main"));
    await abortAllDurableObjects();
    expect((await room("main").engineView()).pending).toBeGreaterThanOrEqual(1);
    await armed(room("main"));
    if (placed.ok) await cancelOrder(ctx, user.id, placed.value.id);
  });

  it("after a restart the main room woken by its own alarm (before any call names it) settles from D1", async () => {
    const { ctx, user, placed } = await pendingOrderOnMain();
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    await armed(room("main"));
    await abortAllDurableObjects();
    // nobody calls the room: the platform's alarm wakes it
    await new Promise((r) => setTimeout(r, 2500));
    const view = await room("main").engineView();
    const open = await env.DB.prepare("SELECT COUNT(*) AS n FROM contract_orders WHERE status IN (0, 1)").first<{ n: number }>();
    expect(view.pending).toBeGreaterThanOrEqual(open!.n);
    await cancelOrder(ctx, user.id, placed.value.id);
  });

  it("services notify the engine through one function (the main room)", async () => {
    const ctx = await createServiceContext(env);
    const pending = await notifyEngine(ctx, [{ op: "upsert", order: engineOrder(770_077) }]);
    expect(pending).toBeGreaterThanOrEqual(1);
    expect(await notifyEngine(ctx, [{ op: "remove", id: 770_077 }])).toBeGreaterThanOrEqual(0);
  });
});

describe("per-user pushes", () => {
  it("a batch of events reaches only each user's own subscribed sockets", async () => {
    const alice = await createUser();
    const bob = await createUser();
    const a = await loggedInSocket(alice.id);
    const b = await loggedInSocket(bob.id);
    a.send({ type: "sub", topic: "FOREX_CLOSED" });
    b.send({ type: "sub", topic: "FOREX_TRADE" });
    a.send({ type: "ping", timestamp: 1 });
    b.send({ type: "ping", timestamp: 1 });
    await a.next((m) => m.type === "pong");
    await b.next((m) => m.type === "pong");
    const sent = await publishToUsers(env, [
      { userId: alice.id, topic: "FOREX_CLOSED", data: [11] },
      { userId: alice.id, topic: "FOREX_TRADE", data: { not: "subscribed" } },
      { userId: bob.id, topic: "FOREX_TRADE", data: { all_fact_profits: "1.00" } },
    ]);
    expect(sent).toBe(2);
    expect(await a.next((m) => m.type === "FOREX_CLOSED")).toEqual({ type: "FOREX_CLOSED", data: [11] });
    expect(await b.next((m) => m.type === "FOREX_TRADE")).toEqual({ type: "FOREX_TRADE", data: { all_fact_profits: "1.00" } });
    a.ws.close();
    b.ws.close();
  });
});

describe("the live socket's hardening", () => {
  it("a malformed frame gets a warning and never breaks the handler", async () => {
    const s = await openSocket();
    const frames = [
      JSON.stringify({ type: "sub", topic: "KLINE.BTCUSDT", period: { toString: 1 } }),
      JSON.stringify({ type: "sub", topic: { toString: 1 } }),
      JSON.stringify({ type: { toString: 1 } }),
      JSON.stringify({ type: "login", token: { length: 5 } }),
      JSON.stringify({ type: "ping", timestamp: { valueOf: 1 } }),
      JSON.stringify({ type: "sub", topic: "__proto__" }),
    ];
    for (const f of frames) s.send(f);
    for (let i = 0; i < 5; i++) await s.next((m) => m.type === "warning" || m.type === "pong");
    s.send({ type: "ping", timestamp: 42 });
    expect(await s.next((m) => m.type === "pong" && m.timestamp === 42)).toBeTruthy();
    s.ws.close();
  });

  it("limits frames per connection: over the rate it warns, and a socket that keeps at it is closed", async () => {
    const s = await openSocket();
    for (let i = 0; i < 25; i++) s.send({ type: "ping", timestamp: i });
    await s.next((m) => m.type === "warning" && m.msg === "too many frames");
    await new Promise((r) => setTimeout(r, 1100));
    expect(s.inbox.filter((m) => m.type === "pong").length).toBeLessThanOrEqual(20);
    // still open for a client that slows down
    s.send({ type: "ping", timestamp: 99 });
    expect(await s.next((m) => m.type === "pong" && m.timestamp === 99)).toBeTruthy();
    // oversized frames count too; a socket that keeps at it is closed (1008)
    for (let i = 0; i < 12 && !s.closed(); i++) s.send("x".repeat(5000));
    const deadline = Date.now() + 3000;
    while (!s.closed() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(s.closed()?.code).toBe(1008);
  });

  it("a socket logged in with a session that ends is logged out within a few seconds", async () => {
    const user = await createUser();
    const token = await sessionFor(user.id);
    const s = await openSocket();
    s.send({ type: "login", token });
    expect(await s.next((m) => m.type === "login_result")).toEqual({ type: "login_result", code: 1 });
    const out = await SELF.fetch(`${ORIGIN}/api/user/logout`, { method: "POST", headers: { host: "localhost", authorization: token } });
    expect(await out.json()).toMatchObject({ code: 1 });
    expect(await s.next((m) => m.type === "login_result", 8000)).toEqual({ type: "login_result", code: 0 });
    // per-user events no longer reach it
    s.send({ type: "sub", topic: "FOREX_TRADE" });
    expect(await publishToUsers(env, [{ userId: user.id, topic: "FOREX_TRADE", data: 1 }])).toBe(0);
    s.ws.close();
  });

  it("a burst of login frames with one token is answered for every frame", async () => {
    const user = await createUser();
    const token = await sessionFor(user.id);
    const s = await openSocket();
    for (let i = 0; i < 15; i++) s.send({ type: "login", token });
    for (let i = 0; i < 15; i++) expect(await s.next((m) => m.type === "login_result")).toEqual({ type: "login_result", code: 1 });
    s.ws.close();
  });
});

describe("scheduled jobs", () => {
  it("the daily run expires unused demo accounts (balances back to the platform, demo id gone) and keeps the ledger balanced", async () => {
    const { checkInvariants } = await import("~/services/ledger/accounts.server");
    const { grantDemoBalances } = await import("~/services/demo.server");
    const old = await createUser({ isDemo: true });
    const fresh = await createUser({ isDemo: true });
    const ctx = await createServiceContext(env);
    await grantDemoBalances(ctx, old.id);
    await grantDemoBalances(ctx, fresh.id);
    const longAgo = Date.now() - 31 * 24 * 60 * 60_000;
    await env.DB.prepare("UPDATE users SET created_at = ?1 WHERE id = ?2").bind(longAgo, old.id).run();
    await scheduled({ cron: "0 3 * * *", scheduledTime: new Date() });
    const expired = await env.DB.prepare("SELECT status, demo_id AS demoId FROM users WHERE id = ?1").bind(old.id).first();
    expect(expired).toEqual({ status: 0, demoId: null });
    const balances = await env.DB.prepare("SELECT SUM(balance + lock_balance) AS total FROM accounts WHERE user_id = ?1")
      .bind(old.id)
      .first<{ total: number }>();
    expect(balances!.total).toBe(0);
    const kept = await env.DB.prepare("SELECT status FROM users WHERE id = ?1").bind(fresh.id).first<{ status: number }>();
    expect(kept!.status).toBe(1);
    expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
    // at least once delivery: running again changes nothing
    await scheduled({ cron: "0 3 * * *" });
    expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
  });

  it("the five-minute run re-arms the market clock when work waits", async () => {
    const main = room("main");
    await main.triggersChanged([{ op: "upsert", order: engineOrder(424242) }]);
    await disarm(main);
    await scheduled({ cron: "*/5 * * * *" });
    await armed(main);
    await main.triggersChanged([{ op: "remove", id: 424242 }]);
  });
});
