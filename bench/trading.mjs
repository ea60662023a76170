// Contract trading benchmarks (issue 8), printed by `npm run bench`:
//   1. orders placed per second end to end (HTTP through the Worker to D1, the market room and
//      back) at concurrency 1 and 10, p50 / p99, side by side in the same run with a bare
//      one-batch D1 write of the same shape (the local limit);
//   2. the engine's tick with 100 versus 100,000 open orders (in Node, the same engine code with
//      an in-memory store: the index cost alone);
//   3. the time to settle 5,000 stop-losses triggered by one tick (one set-based D1 batch, in
//      workerd through the real market room);
//   4. 10,000 timed options expiring in the same second: from expiry until all are settled, and
//      the ledger invariants afterwards.
// TRADING_ORDERS (default 400) orders per concurrency level; TRADING_CONCURRENCY (default "1,10") the levels.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { root } from "../scripts/lib.mjs";
import { startWorker } from "./fanout.mjs";

const ORDERS = Number(process.env.TRADING_ORDERS ?? 400);
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};

/** Runs `total` calls of `fn` with `concurrency` in flight; answers throughput and latencies. */
async function load(total, concurrency, fn) {
  const latencies = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      for (;;) {
        const i = next++;
        if (i >= total) return;
        const t = performance.now();
        if (!(await fn(i, worker))) failures += 1;
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: total / seconds, p50: pct(latencies, 50), p99: pct(latencies, 99), failures, seconds, latencies };
}

async function demoUsers(origin, mf, n) {
  const users = [];
  for (let i = 0; i < n; i++) {
    const res = await mf.dispatchFetch(`${origin}/api/user/createAccountDemoForU?demo_id=${crypto.randomUUID()}`, { headers: { "cf-connecting-ip": `10.9.${i >> 8}.${i & 255}` } });
    const body = await res.json();
    const row = await mf.getD1Database("DB").then((db) => db.prepare("SELECT u.id, a.id AS account FROM users u JOIN accounts a ON a.user_id = u.id AND a.kind = 'contract' WHERE u.demo_id = ?1").bind(body.data.demo_id).first());
    users.push({ token: body.data.token, id: row.id, account: row.account });
  }
  return users;
}

async function orderThroughput(worker) {
  const { mf, origin } = worker;
  await mf.dispatchFetch(`${origin}/dev/market/price`, { method: "POST", body: JSON.stringify({ code: "BTCUSDT", price: 50000 }), headers: { "content-type": "application/json" } });
  const users = await demoUsers(origin, mf, 10);
  const place = async (_i, w) => {
    const u = users[w % users.length];
    const res = await mf.dispatchFetch(`${origin}/v2/api/forex/submit?type=1&cont=0.01&forex_id=1&status=1&multiple=10`, { headers: { authorization: u.token } });
    const body = await res.json();
    return body.code === 1;
  };
  // A bare D1 batch of the same shape (the transaction, three entries, three balance updates,
  // the order row), written by the Worker behind the same HTTP path: the local limit.
  const bare = async (_i, w) => {
    const u = users[w % users.length];
    const res = await mf.dispatchFetch(`${origin}/dev/bench/batch?account=${u.account}&user=${u.id}`, { method: "POST" });
    // read to the end, as the order's answer is: an unread body finishes sooner and flattered the bare write
    const body = await res.json();
    return res.ok && body.ok === true;
  };
  await load(20, 2, place); // warm up
  await load(20, 2, bare);
  // The two run in alternating rounds, so both see the same machine and the same database size.
  const ROUNDS = 4;
  const merge = (parts) => {
    const seconds = parts.reduce((s, p) => s + p.seconds, 0);
    const latencies = parts.flatMap((p) => p.latencies);
    return { perSecond: latencies.length / seconds, p50: pct(latencies, 50), p99: pct(latencies, 99), failures: parts.reduce((s, p) => s + p.failures, 0) };
  };
  const rows = [];
  for (const c of (process.env.TRADING_CONCURRENCY ?? "1,10").split(",").map(Number)) {
    const orders = [];
    const bares = [];
    for (let r = 0; r < ROUNDS; r++) {
      orders.push(await load(Math.ceil(ORDERS / ROUNDS), c, place));
      bares.push(await load(Math.ceil(ORDERS / ROUNDS), c, bare));
    }
    rows.push({ concurrency: c, orders: merge(orders), bare: merge(bares) });
  }
  return rows;
}

/** Bundles the engine (TypeScript) for Node and times its tick. */
async function engineTicks() {
  const outdir = path.join(root, ".wrangler", "bench-engine");
  mkdirSync(outdir, { recursive: true });
  const entry = path.join(root, "party", "market", "engine.ts");
  const outfile = path.join(outdir, "engine.mjs");
  await build({ entryPoints: [entry], bundle: true, format: "esm", platform: "node", outfile, alias: { "~": path.join(root, "app") }, logLevel: "silent" });
  const { ContractEngine } = await import(outfile);
  const result = {};
  for (const n of [100, 100_000]) {
    const open = Array.from({ length: n }, (_, i) => ({
      id: i + 1, userId: i < 100 ? 1 + (i % 50) : 51 + (i % 5000), code: "BTCUSDT", side: 1 + (i % 2), status: 1, lots: 10_000, contractSize: 1_000_000, precision: 2, price: 5_000_000,
      margin: 50_000_000, fee: 0, stopLoss: i % 2 ? 5_100_000 + (i % 1000) * 10 : 4_900_000 - (i % 1000) * 10, takeProfit: 0, liquidation: i % 2 ? 5_500_000 : 4_500_000, pendingCrossing: 0,
    }));
    const store = { orders: async (since) => ({ open: since === 0 ? open : [], gone: [], watermark: 1 }), schedules: async () => [], settle: async () => ({ exited: [], filled: [], cancelled: [] }) };
    const engine = new ContractEngine(store);
    await engine.load();
    const ticks = 2000;
    const watchers = Array.from({ length: 50 }, (_, i) => i + 1);
    const started = performance.now();
    for (let t = 0; t < ticks; t++) {
      // the price wanders between 49,990 and 50,010: no trigger is reached; the same 50 users (100 orders) watch their profit in both runs
      const p = 50_000 + Math.sin(t / 7) * 10;
      await engine.onTick({ time: 1000 * (t + 1), since: 1000 * t, catchUp: false, watchers, ranges: [{ code: "BTCUSDT", open: p, low: p - 0.5, high: p + 0.5, last: p }] });
    }
    result[n] = ((performance.now() - started) * 1000) / ticks; // µs per tick
  }
  return result;
}

/** 5,000 positions with a stop-loss at 49,000.00, then one tick at 48,000.00. */
async function settleStops(worker) {
  const { mf, origin, db } = worker;
  const N = Number(process.env.BENCH_STOPS ?? 5000);
  await mf.dispatchFetch(`${origin}/dev/market/price`, { method: "POST", body: JSON.stringify({ code: "ETHUSDT", price: 3000 }), headers: { "content-type": "application/json" } });
  const [u] = await demoUsers(origin, mf, 1);
  if (process.env.BENCH_DEBUG) console.error("user", u);
  // margin 1 USD each, held in the locked balance through one ledger transaction
  await db.batch([
    db.prepare("INSERT INTO ledger_transactions (idempotency_key, request_hash, kind, memo, user_id) VALUES ((SELECT id FROM ledger_transactions WHERE idempotency_key = 'bench-lock'), 'x', 'adjustment', '', ?1)").bind(u.id),
    db.prepare("INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount) VALUES ((SELECT id FROM ledger_transactions WHERE idempotency_key = 'bench-lock'), ?1, 1, ?2)").bind(u.account, N * 1_000_000),
    db.prepare("INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount) VALUES ((SELECT id FROM ledger_transactions WHERE idempotency_key = 'bench-lock'), 6, 0, ?1)").bind(-N * 1_000_000),
    db.prepare("UPDATE accounts SET lock_balance = lock_balance + ?2 WHERE id = ?1").bind(u.account, N * 1_000_000),
    db.prepare("UPDATE accounts SET balance = balance - ?1 WHERE id = 6").bind(N * 1_000_000),
  ]);
  const now = Date.now();
  const rows = Array.from({ length: N }, (_, i) => `(${u.id}, ${u.account}, 2, 'ETHUSDT', 1, 1, 1000, 1000000, 2, 20, 2, 300000, 300000, 0, 1000000, 0, 290000, 0, 0, 'bench-${i}', ${now}, ${now})`);
  for (let i = 0; i < rows.length; i += 500) {
    await db.prepare(`INSERT INTO contract_orders (user_id, account_id, instrument_id, code, side, status, lots, contract_size, precision, leverage, margin_mode, origin_price, open_price, pending_crossing, margin, fee, stop_loss, take_profit, liquidation, open_tx, filled_at, updated_at) VALUES ${rows.slice(i, i + 500).join(",")}`).run();
  }
  if (process.env.BENCH_DEBUG) console.error("orders inserted");
  await mf.dispatchFetch(`${origin}/dev/engine/reconcile`, { method: "POST" });
  if (process.env.BENCH_DEBUG) console.error("reconciled");
  const before = await (await mf.dispatchFetch(`${origin}/dev/engine`)).json();
  await mf.dispatchFetch(`${origin}/dev/market/price`, { method: "POST", body: JSON.stringify({ code: "ETHUSDT", price: 2800 }), headers: { "content-type": "application/json" } });
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 200));
    const left = await db.prepare("SELECT COUNT(*) AS n FROM contract_orders WHERE open_tx LIKE 'bench-%' AND status = 1").first();
    if (left.n === 0) break;
  }
  const after = await (await mf.dispatchFetch(`${origin}/dev/engine`)).json();
  const big = after.timings.filter((t) => t.orders >= N && !t.kind).at(-1);
  const closed = await db.prepare("SELECT COUNT(*) AS n FROM contract_orders WHERE open_tx LIKE 'bench-%' AND status = 3 AND close_reason = 'stop_loss'").first();
  return { indexed: before.pending, closed: closed.n, ms: big?.ms ?? NaN };
}

/** 10,000 options expiring in the same second: from expiry until all are settled, then the ledger invariants. */
async function settleExpiries(worker) {
  const { mf, origin, db } = worker;
  const N = Number(process.env.BENCH_OPTIONS ?? 10_000);
  await mf.dispatchFetch(`${origin}/dev/market/price`, { method: "POST", body: JSON.stringify({ code: "SOLUSDT", price: 200 }), headers: { "content-type": "application/json" } });
  const [u] = await demoUsers(origin, mf, 1);
  const options = await db.prepare("SELECT id FROM accounts WHERE user_id = ?1 AND kind = 'options'").bind(u.id).first();
  const stake = 10_000_000;
  await db.batch([
    db.prepare("INSERT INTO ledger_transactions (idempotency_key, request_hash, kind, memo, user_id) VALUES ((SELECT id FROM ledger_transactions WHERE idempotency_key = 'bench-stakes'), 'x', 'adjustment', '', ?1)").bind(u.id),
    db.prepare("INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount) VALUES ((SELECT id FROM ledger_transactions WHERE idempotency_key = 'bench-stakes'), ?1, 1, ?2)").bind(options.id, N * stake),
    db.prepare("INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount) VALUES ((SELECT id FROM ledger_transactions WHERE idempotency_key = 'bench-stakes'), 6, 0, ?1)").bind(-N * stake),
    db.prepare("UPDATE accounts SET lock_balance = lock_balance + ?2 WHERE id = ?1").bind(options.id, N * stake),
    db.prepare("UPDATE accounts SET balance = balance - ?1 WHERE id = 6").bind(N * stake),
  ]);
  const now = Date.now();
  const expiry = Math.ceil((now + 4000) / 1000) * 1000;
  const rows = Array.from({ length: N }, (_, i) => `(${u.id}, ${options.id}, 12, 'SOLUSDT', ${1 + (i % 2)}, ${stake}, '0.80', 30, 0, 2, 20000, ${now}, 'sim', ${expiry}, 'bench-option-${i}', ${now})`);
  for (let i = 0; i < rows.length; i += 500) {
    await db.prepare(`INSERT INTO options (user_id, account_id, instrument_id, code, direction, amount, profit_ratio, seconds, loss_level, precision, open_price, open_tick_at, open_feed, expires_at, open_tx, updated_at) VALUES ${rows.slice(i, i + 500).join(",")}`).run();
  }
  await mf.dispatchFetch(`${origin}/dev/engine/reconcile`, { method: "POST" });
  await mf.dispatchFetch(`${origin}/dev/market/price`, { method: "POST", body: JSON.stringify({ code: "SOLUSDT", price: 201 }), headers: { "content-type": "application/json" } });
  let settledAt = NaN;
  while (Date.now() < expiry + 15_000) {
    await new Promise((r) => setTimeout(r, 50));
    const left = await db.prepare("SELECT COUNT(*) AS n FROM options WHERE open_tx LIKE 'bench-option-%' AND status = 1").first();
    if (left.n === 0) {
      settledAt = Date.now();
      break;
    }
  }
  const after = await (await mf.dispatchFetch(`${origin}/dev/engine`)).json();
  const batch = after.timings.filter((t) => t.orders >= N).at(-1);
  const unbalanced = await db.prepare("SELECT COUNT(*) AS n FROM (SELECT transaction_id, SUM(amount) AS total FROM ledger_entries GROUP BY transaction_id HAVING total <> 0)").first();
  const drifting = await db.prepare(
    `SELECT COUNT(*) AS n FROM (SELECT a.id FROM accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id GROUP BY a.id
       HAVING a.balance <> COALESCE(SUM(CASE WHEN e.bucket = 0 THEN e.amount END), 0) OR a.lock_balance <> COALESCE(SUM(CASE WHEN e.bucket = 1 THEN e.amount END), 0))`,
  ).first();
  const negative = await db.prepare("SELECT COUNT(*) AS n FROM accounts WHERE user_id IS NOT NULL AND (balance < 0 OR lock_balance < 0)").first();
  return { n: N, fromExpiryMs: settledAt - expiry, batchMs: batch?.ms ?? NaN, invariants: { unbalanced: unbalanced.n, drifting: drifting.n, negative: negative.n } };
}

/**
 * Copy trading: one trader order copied to N followers (one batch), then closed with the copies
 * (one settlement batch): from the trader's order until every copy is open, and from the trader's
 * close until every copy is closed (the services tell the room, which ticks at once instead of at
 * the next second), and the engine's batch times, next to a bare set-based batch of the same size.
 */
async function copyFollowers(worker, N) {
  const { mf, origin, db } = worker;
  await mf.dispatchFetch(`${origin}/dev/market/price`, { method: "POST", body: JSON.stringify({ code: "BTCUSDT", price: 50000 }), headers: { "content-type": "application/json" } });
  const [t] = await demoUsers(origin, mf, 1);
  const now = Date.now();
  await db.batch([
    db.prepare("UPDATE users SET is_trader = 1 WHERE id = ?1").bind(t.id),
    db.prepare("INSERT INTO traders (user_id, nickname, status, approved_at) VALUES (?1, 'bench', 1, ?2)").bind(t.id, now),
  ]);
  const tag = `bf${N}`;
  for (let i = 0; i < N; i += 500) {
    const rows = Array.from({ length: Math.min(500, N - i) }, (_, k) => `('${tag}-${i + k}', 1, '${tag.toUpperCase()}${i + k}', 0)`);
    await db.prepare(`INSERT INTO users (uid, company_id, invite_code, is_demo) VALUES ${rows.join(",")}`).run();
  }
  const perFollower = 1_000_000_000; // 1,000 USD each
  await db.batch([
    db.prepare(`INSERT INTO accounts (user_id, kind, account_type_id) SELECT id, 'contract', 3 FROM users WHERE uid LIKE '${tag}-%'`),
    db.prepare(`INSERT INTO ledger_transactions (idempotency_key, request_hash, kind, memo) VALUES ('${tag}-fund', 'x', 'adjustment', '')`),
    db.prepare(`INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount) SELECT (SELECT id FROM ledger_transactions WHERE idempotency_key = '${tag}-fund'), a.id, 0, ${perFollower} FROM accounts a JOIN users u ON u.id = a.user_id WHERE u.uid LIKE '${tag}-%'`),
    db.prepare(`INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount) VALUES ((SELECT id FROM ledger_transactions WHERE idempotency_key = '${tag}-fund'), 6, 0, ${-N * perFollower})`),
    db.prepare(`UPDATE accounts SET balance = balance + ${perFollower} WHERE user_id IN (SELECT id FROM users WHERE uid LIKE '${tag}-%')`),
    db.prepare(`UPDATE accounts SET balance = balance - ${N * perFollower} WHERE id = 6`),
    db.prepare(`INSERT INTO follows (follower_id, trader_id, multiple, max_amount, status, created_at) SELECT id, ${t.id}, 2, 500000000, 1, ${now - 60_000} FROM users WHERE uid LIKE '${tag}-%'`),
  ]);
  const count = async (id, status) => (await db.prepare("SELECT COUNT(*) AS n FROM contract_orders WHERE origin_id = ?1 AND status = ?2").bind(id, status).first()).n;
  const placedAt = performance.now();
  const placed = await (await mf.dispatchFetch(`${origin}/v2/api/forex/submit?type=1&cont=0.01&forex_id=1&status=1&multiple=10`, { headers: { authorization: t.token } })).json();
  const id = placed.data.Id;
  let openMs = NaN;
  for (let i = 0; i < 300; i++) {
    if ((await count(id, 1)) >= N) {
      openMs = performance.now() - placedAt;
      break;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const closedAt = performance.now();
  await mf.dispatchFetch(`${origin}/v2/api/forex/close?id=${id}`, { headers: { authorization: t.token } });
  let closeMs = NaN;
  for (let i = 0; i < 300; i++) {
    if ((await count(id, 3)) >= N) {
      closeMs = performance.now() - closedAt;
      break;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const view = await (await mf.dispatchFetch(`${origin}/dev/engine`)).json();
  const openBatch = view.timings.filter((x) => x.kind === "copy_open" && x.orders === N).at(-1);
  const closeBatch = view.timings.filter((x) => x.kind === "copy_close" && x.orders === N).at(-1);
  // the bare batch: N transactions, N order rows and 3N entries written set-based, nothing checked
  const json = JSON.stringify(Array.from({ length: N }, (_, i) => i));
  const bareStarted = performance.now();
  await db.batch([
    db.prepare(`INSERT INTO ledger_transactions (idempotency_key, request_hash, kind, memo) SELECT 'bare-${tag}-' || j.value, 'x', 'adjustment', '' FROM json_each(?1) j`).bind(json),
    db.prepare(`INSERT INTO contract_orders (user_id, account_id, instrument_id, code, side, status, lots, contract_size, precision, leverage, margin_mode, origin_price, open_price, margin, fee, open_tx, updated_at)
                SELECT ${t.id}, ${t.account}, 1, 'BTCUSDT', 1, 4, 20000, 1000000, 2, 10, 2, 5000000, 5000000, 100000000, 50000, t.id, ${now} FROM json_each(?1) j JOIN ledger_transactions t ON t.idempotency_key = 'bare-${tag}-' || j.value`).bind(json),
    db.prepare(`INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount) SELECT t.id, 6, b.value, 0 FROM json_each(?1) j JOIN ledger_transactions t ON t.idempotency_key = 'bare-${tag}-' || j.value CROSS JOIN json_each('[0,1,0]') b`).bind(json),
  ]);
  const bareMs = performance.now() - bareStarted;
  const copies = await db.prepare("SELECT COUNT(*) AS n FROM contract_orders WHERE origin_id = ?1").bind(id).first();
  return { n: N, copies: copies.n, openMs, closeMs, openBatchMs: openBatch?.ms ?? NaN, closeBatchMs: closeBatch?.ms ?? NaN, bareMs };
}

async function copyTrading(worker) {
  const out = [];
  for (const n of [1_000, Number(process.env.BENCH_FOLLOWERS ?? 10_000)]) out.push(await copyFollowers(worker, n));
  return out;
}

export { settleStops, orderThroughput, settleExpiries, copyTrading };

export async function tradingBench() {
  const engine = await engineTicks();
  const worker = await startWorker();
  try {
    const throughput = await orderThroughput(worker);
    const stops = await settleStops(worker);
    const expiries = await settleExpiries(worker);
    const copies = await copyTrading(worker);
    return { throughput, engine, stops, expiries, copies };
  } finally {
    await worker.mf.dispose();
  }
}

export function printTrading({ throughput, engine, stops, expiries, copies }) {
  console.log("\nContract orders end to end (HTTP → Worker → D1 + market room), vs a bare one-batch D1 write of the same shape:");
  for (const r of throughput) {
    const o = r.orders;
    const b = r.bare;
    console.log(
      `  concurrency ${String(r.concurrency).padStart(2)}: orders ${o.perSecond.toFixed(0).padStart(4)}/s p50 ${o.p50.toFixed(1)} ms p99 ${o.p99.toFixed(1)} ms (failed ${o.failures}) | bare ${b.perSecond.toFixed(0).padStart(4)}/s p50 ${b.p50.toFixed(1)} ms p99 ${b.p99.toFixed(1)} ms | ${(100 * o.perSecond / b.perSecond).toFixed(0)}% of bare throughput, p99 ${(o.p99 / b.p99).toFixed(2)}× bare`,
    );
  }
  console.log(`Engine tick (no trigger reached, 50 watching users): 100 open orders ${engine[100].toFixed(0)} µs, 100,000 open orders ${engine[100000].toFixed(0)} µs — ratio ${(engine[100000] / engine[100]).toFixed(2)}`);
  console.log(`Settling stop-losses reached by one tick: ${stops.closed} positions closed (of ${stops.indexed} open), batch ${stops.ms} ms (one set-based D1 batch)`);
  const inv = expiries.invariants;
  for (const c of copies ?? []) {
    console.log(
      `Copy trading, one trader order to ${c.n} followers: ${c.copies} copies open ${c.openMs.toFixed(0)} ms after the trader's order (batch ${c.openBatchMs} ms), closed ${c.closeMs.toFixed(0)} ms after the trader's close (batch ${c.closeBatchMs} ms), target ≤ 1,000 ms; a bare set-based batch of the same size ${c.bareMs.toFixed(0)} ms`,
    );
  }
  console.log(`Options expiring in the same second: ${expiries.n} settled ${expiries.fromExpiryMs} ms after their expiry (settlement batch ${expiries.batchMs} ms); ledger: ${inv.unbalanced} unbalanced transactions, ${inv.drifting} drifting accounts, ${inv.negative} negative user accounts`);
}
