// The daily fund-income job (issue 12 §4), printed by `npm run bench`: the time of the job's one
// set-based D1 batch, and its statement count, with 1,000 and with 100,000 subscriptions in
// progress (the count must not depend on the number), plus a second run on the same date (which
// pays nothing) and the ledger invariants afterwards. Subscriptions are written straight into
// D1 (the subscribe path is not what is measured). FUND_SUBS sets the large size.
import { startWorker } from "./fanout.mjs";

const LARGE = Number(process.env.FUND_SUBS ?? 100_000);
const USERS = 1_000;

/** `n` subscriptions in progress spread over the bench users, paying from `startDay` for `lock` days. */
async function insertSubscriptions(db, n, startDay, lock, tag) {
  const chunk = 50_000;
  for (let from = 0; from < n; from += chunk) {
    const count = Math.min(chunk, n - from);
    await db
      .prepare(
        `WITH RECURSIVE c(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM c WHERE k + 1 < ?1)
         INSERT INTO fund_subscriptions (user_id, fund_id, share_amount, day_profit, lock_days, liquidated_damages, status, start_day, end_day, request_id, sub_tx)
         SELECT (SELECT MIN(id) FROM users WHERE uid LIKE 'bench-%') + ((k + ?2) % ?3), 1, 100000000, 800000, ?4, '5', 1, ?5, date(?5, '+' || (?4 - 1) || ' days'),
                ?6 || '-' || (k + ?2), 'bench'
           FROM c`,
      )
      .bind(count, from, USERS, lock, startDay, tag)
      .run();
  }
}

async function runJob(mf, origin, day) {
  const res = await mf.dispatchFetch(`${origin}/dev/fund/income?day=${day}`, { method: "POST" });
  if (!res.ok) throw new Error(`fund income job failed: ${res.status} ${await res.text()}`);
  return res.json();
}

export async function fundsBench() {
  const { mf, origin, db } = await startWorker();
  await db
    .prepare(
      `WITH RECURSIVE c(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM c WHERE k + 1 < ?1)
       INSERT INTO users (uid, company_id, email, invite_code, is_demo) SELECT 'bench-' || k, 1, 'bench-' || k || '@example.com', 'BENCH' || k, 0 FROM c`,
    )
    .bind(USERS)
    .run();
  await db.prepare("INSERT INTO accounts (user_id, kind, account_type_id) SELECT id, 'funding', 1 FROM users WHERE uid LIKE 'bench-%'").run();
  // 1,000 subscriptions of one day: the run pays and finishes them all
  await insertSubscriptions(db, 1_000, "2030-01-01", 1, "small");
  const small = await runJob(mf, origin, "2030-01-01");
  // the large set, 30 days each: the first day of income
  await insertSubscriptions(db, LARGE, "2030-01-02", 30, "large");
  const large = await runJob(mf, origin, "2030-01-02");
  const again = await runJob(mf, origin, "2030-01-02");
  const inv = await db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM (SELECT transaction_id FROM ledger_entries GROUP BY transaction_id HAVING SUM(amount) <> 0)) AS unbalanced,
              (SELECT COUNT(*) FROM accounts a WHERE balance <> (SELECT COALESCE(SUM(amount), 0) FROM ledger_entries e WHERE e.account_id = a.id AND e.bucket = 0)) AS drifting`,
    )
    .first();
  await mf.dispose();
  return { small, large, again, invariants: inv, size: LARGE };
}

export function printFunds({ small, large, again, invariants, size }) {
  console.log("\nDaily fund-income job (one set-based D1 batch; target ≤ 5 s at 100,000 subscriptions):");
  console.log(`  ${"1,000".padStart(7)} subscriptions: ${small.paid} days paid, ${small.finished} finished, ${small.statements} statements, ${small.ms} ms`);
  console.log(`  ${size.toLocaleString("en-US").padStart(7)} subscriptions: ${large.paid} days paid, ${large.finished} finished, ${large.statements} statements, ${large.ms} ms`);
  console.log(`  same date again: ${again.paid} paid, ${again.statements} statements, ${again.ms} ms; ledger: ${invariants.unbalanced} unbalanced transactions, ${invariants.drifting} drifting accounts`);
}
