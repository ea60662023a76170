// The engine spread over shards, in workerd with the real main market room and its EngineShard
// objects (wrangler.toml: ENGINE_SHARDS = 8, ENGINE_SPLIT = "BTCUSDT:8,ETHUSDT:2"): a hot
// instrument's users on several shards close on one price move; a trader's order closing on one
// shard closes its copies on the others in the same tick; a copy stop-loss sums copies held on
// two shards; a shard that crashes mid-cascade loads again from D1 and every position closes once.
import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { Side } from "~/domain/contract";
import { assign, parsePlan, shardName, type ShardPlan } from "~/domain/engine-shards";
import { placeOrder } from "~/services/contract/commands.server";
import { engineOrders } from "~/services/contract/engine.server";
import { checkInvariants } from "~/services/ledger/accounts.server";
import { ConfigError, readConfig } from "~/env.server";
import { aFollower, aTrader, createUser, fund, holdPrice as hold, mainRoom, tickMain as tick } from "./helpers";

const USD = 1_000_000;
/** The room's plan: the configured one dealt over the active instruments, as the market room deals it. */
let plan: ShardPlan = parsePlan(env.ENGINE_SHARDS, env.ENGINE_SPLIT);
beforeAll(async () => {
  const { results } = await env.DB.prepare("SELECT code FROM instruments WHERE status = 1").all<{ code: string }>();
  plan = assign(
    plan,
    results.map((r) => r.code),
  );
});
const shard = (name: string) => env.ENGINE_SHARD.get(env.ENGINE_SHARD.idFromName(name));

async function row(id: number) {
  return env.DB.prepare("SELECT status, close_reason AS reason, close_price AS closePrice, profit FROM contract_orders WHERE id = ?1")
    .bind(id)
    .first<{ status: number; reason: string | null; closePrice: number | null; profit: number | null }>();
}
async function copyOf(originId: number) {
  return env.DB.prepare(
    "SELECT id, user_id AS userId, status, close_reason AS reason, close_price AS closePrice FROM contract_orders WHERE origin_id = ?1",
  )
    .bind(originId)
    .first<{ id: number; userId: number; status: number; reason: string | null; closePrice: number | null }>();
}
async function exitsOf(ids: number[]) {
  const r = await env.DB.prepare("SELECT COUNT(*) AS n FROM order_exits WHERE order_id IN (SELECT value FROM json_each(?1))")
    .bind(JSON.stringify(ids))
    .first<{ n: number }>();
  return r!.n;
}

afterEach(async () => {
  expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
});

describe("engine shards", () => {
  it("a bad plan in the Worker's configuration is refused at its first request, with the variable named", () => {
    expect(() => readConfig({ ...env, ENGINE_SHARDS: "0" })).toThrow(ConfigError);
    expect(() => readConfig({ ...env, ENGINE_SPLIT: "BTCUSDT:x" })).toThrow(/ENGINE_SPLIT/);
    expect(() => readConfig({ ...env, ENGINE_SETTLE_CHUNK: "10" })).toThrow(/ENGINE_SETTLE_CHUNK/);
    expect(readConfig({ ...env }).isLocal).toBe(true);
  });

  it("a hot instrument split by user: stop-losses held on each of its shards all close on one price move, each once", async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const ids: number[] = [];
    const parts = new Set<string>();
    const split = plan.split.BTCUSDT!;
    for (let i = 0; i < 2 * split; i++) {
      const user = await createUser();
      await fund(user.accounts.contract, 1_000 * USD);
      const placed = await placeOrder(ctx, user.id, {
        side: Side.Buy,
        lots: "0.01",
        instrumentId: 1,
        entry: 1,
        leverage: 10,
        stopLoss: "49500",
      });
      if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
      ids.push(placed.value.id);
      parts.add(shardName(plan, "BTCUSDT", user.id));
    }
    expect(parts.size).toBe(split);
    await tick();
    // each part holds its users' positions, and only them
    const view = await mainRoom().engineView();
    for (const name of parts) expect(view.shards.find((s) => s.name === name)!.pending).toBeGreaterThanOrEqual(2);
    // the price gaps past the level: each closes at the first price after the gap
    await hold("BTCUSDT", 49_400);
    for (const id of ids) expect(await row(id)).toMatchObject({ status: 3, reason: "stop_loss", closePrice: 4_940_000 });
    expect(await exitsOf(ids)).toBe(2 * split);
  });

  it("a trader's order that closes on one shard closes its follower's copy on another shard in the same tick, at the same price", async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const t = await aTrader();
    const f = await aFollower(t.id, { multiple: 1, bond: 1_000 * USD, balance: 1_000 * USD });
    expect(shardName(plan, "BTCUSDT", f.id)).not.toBe(shardName(plan, "BTCUSDT", t.id));
    const placed = await placeOrder(ctx, t.id, {
      side: Side.Buy,
      lots: "0.01",
      instrumentId: 1,
      entry: 1,
      leverage: 10,
      takeProfit: "51000",
    });
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    await tick();
    const copy = await copyOf(placed.value.id);
    expect(copy).toMatchObject({ userId: f.id, status: 1 });
    await hold("BTCUSDT", 51_200);
    expect(await row(placed.value.id)).toMatchObject({ status: 3, reason: "take_profit", closePrice: 5_120_000 });
    expect(await row(copy!.id)).toMatchObject({ status: 3, reason: "trader_close", closePrice: 5_120_000, profit: 12 * USD });
  });

  it("a copy stop-loss of 15.00 on copies held on two shards: neither copy's loss reaches it, their sum does, and both close", async () => {
    await hold("BTCUSDT", 50_000);
    await hold("SOLUSDT", 200);
    const ctx = await createServiceContext(env);
    const t = await aTrader();
    const f = await aFollower(t.id, { multiple: 1, bond: 1_000 * USD, balance: 1_000 * USD, copyStopLoss: 15 * USD });
    expect(shardName(plan, "SOLUSDT", f.id)).not.toBe(shardName(plan, "BTCUSDT", f.id));
    const btc = await placeOrder(ctx, t.id, { side: Side.Buy, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10 });
    const sol = await placeOrder(ctx, t.id, { side: Side.Buy, lots: "1", instrumentId: 12, entry: 1, leverage: 10 });
    if (!btc.ok || !sol.ok) throw new Error("placing failed");
    await tick();
    const [btcCopy, solCopy] = [await copyOf(btc.value.id), await copyOf(sol.value.id)];
    expect(btcCopy).toMatchObject({ status: 1 });
    expect(solCopy).toMatchObject({ status: 1 });
    // −6.00 on SOL alone, then −10.00 on BTC alone would not reach 15.00; together −16.00 does
    await hold("SOLUSDT", 194);
    expect(await row(solCopy!.id)).toMatchObject({ status: 1 });
    await hold("BTCUSDT", 49_000);
    expect(await row(btcCopy!.id)).toMatchObject({ status: 3, reason: "copy_stop", closePrice: 4_900_000, profit: -10 * USD });
    expect(await row(solCopy!.id)).toMatchObject({ status: 3, reason: "copy_stop", closePrice: 19_400, profit: -6 * USD });
    const follow = await env.DB.prepare("SELECT status FROM follows WHERE follower_id = ?1").bind(f.id).first<{ status: number }>();
    expect(follow!.status).toBe(2);
    // the trader's own positions stay open
    expect(await row(btc.value.id)).toMatchObject({ status: 1 });
    expect(await row(sol.value.id)).toMatchObject({ status: 1 });
  });

  it("the room's catch-up reads a burst of new orders a page at a time, going on from the last one read", async () => {
    await hold("BNBUSDT", 900); // a crypto pair: open every hour of the week (gold closes on Friday evening)
    const ctx = await createServiceContext(env);
    const before = await engineOrders(ctx, Date.now(), Number.MAX_SAFE_INTEGER);
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) {
      const user = await createUser();
      await fund(user.accounts.contract, 10_000 * USD);
      const placed = await placeOrder(ctx, user.id, { side: Side.Buy, lots: "0.01", instrumentId: 14, entry: 1, leverage: 10 });
      if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
      ids.push(placed.value.id);
    }
    const since = Date.now() + 60_000; // nothing "changed": only the new rows by id
    const first = await engineOrders(ctx, since, before.lastId, 3);
    expect(first.open.map((o) => o.id)).toEqual(ids.slice(0, 3));
    expect(first).toMatchObject({ lastId: ids[2], more: true });
    const second = await engineOrders(ctx, since, first.lastId, 3);
    expect(second.open.map((o) => o.id)).toEqual(ids.slice(3, 6));
    const third = await engineOrders(ctx, since, second.lastId, 3);
    expect(third.open.map((o) => o.id)).toEqual(ids.slice(6));
    expect(third.more).toBe(false);
    expect(third.lastId).toBeGreaterThanOrEqual(ids[6]!);
  });

  it("an engine shard that crashes mid-cascade loads again from D1 on the next tick: every stop-loss closes, each once", async () => {
    await hold("XRPUSDT", 2.5);
    const ctx = await createServiceContext(env);
    const name = shardName(plan, "XRPUSDT", 0);
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) {
      const user = await createUser();
      await fund(user.accounts.contract, 1_000 * USD);
      const placed = await placeOrder(ctx, user.id, {
        side: Side.Buy,
        lots: "0.1",
        instrumentId: 13,
        entry: 1,
        leverage: 10,
        stopLoss: "2.4",
      });
      if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
      ids.push(placed.value.id);
    }
    await tick();
    // settlements in chunks of 4; the shard is thrown away after its second chunk
    await shard(name).injectFaults({ chunk: 4, crashAfterChunks: 2 });
    await tick();
    await hold("XRPUSDT", 2.35);
    const closed = async () => (await Promise.all(ids.map(row))).filter((r) => r!.status === 3).length;
    expect(await closed()).toBe(8);
    // the next tick: the shard starts again, reads the four still open from D1 and closes them
    await tick();
    expect(await closed()).toBe(12);
    for (const id of ids) expect(await row(id)).toMatchObject({ status: 3, reason: "stop_loss", closePrice: 23_500 });
    expect(await exitsOf(ids)).toBe(12);
  });
});
