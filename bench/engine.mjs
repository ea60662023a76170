// The engine on workerd (issue 20 §7), through the real market room and local D1:
//   - the tick at 100, 100,000 and 1,000,000 open orders (half on BTCUSDT, the rest over the other
//     instruments, ~20 orders a user, realistic levels: stops and targets 6-10 % away, margins,
//     fees and liquidation prices from the domain's orderFigures), with a fixed flow written to D1
//     before each tick as the services write the rows (50 new orders, 50 with new stops, 50
//     closed), timed from the room's tickNow() call to its return (inside the Worker:
//     POST /dev/engine/tick), the 100-order case warmed first;
//   - 5,000 stop-losses of 5,000 users reached by one price move with 100,000 other orders open:
//     from the move until all 5,000 are closed in D1; and the longest synchronous slice meanwhile,
//     from a no-op call to the room every 5 ms (worst latency minus the idle median).
import path from "node:path";
import { mkdirSync } from "node:fs";
import { build } from "esbuild";
import { root } from "../scripts/lib.mjs";
import { FULL, SCALE_REASON, figure, median, skipped, sleep } from "./figures.mjs";
import { bulkUsers, creditUsers, dev, holdPrice, marketRoom, postEntries, startWorker, until } from "./worker.mjs";

const TICKS = Number(process.env.TICK_RUNS ?? 15);
const SIZES = (process.env.TICK_SIZES ?? (FULL ? "100,100000,1000000" : "100,100000")).split(",").map(Number);
const STOPS = Number(process.env.BENCH_STOPS ?? 5_000);
const OTHERS = Number(process.env.BENCH_STOPS_OTHERS ?? 100_000);
/** Rows the D1-alone statement generates (a few hundred ms of SQLite on the 2-core machine). */
const D1_FLOOR_ROWS = Number(process.env.BENCH_D1_FLOOR_ROWS ?? 300_000);
const CASCADES = Number(process.env.BENCH_CASCADES ?? 3);
const ORDERS_PER_USER = 20;

/** The domain (app/domain/contract.ts) bundled for Node: the formulas the services use. */
export async function domain() {
  const outdir = path.join(root, ".wrangler", "bench-domain");
  mkdirSync(outdir, { recursive: true });
  const outfile = path.join(outdir, "contract.mjs");
  await build({
    entryPoints: [path.join(root, "app", "domain", "contract.ts")],
    bundle: true,
    format: "esm",
    platform: "node",
    outfile,
    alias: { "~": path.join(root, "app") },
    logLevel: "silent",
  });
  return import(outfile);
}

/** The instruments with their terms (as termsOf builds them) and a held price each. */
export async function instruments(worker, d, { hold = true } = {}) {
  const { results } = await worker.db
    .prepare(
      "SELECT id, code, price_precision AS precision, contract_size AS contractSize, fee_rate AS feeRate, margin_mode AS marginMode, multiples, base_price AS base FROM instruments WHERE status = 1 ORDER BY id",
    )
    .all();
  const { mode } = await worker.db.prepare("SELECT trade_fee_type AS mode FROM base_settings WHERE company_id = 1").first();
  const out = [];
  for (const r of results) {
    const contractSize = d.toScaled6(r.contractSize);
    if (!contractSize) continue;
    const multiples = JSON.parse(r.multiples || "[]")
      .map(Number)
      .filter((m) => m > 0)
      .sort((a, b) => a - b);
    if (r.marginMode !== 1 && multiples.length === 0) continue;
    const price = Math.round(Number(r.base) * 10 ** r.precision);
    if (hold) await holdPrice(worker, r.code, price / 10 ** r.precision);
    out.push({
      ...r,
      price,
      multiples,
      terms: { marginMode: r.marginMode, contractSize, pricePrecision: r.precision, feeRate: r.feeRate, feeMode: mode },
    });
  }
  return out;
}

const COLUMNS =
  "user_id, account_id, instrument_id, code, side, status, lots, contract_size, precision, leverage, margin_mode, origin_price, open_price, pending_crossing, margin, fee, stop_loss, take_profit, liquidation, open_tx, filled_at, updated_at";
const LOTS = [10_000, 50_000, 100_000, 1_000_000];

/** One open position as placeOrder writes it (market order, holding), its figures from the domain. */
function positionRow(d, inst, user, k, tag, now, { side = 1 + (k % 2), price, leverage, stopLoss, takeProfit, lots = LOTS[k % 4] } = {}) {
  const open = price ?? Math.round(inst.price * (1 + (((k * 7919) % 101) - 50) / 10_000));
  const lev = inst.marginMode === 1 ? 0 : (leverage ?? inst.multiples.filter((m) => m <= 10).at(-1) ?? inst.multiples[0]);
  const f = d.orderFigures(inst.terms, side, lots, open, lev);
  const away = (pct) => Math.round(open * (side === 1 ? 1 - pct : 1 + pct));
  const sl = stopLoss ?? (k % 3 === 0 ? 0 : away(0.06 + (k % 5) / 100));
  const tp = takeProfit ?? (k % 4 === 0 ? 0 : Math.round(open * (side === 1 ? 1.06 + (k % 5) / 100 : 0.94 - (k % 5) / 100)));
  return `(${user.id}, ${user.contract}, ${inst.id}, '${inst.code}', ${side}, 1, ${lots}, ${inst.terms.contractSize}, ${inst.precision}, ${lev}, ${inst.marginMode}, ${open}, ${open}, 0, ${f.margin}, ${f.fee}, ${sl}, ${tp}, ${f.liquidation ?? 0}, '${tag}-${k}', ${now}, ${now})`;
}

/** Inserts rows in multi-row INSERTs (300 a statement, 10 statements a batch). */
async function insertRows(db, rows) {
  const statements = [];
  for (let i = 0; i < rows.length; i += 300)
    statements.push(`INSERT INTO contract_orders (${COLUMNS}) VALUES ${rows.slice(i, i + 300).join(",")}`);
  for (let i = 0; i < statements.length; i += 10) await db.batch(statements.slice(i, i + 10).map((s) => db.prepare(s)));
}

/** Margins of the tagged orders moved into their accounts' locked balances (the ledger as placeOrder leaves it). */
const lockMargins = (db, tag) =>
  postEntries(db, "SELECT account_id, 1, SUM(margin) FROM contract_orders WHERE open_tx LIKE ?1 || '-%' GROUP BY account_id", [tag]);

/**
 * `n` open positions over n / 20 users (half on the first instrument, BTCUSDT), users created in
 * bulk with money for the margins. `skip` instruments (by code) are left out.
 */
export async function openPositions(worker, d, insts, tag, n, { skip = [] } = {}) {
  const users = await bulkUsers(worker.db, tag, Math.max(1, Math.ceil(n / ORDERS_PER_USER)));
  await creditUsers(worker.db, users[0].id, users.at(-1).id, "contract", 10_000_000_000);
  const hot = insts[0];
  const rest = insts.slice(1).filter((i) => !skip.includes(i.code));
  const now = Date.now();
  for (let from = 0; from < n; from += 30_000) {
    const rows = [];
    for (let k = from; k < Math.min(n, from + 30_000); k++)
      // orders alternate hot / other and users take them in pairs, so every user holds both
      rows.push(positionRow(d, k % 2 === 0 ? hot : rest[(k >> 1) % rest.length], users[(k >> 1) % users.length], k, tag, now));
    await insertRows(worker.db, rows);
  }
  await lockMargins(worker.db, tag);
  return users;
}

/** One tick's flow written as the services write the rows: 50 placed, 50 with new stops, 50 closed. */
function flow(d, insts, users, ids, t) {
  const now = Date.now();
  const tag = `flow${process.pid}t${t}`;
  const rows = Array.from({ length: 50 }, (_, j) =>
    positionRow(d, insts[j % insts.length], users[(t * 50 + j) % users.length], j, tag, now),
  );
  const changed = ids.slice((t * 100) % ids.length, ((t * 100) % ids.length) + 50);
  const closed = ids.slice(((t * 100) % ids.length) + 50, ((t * 100) % ids.length) + 100);
  return { rows, changed, closed, now };
}

async function writeFlow(db, f) {
  await db.batch([
    db.prepare(`INSERT INTO contract_orders (${COLUMNS}) VALUES ${f.rows.join(",")}`),
    // setStops: the new levels and updated_at
    db
      .prepare(
        `UPDATE contract_orders SET stop_loss = CASE WHEN side = 1 THEN CAST(open_price * 0.93 AS INTEGER) ELSE CAST(open_price * 1.07 AS INTEGER) END, updated_at = ?1 WHERE id IN (${f.changed.join(",")}) AND status = 1`,
      )
      .bind(f.now),
    // closeOrder's closeEffect: status 3, the close price, the realised profit, the reason, the times
    db
      .prepare(
        `UPDATE contract_orders SET status = 3, close_price = open_price, profit = 0, close_reason = 'manual', closed_at = ?1, updated_at = ?1 WHERE id IN (${f.closed.join(",")}) AND status = 1`,
      )
      .bind(f.now),
  ]);
}

/** Median tick (ms) over `ticks` ticks with the flow; `warm` ticks first, not counted. */
async function tickRuns(worker, d, insts, users, ids, ticks, warm, seq) {
  const out = [];
  let last = 50;
  for (let t = 0; t < warm + ticks; t++) {
    const hot = insts[0];
    await holdPrice(worker, hot.code, (hot.price + (t % 2 ? 10 ** hot.precision * 5 : 0)) / 10 ** hot.precision);
    // The room's alarm ticks on each whole second: start after it has finished (the last tick's
    // length later), so the flow is read by the timed tick and the timed tick waits for no other.
    const offset = Math.min(800, 100 + 1.5 * last);
    await sleep((offset - (Date.now() % 1000) + 1000) % 1000);
    const f = flow(d, insts, users, ids, seq.n++);
    await writeFlow(worker.db, f);
    const { ms } = await dev(worker, "/dev/engine/tick", {});
    last = ms;
    if (t >= warm) out.push(ms);
  }
  return out;
}

export async function tickFigures() {
  const d = await domain();
  const worker = await startWorker();
  const rows = [];
  try {
    const insts = await instruments(worker, d);
    const seq = { n: 0 };
    let open = 0;
    const users = await bulkUsers(worker.db, `flowu${process.pid}`, 500);
    await creditUsers(worker.db, users[0].id, users.at(-1).id, "contract", 10_000_000_000);
    for (const size of SIZES) {
      await openPositions(worker, d, insts, `tick${process.pid}s${size}`, size - open);
      open = size;
      const { pending } = await dev(worker, "/dev/engine/reconcile", {});
      const { results } = await worker.db
        .prepare("SELECT id FROM contract_orders WHERE status = 1 AND open_tx LIKE 'tick%' ORDER BY id DESC LIMIT 20000")
        .all();
      const ids = results.map((r) => r.id);
      const runs = await tickRuns(worker, d, insts, users, ids, TICKS, size === SIZES[0] ? 10 : 3, seq);
      rows.push({ size, pending, runs });
      console.log(
        `  tick at ${size.toLocaleString("en-US")} open (${pending} indexed): median ${median(runs).toFixed(1)} ms, max ${Math.max(...runs).toFixed(1)} ms over ${runs.length} ticks`,
      );
    }
  } finally {
    await worker.dispose();
  }
  const covers = (n) =>
    `one tick via tickNow (inside the Worker) at ${n} open orders (half on BTCUSDT), 50 new + 50 changed + 50 closed rows written before each tick, median of ${TICKS} ticks`;
  const by = (n) => rows.find((r) => r.size === n);
  const fig = (id, n, target) =>
    by(n)
      ? figure(id, "ms per tick", by(n).runs, { target, covers: covers(n.toLocaleString("en-US")) })
      : skipped(id, "ms per tick", n === 1_000_000 && !FULL ? SCALE_REASON : "size not in TICK_SIZES", {
          target,
          covers: covers(n.toLocaleString("en-US")),
        });
  return [fig("tick_ms_100", 100), fig("tick_ms_100k", 100_000), fig("tick_ms_1m", 1_000_000, "≤ 2 × tick_ms_100")];
}

/** Calls the room's no-op every 5 ms until stopped: every call's send time and latency. */
function pinger(worker) {
  const calls = [];
  let stopped = false;
  const timer = setInterval(() => {
    if (stopped) return;
    const at = performance.now();
    fetch(`${worker.origin}/dev/market/ping`)
      .then((r) => r.text())
      .then(() => calls.push({ at, ms: performance.now() - at, failed: false }))
      // a call that failed waited at least this long: counted as such, and reported
      .catch(() => calls.push({ at, ms: performance.now() - at, failed: true }));
  }, 5);
  return {
    calls,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await sleep(200);
      return calls;
    },
  };
}

/**
 * The cascades and then the D1-alone statements on a worker of its own; `d1Process` puts D1 in a
 * workerd process of its own, as on Cloudflare (bench/d1-process.mjs).
 */
async function cascades(d, { d1Process = false } = {}) {
  const worker = await startWorker({ d1Process });
  const runs = [];
  const floors = [];
  try {
    const insts = await instruments(worker, d);
    const eth = insts.find((i) => i.code === "ETHUSDT");
    await openPositions(worker, d, insts, `other${process.pid}`, OTHERS);
    const leverage = eth.multiples.filter((m) => m <= 20).at(-1);
    for (let r = 0; r < CASCADES; r++) {
      await holdPrice(worker, "ETHUSDT", eth.price / 10 ** eth.precision);
      await dev(worker, "/dev/engine/tick", {});
      const tag = `stop${process.pid}r${r}`;
      const users = await bulkUsers(worker.db, tag, STOPS);
      await creditUsers(worker.db, users[0].id, users.at(-1).id, "contract", 10_000_000_000);
      const now = Date.now();
      const stopLoss = Math.round(eth.price * 0.98);
      const rows = users.map((u, k) =>
        positionRow(d, eth, u, k, tag, now, { side: 1, price: eth.price, leverage, stopLoss, takeProfit: 0 }),
      );
      await insertRows(worker.db, rows);
      await lockMargins(worker.db, tag);
      const liquidation = d.orderFigures(eth.terms, 1, LOTS[0], eth.price, leverage).liquidation;
      const { lo, hi } = await worker.db
        .prepare("SELECT MIN(id) AS lo, MAX(id) AS hi FROM contract_orders WHERE open_tx LIKE ?1 || '-%'")
        .bind(tag)
        .first();
      const { pending } = await dev(worker, "/dev/engine/reconcile", {});
      // idle: the no-op's latency with the room quiet (the reconcile's catch-up done, between ticks)
      await dev(worker, "/dev/engine/tick", {});
      await sleep(2_000);
      const idle = pinger(worker);
      await sleep(1_000);
      const idleCalls = await idle.stop();
      const idleMedian = median(idleCalls.map((c) => c.ms));
      const ping = pinger(worker);
      const moved = performance.now();
      const movedWall = Date.now();
      const move = Math.round(eth.price * 0.97);
      await holdPrice(worker, "ETHUSDT", move / 10 ** eth.precision);
      const tick = dev(worker, "/dev/engine/tick", {});
      // polled by primary key: a LIKE on open_tx cannot use its index and scanned every open order
      // each 20 ms, on the thread that local D1 shares with the rooms it measures
      const count = worker.db.prepare("SELECT COUNT(*) AS n FROM contract_orders WHERE id BETWEEN ?1 AND ?2 AND status = 1").bind(lo, hi);
      const done = await until(async () => (await count.first()).n === 0, { every: 20, timeoutMs: 60_000 });
      const doneWall = Date.now() - (performance.now() - done);
      await tick;
      // The price moves with a tick of the market's clock: the simulated market takes a held price
      // at its next whole second, up to a second after the request above. The cascade runs from
      // that tick (its time, in the room's clock, which is this machine's), as it runs from a
      // feed's tick in production; the wait for the clock is printed beside it.
      const { ticks } = await (await marketRoom(worker)).engineView();
      const movedTick = ticks.find(
        (t) => t.time >= movedWall - 1_000 && t.ranges.some((g) => g.code === "ETHUSDT" && g.low <= stopLoss / 10 ** eth.precision),
      );
      const calls = await ping.stop();
      const during = calls.filter((c) => c.at >= moved && c.at <= (Number.isNaN(done) ? Infinity : done));
      const worst = Math.max(...during.map((c) => c.ms));
      const closed = await worker.db
        .prepare("SELECT COUNT(*) AS n FROM contract_orders WHERE open_tx LIKE ?1 || '-%' AND status = 3 AND close_reason = 'stop_loss'")
        .bind(tag)
        .first();
      const run = {
        ms: movedTick ? doneWall - movedTick.time : NaN,
        fromRequest: done - moved,
        jsMax: worst - idleMedian,
        idleMedian,
        worst,
        pings: during.length,
        closed: closed.n,
        pending,
        liquidation,
        stopLoss,
        move,
      };
      runs.push(run);
      // each shard's settlement calls of this cascade (the D1 batches and what the service reads around them)
      const { timings = [] } = await fetch(`${worker.origin}/dev/engine`).then((x) => x.json());
      const settled = timings
        .slice(-4)
        .map((t) => `${t.shard ?? "room"} ${t.orders} in ${t.ms} ms`)
        .join(", ");
      console.log(
        `  cascade ${r + 1}: ${run.closed}/${STOPS} stop-losses closed ${run.ms.toFixed(0)} ms after the tick that moved the price (${run.fromRequest.toFixed(0)} ms after the request to move it) (ETH ${eth.price} → ${move} steps, stop ${stopLoss}, liquidation ${liquidation}; ${pending} open indexed); no-op every 5 ms: idle median ${idleMedian.toFixed(1)} ms, worst ${worst.toFixed(1)} ms over ${during.length} calls (${during.filter((c) => c.failed).length} failed); settlements: ${settled}`,
      );
    }
    // The floor D1 sets under that figure: one D1 statement and nothing else (no tick, no engine
    // work), the same no-op every 5 ms. Local D1 runs SQLite inside the workerd process that runs
    // the rooms, so a statement holds the room's thread for as long as it runs; D1 in a process of
    // its own should hold it for nothing.
    for (let r = 0; r < CASCADES; r++) {
      await sleep(1_000);
      const idle = pinger(worker);
      await sleep(1_000);
      const idleMedian = median((await idle.stop()).map((c) => c.ms));
      const ping = pinger(worker);
      await sleep(100);
      const from = performance.now();
      await worker.db
        .prepare("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?1) SELECT COUNT(*) AS n FROM c")
        .bind(D1_FLOOR_ROWS)
        .first();
      const to = performance.now();
      await sleep(100);
      const calls = await ping.stop();
      const worst = Math.max(...calls.filter((c) => c.at >= from && c.at <= to).map((c) => c.ms));
      floors.push({ statement: to - from, held: worst - idleMedian });
      console.log(
        `  D1 alone ${r + 1}: one ${(to - from).toFixed(0)} ms statement (a count over ${D1_FLOOR_ROWS.toLocaleString("en-US")} generated rows), rooms idle; no-op worst − idle median ${(worst - idleMedian).toFixed(1)} ms`,
      );
    }
  } finally {
    await worker.dispose();
  }
  return { runs, floors };
}

export async function stopFigures() {
  const d = await domain();
  console.log("  cascades, D1 inside the rooms' workerd process (local D1 as wrangler dev runs it):");
  const same = await cascades(d);
  console.log("  cascades, D1 in a workerd process of its own (as on Cloudflare, where D1 is another machine):");
  const apart = await cascades(d, { d1Process: true });
  const covers = `${STOPS} ETHUSDT longs of ${STOPS} users (stop 2 % below, liquidation from orderFigures) with ${OTHERS.toLocaleString("en-US")} other orders open over ${Math.ceil(OTHERS / ORDERS_PER_USER)} users; price held 3 % lower then one tick; median of ${CASCADES} cascades`;
  const statements = (floors) => floors.map((f) => f.statement.toFixed(0)).join(", ");
  return [
    figure(
      "stops_5000_with_100k_open_ms",
      "ms, price move → all closed in D1",
      apart.runs.map((r) => r.ms),
      {
        target: "≤ 1000",
        covers: `${covers}; from the market tick that carried the lower price (its time in the room) to the last position closed in D1; D1 in a workerd process of its own, as on Cloudflare`,
      },
    ),
    figure(
      "tick_js_max_ms",
      "ms, worst no-op latency − idle median during the cascade",
      apart.runs.map((r) => r.jsMax),
      {
        target: "≤ 50",
        covers: `a GET /dev/market/ping (the room's ping()) every 5 ms during those cascades: with D1 in a process of its own, only the Worker's own JavaScript can hold the room`,
      },
    ),
    figure(
      "stops_5000_from_request_ms",
      "ms, request to hold the price → all closed in D1",
      apart.runs.map((r) => r.fromRequest),
      {
        covers: `those cascades timed from the bench's request to hold the lower price: adds the wait for the simulated market's next whole second (0–1,000 ms), when it takes a held price`,
      },
    ),
    figure(
      "stops_5000_d1_same_process_ms",
      "ms, price move → all closed in D1",
      same.runs.map((r) => r.ms),
      {
        covers: `the same cascades with local D1 inside the rooms' workerd process (as wrangler dev runs it): D1's SQLite and the rooms share one thread`,
      },
    ),
    figure(
      "tick_js_max_d1_same_process_ms",
      "ms, worst no-op latency − idle median during the cascade",
      same.runs.map((r) => r.jsMax),
      { covers: `the same no-op during those cascades: every D1 statement holds the room's thread while it runs` },
    ),
    figure(
      "tick_d1_held_ms",
      "ms, worst no-op latency − idle median during one D1 statement alone",
      same.floors.map((f) => f.held),
      {
        covers: `the same no-op every 5 ms while one D1 statement runs with the rooms idle, local D1 in the rooms' process (statements of ${statements(same.floors)} ms): how much of a cascade's figure local D1 alone makes`,
      },
    ),
    figure(
      "tick_d1_held_d1_process_ms",
      "ms, worst no-op latency − idle median during one D1 statement alone",
      apart.floors.map((f) => f.held),
      { covers: `the same, D1 in a process of its own (statements of ${statements(apart.floors)} ms)` },
    ),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printFigures } = await import("./figures.mjs");
  const which = process.argv[2] ?? "all";
  const out = [];
  if (which !== "stops") out.push(...(await tickFigures()));
  if (which !== "ticks") out.push(...(await stopFigures()));
  printFigures(out);
}
