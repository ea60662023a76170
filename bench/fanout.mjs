// Fan-out benchmark: N WebSocket clients subscribed to DAY_MARKET through /v2/ws on the Worker's
// own workerd socket (Miniflare API, no wrangler proxy), side by side with a minimal broadcast
// server written directly on `ws` (the baseline), measured by the same client in the same run.
// Reports tick-to-receive latency p50/p99, spread (first to last client for one tick),
// messages/s, failures and workerd CPU and memory. Median of 3 runs per size.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { WebSocket, WebSocketServer } from "ws";

const SIZES = (process.env.FANOUT_SIZES ?? "1000,2000,5000").split(",").map(Number);
const RUNS = Number(process.env.FANOUT_RUNS ?? 3);
const TICKS = Number(process.env.FANOUT_TICKS ?? 8);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};

function workerdPids() {
  try {
    return execFileSync("pgrep", ["-f", "workerd serve"]).toString().trim().split("\n").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
function cpuMs(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}
function rssMb(pid) {
  try {
    const m = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/);
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Connects n clients, subscribes, collects receive times per tick for `ticks` ticks. */
async function measure(url, n, subscribe) {
  const sockets = [];
  let failures = 0;
  const received = new Map(); // tick time -> receive times
  let messages = 0;
  await new Promise((resolve) => {
    let pending = n;
    const done = () => --pending === 0 && resolve();
    for (let i = 0; i < n; i++) {
      const ws = new WebSocket(url, { perMessageDeflate: false });
      ws.on("open", () => {
        if (subscribe) ws.send(JSON.stringify({ type: "sub", topic: "DAY_MARKET" }));
        done();
      });
      ws.on("error", () => {
        failures += 1;
        done();
      });
      ws.on("message", (data) => {
        const now = Date.now();
        const text = data.toString();
        const m = /"time":(\d+)/.exec(text);
        if (!m) return;
        messages += 1;
        const t = Number(m[1]);
        let list = received.get(t);
        if (!list) received.set(t, (list = []));
        list.push(now);
      });
      sockets.push(ws);
    }
  });
  // Skip the first two ticks (subscriptions still settling), then measure `TICKS` ticks.
  const start = Date.now();
  await new Promise((r) => setTimeout(r, (TICKS + 3) * 1000));
  const elapsed = (Date.now() - start) / 1000;
  const ticks = [...received.keys()].sort((a, b) => a - b).slice(2, 2 + TICKS);
  const latencies = [];
  const spreads = [];
  let missing = 0;
  for (const t of ticks) {
    const times = received.get(t);
    missing += Math.max(0, n - failures - times.length);
    for (const r of times) latencies.push(r - t);
    spreads.push(Math.max(...times) - Math.min(...times));
  }
  for (const ws of sockets) ws.terminate();
  return { p50: pct(latencies, 50), p99: pct(latencies, 99), spread: median(spreads), msgsPerSec: messages / elapsed, failures, missing, ticks: ticks.length };
}

function baselineServer(payloadFor) {
  const wss = new WebSocketServer({ port: 0, host: "127.0.0.1", perMessageDeflate: false });
  const timer = setInterval(() => {
    const frame = payloadFor(Date.now());
    for (const c of wss.clients) c.send(frame);
  }, 1000);
  return new Promise((resolve) => wss.once("listening", () => resolve({ url: `ws://127.0.0.1:${wss.address().port}`, close: () => { clearInterval(timer); wss.close(); } })));
}

export { startWorker } from "./worker.mjs";
import { startWorker } from "./worker.mjs";

export async function fanout() {
  const worker = await startWorker();
  const sample = await (await worker.mf.dispatchFetch(worker.ws.replace("ws", "http").replace("/v2/ws", "/v2/api/forex/trade_list"))).json();
  const quotes = sample.data.map((i) => ({ Id: i.Id, ShowCode: i.ShowCode, ...i.ForexQuotations, MarketStatus: i.MarketStatus }));
  const baseline = await baselineServer((time) => JSON.stringify({ type: "DAY_MARKET", data: quotes.map((q) => ({ ...q, time })) }));
  const rows = [];
  for (const n of SIZES) {
    const results = { bourse: [], baseline: [] };
    let cpu = 0;
    let rss = 0;
    for (let r = 0; r < RUNS; r++) {
      const pids = workerdPids();
      const cpu0 = pids.reduce((s, p) => s + cpuMs(p), 0);
      const t0 = Date.now();
      results.bourse.push(await measure(worker.ws, n, true));
      const wall = Date.now() - t0;
      cpu = Math.max(cpu, (pids.reduce((s, p) => s + cpuMs(p), 0) - cpu0) / wall);
      rss = Math.max(rss, pids.reduce((s, p) => s + rssMb(p), 0));
      results.baseline.push(await measure(baseline.url, n, false));
      await new Promise((res) => setTimeout(res, 1500));
    }
    const pick = (list, key) => median(list.map((x) => x[key]));
    rows.push({
      clients: n,
      bourse: { p50: pick(results.bourse, "p50"), p99: pick(results.bourse, "p99"), spread: pick(results.bourse, "spread"), msgs: pick(results.bourse, "msgsPerSec"), failures: Math.max(...results.bourse.map((x) => x.failures)), missing: Math.max(...results.bourse.map((x) => x.missing)) },
      baseline: { p50: pick(results.baseline, "p50"), p99: pick(results.baseline, "p99"), spread: pick(results.baseline, "spread"), msgs: pick(results.baseline, "msgsPerSec"), failures: Math.max(...results.baseline.map((x) => x.failures)), missing: Math.max(...results.baseline.map((x) => x.missing)) },
      workerdCpu: cpu,
      workerdRssMb: rss,
    });
  }
  baseline.close();
  await worker.mf.dispose();
  return rows;
}

export function printFanout(rows) {
  console.log("\nFan-out: DAY_MARKET to N sockets through /v2/ws (workerd via Miniflare) vs a bare `ws` broadcast server; median of", RUNS, "runs");
  console.log("clients | bourse p50/p99 ms | spread ms | msg/s  | fail/miss | baseline p50/p99 ms | spread ms | p99 ratio | workerd CPU | workerd RSS");
  for (const r of rows) {
    const b = r.bourse;
    const s = r.baseline;
    console.log(
      `${String(r.clients).padStart(7)} | ${`${b.p50.toFixed(0)}/${b.p99.toFixed(0)}`.padStart(17)} | ${b.spread.toFixed(0).padStart(9)} | ${b.msgs.toFixed(0).padStart(6)} | ${`${b.failures}/${b.missing}`.padStart(9)} | ${`${s.p50.toFixed(0)}/${s.p99.toFixed(0)}`.padStart(19)} | ${s.spread.toFixed(0).padStart(9)} | ${(b.p99 / s.p99).toFixed(2).padStart(8)}x | ${(r.workerdCpu * 100).toFixed(0).padStart(9)}% | ${r.workerdRssMb.toFixed(0).padStart(8)} MB`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printFanout(await fanout());
}
