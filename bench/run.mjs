// `npm run bench`: figures printed, never asserted in tests. Builds first so the figures describe
// the current code, then runs each part on the production build in workerd (bench/worker.mjs):
// page weight, Lighthouse, the order path, the engine's tick, the stop-loss cascade, option
// expiries, copies, the funds' daily income job, the socket fan-out and storage. Every figure of
// issue 20 §7 is printed in one table at the end and, when BENCH_JSON names a file, written there
// as {"commit", "cores", "load", "figures": [{id, value, unit, runs, reason?}]}.
//
// Sizes: the defaults finish in minutes; BENCH_SCALE=full runs the issue's sizes (1,000,000 open
// orders, 50,000 options, 100,000 followers, 1,000,000 fund subscriptions). A size not run is
// null with its reason, never extrapolated. Parts: BENCH_SKIP_LIGHTHOUSE, BENCH_SKIP_ORDERS,
// BENCH_SKIP_TICKS, BENCH_SKIP_STOPS, BENCH_SKIP_OPTIONS, BENCH_SKIP_COPIES, BENCH_SKIP_FUNDS,
// BENCH_SKIP_FANOUT, BENCH_SKIP_STORAGE, BENCH_SKIP_HEAP (=1 skips; BENCH_SKIP_TRADING=1 skips orders, ticks, stops,
// options and copies). Tuning: see the README's bench section.
import { bin, run } from "../scripts/lib.mjs";
import { benchContext, printFigures, skipped, writeFigures } from "./figures.mjs";
import { LIGHTHOUSE_TARGETS, lighthouseBench, printLighthouse } from "./lighthouse.mjs";
import { pageSplit } from "./page-weight.mjs";
import { orderFigures } from "./orders.mjs";
import { stopFigures, tickFigures } from "./engine.mjs";
import { copyFigures, optionFigures } from "./settlement.mjs";
import { fundFigures } from "./funds.mjs";
import { heapFigures } from "./engine-heap.mjs";

const context = benchContext();

/** A module from another branch may not exist yet: its function, or null. */
async function optional(file, name) {
  try {
    const mod = await import(file);
    return typeof mod[name] === "function" ? mod[name] : null;
  } catch (error) {
    if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes(file.replace("./", ""))) return null;
    throw error;
  }
}

const trading = Boolean(process.env.BENCH_SKIP_TRADING);
/** Each part: the switch that skips it, the ids (and units) it answers, and how it runs. */
const parts = [
  {
    skip: "BENCH_SKIP_ORDERS",
    off: trading,
    ids: [
      ["order_throughput_ratio_c10", "orders ÷ bare write, concurrency 10"],
      ["order_p99_ratio_c10", "p99 ÷ bare write's p99"],
    ],
    run: orderFigures,
  },
  {
    skip: "BENCH_SKIP_TICKS",
    off: trading,
    ids: [
      ["tick_ms_100", "ms per tick"],
      ["tick_ms_100k", "ms per tick"],
      ["tick_ms_1m", "ms per tick"],
    ],
    run: tickFigures,
  },
  {
    skip: "BENCH_SKIP_STOPS",
    off: trading,
    ids: [
      ["stops_5000_with_100k_open_ms", "ms, price move → all closed in D1"],
      ["tick_js_max_ms", "ms, worst no-op latency − idle median during the cascade"],
    ],
    run: stopFigures,
  },
  {
    skip: "BENCH_SKIP_OPTIONS",
    off: trading,
    ids: [
      ["options_10k_users_ms", "ms, expiry → all settled"],
      ["options_50k_ms", "ms, expiry → all settled"],
    ],
    run: optionFigures,
  },
  {
    skip: "BENCH_SKIP_COPIES",
    off: trading,
    ids: [
      ["copy_10k_open_ms", "ms, trader's order → every copy open"],
      ["copy_100k_open_ms", "ms, trader's order → every copy open"],
    ],
    run: copyFigures,
  },
  {
    skip: "BENCH_SKIP_HEAP",
    off: trading,
    ids: [["engine_max_object_mb_1m", "MB, largest engine shard's heap at 1,000,000 open"]],
    run: heapFigures,
  },
  {
    skip: "BENCH_SKIP_FUNDS",
    ids: [
      ["fund_income_1m_ms", "ms, job start → all paid"],
      ["fund_income_max_chunk_ms", "ms, longest single chunk write"],
    ],
    run: fundFigures,
  },
  {
    skip: "BENCH_SKIP_FANOUT",
    ids: [
      ["fanout_p99_ratio_5k", "p99 ÷ bare ws, 5,000 sockets"],
      ["fanout_fail_20k", "failed or missed sockets at 20,000"],
      ["fanout_rss_mb_per_1k", "MB of workerd RSS per 1,000 sockets"],
    ],
    run: async () => {
      const figures = await optional("./fanout.mjs", "fanoutFigures");
      if (figures) return figures();
      // before the fan-out figures land: the fan-out table only
      const { fanout, printFanout } = await import("./fanout.mjs");
      printFanout(await fanout());
      return null;
    },
  },
  {
    skip: "BENCH_SKIP_STORAGE",
    ids: [
      ["bytes_per_subscription_day", "dbstat bytes"],
      ["bytes_per_order_round_trip", "dbstat bytes"],
    ],
    run: async () => {
      const { printStorage, storageBench, storageFigures } = await import("./storage.mjs");
      const result = await storageBench();
      printStorage(result);
      return storageFigures(result);
    },
  },
];

run(bin("remix"), ["build"], { stdio: ["ignore", "ignore", "inherit"] });
// Issue 22's budgets, gzip KB: first load (scripts requested before hydration) per page, and
// everything a page requests in its first seconds (lazy chunks included) for /trade.
const firstBudgets = {
  "/": 110,
  "/login": 110,
  "/register": 110,
  "/trade": 150,
  "/order": 125,
  "/mine/wallet": 125,
  "/follow/follow-list": 125,
};
const totalBudgets = { "/trade": 190 };
console.log(
  `Bench on ${context.commit.slice(0, 12)}, ${context.cores} cores, load ${context.load}, scale ${process.env.BENCH_SCALE === "full" ? "full" : "default"}`,
);
console.log("Page weight (JavaScript, gzip -9; first load = before hydration, lazy = import() after it):");
const split = pageSplit({
  "/": "routes/_index",
  "/trade": "routes/trade",
  "/login": "routes/login",
  "/register": "routes/register",
  "/user": "routes/user",
  "/order": "routes/order",
  "/mine/wallet": "routes/mine.wallet",
  "/follow/follow-list": "routes/follow.follow-list",
});
const within = (kb, budget) => (budget ? `  (budget ${budget} KB: ${kb <= budget ? "met" : "not met"})` : "");
console.log("  page                 first    lazy    total");
for (const [page, { first, lazy }] of Object.entries(split)) {
  const [f, l, t] = [first / 1024, lazy / 1024, (first + lazy) / 1024];
  console.log(
    `  ${page.padEnd(19)} ${f.toFixed(1).padStart(6)}  ${l.toFixed(1).padStart(6)}  ${t.toFixed(1).padStart(7)}${within(f, firstBudgets[page])}${
      totalBudgets[page] ? `; total${within(t, totalBudgets[page])}` : ""
    }`,
  );
}
if (!process.env.BENCH_SKIP_LIGHTHOUSE) {
  const { quiet, busy, runs } = await lighthouseBench();
  printLighthouse(`Lighthouse, mobile (median of ${runs}):`, quiet);
  printLighthouse(`Lighthouse, mobile, CPU busy (2 busy-loop processes, median of ${runs}):`, busy);
  const t = LIGHTHOUSE_TARGETS;
  console.log(
    `  targets: score ≥ ${t.scoreQuiet} quiet, ≥ ${t.scoreBusy} busy; quiet LCP ≤ ${t.lcpMs} ms, TBT ≤ ${t.tbtMs} ms, CLS ≤ ${t.cls}`,
  );
}

const figures = [];
for (const part of parts) {
  if (part.off || process.env[part.skip]) {
    for (const [id, unit] of part.ids) figures.push(skipped(id, unit, `skipped (${part.off ? "BENCH_SKIP_TRADING" : part.skip})`));
    continue;
  }
  const got = (await part.run()) ?? [];
  for (const [id, unit] of part.ids) figures.push(got.find((f) => f.id === id) ?? skipped(id, unit, "not measured yet on this branch"));
  figures.push(...got.filter((f) => !part.ids.some(([id]) => id === f.id)));
}

printFigures(figures);
if (process.env.BENCH_JSON) {
  writeFigures(process.env.BENCH_JSON, context, figures);
  console.log(`\nFigures written to ${process.env.BENCH_JSON}`);
}
