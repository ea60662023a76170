// The engine's chunks and parking in workerd (issue 20 §3): real D1, the real main market room.
// A fault is injected the way a real one would reach the engine: a SQLite trigger makes D1 refuse
// one order's settlement (or one follower's copy). Everything else settles; the refused one is
// tried on the next ticks, then parked where operators see it (/admin/engine, /dev/engine), and an
// operator's "Try again" settles it once the cause is gone. The ledger stays whole throughout.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { Side } from "~/domain/contract";
import { SETTLE_CHUNK, SETTLE_TRIES } from "~/domain/engine";
import { engineOrders } from "~/services/contract/engine.server";
import { openCopies } from "~/services/copy/engine.server";
import { placeOrder } from "~/services/contract/commands.server";
import { checkInvariants } from "~/services/ledger/accounts.server";
import {
  cookiesFrom,
  createUser,
  form,
  fund,
  get,
  holdPrice as hold,
  mainRoom,
  sessionFor,
  signedSessionCookie,
  tickMain as tick,
  visibleText,
} from "./helpers";

const USD = 1_000_000;

afterEach(async () => {
  await env.DB.prepare("DROP TRIGGER IF EXISTS injected_fault").run();
  expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
});

async function statusOf(id: number) {
  return (await env.DB.prepare("SELECT status, close_reason AS reason FROM contract_orders WHERE id = ?1")
    .bind(id)
    .first<{ status: number; reason: string | null }>())!;
}

async function operatorCookie() {
  const op = await createUser();
  await env.DB.prepare("UPDATE users SET role = 'operator' WHERE id = ?1").bind(op.id).run();
  return signedSessionCookie(await sessionFor(op.id));
}

describe("a settlement D1 refuses", () => {
  it("the others close at once; the refused one is tried again, parked after its tries, listed for operators, and settles once when handed back", async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const users = await Promise.all([createUser(), createUser(), createUser()]);
    const ids: number[] = [];
    for (const u of users) {
      await fund(u.accounts.contract, 1_000 * USD);
      const placed = await placeOrder(ctx, u.id, {
        side: Side.Buy,
        lots: "0.01",
        instrumentId: 1,
        entry: 1,
        leverage: 10,
        stopLoss: "49900",
      });
      if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
      ids.push(placed.value.id);
    }
    const bad = ids[1]!;
    await env.DB.prepare(
      `CREATE TRIGGER injected_fault BEFORE INSERT ON order_exits WHEN NEW.order_id = ${bad} BEGIN SELECT RAISE(ABORT, 'injected fault'); END`,
    ).run();
    await hold("BTCUSDT", 49_800);
    expect((await statusOf(ids[0]!)).status).toBe(3);
    expect((await statusOf(ids[2]!)).status).toBe(3);
    expect((await statusOf(bad)).status).toBe(1);
    const parkedRow = () =>
      env.DB.prepare("SELECT kind, item_id AS id, reason, tries, error FROM engine_parked WHERE item_id = ?1 AND kind = 'contract'")
        .bind(bad)
        .first<{ kind: string; id: number; reason: string; tries: number; error: string }>();
    expect(await parkedRow()).toBeNull();
    for (let i = 1; i < SETTLE_TRIES; i++) await tick();
    const parked = await parkedRow();
    expect(parked).toMatchObject({ kind: "contract", id: bad, reason: "stop_loss", tries: SETTLE_TRIES });
    expect(parked!.error).toContain("injected fault");
    // given up: more ticks try nothing (its tries stay), and the local engine view lists it
    await tick();
    await tick();
    expect((await parkedRow())!.tries).toBe(SETTLE_TRIES);
    expect((await mainRoom().engineView()).parked.map((p) => p.id)).toContain(bad);

    // operators see it in the console (with a count on the overview); users do not reach the page
    const op = await operatorCookie();
    const page = await get("/admin/engine", { cookie: op });
    expect(page.status).toBe(200);
    const text = visibleText(await page.text());
    expect(text).toContain(`Contract order ${bad}`);
    // settled at the first price after the gap, as the engine decided it
    expect(text).toContain("Stop-loss · BTC/USDT · 49,800.00");
    expect(text).toContain("injected fault");
    expect(text).toContain("Still open: waiting for this settlement");
    const user = await signedSessionCookie(await sessionFor(users[0]!.id));
    expect((await get("/admin/engine", { cookie: user })).status).toBe(404);
    const rowId = (await env.DB.prepare("SELECT id FROM engine_parked WHERE item_id = ?1").bind(bad).first<{ id: number }>())!.id;
    expect((await form("/admin/engine", { intent: "engine-retry", id: String(rowId) }, { cookie: user })).status).toBe(404);
    expect(await parkedRow()).not.toBeNull();

    // the cause is fixed; the operator hands it back (a plain form post), and the next tick settles it, once
    await env.DB.prepare("DROP TRIGGER injected_fault").run();
    const retried = await form("/admin/engine", { intent: "engine-retry", id: String(rowId) }, { cookie: op });
    expect(retried.status).toBe(302);
    expect(retried.headers.get("location")).toBe("/admin/engine");
    expect(await parkedRow()).toBeNull();
    await tick();
    expect(await statusOf(bad)).toEqual({ status: 3, reason: "stop_loss" });
    const exits = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_transactions WHERE idempotency_key = ?1")
      .bind(`contract_exit:${bad}`)
      .first<{ n: number }>();
    expect(exits!.n).toBe(1);
    // handing back one that is no longer parked says so and changes nothing
    const again = await form("/admin/engine", { intent: "engine-retry", id: String(rowId) }, { cookie: op });
    expect(again.status).toBe(302);
    const after = visibleText(await (await get("/admin/engine", { cookie: cookiesFrom(again, op) })).text());
    expect(after).toContain("This settlement is no longer on hold.");
    expect(after).toContain("Nothing on hold: every settlement went through.");
  });
});

describe("copies in chunks", () => {
  it(`a trader's order with ${SETTLE_CHUNK + 150} followers opens every copy in chunks of at most ${SETTLE_CHUNK}; a follower D1 refuses holds up no other and is tried again`, async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const trader = await createUser();
    await fund(trader.accounts.contract, 10_000 * USD);
    await env.DB.batch([
      env.DB.prepare("UPDATE users SET is_trader = 1 WHERE id = ?1").bind(trader.id),
      env.DB.prepare("INSERT INTO traders (user_id, nickname, status, approved_at, stats_at) VALUES (?1, 'chunky', 1, ?2, ?2)").bind(
        trader.id,
        Date.now() - 60_000,
      ),
    ]);
    // followers made in bulk by SQL: a user, a funded contract account (its deposit posted as a balanced transaction), a follow
    const n = SETTLE_CHUNK + 150;
    const base = (await env.DB.prepare("SELECT COALESCE(MAX(id), 0) AS id FROM users").first<{ id: number }>())!.id + 1000;
    const stamp = Date.now();
    for (let i = 0; i < n; i += 500) {
      const span = Array.from({ length: Math.min(500, n - i) }, (_, k) => base + i + k);
      await env.DB.batch([
        env.DB.prepare(
          `INSERT INTO users (id, uid, company_id, email, invite_code, is_demo) SELECT value, 'c' || value, 1, 'chunk' || value || '@example.com', 'i' || value, 0 FROM json_each(?1)`,
        ).bind(JSON.stringify(span)),
        env.DB.prepare(
          `INSERT INTO accounts (user_id, kind, account_type_id, balance) SELECT value, 'contract', 3, 0 FROM json_each(?1)`,
        ).bind(JSON.stringify(span)),
        env.DB.prepare(
          `INSERT INTO follows (follower_id, trader_id, multiple, max_amount, status, created_at) SELECT value, ?2, 1, ?3, 1, ?4 FROM json_each(?1)`,
        ).bind(JSON.stringify(span), trader.id, 1_000 * USD, stamp - 30_000),
      ]);
    }
    const { results: accounts } = await env.DB.prepare("SELECT id FROM accounts WHERE user_id >= ?1 AND user_id < ?2 AND kind = 'contract'")
      .bind(base, base + n)
      .all<{ id: number }>();
    expect(accounts).toHaveLength(n);
    for (let i = 0; i < accounts.length; i += 400) await Promise.all(accounts.slice(i, i + 400).map((a) => fund(a.id, 200 * USD)));
    const refused = base + 7;
    await env.DB.prepare(
      `CREATE TRIGGER injected_fault BEFORE INSERT ON contract_orders WHEN NEW.user_id = ${refused} BEGIN SELECT RAISE(ABORT, 'injected fault'); END`,
    ).run();
    const placed = await placeOrder(ctx, trader.id, { side: Side.Buy, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10 });
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));

    // straight through the service: every other copy opens, in chunks; the refused one throws for a retry
    await expect(openCopies(ctx, placed.value.id)).rejects.toThrow("injected fault");
    const copies = await env.DB.prepare("SELECT COUNT(*) AS n, COUNT(DISTINCT open_tx) AS txs FROM contract_orders WHERE origin_id = ?1")
      .bind(placed.value.id)
      .first<{ n: number; txs: number }>();
    expect(copies).toEqual({ n: n - 1, txs: n - 1 });
    const batches = await env.DB.prepare(
      "SELECT batch_id AS b, COUNT(*) AS n FROM ledger_transactions WHERE kind = 'trade_margin' AND memo = 'memo.contract_copy' AND user_id >= ?1 AND user_id < ?2 GROUP BY batch_id",
    )
      .bind(base, base + n)
      .all<{ b: string; n: number }>();
    expect(batches.results.length).toBeGreaterThan(1);
    expect(Math.max(...batches.results.map((r) => r.n))).toBeLessThanOrEqual(SETTLE_CHUNK);
    // the fault gone, a retry opens just the missing copy (the others' unique key holds)
    await env.DB.prepare("DROP TRIGGER injected_fault").run();
    const retry = await openCopies(ctx, placed.value.id);
    expect(retry.opened.map((o) => o.userId)).toEqual([refused]);
    const all = await env.DB.prepare("SELECT COUNT(*) AS n FROM contract_orders WHERE origin_id = ?1")
      .bind(placed.value.id)
      .first<{ n: number }>();
    expect(all!.n).toBe(n);
  });
});

describe("the engine's start", () => {
  it("reads the open orders page by page by id: each open one once, none parked, the last page says so", async () => {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const u = await createUser();
    await fund(u.accounts.contract, 1_000 * USD);
    for (let i = 0; i < 5; i++) {
      const placed = await placeOrder(ctx, u.id, { side: Side.Buy, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10 });
      if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    }
    const { results } = await env.DB.prepare("SELECT id FROM contract_orders WHERE status IN (0, 1) ORDER BY id").all<{ id: number }>();
    const parkedId = results[1]!.id;
    await env.DB.prepare(
      "INSERT INTO engine_parked (kind, item_id, user_id, reason, price, tries, error, parked_at) VALUES ('contract', ?1, ?2, 'stop_loss', 1, 3, 'test', 1)",
    )
      .bind(parkedId, u.id)
      .run();
    const seen: number[] = [];
    let after = 0;
    let pages = 0;
    for (;;) {
      const page = await engineOrders(ctx, 0, after, 2);
      pages += 1;
      expect(page.open.length).toBeLessThanOrEqual(2);
      seen.push(...page.open.map((o) => o.id));
      if (!page.more) break;
      after = page.open[page.open.length - 1]!.id;
    }
    expect(seen).toEqual(results.map((r) => r.id).filter((id) => id !== parkedId));
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(seen.length / 2));
    await env.DB.prepare("DELETE FROM engine_parked WHERE item_id = ?1").bind(parkedId).run();
  });
});
