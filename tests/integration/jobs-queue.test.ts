// Daily jobs on the queue (issue 20 §4), in workerd with the real queue bindings of wrangler.toml:
// the cron's producer enqueues the fund income and the loans' late fees in chunks by user id
// range; the consumer settles each chunk in one batch; a message delivered twice pays (charges)
// once; a chunk that fails is retried and pays once when it goes through; a message that failed
// every delivery is recorded for operators, who can send it again. Ledger invariants after each test.
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { isJobMessage, userRanges, type FundIncomeChunk } from "~/domain/jobs";
import { subscribe } from "~/services/fund/commands.server";
import { fundIncomeRanges } from "~/services/fund/income.server";
import { loanPenaltyRanges } from "~/services/loan/penalties.server";
import { DAILY, JOBS_DEAD_LETTERS, JOBS_QUEUE, consumeJobs, runScheduledJobs } from "~/services/jobs.server";
import { checkInvariants } from "~/services/ledger/accounts.server";
import { userForToken } from "~/services/session.server";
import { cookiesFrom, createUser, form, fund, get, sessionFor, signedSessionCookie, visibleText } from "./helpers";

const USD = 1_000_000;
const at = (d: string) => Date.parse(`${d}T12:00:00Z`);

afterEach(async () => {
  await env.DB.prepare("DROP TRIGGER IF EXISTS injected_fault").run();
  expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
});

/** A product paying 1 % a day for `lock` days. */
async function product(lock: number) {
  return (await env.DB.prepare(
    `INSERT INTO funds (title, currency_code, dividend_percentage, starting_sub_amount, lock_dividend_days, max_sub_amount, liquidated_damages, auto_refund, status, sort)
     VALUES ('Queue fund', 'USDT', '1', ?1, ?2, ?3, '5', 0, 1, 99) RETURNING id`,
  )
    .bind(100 * USD, lock, 1000 * USD)
    .first<{ id: number }>())!.id;
}

/** `n` users, each with `subs` subscriptions of 100 USD (1 USD a day) made on `day`. */
async function subscribers(n: number, subs: number, fundId: number, day: string) {
  const ctx = await createServiceContext(env);
  const users = [];
  for (let i = 0; i < n; i++) {
    const user = await createUser();
    await fund(user.accounts.funding, 1_000 * USD);
    const session = (await userForToken(env.DB, await sessionFor(user.id)))!;
    for (let k = 0; k < subs; k++) {
      const s = await subscribe(ctx, session, { fundId, amount: "100", requestId: `queue-${user.id}-${k}` }, at(day));
      if (!s.ok) throw new Error(JSON.stringify(s.errors));
    }
    users.push(user);
  }
  return users;
}

async function incomeRows(userIds: number[]) {
  const { results } = await env.DB.prepare(
    "SELECT user_id AS userId, day, COUNT(*) AS n FROM fund_incomes WHERE user_id IN (SELECT value FROM json_each(?1)) GROUP BY user_id, day ORDER BY user_id, day",
  )
    .bind(JSON.stringify(userIds))
    .all<{ userId: number; day: string; n: number }>();
  return results;
}

function chunkMessages(ranges: { from: number; to: number | null }[], day: string): FundIncomeChunk[] {
  return ranges.map((r) => ({ job: "fund-income", day, now: at(day), from: r.from, to: r.to }));
}

/** Delivers messages to the Worker's queue handler as the platform does, and answers what it acknowledged or retried. */
async function deliver(queue: string, bodies: unknown[], attempts = 1) {
  const batch = createMessageBatch(
    queue,
    bodies.map((body, i) => ({ id: `m-${crypto.randomUUID()}-${i}`, timestamp: new Date(), attempts, body })),
  );
  const ctx = createExecutionContext();
  await consumeJobs(batch, env);
  return getQueueResult(batch, ctx);
}

describe("the funds' daily income on the queue", () => {
  it("chunks by user id range cover every user once, each user's subscriptions in one chunk", () => {
    expect(userRanges([])).toEqual([{ from: 0, to: null }]);
    expect(userRanges([10, 4, 10])).toEqual([
      { from: 0, to: 4 },
      { from: 4, to: 10 },
      { from: 10, to: null },
    ]);
    expect(isJobMessage({ job: "fund-income", day: "2042-02-30", now: 1, from: 0, to: null })).toBe(false);
    expect(isJobMessage({ job: "fund-income", day: "2042-02-03", now: 1, from: 5, to: 5 })).toBe(false);
    expect(isJobMessage({ job: "fund-income", day: "2042-02-03", now: 1, from: 0, to: 7 })).toBe(true);
  });

  it("each chunk pays its users' days in one batch; every message delivered twice (at least once) pays each day once", async () => {
    const fundId = await product(5);
    const users = await subscribers(5, 2, fundId, "2042-01-10");
    const ranges = await fundIncomeRanges(await createServiceContext(env), 3);
    // 3 subscriptions per chunk: several chunks, and a user's two subscriptions never split
    expect(ranges.length).toBeGreaterThan(2);
    for (const u of users) expect(ranges.filter((r) => r.from <= u.id && (r.to === null || u.id < r.to))).toHaveLength(1);
    const messages = chunkMessages(ranges, "2042-01-12");
    const first = await deliver(JOBS_QUEUE, [...messages, ...messages]);
    expect(first.explicitAcks).toHaveLength(messages.length * 2);
    expect(first.retryMessages).toEqual([]);
    // a redelivery later on changes nothing either
    await deliver(JOBS_QUEUE, messages, 2);
    const rows = await incomeRows(users.map((u) => u.id));
    // days 11 and 12, two subscriptions each, once
    expect(rows).toEqual(users.flatMap((u) => ["2042-01-11", "2042-01-12"].map((day) => ({ userId: u.id, day, n: 2 }))));
    for (const u of users) {
      const b = await env.DB.prepare("SELECT balance FROM accounts WHERE id = ?1").bind(u.accounts.funding).first<{ balance: number }>();
      expect(b!.balance).toBe(1_000 * USD - 200 * USD + 4 * USD);
    }
  });

  it("a user's day of income is ONE ledger transaction with a line per subscription, paid once when every message is delivered twice", async () => {
    const fundId = await product(5);
    const users = await subscribers(2, 3, fundId, "2042-02-10");
    const messages = chunkMessages(await fundIncomeRanges(await createServiceContext(env), 2), "2042-02-12");
    await deliver(JOBS_QUEUE, [...messages, ...messages]);
    await deliver(JOBS_QUEUE, messages, 2);
    for (const u of users) {
      // days 11 and 12: one transaction each, whose entries are a line per subscription on the
      // user's funding account and the platform's side once
      const { results: txs } = await env.DB.prepare(
        `SELECT t.id, (SELECT COUNT(*) FROM ledger_entries e WHERE e.transaction_id = t.id AND e.account_id = ?2 AND e.amount = ?3) AS lines,
                (SELECT COUNT(*) FROM ledger_entries e WHERE e.transaction_id = t.id AND e.account_id = 5 AND e.amount = ?4) AS platform,
                (SELECT COUNT(*) FROM ledger_entries e WHERE e.transaction_id = t.id) AS entries,
                (SELECT GROUP_CONCAT(DISTINCT f.day) FROM fund_incomes f WHERE f.ledger_tx = t.id) AS day,
                (SELECT COUNT(*) FROM fund_incomes f WHERE f.ledger_tx = t.id) AS incomes
           FROM ledger_transactions t WHERE t.user_id = ?1 AND t.kind = 'fund_income' ORDER BY t.id`,
      )
        .bind(u.id, u.accounts.funding, USD, -3 * USD)
        .all<{ id: number; lines: number; platform: number; entries: number; day: string; incomes: number }>();
      expect(txs.map((t) => ({ day: t.day, lines: t.lines, platform: t.platform, entries: t.entries, incomes: t.incomes }))).toEqual(
        ["2042-02-11", "2042-02-12"].map((day) => ({ day, lines: 3, platform: 1, entries: 4, incomes: 3 })),
      );
      const b = await env.DB.prepare("SELECT balance FROM accounts WHERE id = ?1").bind(u.accounts.funding).first<{ balance: number }>();
      expect(b!.balance).toBe(1_000 * USD - 300 * USD + 6 * USD);
    }
    expect(await incomeRows(users.map((u) => u.id))).toEqual(
      users.flatMap((u) => ["2042-02-11", "2042-02-12"].map((day) => ({ userId: u.id, day, n: 3 }))),
    );
  });

  it("a chunk D1 refuses is retried and changes nothing; once the cause is gone its redelivery pays once", async () => {
    const fundId = await product(3);
    const users = await subscribers(2, 1, fundId, "2042-03-01");
    await env.DB.prepare(
      `CREATE TRIGGER injected_fault BEFORE INSERT ON fund_incomes WHEN NEW.user_id = ${users[1]!.id} BEGIN SELECT RAISE(ABORT, 'injected fault'); END`,
    ).run();
    const messages = chunkMessages(
      [
        { from: users[0]!.id, to: users[1]!.id },
        { from: users[1]!.id, to: users[1]!.id + 1 },
      ],
      "2042-03-02",
    );
    const failed = await deliver(JOBS_QUEUE, messages);
    expect(failed.explicitAcks).toHaveLength(1);
    expect(failed.retryMessages).toEqual([{ msgId: expect.stringMatching(/-1$/) }]);
    expect(await incomeRows([users[1]!.id])).toEqual([]);
    expect(await incomeRows([users[0]!.id])).toEqual([{ userId: users[0]!.id, day: "2042-03-02", n: 1 }]);
    await env.DB.prepare("DROP TRIGGER injected_fault").run();
    const again = await deliver(JOBS_QUEUE, messages, 2);
    expect(again.retryMessages).toEqual([]);
    expect(await incomeRows(users.map((u) => u.id))).toEqual(users.map((u) => ({ userId: u.id, day: "2042-03-02", n: 1 })));
  });

  it("the daily cron enqueues the chunks and the queue's consumer pays them", async () => {
    const fundId = await product(4);
    const users = await subscribers(3, 1, fundId, "2042-05-01");
    const report = await runScheduledJobs(env, DAILY, at("2042-05-03"));
    expect(report["fund-income"]).toMatch(/^2042-05-03: \d+ chunks queued$/);
    // the platform delivers the messages to this Worker's consumer (wrangler.toml) shortly after
    let rows: Awaited<ReturnType<typeof incomeRows>> = [];
    for (let i = 0; i < 50 && rows.length < 6; i++) {
      await new Promise((r) => setTimeout(r, 200));
      rows = await incomeRows(users.map((u) => u.id));
    }
    expect(rows).toEqual(users.flatMap((u) => ["2042-05-02", "2042-05-03"].map((day) => ({ userId: u.id, day, n: 1 }))));
  });

  it("a message that failed every delivery is recorded for operators (and an unknown one at once); 'Send again' runs it once", async () => {
    const fundId = await product(2);
    const [user] = await subscribers(1, 1, fundId, "2042-07-01");
    const message = chunkMessages([{ from: user!.id, to: user!.id + 1 }], "2042-07-02")[0]!;
    const dead = await deliver(JOBS_DEAD_LETTERS, [message], 6);
    expect(dead.explicitAcks).toHaveLength(1);
    const unknown = await deliver(JOBS_QUEUE, [{ job: "wipe-everything" }]);
    expect(unknown.explicitAcks).toHaveLength(1);
    const { results } = await env.DB.prepare("SELECT id, queue, body, attempts, reason FROM job_dead_letters ORDER BY id").all<{
      id: number;
      queue: string;
      body: string;
      attempts: number;
      reason: string;
    }>();
    expect(results.map((r) => [r.queue, JSON.parse(r.body), r.reason])).toEqual([
      [JOBS_DEAD_LETTERS, message, "retries exhausted"],
      [JOBS_QUEUE, { job: "wipe-everything" }, "unknown message"],
    ]);
    const op = await createUser();
    await env.DB.prepare("UPDATE users SET role = 'operator' WHERE id = ?1").bind(op.id).run();
    const cookie = await signedSessionCookie(await sessionFor(op.id));
    const page = visibleText(await (await get("/admin/engine", { cookie })).text());
    expect(page).toContain("Daily jobs that failed");
    expect(page).toContain('"job":"fund-income","day":"2042-07-02"');
    // sent again: the consumer pays the day once
    const sent = await form("/admin/engine", { intent: "job-requeue", id: String(results[0]!.id) }, { cookie });
    expect(sent.status).toBe(302);
    expect(visibleText(await (await get("/admin/engine", { cookie: cookiesFrom(sent, cookie) })).text())).toContain(
      "Sent to the jobs queue again.",
    );
    let rows: Awaited<ReturnType<typeof incomeRows>> = [];
    for (let i = 0; i < 50 && rows.length < 1; i++) {
      await new Promise((r) => setTimeout(r, 200));
      rows = await incomeRows([user!.id]);
    }
    expect(rows).toEqual([{ userId: user!.id, day: "2042-07-02", n: 1 }]);
    expect(
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM job_dead_letters WHERE id = ?1").bind(results[0]!.id).first<{ n: number }>())!.n,
    ).toBe(0);
  });
});

/** `n` users, each with a loan of 1,000 USD at 0.25 % a day late fee (2.50 USD a day), at status 2 and due on `dueDay`. */
async function lateLoans(n: number, dueDay: string) {
  const loans: { id: number; userId: number }[] = [];
  for (let i = 0; i < n; i++) {
    const user = await createUser();
    const row = await env.DB.prepare(
      `INSERT INTO loans (user_id, config_id, amount, loan_period, free_period, interest_rate, penalty_rate, interest_amount, status, agreement, request_id, due_at)
       VALUES (?1, (SELECT MIN(id) FROM loan_configs), ?2, 30, 7, '5', '25', 0, 2, 'agreement', ?3, ?4) RETURNING id`,
    )
      .bind(user.id, 1_000 * USD, `queue-loan-${user.id}`, at(dueDay))
      .first<{ id: number }>();
    loans.push({ id: row!.id, userId: user.id });
  }
  return loans;
}

async function penaltyDays(loanIds: number[]) {
  const { results } = await env.DB.prepare(
    `SELECT l.id AS loanId, l.penalty_amount AS penalty, (SELECT json_group_array(day) FROM (SELECT day FROM loan_penalty_days p WHERE p.loan_id = l.id ORDER BY day)) AS days
       FROM loans l WHERE l.id IN (SELECT value FROM json_each(?1)) ORDER BY l.id`,
  )
    .bind(JSON.stringify(loanIds))
    .all<{ loanId: number; penalty: number; days: string }>();
  return results.map((r) => ({ loanId: r.loanId, penalty: r.penalty, days: JSON.parse(r.days) as string[] }));
}

function loanMessages(ranges: { from: number; to: number | null }[], day: string) {
  return ranges.map((r) => ({ job: "loan-penalties", day, now: at(day), from: r.from, to: r.to }));
}

describe("the loans' late fees on the queue", () => {
  it("chunks by user id range cover every late loan once", async () => {
    const loans = await lateLoans(5, "2042-01-10");
    // a loan repaid, under check or refused is no item of the job
    await env.DB.prepare("UPDATE loans SET status = 4 WHERE id = ?1").bind(loans[3]!.id).run();
    const ranges = await loanPenaltyRanges(await createServiceContext(env), 2);
    expect(ranges.length).toBeGreaterThanOrEqual(2);
    for (const l of loans) expect(ranges.filter((r) => r.from <= l.userId && (r.to === null || l.userId < r.to))).toHaveLength(1);
    expect(isJobMessage({ job: "loan-penalties", day: "2042-01-13", now: 1, from: 0, to: null })).toBe(true);
    expect(isJobMessage({ job: "loan-penalties", day: "13/01/2042", now: 1, from: 0, to: null })).toBe(false);
  });

  it("each chunk charges its users' late days in one batch; every message delivered twice (at least once) charges each day once", async () => {
    const loans = await lateLoans(5, "2042-01-10");
    const ranges = userRanges([loans[2]!.userId, loans[4]!.userId]);
    const messages = loanMessages(ranges, "2042-01-13");
    const first = await deliver(JOBS_QUEUE, [...messages, ...messages]);
    expect(first.explicitAcks).toHaveLength(messages.length * 2);
    expect(first.retryMessages).toEqual([]);
    await deliver(JOBS_QUEUE, messages, 2);
    // days 11, 12 and 13 late, 2.50 USD each, once
    expect(await penaltyDays(loans.map((l) => l.id))).toEqual(
      loans.map((l) => ({ loanId: l.id, penalty: 7_500_000, days: ["2042-01-11", "2042-01-12", "2042-01-13"] })),
    );
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM job_dead_letters WHERE body LIKE '%loan-penalties%'").first<{ n: number }>(),
    ).toEqual({ n: 0 });
  });

  it("a chunk D1 refuses is retried and charges nothing; once the cause is gone its redelivery charges each day once", async () => {
    const loans = await lateLoans(2, "2042-03-01");
    await env.DB.prepare(
      `CREATE TRIGGER injected_fault BEFORE INSERT ON loan_penalty_days WHEN NEW.loan_id = ${loans[1]!.id} BEGIN SELECT RAISE(ABORT, 'injected fault'); END`,
    ).run();
    const messages = loanMessages(
      [
        { from: loans[0]!.userId, to: loans[1]!.userId },
        { from: loans[1]!.userId, to: loans[1]!.userId + 1 },
      ],
      "2042-03-03",
    );
    const failed = await deliver(JOBS_QUEUE, messages);
    expect(failed.explicitAcks).toHaveLength(1);
    expect(failed.retryMessages).toEqual([{ msgId: expect.stringMatching(/-1$/) }]);
    expect(await penaltyDays(loans.map((l) => l.id))).toEqual([
      { loanId: loans[0]!.id, penalty: 5_000_000, days: ["2042-03-02", "2042-03-03"] },
      { loanId: loans[1]!.id, penalty: 0, days: [] },
    ]);
    await env.DB.prepare("DROP TRIGGER injected_fault").run();
    const again = await deliver(JOBS_QUEUE, messages, 2);
    expect(again.retryMessages).toEqual([]);
    expect(await penaltyDays(loans.map((l) => l.id))).toEqual(
      loans.map((l) => ({ loanId: l.id, penalty: 5_000_000, days: ["2042-03-02", "2042-03-03"] })),
    );
  });

  it("the daily cron enqueues the chunks and the queue's consumer charges them", async () => {
    const loans = await lateLoans(3, "2042-05-01");
    const report = await runScheduledJobs(env, DAILY, at("2042-05-03"));
    expect(report["loan-penalties"]).toMatch(/^2042-05-03: \d+ chunks queued$/);
    const want = loans.map((l) => ({ loanId: l.id, penalty: 5_000_000, days: ["2042-05-02", "2042-05-03"] }));
    let rows: Awaited<ReturnType<typeof penaltyDays>> = [];
    for (let i = 0; i < 50 && JSON.stringify(rows) !== JSON.stringify(want); i++) {
      await new Promise((r) => setTimeout(r, 200));
      rows = await penaltyDays(loans.map((l) => l.id));
    }
    expect(rows).toEqual(want);
  });
});
