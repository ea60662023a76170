// The order path (issue 20 §7): market orders through the API (HTTP → the Worker: session,
// instrument, the market room's price, checks, the ledger batch, the answer) against the bare
// write, the same batch built by the same function (services/contract/engine.server's openOrderWrite) posted by
// /dev/bench/batch with nothing around it. Per run: ORDER_USERS fresh registered users with a live
// session and a funded contract account, created in bulk beforehand, so each user's first order of
// the run is its first request (cold session and account caches); the run alternates blocks of
// orders and bare writes (pairs), ORDER_SAMPLES of each; the ratios are computed per run.
import { createHash } from "node:crypto";
import { FULL, figure, percentile } from "./figures.mjs";
import { bulkUsers, creditUsers, holdPrice, startWorker } from "./worker.mjs";

const USERS = Number(process.env.ORDER_USERS ?? 1_000);
const SAMPLES = Number(process.env.ORDER_SAMPLES ?? 2_000);
const RUNS = Number(process.env.ORDER_RUNS ?? 5);
const PAIRS = Number(process.env.ORDER_PAIRS ?? 10);
const C1_SAMPLES = Number(process.env.ORDER_C1_SAMPLES ?? (FULL ? 1_000 : 400));

/** `total` calls of `fn(i)` with `concurrency` in flight: seconds and every latency. */
async function block(from, total, concurrency, fn) {
  const latencies = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const i = next++;
        if (i >= total) return;
        const t = performance.now();
        if (!(await fn(from + i))) failures += 1;
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, latencies, failures };
}

let generation = 0;
/** One run at `concurrency`: fresh users, then `samples` orders and `samples` bare writes in alternating blocks. */
async function run(worker, concurrency, samples, users, pairs) {
  const { db, origin } = worker;
  const tag = `ord${process.pid}g${generation++}`;
  const list = await bulkUsers(db, tag, users, { sessions: true });
  await creditUsers(db, list[0].id, list.at(-1).id, "contract", 100_000_000_000); // 100,000 USD each
  for (const u of list) u.session = createHash("sha256").update(u.token).digest("hex");
  const price = worker.btcSteps;
  const order = async (i) => {
    const u = list[i % list.length];
    const res = await fetch(`${origin}/v2/api/forex/submit?type=1&cont=0.01&forex_id=1&status=1&multiple=10`, {
      headers: { authorization: u.token },
    });
    const body = await res.json();
    return body.code === 1;
  };
  const bare = async (i) => {
    const u = list[i % list.length];
    const res = await fetch(
      `${origin}/dev/bench/batch?user=${u.id}&account=${u.contract}&session=${u.session}&demo=0&instrument=1&lots=10000&leverage=10&price=${price}`,
      { method: "POST" },
    );
    const body = await res.json();
    return res.ok && body.ok === true;
  };
  const per = Math.ceil(samples / pairs);
  const o = [];
  const b = [];
  for (let p = 0; p < pairs; p++) {
    o.push(await block(p * per, per, concurrency, order));
    b.push(await block(p * per, per, concurrency, bare));
  }
  const sum = (parts) => ({
    perSecond: parts.reduce((s, x) => s + x.latencies.length, 0) / parts.reduce((s, x) => s + x.seconds, 0),
    latencies: parts.flatMap((x) => x.latencies),
    failures: parts.reduce((s, x) => s + x.failures, 0),
  });
  const orders = sum(o);
  const bares = sum(b);
  return {
    orders: {
      perSecond: orders.perSecond,
      p50: percentile(orders.latencies, 50),
      p99: percentile(orders.latencies, 99),
      failures: orders.failures,
      n: orders.latencies.length,
    },
    bare: {
      perSecond: bares.perSecond,
      p50: percentile(bares.latencies, 50),
      p99: percentile(bares.latencies, 99),
      failures: bares.failures,
      n: bares.latencies.length,
    },
    throughputRatio: orders.failures || bares.failures ? NaN : orders.perSecond / bares.perSecond,
    p99Ratio: orders.failures || bares.failures ? NaN : percentile(orders.latencies, 99) / percentile(bares.latencies, 99),
  };
}

export async function orderFigures() {
  const worker = await startWorker();
  try {
    await holdPrice(worker, "BTCUSDT", 50000);
    const { precision } = await worker.db.prepare("SELECT price_precision AS precision FROM instruments WHERE id = 1").first();
    worker.btcSteps = 50000 * 10 ** precision;
    const c10 = [];
    for (let r = 0; r < RUNS; r++) c10.push(await run(worker, 10, SAMPLES, USERS, PAIRS));
    const c1 = [await run(worker, 1, C1_SAMPLES, Math.min(USERS, C1_SAMPLES), Math.max(2, Math.round(PAIRS / 2)))];
    printOrders({ c10, c1 });
    const covers = `market orders via /v2/api/forex/submit, ${USERS} fresh users per run (cold caches), ${SAMPLES} orders + ${SAMPLES} bare writes per run in ${PAIRS} alternating pairs, concurrency 10, ${RUNS} runs; bare = openOrderWrite posted alone`;
    return [
      figure(
        "order_throughput_ratio_c10",
        "orders ÷ bare write, concurrency 10",
        c10.map((r) => r.throughputRatio),
        { target: "≥ 0.8", covers },
      ),
      figure(
        "order_p99_ratio_c10",
        "p99 ÷ bare write's p99",
        c10.map((r) => r.p99Ratio),
        { target: "≤ 1.5", covers },
      ),
    ];
  } finally {
    await worker.dispose();
  }
}

function printOrders({ c10, c1 }) {
  console.log("\nOrder path: market orders through the API vs the bare write (the same batch by the same function), fresh users each run:");
  console.log("  conc run | orders/s  p50 ms  p99 ms fail |  bare/s  p50 ms  p99 ms fail | throughput ratio | p99 ratio");
  const line = (c, i, r) =>
    console.log(
      `  ${String(c).padStart(4)} ${String(i + 1).padStart(3)} | ${r.orders.perSecond.toFixed(0).padStart(8)} ${r.orders.p50.toFixed(1).padStart(7)} ${r.orders.p99.toFixed(1).padStart(7)} ${String(r.orders.failures).padStart(4)} | ${r.bare.perSecond.toFixed(0).padStart(7)} ${r.bare.p50.toFixed(1).padStart(7)} ${r.bare.p99.toFixed(1).padStart(7)} ${String(r.bare.failures).padStart(4)} | ${r.throughputRatio.toFixed(2).padStart(16)} | ${r.p99Ratio.toFixed(2).padStart(9)}`,
    );
  c10.forEach((r, i) => line(10, i, r));
  c1.forEach((r, i) => line(1, i, r));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printFigures } = await import("./figures.mjs");
  printFigures(await orderFigures());
}
