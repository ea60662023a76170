// Storage per record (issue 20 §5), printed by `npm run bench`: the bytes the ledger and its
// neighbours take for
//   (a) a paid subscription-day: STORAGE_SUBS (default 100,000) subscriptions in progress over
//       STORAGE_SUBS / 10 users (10 each), paid for one day by the real daily income job (the
//       function the queue consumer calls, chunk by chunk, through /dev/fund/income);
//   (b) an order round trip: STORAGE_ORDERS (default 5,000) demo users each open a market order
//       and close it through the §7 API (/v2/api/forex/submit, /v2/api/forex/close).
// Bytes are read with the `sqlite3` command on the local D1 file (D1 refuses dbstat): the sum of
// `pgsize` per table and index from `dbstat`, before and after, divided by the records written.
// One run per figure (STORAGE_RUNS to repeat): the rows written are the same every run, so the
// figure only moves with B-tree page fill (a few bytes).
import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { startWorker } from "./fanout.mjs";

const SUBS = Number(process.env.STORAGE_SUBS ?? 100_000);
const ORDERS = Number(process.env.STORAGE_ORDERS ?? 5_000);
const RUNS = Number(process.env.STORAGE_RUNS ?? 1);
const SUBS_PER_USER = 10;
const CONCURRENCY = 6;

/** The tables (with their indexes) that a subscription-day and an order round trip write. */
const FUND_TABLES = ["ledger_transactions", "ledger_entries", "ledger_batches", "fund_incomes", "fund_subscriptions"];
const ORDER_TABLES = ["contract_orders", "order_exits", "ledger_transactions", "ledger_entries", "ledger_batches"];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The local D1 database file of the bench's worker (the largest .sqlite under its persisted state). */
function d1File(dir) {
  const files = [];
  const walk = (d) => {
    for (const f of readdirSync(d)) {
      const p = path.join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith(".sqlite") && p.includes("D1")) files.push(p);
    }
  };
  walk(dir);
  if (files.length === 0) throw new Error(`no local D1 file under ${dir}`);
  return files.sort((a, b) => statSync(b).size - statSync(a).size)[0];
}

/** Bytes per table and index (name → { table, bytes }), from dbstat. */
function sizes(dir) {
  const out = execFileSync(
    "sqlite3",
    [
      "-readonly",
      "-separator",
      "\t",
      d1File(dir),
      "SELECT s.name, COALESCE(m.tbl_name, s.name), SUM(s.pgsize) FROM dbstat s LEFT JOIN sqlite_master m ON m.name = s.name GROUP BY s.name",
    ],
    { encoding: "utf8" },
  );
  const map = new Map();
  for (const line of out.trim().split("\n")) {
    const [name, table, bytes] = line.split("\t");
    map.set(name, { table, bytes: Number(bytes) });
  }
  return map;
}

function delta(before, after, tables) {
  const rows = [];
  for (const [name, { table, bytes }] of after) {
    if (!tables.includes(table)) continue;
    const d = bytes - (before.get(name)?.bytes ?? 0);
    if (d !== 0) rows.push({ name, table, bytes: d });
  }
  return rows.sort((a, b) => b.bytes - a.bytes);
}

async function load(total, fn) {
  let next = 0;
  let failures = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (;;) {
        const i = next++;
        if (i >= total) return;
        if (!(await fn(i))) failures += 1;
      }
    }),
  );
  return failures;
}

async function subscriptionDays() {
  const { mf, origin, db, persist, dispose } = await startWorker();
  try {
    const users = Math.ceil(SUBS / SUBS_PER_USER);
    await db
      .prepare(
        `WITH RECURSIVE c(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM c WHERE k + 1 < ?1)
         INSERT INTO users (uid, company_id, email, invite_code, is_demo) SELECT 'store-' || k, 1, 'store-' || k || '@example.com', 'STORE' || k, 0 FROM c`,
      )
      .bind(users)
      .run();
    await db
      .prepare("INSERT INTO accounts (user_id, kind, account_type_id) SELECT id, 'funding', 1 FROM users WHERE uid LIKE 'store-%'")
      .run();
    // the subscriptions as the subscribe path leaves them (ten per user, in progress from the paid day)
    for (let from = 0; from < SUBS; from += 50_000) {
      const count = Math.min(50_000, SUBS - from);
      await db
        .prepare(
          `WITH RECURSIVE c(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM c WHERE k + 1 < ?1)
           INSERT INTO fund_subscriptions (user_id, fund_id, share_amount, day_profit, lock_days, liquidated_damages, status, start_day, end_day, request_id, sub_tx)
           SELECT (SELECT MIN(id) FROM users WHERE uid LIKE 'store-%') + CAST((k + ?2) / ?3 AS INTEGER), 1, 100000000, 800000, 30, '5', 1, '2030-01-02', '2030-01-31', 'store-' || (k + ?2), 0
             FROM c`,
        )
        .bind(count, from, SUBS_PER_USER)
        .run();
    }
    const figures = [];
    let table = [];
    for (let r = 0; r < RUNS; r++) {
      const day = `2030-01-${String(2 + r).padStart(2, "0")}`;
      const before = sizes(persist);
      const res = await mf.dispatchFetch(`${origin}/dev/fund/income?day=${day}`, { method: "POST" });
      if (!res.ok) throw new Error(`fund income job failed: ${res.status} ${await res.text()}`);
      const report = await res.json();
      const paid = (await db.prepare("SELECT COUNT(*) AS n FROM fund_incomes WHERE day = ?1").bind(day).first()).n;
      if (paid !== SUBS) throw new Error(`expected ${SUBS} subscription-days paid on ${day}, got ${paid} (${JSON.stringify(report)})`);
      table = delta(before, sizes(persist), FUND_TABLES);
      figures.push(table.reduce((s, x) => s + x.bytes, 0) / paid);
    }
    return { figures, table, records: SUBS };
  } finally {
    await dispose();
  }
}

async function orderRoundTrips() {
  const { mf, origin, db, persist, dispose } = await startWorker();
  try {
    await mf.dispatchFetch(`${origin}/dev/market/price`, {
      method: "POST",
      body: JSON.stringify({ code: "BTCUSDT", price: 50000 }),
      headers: { "content-type": "application/json" },
    });
    const users = [];
    const created = await load(ORDERS, async (i) => {
      const res = await mf.dispatchFetch(`${origin}/api/user/createAccountDemoForU?demo_id=${crypto.randomUUID()}`, {
        headers: { "cf-connecting-ip": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
      });
      const body = await res.json();
      if (!body.data?.token) return false;
      users[i] = body.data.token;
      return true;
    });
    if (created > 0) throw new Error(`${created} demo users could not be created`);
    const figures = [];
    let table = [];
    for (let r = 0; r < RUNS; r++) {
      const before = sizes(persist);
      const ids = [];
      const opened = await load(ORDERS, async (i) => {
        const res = await mf.dispatchFetch(`${origin}/v2/api/forex/submit?type=1&cont=0.01&forex_id=1&status=1&multiple=10`, {
          headers: { authorization: users[i] },
        });
        const body = await res.json();
        ids[i] = body.data?.Id;
        return body.code === 1;
      });
      const closed = await load(ORDERS, async (i) => {
        const res = await mf.dispatchFetch(`${origin}/v2/api/forex/close?id=${ids[i]}`, { headers: { authorization: users[i] } });
        const body = await res.json();
        return body.code === 1;
      });
      if (opened + closed > 0) throw new Error(`order round trips failed: ${opened} opens, ${closed} closes`);
      const trips = (await db.prepare("SELECT COUNT(*) AS n FROM contract_orders WHERE status = 3").first()).n - r * ORDERS;
      if (trips !== ORDERS) throw new Error(`expected ${ORDERS} closed orders, got ${trips}`);
      table = delta(before, sizes(persist), ORDER_TABLES);
      figures.push(table.reduce((s, x) => s + x.bytes, 0) / ORDERS);
    }
    return { figures, table, records: ORDERS };
  } finally {
    await dispose();
  }
}

export async function storageBench() {
  const subs = await subscriptionDays();
  const orders = await orderRoundTrips();
  return { subs, orders };
}

/** The two figures of `npm run bench` (value = the median over runs; each run is one measurement). */
export async function storageFigures(result) {
  const { subs, orders } = result ?? (await storageBench());
  return [
    { id: "bytes_per_subscription_day", value: Math.round(median(subs.figures)), unit: "bytes", runs: subs.figures.map(Math.round) },
    { id: "bytes_per_order_round_trip", value: Math.round(median(orders.figures)), unit: "bytes", runs: orders.figures.map(Math.round) },
  ];
}

export function printStorage({ subs, orders }) {
  const print = (title, { table, records }, target) => {
    const total = table.reduce((s, x) => s + x.bytes, 0);
    console.log(`\n${title} (${records.toLocaleString("en-US")} records; dbstat pgsize on the local D1 file; target ≤ ${target} bytes)`);
    console.log("  table or index                         |        bytes | bytes/record");
    for (const x of table)
      console.log(`  ${x.name.padEnd(38)} | ${String(x.bytes).padStart(12)} | ${(x.bytes / records).toFixed(1).padStart(12)}`);
    console.log(`  ${"total".padEnd(38)} | ${String(total).padStart(12)} | ${(total / records).toFixed(1).padStart(12)}`);
  };
  print("Storage per paid subscription-day", subs, 300);
  print("Storage per order round trip (open + close)", orders, 1000);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await storageBench();
  printStorage(result);
  console.log(JSON.stringify(await storageFigures(result)));
}
