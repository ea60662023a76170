// The funds' daily income job (issue 20 §7) as it runs in production: the cron (the Worker's
// scheduled handler, daily expression) is the producer, enqueueing user-range chunks on the JOBS
// queue; the Worker's queue consumer pays each chunk in one batch. Timed from the scheduled call
// to the end of the last chunk that pays the day (the consumer's own timings, GET /dev/jobs), and
// the longest single chunk. Subscriptions (30 days, 100 USD, 0.8 USD a day) are written into D1
// over FUND_USERS users; each run (in a fresh worker) pays their first day; the ledger is checked after.
import { FULL, SCALE_REASON, figure, skipped } from "./figures.mjs";
import { bulkUsers, dev, startWorker, until } from "./worker.mjs";

const SUBS = Number(process.env.FUND_SUBS ?? (FULL ? 1_000_000 : 100_000));
const USERS = Number(process.env.FUND_USERS ?? Math.max(1, Math.round(SUBS / 10)));
const RUNS = Number(process.env.FUND_RUNS ?? 3);

async function insertSubscriptions(db, lo, users, n, startDay, lock) {
  for (let from = 0; from < n; from += 50_000) {
    await db
      .prepare(
        `WITH RECURSIVE c(k) AS (SELECT ?1 UNION ALL SELECT k + 1 FROM c WHERE k + 1 < ?2)
         INSERT INTO fund_subscriptions (user_id, fund_id, share_amount, day_profit, lock_days, liquidated_damages, status, start_day, end_day, request_id, sub_tx)
         SELECT ?3 + (k % ?4), 1, 100000000, 800000, ?5, '5', 1, ?6, date(?6, '+' || (?5 - 1) || ' days'), 'bench-sub-' || k, 'bench-sub-' || k FROM c`,
      )
      .bind(from, Math.min(n, from + 50_000), lo, users, lock, startDay)
      .run();
  }
}

/**
 * One run in a fresh worker: the users and subscriptions written, then the first day paid.
 * (Each run has its own worker: on a second day in the same Miniflare, its local queue broker
 * left a full batch of messages undelivered — the consumer never saw them — so a later day's
 * figure would time the local broker, not the job.)
 */
async function fundRun(r) {
  const worker = await startWorker();
  try {
    const { db, mf } = worker;
    const users = await bulkUsers(db, `fund${process.pid}r${r}`, USERS);
    await insertSubscriptions(db, users[0].id, USERS, SUBS, "2030-01-01", 30);
    const handler = await mf.getWorker();
    const day = "2030-01-01";
    const started = Date.now();
    await handler.scheduled({ cron: "0 3 * * *", scheduledTime: new Date(`${day}T03:00:00Z`) });
    let chunks = [];
    await until(
      async () => {
        chunks = (await dev(worker, "/dev/jobs")).chunks.filter((c) => c.day === day && c.at >= started);
        return chunks.reduce((s, c) => s + c.paid, 0) >= SUBS;
      },
      { every: 200, timeoutMs: Number(process.env.FUND_TIMEOUT_MS ?? 600_000) },
    );
    const paid = chunks.reduce((s, c) => s + c.paid, 0);
    const end = Math.max(...chunks.map((c) => c.at + c.ms));
    const rows = await db.prepare("SELECT COUNT(*) AS n FROM fund_incomes WHERE day = ?1").bind(day).first();
    const inv = await db
      .prepare(
        `SELECT (SELECT COUNT(*) FROM (SELECT transaction_id FROM ledger_entries GROUP BY transaction_id HAVING SUM(amount) <> 0)) AS unbalanced,
                (SELECT COUNT(*) FROM accounts a WHERE balance <> (SELECT COALESCE(SUM(amount), 0) FROM ledger_entries e WHERE e.account_id = a.id AND e.bucket = 0)) AS drifting`,
      )
      .first();
    const x = {
      day,
      ms: paid >= SUBS ? end - started : NaN,
      maxChunk: Math.max(...chunks.map((c) => c.ms)),
      chunks: chunks.length,
      paid,
      rows: rows.n,
      inv,
    };
    console.log(
      `  ${SUBS.toLocaleString("en-US")} subscriptions over ${USERS.toLocaleString("en-US")} users, run ${r + 1}: ${x.paid} paid (${x.rows} income rows) in ${x.chunks} chunks, ${x.ms} ms from the cron to the last chunk, longest chunk ${x.maxChunk} ms; ledger: ${inv.unbalanced} unbalanced transactions, ${inv.drifting} drifting accounts`,
    );
    return x;
  } finally {
    await worker.dispose();
  }
}

export async function fundFigures() {
  const runs = [];
  for (let r = 0; r < RUNS; r++) runs.push(await fundRun(r));
  const covers = `${SUBS.toLocaleString("en-US")} subscriptions over ${USERS.toLocaleString("en-US")} users: the daily cron enqueues user-range chunks, the queue consumer pays them; median of ${RUNS} runs, each in a fresh worker`;
  const full = SUBS >= 1_000_000;
  return [
    full
      ? figure(
          "fund_income_1m_ms",
          "ms, job start → all paid",
          runs.map((x) => x.ms),
          { target: "≤ 60000", covers },
        )
      : skipped(
          "fund_income_1m_ms",
          "ms, job start → all paid",
          `${SCALE_REASON} (this run: ${SUBS.toLocaleString("en-US")} subscriptions, ${runs.map((x) => x.ms).join("/")} ms)`,
          { target: "≤ 60000", covers },
        ),
    figure(
      "fund_income_max_chunk_ms",
      "ms, longest single chunk write",
      runs.map((x) => x.maxChunk),
      { target: "≤ 1000", covers: `${covers}; the consumer's longest chunk of each run` },
    ),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printFigures } = await import("./figures.mjs");
  printFigures(await fundFigures());
}
