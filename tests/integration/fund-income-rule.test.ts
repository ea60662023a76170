// The funds' daily income, one rule (issue 21 §3): the daily job pays in bulk in SQL
// (app/services/fund/income.server.ts), and app/domain/fund.ts states the rule (dayProfit,
// dueIncomeDays, isDueToFinish). Here the production job runs on random subscriptions (random
// products, amounts, lock days, subscription days, redemption requests and run days, missed days
// and repeated runs included) and every subscription's income rows, paid profit and status must be
// what the domain functions give for the same subscription. The job's chunk query must also read
// a chunk's subscriptions through the user-range index, not every subscription in progress.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { SubscriptionStatus, addDays, dayProfit, dueIncomeDays, isDueToFinish } from "~/domain/fund";
import { requestRedemption, subscribe } from "~/services/fund/commands.server";
import { DUE_INCOME, payFundIncomeChunk } from "~/services/fund/income.server";
import { checkInvariants } from "~/services/ledger/accounts.server";
import { userForToken } from "~/services/session.server";
import { createUser, fund, sessionFor } from "./helpers";

const USD = 1_000_000;
const at = (d: string) => Date.parse(`${d}T12:00:00Z`);

afterEach(async () => {
  expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
});

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Percentages that round every way, and 0 (a product paying nothing, as an operator may set one). */
const PERCENTS = ["0", "0.0001", "0.35", "0.8", "1", "2.5", "7.123456"];

interface ModelSub {
  id: number;
  startDay: string;
  endDay: string;
  lockDays: number;
  dayProfit: number;
  status: number;
  paid: string[];
}

async function product(pct: string, lock: number) {
  return (await env.DB.prepare(
    `INSERT INTO funds (title, currency_code, dividend_percentage, starting_sub_amount, lock_dividend_days, max_sub_amount, liquidated_damages, auto_refund, status, sort)
     VALUES ('Rule fund', 'USDT', ?1, ?2, ?3, ?4, '5', 0, 1, 99) RETURNING id`,
  )
    .bind(pct, 1 * USD, lock, 5000 * USD)
    .first<{ id: number }>())!.id;
}

async function dbSub(id: number) {
  return (await env.DB.prepare("SELECT status, day_profit AS dayProfit, sum_profit AS sumProfit FROM fund_subscriptions WHERE id = ?1")
    .bind(id)
    .first<{ status: number; dayProfit: number; sumProfit: number }>())!;
}

async function dbIncomes(id: number) {
  const { results } = await env.DB.prepare("SELECT day, interest FROM fund_incomes WHERE sub_id = ?1 ORDER BY day")
    .bind(id)
    .all<{ day: string; interest: number }>();
  return results;
}

describe("the daily income: the job's SQL and the domain's rule agree", () => {
  for (const seed of [21, 2021]) {
    it(`on random subscriptions and run days (seed ${seed})`, async () => {
      const random = rng(seed);
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
      const ctx = await createServiceContext(env);
      const base = "2043-03-01";
      const products = await Promise.all(
        PERCENTS.map(async (pct) => {
          const lock = 1 + Math.floor(random() * 6);
          return { id: await product(pct, lock), pct, lock };
        }),
      );
      const users = [];
      for (let i = 0; i < 8; i++) {
        const user = await createUser();
        await fund(user.accounts.funding, 10_000 * USD);
        users.push({ id: user.id, session: (await userForToken(env.DB, await sessionFor(user.id)))! });
      }
      const model: (ModelSub & { owner: (typeof users)[number] })[] = [];
      for (const [u, user] of users.entries()) {
        const count = 1 + Math.floor(random() * 3);
        for (let k = 0; k < count; k++) {
          const p = pick(products);
          const cents = 100 + Math.floor(random() * 50_000);
          const amount = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
          const on = addDays(base, Math.floor(random() * 6));
          const made = await subscribe(ctx, user.session, { fundId: p.id, amount, requestId: `rule-${seed}-${u}-${k}` }, at(on));
          expect(made.ok).toBe(true);
          if (!made.ok) return;
          const q = made.value.quote;
          model.push({
            owner: user,
            id: made.value.id,
            startDay: q.startDay,
            endDay: q.endDay,
            lockDays: p.lock,
            dayProfit: dayProfit(cents * 10_000, p.pct),
            status: SubscriptionStatus.InProgress,
            paid: [],
          });
        }
      }
      const range = { from: Math.min(...users.map((u) => u.id)), to: Math.max(...users.map((u) => u.id)) + 1 };
      let runDay = base;
      for (let run = 0; run < 14; run++) {
        // the next run: the same day again, the next day, or after missed days
        runDay = addDays(runDay, Math.floor(random() * 3));
        for (const s of model) {
          if (s.status === SubscriptionStatus.InProgress && random() < 0.06) {
            expect((await requestRedemption(ctx, s.owner.session, s.id, at(runDay))).ok).toBe(true);
            s.status = SubscriptionStatus.Refunding;
          }
        }
        await payFundIncomeChunk(ctx, at(runDay) + run, runDay, range);
        for (const s of model) {
          if (s.status === SubscriptionStatus.InProgress) {
            s.paid.push(...dueIncomeDays({ ...s, paidDays: s.paid.length }, runDay));
            if (isDueToFinish({ ...s, paidDays: s.paid.length }, runDay)) s.status = SubscriptionStatus.Finished;
          }
          const row = await dbSub(s.id);
          const where = `subscription ${s.id} after the run of ${runDay}`;
          expect({ where, ...row }).toEqual({ where, status: s.status, dayProfit: s.dayProfit, sumProfit: s.paid.length * s.dayProfit });
          expect({ where, incomes: await dbIncomes(s.id) }).toEqual({
            where,
            incomes: s.paid.map((day) => ({ day, interest: s.dayProfit })),
          });
        }
      }
      // the runs went far enough for subscriptions to finish
      expect(model.some((s) => s.status === SubscriptionStatus.Finished)).toBe(true);
    });
  }
});

describe("the daily job's chunk query", () => {
  it("reads a chunk's subscriptions by the user-range index", async () => {
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN WITH RECURSIVE ${DUE_INCOME} SELECT sub_id, user_id, day FROM unpaid`)
      .bind(1, "2043-03-10", 1000, 2000)
      .all<{ detail: string }>();
    const reads = results.map((r) => r.detail).filter((d) => /\bfund_subscriptions\b/.test(d));
    expect(reads).toEqual([expect.stringMatching(/USING INDEX fund_subscriptions_(user|request) \(user_id>\? AND user_id<\?\)/)]);
  });
});
