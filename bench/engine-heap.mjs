// The largest engine shard's heap (issue 20 §7, `engine_max_object_mb_1m`): open orders written to
// local D1 as placeOrder writes them (half on BTCUSDT, the rest over the other instruments, ~20 a
// user), the shards of the plan in wrangler.toml counted, and the largest one loaded ALONE in a
// worker of its own ("engine-heap", the same build; bench/worker.mjs), whose isolate's heap is
// read over the inspector (Runtime.getHeapUsage, the lowest of 5 readings a second apart) before
// and after it loads. Inside workerd process.memoryUsage() reads zero, and objects of one worker share
// a heap: the figure is the whole isolate's used heap with that one shard loaded (its baseline,
// the Worker's modules, included). 1,000,000 open orders under BENCH_SCALE=full; HEAP_ORDERS sets
// the size otherwise (default 100,000, the 1m figure then null).
import { mkdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { build } from "esbuild";
import { WebSocket } from "ws";
import { root } from "../scripts/lib.mjs";
import { FULL, SCALE_REASON, figure, skipped, sleep } from "./figures.mjs";
import { domain, instruments, openPositions } from "./engine.mjs";
import { startWorker } from "./worker.mjs";

const ORDERS = Number(process.env.HEAP_ORDERS ?? (FULL ? 1_000_000 : 100_000));

async function shardsModule() {
  const outdir = path.join(root, ".wrangler", "bench-domain");
  mkdirSync(outdir, { recursive: true });
  const outfile = path.join(outdir, "engine-shards.mjs");
  await build({
    entryPoints: [path.join(root, "app", "domain", "engine-shards.ts")],
    bundle: true,
    format: "esm",
    platform: "node",
    outfile,
    logLevel: "silent",
  });
  return import(outfile);
}

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** The inspector session of one worker's isolate. */
async function inspector(port, worker) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
  const target =
    targets.find((t) => String(t.id ?? t.title).includes(worker)) ?? targets.find((t) => String(t.webSocketDebuggerUrl).includes(worker));
  if (!target) throw new Error(`no inspector target for ${worker}: ${targets.map((t) => t.id ?? t.title).join(", ")}`);
  const ws = new WebSocket(target.webSocketDebuggerUrl ?? `ws://127.0.0.1:${port}/${target.id}`);
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  let next = 1;
  const waiting = new Map();
  ws.on("message", (data) => {
    const msg = JSON.parse(String(data));
    if (msg.id && waiting.has(msg.id)) {
      waiting.get(msg.id)(msg);
      waiting.delete(msg.id);
    }
  });
  const call = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, (msg) => (msg.error ? reject(new Error(`${method}: ${msg.error.message}`)) : resolve(msg.result)));
      ws.send(JSON.stringify({ id, method, params }));
    });
  await call("HeapProfiler.enable");
  return {
    /**
     * Used heap (MB): the lowest of 5 readings a second apart, after asking for a collection
     * (workerd's inspector does not answer HeapProfiler.collectGarbage; V8 collects while idle, so
     * the lowest reading is the closest to the live heap, and never below it).
     */
    async usedMb() {
      await Promise.race([call("HeapProfiler.collectGarbage"), sleep(2_000)]);
      let low = Infinity;
      for (let i = 0; i < 5; i++) {
        const { usedSize } = await call("Runtime.getHeapUsage");
        low = Math.min(low, usedSize);
        await sleep(1_000);
      }
      return low / 1024 / 1024;
    },
    close: () => ws.close(),
  };
}

export async function heapFigures() {
  const d = await domain();
  const plans = await shardsModule();
  const inspectorPort = await freePort();
  // the market room stays asleep: the main worker's shards never index the fixture, and the
  // measured shard loads it itself from D1 in the engine-heap worker
  const worker = await startWorker({ heapWorker: true, inspectorPort, warm: false });
  let row;
  try {
    const insts = await instruments(worker, d, { hold: false });
    const step = (what) => console.log(`  [heap] ${what}`);
    step("instruments held");
    await openPositions(worker, d, insts, `heap${process.pid}`, ORDERS);
    step("positions written");
    const { results: active } = await worker.db.prepare("SELECT code FROM instruments WHERE status = 1").all();
    const codes = active.map((r) => r.code);
    const plan = plans.assign(plans.parsePlan(declared("ENGINE_SHARDS"), declared("ENGINE_SPLIT")), codes);
    const { results } = await worker.db
      .prepare("SELECT code, user_id AS userId, COUNT(*) AS n FROM contract_orders WHERE status IN (0, 1) GROUP BY code, user_id")
      .all();
    const counts = new Map();
    for (const r of results) {
      const name = plans.shardName(plan, r.code, r.userId);
      counts.set(name, (counts.get(name) ?? 0) + r.n);
    }
    const specs = plans.shardsFor(plan, codes);
    const [largest, orders] = [...counts].sort((a, b) => b[1] - a[1])[0];
    const spec = specs.find((s) => s.name === largest);
    step(`largest ${largest}`);
    const session = await inspector(inspectorPort, "engine-heap");
    step("inspector");
    // the isolate's modules are loaded by a first call to another shard (empty: it holds nothing)
    const ns = await worker.mf.getDurableObjectNamespace("ENGINE_SHARD", "engine-heap");
    await ns.get(ns.idFromName("heap-baseline")).wake({ name: "heap-baseline", codes: [] });
    const baseline = await session.usedMb();
    const started = Date.now();
    const status = await ns.get(ns.idFromName(spec.name)).wake(spec);
    const loadMs = Date.now() - started;
    const loaded = await session.usedMb();
    session.close();
    row = { orders: ORDERS, shards: specs.length, largest, held: orders, pending: status.pending, baseline, loaded, loadMs };
    console.log(
      `  ${ORDERS.toLocaleString("en-US")} open orders over ${specs.length} shards; the largest, ${largest}, holds ${orders.toLocaleString("en-US")} (${status.pending.toLocaleString("en-US")} loaded in ${loadMs} ms): isolate heap ${baseline.toFixed(1)} MB before, ${loaded.toFixed(1)} MB with it loaded (${(((loaded - baseline) * 1024 * 1024) / Math.max(1, status.pending)).toFixed(0)} bytes an order)`,
    );
  } finally {
    await worker.dispose();
  }
  const covers = `the largest engine shard loaded alone in its own worker's isolate, ${row.orders.toLocaleString("en-US")} open orders (half on BTCUSDT) over the plan's ${row.shards} shards; used heap (lowest of 5 readings), the isolate's baseline (${row.baseline.toFixed(1)} MB) included`;
  if (row.orders < 1_000_000)
    return [
      skipped("engine_max_object_mb_1m", "MB", FULL ? "HEAP_ORDERS below 1,000,000" : SCALE_REASON, {
        target: "≤ 64",
        covers,
        measured: { orders: row.orders, mb: row.loaded },
      }),
    ];
  return [figure("engine_max_object_mb_1m", "MB", [row.loaded], { target: "≤ 64", covers })];
}

/** A [vars] value of wrangler.toml (the plan the deployment runs). */
function declared(name) {
  const m = new RegExp(`^${name}\\s*=\\s*"([^"]*)"`, "m").exec(readFileSync(path.join(root, "wrangler.toml"), "utf8"));
  return m ? m[1] : undefined;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await heapFigures();
  console.log(JSON.stringify(figures, null, 2));
}
