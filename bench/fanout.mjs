// Fan-out benchmark: N WebSocket clients subscribed to DAY_MARKET through /v2/ws on the Worker's
// own workerd socket (Miniflare API, no wrangler proxy; the production build of `wrangler deploy
// --dry-run`), side by side with a minimal broadcast server written directly on `ws` (the
// baseline), measured by the same client in the same run. The clients are spread as real ones
// are: half sign in (their upgrade carries the session, so they land on their user's shard, then
// log in), half stay anonymous (any shard). Reports tick-to-receive latency p50/p99, spread
// (first to last client for one tick), messages/s, failed and missed sockets, and workerd's CPU
// and resident memory (its own process, the child of this one). Median of 3 runs per size.
//
// `fanoutFigures()` gives issue 20's figures (5,000 and 20,000 sockets); running this file alone
// prints the table for FANOUT_SIZES (default 1000,2000,5000) and the figures.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { WebSocket, WebSocketServer } from "ws";

const SIZES = (process.env.FANOUT_SIZES ?? "1000,2000,5000").split(",").map(Number);
const RUNS = Number(process.env.FANOUT_RUNS ?? 3);
const TICKS = Number(process.env.FANOUT_TICKS ?? 8);
/** Share of the clients that sign in (the rest stay anonymous). */
const SIGNED_IN = Number(process.env.FANOUT_SIGNED_IN ?? 0.5);
/** Upgrades in flight at once (clients connect in waves, as a crowd does, not in one millisecond). */
const CONNECTING = Number(process.env.FANOUT_CONNECTING ?? 500);
/** When a size exceeds the open-file limit, measure the largest size that fits instead (FANOUT_FIT=1). */
const FIT = process.env.FANOUT_FIT === "1";
/** Open files wanted: each socket costs this process one (two with the baseline server) and workerd one. */
const NOFILE = 65_536;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};

/** Open-file limit of this process (soft). */
function openFileLimit(pid = process.pid) {
  const m = readFileSync(`/proc/${pid}/limits`, "utf8").match(/Max open files\s+(\d+|unlimited)/);
  return m ? (m[1] === "unlimited" ? Infinity : Number(m[1])) : NaN;
}

/**
 * Raises this process's open-file limit (workerd, started afterwards, inherits it). Node has no
 * setrlimit, so prlimit(1) does it; that needs the privilege to raise the hard limit. Answers the
 * limit in force.
 */
function raiseOpenFiles() {
  if (openFileLimit() >= NOFILE) return openFileLimit();
  try {
    execFileSync("prlimit", ["--pid", String(process.pid), `--nofile=${NOFILE}:${NOFILE}`], { stdio: "ignore" });
  } catch {
    try {
      execFileSync("prlimit", ["--pid", String(process.pid), `--nofile=${NOFILE}`], { stdio: "ignore" });
    } catch {
      // not allowed: the sizes that need more are reported as not run
    }
  }
  return openFileLimit();
}

/** The workerd processes started by this node process (Miniflare's child), never another user's. */
function workerdPids() {
  const children = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const ppid = Number(stat.slice(close + 2).split(" ")[1]);
      const list = children.get(ppid) ?? [];
      list.push({ pid: Number(entry), comm });
      children.set(ppid, list);
    } catch {
      // gone meanwhile
    }
  }
  const found = [];
  const walk = (pid) => {
    for (const c of children.get(pid) ?? []) {
      if (c.comm.startsWith("workerd")) found.push(c.pid);
      walk(c.pid);
    }
  };
  walk(process.pid);
  return found;
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
/** Resident memory of Bourse's workerd processes (found once at start, so the bare baseline's is not counted). */
let bourseWorkerds = [];
const workerdRss = () => bourseWorkerds.reduce((s, p) => s + rssMb(p), 0);

const TIME = Buffer.from('"time":');
/** The tick time a DAY_MARKET frame carries (read from the bytes: no string copy per frame). */
function tickTime(data) {
  const buf = Buffer.isBuffer(data) ? data : Buffer.from(data);
  const at = buf.indexOf(TIME);
  if (at < 0) return null;
  let t = 0;
  for (let i = at + TIME.length; i < buf.length; i++) {
    const c = buf[i];
    if (c < 48 || c > 57) break;
    t = t * 10 + (c - 48);
  }
  return t || null;
}

/**
 * Connects n clients (signed in: the ones given a token), subscribes them, and measures `TICKS`
 * ticks that start 2 s after the last client is ready. A failed socket: refused, errored or
 * closed before the end; a missed one: connected but without one of the measured ticks.
 */
async function measure(url, n, { subscribe, tokens = [] }) {
  const sockets = [];
  const got = []; // per socket: tick times received
  let failures = 0;
  let messages = 0;
  const received = new Map(); // tick time -> receive times
  let ending = false;
  const failed = new Set();
  await new Promise((resolve) => {
    let started = 0;
    let settled = 0;
    const next = () => {
      while (started < n && started - settled < CONNECTING) open(started++);
      if (settled === n) resolve();
    };
    const open = (i) => {
      const token = subscribe ? tokens[i] : undefined;
      const ws = new WebSocket(url, { perMessageDeflate: false, headers: token ? { authorization: token } : {} });
      const mine = new Set();
      got.push(mine);
      let done = false;
      const ready = () => {
        if (done) return;
        done = true;
        settled += 1;
        next();
      };
      ws.on("open", () => {
        if (!subscribe) return ready();
        if (token) ws.send(JSON.stringify({ type: "login", token }));
        ws.send(JSON.stringify({ type: "sub", topic: "DAY_MARKET" }));
        if (!token) ready();
      });
      const fail = () => {
        if (!failed.has(i) && !ending) {
          failed.add(i);
          failures += 1;
        }
        ready();
      };
      ws.on("error", fail);
      ws.on("close", fail);
      ws.on("message", (data) => {
        const now = Date.now();
        if (token && !done) {
          const text = data.toString();
          if (text.includes('"login_result"')) {
            if (!text.includes('"code":1')) fail();
            else ready();
            return;
          }
        }
        const t = tickTime(data);
        if (t === null) return;
        messages += 1;
        mine.add(t);
        let list = received.get(t);
        if (!list) received.set(t, (list = []));
        list.push(now);
      });
      sockets.push(ws);
    };
    next();
  });
  const readyAt = Date.now();
  const rssReady = workerdRss();
  messages = 0;
  await new Promise((r) => setTimeout(r, (TICKS + 3) * 1000));
  const elapsed = (Date.now() - readyAt) / 1000;
  const ticks = [...received.keys()]
    .filter((t) => t >= readyAt + 2000)
    .sort((a, b) => a - b)
    .slice(0, TICKS);
  const latencies = [];
  const spreads = [];
  for (const t of ticks) {
    const times = received.get(t);
    for (const r of times) latencies.push(r - t);
    spreads.push(Math.max(...times) - Math.min(...times));
    if (process.env.FANOUT_DEBUG)
      console.log(`    tick ${t}: first ${Math.min(...times) - t} ms, last ${Math.max(...times) - t} ms, ${times.length} frames`);
  }
  let missed = 0;
  got.forEach((mine, i) => {
    if (!failed.has(i) && ticks.some((t) => !mine.has(t))) missed += 1;
  });
  ending = true;
  for (const ws of sockets) ws.terminate();
  return {
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
    spread: median(spreads),
    msgsPerSec: messages / elapsed,
    failures,
    missing: missed,
    ticks: ticks.length,
    rssReady,
  };
}

function baselineServer(payloadFor) {
  const wss = new WebSocketServer({ port: 0, host: "127.0.0.1", perMessageDeflate: false, backlog: 4096 });
  const timer = setInterval(() => {
    const frame = payloadFor(Date.now());
    for (const c of wss.clients) c.send(frame);
  }, 1000);
  return new Promise((resolve) =>
    wss.once("listening", () =>
      resolve({
        url: `ws://127.0.0.1:${wss.address().port}`,
        close: () => {
          clearInterval(timer);
          wss.close();
        },
      }),
    ),
  );
}

export { startWorker } from "./worker.mjs";
import { startWorker } from "./worker.mjs";
import { bareWorkerdServer } from "./bare-workerd.mjs";
/** The live shards' count, read from the domain module (the bare baseline gets as many hubs). */
const LIVE_SHARDS = Number(
  readFileSync(new URL("../app/domain/rooms.ts", import.meta.url), "utf8").match(/export const LIVE_SHARDS = (\d+)/)?.[1] ?? 1,
);

/** `count` users with a live session each, straight in D1; answers their session tokens (what an API client sends, and what the web app's cookie holds). */
async function benchUsers(db, count) {
  const tokens = Array.from(
    { length: count },
    (_, i) => `bench-fanout-${i}-${createHash("sha256").update(String(i)).digest("hex").slice(0, 24)}`,
  );
  await db
    .prepare(
      `INSERT INTO users (uid, company_id, invite_code, nickname)
     WITH RECURSIVE c(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM c WHERE n + 1 < ?1)
     SELECT 'bf' || n, 1, 'BF' || n, 'fanout' FROM c`,
    )
    .bind(count)
    .run();
  const expires = Date.now() + 24 * 3600_000;
  for (let i = 0; i < count; i += 2_000) {
    const rows = tokens.slice(i, i + 2_000).map((t, j) => ({ id: createHash("sha256").update(t).digest("hex"), uid: `bf${i + j}` }));
    await db
      .prepare(
        `INSERT INTO sessions (id, user_id, expires_at, user_agent)
       SELECT j.value ->> 'id', u.id, ?2, 'bench' FROM json_each(?1) j JOIN users u ON u.uid = j.value ->> 'uid'`,
      )
      .bind(JSON.stringify(rows), expires)
      .run();
  }
  return tokens;
}

/**
 * Measures the fan-out at each size (RUNS runs, each Bourse then the baseline). Answers a row
 * per size with medians and every run's values; a size this process cannot open enough files
 * for is a row with `reason` and no values.
 */
export async function fanout(sizes = SIZES) {
  const limit = raiseOpenFiles();
  const worker = await startWorker();
  const pids = workerdPids();
  bourseWorkerds = pids;
  const sample = await (await worker.mf.dispatchFetch(`${worker.origin}/v2/api/forex/trade_list`)).json();
  const quotes = sample.data.map((i) => ({ Id: i.Id, ShowCode: i.ShowCode, ...i.ForexQuotations, MarketStatus: i.MarketStatus }));
  const baseline = await baselineServer((time) => JSON.stringify({ type: "DAY_MARKET", data: quotes.map((q) => ({ ...q, time })) }));
  const compatibilityDate = readFileSync(new URL("../wrangler.toml", import.meta.url), "utf8").match(/compatibility_date = "([^"]+)"/)?.[1];
  const bare = await bareWorkerdServer(quotes, { shards: LIVE_SHARDS, compatibilityDate });
  const signedIn = (n) => Math.round(n * SIGNED_IN);
  const allTokens = await benchUsers(worker.db, Math.max(0, ...sizes.map(signedIn)));
  const rows = [];
  try {
    // one unmeasured round first: what workerd grows by once (modules, shards, caches) is not counted per socket
    await measure(worker.ws, 1_000, {
      subscribe: true,
      tokens: Array.from({ length: 1_000 }, (_, i) => (i % 2 === 0 ? allTokens[i / 2] : undefined)),
    });
    for (const requested of sizes) {
      // workerd holds one file a socket; this process one (two with the baseline's server side)
      const workerdLimit = openFileLimit(pids[0]);
      let n = requested;
      if (!(workerdLimit >= n + 1_000) || !(limit >= n + 1_000)) {
        const fit = Math.floor((Math.min(workerdLimit, limit) - 1_000) / 1_000) * 1_000;
        // the largest size that fits is measured in its place only when asked (it takes long on a loaded machine)
        const instead = FIT && fit > 0 && !sizes.includes(fit);
        rows.push({
          clients: n,
          reason: `the open-file limit is ${limit} for this process and ${workerdLimit} for workerd (a hard limit that prlimit could not raise here), below the ${n} sockets plus the files workerd and this process hold otherwise${instead ? `; measured at ${fit} sockets instead` : ""}`,
        });
        if (!instead) continue;
        n = fit;
      }
      const withBaseline = limit >= 2 * n + 1_000;
      // signed-in clients spread over the users (one socket each), interleaved with anonymous ones
      const tokens = Array.from({ length: n }, (_, i) =>
        i % Math.round(1 / SIGNED_IN) === 0 ? allTokens[Math.floor(i / Math.round(1 / SIGNED_IN))] : undefined,
      );
      const runs = { bourse: [], baseline: [], bare: [], rssPer1k: [], cpu: [], rss: [] };
      for (let r = 0; r < RUNS; r++) {
        await new Promise((res) => setTimeout(res, 1500));
        const rss0 = workerdRss();
        const cpu0 = pids.reduce((s, p) => s + cpuMs(p), 0);
        const t0 = Date.now();
        const b = await measure(worker.ws, n, { subscribe: true, tokens });
        const wall = Date.now() - t0;
        runs.cpu.push((pids.reduce((s, p) => s + cpuMs(p), 0) - cpu0) / wall);
        runs.rss.push(b.rssReady);
        runs.rssPer1k.push((b.rssReady - rss0) / (n / 1000));
        runs.bourse.push(b);
        if (withBaseline) runs.baseline.push(await measure(baseline.url, n, { subscribe: false }));
        runs.bare.push(await measure(bare.url, n, { subscribe: false }));
      }
      const pick = (list, key) => median(list.map((x) => x[key]));
      const side = (list) => ({
        p50: pick(list, "p50"),
        p99: pick(list, "p99"),
        spread: pick(list, "spread"),
        msgs: pick(list, "msgsPerSec"),
        failures: Math.max(...list.map((x) => x.failures)),
        missing: Math.max(...list.map((x) => x.missing)),
      });
      rows.push({
        clients: n,
        signedIn: tokens.filter(Boolean).length,
        bourse: side(runs.bourse),
        baseline: withBaseline ? side(runs.baseline) : null,
        bare: side(runs.bare),
        workerdCpu: median(runs.cpu),
        workerdRssMb: median(runs.rss),
        runs: {
          p99Ratio: withBaseline ? runs.bourse.map((b, i) => b.p99 / runs.baseline[i].p99) : [],
          // the same run's bare workerd broadcast: Bourse against the runtime's own floor, and that floor against `ws`
          p99RatioBareWorkerd: runs.bourse.map((b, i) => b.p99 / runs.bare[i].p99),
          bareWorkerdP99Ratio: withBaseline ? runs.bare.map((b, i) => b.p99 / runs.baseline[i].p99) : [],
          failed: runs.bourse.map((b) => b.failures + b.missing),
          rssPer1k: runs.rssPer1k,
        },
      });
    }
  } finally {
    baseline.close();
    await bare.close();
    await worker.dispose();
  }
  return rows;
}

export function printFanout(rows) {
  console.log(
    `\nFan-out: DAY_MARKET to N sockets through /v2/ws (workerd via Miniflare, production build) vs a bare \`ws\` broadcast server and a bare workerd broadcast (the same runtime and topology, ${LIVE_SHARDS} hubs, none of Bourse's code); half the clients signed in (routed to their user's shard); median of`,
    RUNS,
    "runs",
  );
  console.log(
    "clients | bourse p50/p99 ms | spread ms | msg/s  | fail/miss | bare ws p50/p99 | bare workerd p50/p99 | ÷ ws  | ÷ bare workerd | bare workerd ÷ ws | workerd CPU | workerd RSS",
  );
  for (const r of rows) {
    if (r.reason) {
      console.log(`${String(r.clients).padStart(7)} | not run: ${r.reason}`);
      continue;
    }
    const b = r.bourse;
    const s = r.baseline ?? { p50: NaN, p99: NaN, spread: NaN };
    const w = r.bare;
    const ratio = (list) => (list.length ? median(list).toFixed(2) : "–");
    console.log(
      `${String(r.clients).padStart(7)} | ${`${b.p50.toFixed(0)}/${b.p99.toFixed(0)}`.padStart(17)} | ${b.spread.toFixed(0).padStart(9)} | ${b.msgs.toFixed(0).padStart(6)} | ${`${b.failures}/${b.missing}`.padStart(9)} | ${`${s.p50.toFixed(0)}/${s.p99.toFixed(0)}`.padStart(15)} | ${`${w.p50.toFixed(0)}/${w.p99.toFixed(0)}`.padStart(20)} | ${ratio(r.runs.p99Ratio).padStart(5)} | ${ratio(r.runs.p99RatioBareWorkerd).padStart(14)} | ${ratio(r.runs.bareWorkerdP99Ratio).padStart(17)} | ${(r.workerdCpu * 100).toFixed(0).padStart(10)}% | ${r.workerdRssMb.toFixed(0).padStart(8)} MB`,
    );
    console.log(
      `          runs: ÷ ws ${JSON.stringify(r.runs.p99Ratio.map((x) => +x.toFixed(2)))}, ÷ bare workerd ${JSON.stringify(r.runs.p99RatioBareWorkerd.map((x) => +x.toFixed(2)))}, bare workerd ÷ ws ${JSON.stringify(r.runs.bareWorkerdP99Ratio.map((x) => +x.toFixed(2)))}`,
    );
  }
}

/**
 * Issue 20's fan-out figures, from one measurement at 5,000 and 20,000 sockets (RUNS runs each;
 * value = the median, runs = every run's value; a size that could not run is null with its
 * reason, never extrapolated). Prints the table too.
 */
export async function fanoutFigures({ print = true } = {}) {
  let rows;
  let failure = null;
  try {
    rows = await fanout([5_000, 20_000]);
  } catch (error) {
    failure = `the fan-out bench failed: ${error instanceof Error ? error.message : String(error)}`;
    rows = [];
  }
  if (print && rows.length) printFanout(rows);
  const at = (n) => rows.find((r) => r.clients === n);
  const measured = (row, key) => row.runs[key].map((v) => Math.round(v * 1000) / 1000);
  const figure = (id, unit, row, key) => {
    if (!row || row.reason) {
      // a size that could not run is null; the size measured in its place is named in the reason, never extrapolated
      const instead = rows.find((r) => !r.reason && r.clients < (row?.clients ?? 0) && r.clients > 5_000);
      const also = instead
        ? ` (at ${instead.clients} sockets: ${key === "failed" ? "failed or missed" : key} per run ${JSON.stringify(measured(instead, key))})`
        : "";
      return { id, value: null, unit, runs: [], reason: `${row?.reason ?? failure ?? "not measured"}${also}` };
    }
    const runs = measured(row, key);
    return { id, value: median(runs), unit, runs };
  };
  // memory per 1,000 sockets from the largest size that ran
  const rssRow = [...rows].filter((r) => !r.reason).sort((a, b) => b.clients - a.clients)[0];
  return [
    figure("fanout_p99_ratio_5k", "p99 ÷ bare ws p99, 5,000 sockets", at(5_000), "p99Ratio"),
    // beside it, the same run's bare workerd broadcast: Bourse against the runtime's own floor, and that floor against `ws`
    figure("fanout_p99_ratio_5k_bare_workerd", "p99 ÷ bare workerd broadcast's p99, 5,000 sockets", at(5_000), "p99RatioBareWorkerd"),
    figure(
      "fanout_bare_workerd_p99_ratio_5k",
      "bare workerd broadcast's p99 ÷ bare ws p99, 5,000 sockets",
      at(5_000),
      "bareWorkerdP99Ratio",
    ),
    figure("fanout_fail_20k", "failed or missed sockets, 20,000 sockets", at(20_000), "failed"),
    { ...figure("fanout_rss_mb_per_1k", `MB of workerd RSS per 1,000 sockets (${rssRow?.clients ?? 20_000} sockets)`, rssRow, "rssPer1k") },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.env.FANOUT_FIGURES) console.log(JSON.stringify(await fanoutFigures(), null, 2));
  else printFanout(await fanout());
}
