// `npm run bench`: figures printed, never asserted in tests. Builds first so the figures
// describe the current code. FANOUT_SIZES / FANOUT_RUNS / FANOUT_TICKS tune the fan-out run;
// BENCH_SKIP_FANOUT=1 skips it. Lighthouse (mobile) on /, /trade and /login, quiet and with the
// CPU busy: LIGHTHOUSE_RUNS (default 3) runs per page, LIGHTHOUSE_PORT (default 8813);
// BENCH_SKIP_LIGHTHOUSE=1 skips it. Contract trading (orders per second vs a bare D1 batch, the
// engine's tick at 100 and 100,000 open orders, 5,000 stop-losses in one tick): BENCH_SKIP_TRADING=1
// skips it, TRADING_ORDERS sets the orders per run, TRADING_CONCURRENCY the levels ("1,10"). The daily fund-income job at 1,000 and 100,000
// subscriptions: BENCH_SKIP_FUNDS=1 skips it, FUND_SUBS sets the large size.
import { bin, run } from "../scripts/lib.mjs";
import { fanout, printFanout } from "./fanout.mjs";
import { lighthouseBench, printLighthouse } from "./lighthouse.mjs";
import { pageWeights } from "./page-weight.mjs";
import { printTrading, tradingBench } from "./trading.mjs";
import { fundsBench, printFunds } from "./funds.mjs";
import { printStorage, storageBench } from "./storage.mjs";

run(bin("remix"), ["build"], { stdio: ["ignore", "ignore", "inherit"] });
// /login and /register carry the form library (conform, about 10 KB): their budget is 125 KB.
const budgets = { "/": 120, "/trade": 200, "/login": 125, "/register": 125, "/order": 140 };
console.log("Page weight (JavaScript loaded on first visit, gzip -9):");
const weights = pageWeights({ "/": "routes/_index", "/trade": "routes/trade", "/login": "routes/login", "/register": "routes/register", "/user": "routes/user", "/order": "routes/order" });
for (const [page, bytes] of Object.entries(weights)) {
  const kb = bytes / 1024;
  const budget = budgets[page];
  console.log(`  ${page.padEnd(10)} ${kb.toFixed(1).padStart(6)} KB${budget ? `  (budget ${budget} KB, ${((kb / budget) * 100).toFixed(0)}% of it)` : ""}`);
}
if (!process.env.BENCH_SKIP_LIGHTHOUSE) {
  const { quiet, busy, runs } = await lighthouseBench();
  printLighthouse(`Lighthouse, mobile (median of ${runs}):`, quiet);
  printLighthouse(`Lighthouse, mobile, CPU busy (2 busy-loop processes, median of ${runs}):`, busy);
}
if (!process.env.BENCH_SKIP_TRADING) printTrading(await tradingBench());
if (!process.env.BENCH_SKIP_FANOUT) printFanout(await fanout());
if (!process.env.BENCH_SKIP_FUNDS) printFunds(await fundsBench());
// Bytes per paid subscription-day and per order round trip (bench/storage.mjs): BENCH_SKIP_STORAGE=1 skips it.
if (!process.env.BENCH_SKIP_STORAGE) printStorage(await storageBench());
