// Mining / fund subscriptions through the real Worker and D1: subscribing moves exactly the amount
// (one subscription per request id), the daily income job is idempotent per date and catches up
// missed days once, the end of the lock returns the share once, redemption requests redeem once
// under concurrency (operator approval or the product's automatic rule), another user's
// subscription answers 404, and bad input changes nothing. Ledger invariants after each test.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { requestRedemption, subscribe } from "~/services/fund/commands.server";
import { payFundIncome } from "~/services/fund/income.server";
import { approveRedemption, rejectRedemption } from "~/services/fund/operator.server";
import { checkInvariants, PlatformAccount } from "~/services/ledger/accounts.server";
import { sessionIdOf, userForToken } from "~/services/session.server";
import { createUser, form, fund, get, sessionFor, signedSessionCookie, visibleText } from "./helpers";

type Api = { code: number; msg: string; data: Record<string, unknown> | null };
const USD = 1_000_000;
const day = (d: string) => Date.parse(`${d}T12:00:00Z`);

async function userWithCookie(options: { role?: "operator"; balance?: number } = {}) {
  const user = await createUser();
  if (options.role) await env.DB.prepare("UPDATE users SET role = 'operator' WHERE id = ?1").bind(user.id).run();
  if (options.balance) await fund(user.accounts.funding, options.balance);
  const token = await sessionFor(user.id);
  const session = (await userForToken(env.DB, token))!;
  return { user, token, session, cookie: await signedSessionCookie(token) };
}

async function operator() {
  const op = await userWithCookie({ role: "operator" });
  await env.DB.prepare("INSERT INTO operator_step_ups (session_id, verified_at) VALUES (?1, ?2)")
    .bind(await sessionIdOf(op.token), Date.now())
    .run();
  return op;
}

/** A product of the test's own: 1 % a day, 100..1,000 USD, `lock` days, 5 % penalty. */
async function product(options: { lock?: number; autoRefund?: 0 | 1; status?: 0 | 1; pct?: string } = {}) {
  const row = await env.DB.prepare(
    `INSERT INTO funds (title, currency_code, dividend_percentage, starting_sub_amount, lock_dividend_days, max_sub_amount, liquidated_damages, auto_refund, status, sort)
     VALUES ('Test fund', 'USDT', ?1, ?2, ?3, ?4, '5', ?5, ?6, 99) RETURNING id`,
  )
    .bind(options.pct ?? "1", 100 * USD, options.lock ?? 3, 1000 * USD, options.autoRefund ?? 0, options.status ?? 1)
    .first<{ id: number }>();
  return row!.id;
}

async function balance(accountId: number) {
  return (await env.DB.prepare("SELECT balance FROM accounts WHERE id = ?1").bind(accountId).first<{ balance: number }>())!.balance;
}

async function sub(id: number) {
  return (await env.DB.prepare(
    "SELECT status, share_amount AS share, day_profit AS dayProfit, sum_profit AS sumProfit, penalty, start_day AS startDay, end_day AS endDay FROM fund_subscriptions WHERE id = ?1",
  )
    .bind(id)
    .first<{
      status: number;
      share: number;
      dayProfit: number;
      sumProfit: number;
      penalty: number;
      startDay: string;
      endDay: string;
    }>())!;
}

async function incomes(subId: number) {
  const { results } = await env.DB.prepare("SELECT day, interest FROM fund_incomes WHERE sub_id = ?1 ORDER BY day")
    .bind(subId)
    .all<{ day: string; interest: number }>();
  return results;
}

async function api(path: string, cookie: string, fields: Record<string, string> = {}): Promise<Api> {
  return (await (await form(path, fields, { cookie })).json()) as Api;
}

const ctx = () => createServiceContext(env);

afterEach(async () => {
  expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
});

describe("subscribing", () => {
  it("moves exactly the amount from the funding account to platform:funds, once per request id", async () => {
    const u = await userWithCookie({ balance: 500 * USD });
    const fundId = await product({ lock: 30 });
    const fundsBefore = await balance(PlatformAccount.Funds.id);
    const fields = { id: String(fundId), amount: "150.55", request_id: "req-subscribe-1" };
    const [a, b] = await Promise.all([api("/api/fund/buy", u.cookie, fields), api("/api/fund/buy", u.cookie, fields)]);
    expect([a.code, b.code]).toEqual([1, 1]);
    expect(a.data!.id).toBe(b.data!.id);
    expect(a.data!.day_profit).toBe("1.5055"); // 1 % of 150.55
    expect(a.data!.total_profit).toBe("45.1650");
    expect(await balance(u.user.accounts.funding)).toBe(500 * USD - 150_550_000);
    expect(await balance(PlatformAccount.Funds.id)).toBe(fundsBefore + 150_550_000);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM fund_subscriptions WHERE user_id = ?1")
      .bind(u.user.id)
      .first<{ n: number }>();
    expect(rows!.n).toBe(1);
    const list = await (await get("/api/fund/subList", { cookie: u.cookie })).json<Api>();
    const first = (list.data!.data as Record<string, unknown>[])[0]!;
    expect(first).toMatchObject({
      status: 1,
      share_amount: "150.55",
      day_profit: "1.5055",
      sum_profit: "0.0000",
      get_fund: { title: "Test fund", currency_code: "USDT", liquidated_damages: "5" },
    });
    // the same request id with another amount moves nothing and answers with the subscription as it was made
    const again = await api("/api/fund/buy", u.cookie, { ...fields, amount: "100" });
    expect(again.code).toBe(1);
    expect(again.data).toMatchObject({
      id: a.data!.id,
      created: false,
      share_amount: "150.55",
      day_profit: "1.5055",
      total_profit: "45.1650",
    });
    expect(await balance(u.user.accounts.funding)).toBe(500 * USD - 150_550_000);
  });

  it("refuses a closed product, amounts out of bounds, non-numeric and above the balance: nothing changes", async () => {
    const u = await userWithCookie({ balance: 300 * USD });
    const open = await product();
    const closed = await product({ status: 0 });
    const cases: [Record<string, string>, string][] = [
      [{ id: String(closed), amount: "150" }, "closed"],
      [{ id: String(open), amount: "99.99" }, "minimum"],
      [{ id: String(open), amount: "1000.01" }, "maximum"],
      [{ id: String(open), amount: "abc" }, "valid amount"],
      [{ id: String(open), amount: "-150" }, "valid amount"],
      [{ id: String(open), amount: "" }, "lock"],
      [{ id: String(open), amount: "300.01" }, "balance"],
      [{ id: "nope", amount: "150" }, "closed"],
    ];
    for (const [fields, words] of cases) {
      const res = await form("/api/fund/buy", fields, { cookie: u.cookie });
      expect(res.status).toBeLessThan(500);
      const body = (await res.json()) as Api;
      expect(body.code).toBe(0);
      expect(body.msg.toLowerCase()).toContain(words);
    }
    expect(await balance(u.user.accounts.funding)).toBe(300 * USD);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM fund_subscriptions WHERE user_id = ?1")
      .bind(u.user.id)
      .first<{ n: number }>();
    expect(rows!.n).toBe(0);
    // the page refuses the same way, with the error next to the field
    const page = await form(
      `/mining/subscribe?id=${open}`,
      { intent: "fund-review", id: String(open), amount: "5000" },
      { cookie: u.cookie },
    );
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("maximum");
  });

  it("the mining time is written in the reader's language, also where numbers use en-US formats (Arabic, Czech, Burmese)", async () => {
    const u = await userWithCookie({ balance: 500 * USD });
    const fundId = await product({ lock: 30 });
    const page = (lang: string) =>
      get(`/mining/subscribe?id=${fundId}`, { cookie: u.cookie, headers: { "accept-language": lang } })
        .then((r) => r.text())
        .then(visibleText);
    const ar = await page("ar");
    expect(ar).toContain("30 يومًا");
    expect(ar).not.toContain("30 days");
    expect(await page("cs")).toContain("30 dnů");
    expect(await page("en")).toContain("30 days");
  });

  it("the confirm step's terms are the terms subscribed: changed meanwhile, the confirm is refused with the new terms shown", async () => {
    const u = await userWithCookie({ balance: 500 * USD });
    const fundId = await product({ pct: "0.8", lock: 30 });
    const path = `/mining/subscribe?id=${fundId}`;
    const review = await (
      await form(path, { intent: "fund-review", id: String(fundId), amount: "200", request_id: "req-terms-1" }, { cookie: u.cookie })
    ).text();
    expect(visibleText(review)).toContain("1.6000"); // 200 × 0.8 % a day
    const terms = /name="terms" value="([^"]+)"/.exec(review)![1]!;
    await env.DB.prepare("UPDATE funds SET dividend_percentage = '0.4' WHERE id = ?1").bind(fundId).run();
    const refused = await form(
      path,
      { intent: "fund-subscribe", id: String(fundId), amount: "200", request_id: "req-terms-1", terms },
      { cookie: u.cookie },
    );
    expect(refused.status).toBe(409);
    const text = visibleText(await refused.text());
    expect(text).toContain("This product's terms changed since you confirmed.");
    expect(text).toContain("0.4"); // the page shows the new expected profit
    expect(await balance(u.user.accounts.funding)).toBe(500 * USD);
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM fund_subscriptions WHERE user_id = ?1").bind(u.user.id).first<{ n: number }>(),
    ).toEqual({ n: 0 });
    // confirmed again on the new terms, it subscribes at 0.8000 a day
    const again = await (
      await form(path, { intent: "fund-review", id: String(fundId), amount: "200", request_id: "req-terms-2" }, { cookie: u.cookie })
    ).text();
    const fresh = /name="terms" value="([^"]+)"/.exec(again)![1]!;
    const done = await form(
      path,
      { intent: "fund-subscribe", id: String(fundId), amount: "200", request_id: "req-terms-2", terms: fresh },
      { cookie: u.cookie },
    );
    expect(done.status).toBe(302);
    expect(
      await env.DB.prepare("SELECT day_profit AS d FROM fund_subscriptions WHERE user_id = ?1").bind(u.user.id).first<{ d: number }>(),
    ).toEqual({ d: 800_000 });
    // the same confirm sent again after another change: it already subscribed, so it answers with that, once
    await env.DB.prepare("UPDATE funds SET dividend_percentage = '0.3' WHERE id = ?1").bind(fundId).run();
    const resent = await form(
      path,
      { intent: "fund-subscribe", id: String(fundId), amount: "200", request_id: "req-terms-2", terms: fresh },
      { cookie: u.cookie },
    );
    expect(resent.status).toBe(302);
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM fund_subscriptions WHERE user_id = ?1").bind(u.user.id).first<{ n: number }>(),
    ).toEqual({ n: 1 });
  });

  it("a product closed between the check and the write refuses the whole batch", async () => {
    const u = await userWithCookie({ balance: 300 * USD });
    const fundId = await product();
    const c = await ctx();
    const trigger = await env.DB.prepare(
      "CREATE TRIGGER IF NOT EXISTS close_fund_for_test BEFORE INSERT ON ledger_entries WHEN NEW.amount = -123450000 BEGIN UPDATE funds SET status = 0 WHERE id = " +
        fundId +
        "; END",
    ).run();
    expect(trigger.success).toBe(true);
    try {
      const result = await subscribe(c, u.session, { fundId, amount: "123.45", requestId: "req-closed-race" });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.errors.form).toBe("fund.closed");
    } finally {
      await env.DB.prepare("DROP TRIGGER close_fund_for_test").run();
    }
    expect(await balance(u.user.accounts.funding)).toBe(300 * USD);
  });
});

describe("the daily income job", () => {
  it("the account statement shows each day's income exactly (0.5268, not 0.53), page and CSV, adding up to the balance", async () => {
    const u = await userWithCookie({ balance: 500 * USD });
    const fundId = await product({ lock: 5, pct: "0.35" });
    const c = await ctx();
    const s = await subscribe(c, u.session, { fundId, amount: "150.50", requestId: "req-exact-1" }, day("2040-04-10"));
    expect(s.ok).toBe(true);
    const before = await balance(u.user.accounts.funding);
    await payFundIncome(c, day("2040-04-12")); // two days: 150.50 × 0.35 % = 0.52675 → 0.5268 each
    expect(await balance(u.user.accounts.funding)).toBe(before + 2 * 526_800);
    const page = visibleText(await (await get("/mine/history?accountTypeId=1", { cookie: u.cookie })).text());
    expect(page.match(/\+ ?0\.5268/g)?.length).toBe(2);
    expect(page).not.toMatch(/\+ ?0\.53\b/);
    expect(page).toContain("Available 350.5536 USD"); // 500 − 150.50 + 2 × 0.5268
    const csv = await (await get("/mine/history.csv?accountTypeId=1", { cookie: u.cookie })).text();
    expect(csv.match(/,0\.5268(\r?\n|$)/g)?.length).toBe(2);
  });

  it("pays each day once: twice on the same date changes nothing; a missed day is caught up once", async () => {
    const u = await userWithCookie({ balance: 500 * USD });
    const fundId = await product({ lock: 5 });
    const c = await ctx();
    const s = await subscribe(c, u.session, { fundId, amount: "200", requestId: "req-job-1" }, day("2040-03-10"));
    expect(s.ok).toBe(true);
    const id = s.ok ? s.value.id : 0;
    expect(await sub(id)).toMatchObject({ startDay: "2040-03-11", endDay: "2040-03-15", dayProfit: 2 * USD });
    const afterSubscribe = await balance(u.user.accounts.funding);

    await payFundIncome(c, day("2040-03-10")); // the subscribe day: nothing yet
    expect(await incomes(id)).toEqual([]);
    const first = await payFundIncome(c, day("2040-03-11"));
    expect(first.paid).toBeGreaterThanOrEqual(1);
    const again = await payFundIncome(c, day("2040-03-11"));
    expect(again.paid).toBe(0);
    expect(await incomes(id)).toEqual([{ day: "2040-03-11", interest: 2 * USD }]);
    expect(await balance(u.user.accounts.funding)).toBe(afterSubscribe + 2 * USD);

    // no run on 03-12 and 03-13: the run of 03-14 pays 12, 13, 14 — once
    await payFundIncome(c, day("2040-03-14"));
    await payFundIncome(c, day("2040-03-14"));
    expect((await incomes(id)).map((i) => i.day)).toEqual(["2040-03-11", "2040-03-12", "2040-03-13", "2040-03-14"]);
    expect(await sub(id)).toMatchObject({ status: 1, sumProfit: 8 * USD });
    expect(await balance(u.user.accounts.funding)).toBe(afterSubscribe + 8 * USD);
    // the statement count does not depend on the number of subscriptions
    expect(first.statements).toBe(again.statements);
  });

  it("returns the share once at the end of the lock (status 4) after the last day is paid", async () => {
    const u = await userWithCookie({ balance: 500 * USD });
    const fundId = await product({ lock: 2 });
    const c = await ctx();
    const s = await subscribe(c, u.session, { fundId, amount: "100", requestId: "req-finish-1" }, day("2041-05-01"));
    const id = s.ok ? s.value.id : 0;
    const before = await balance(u.user.accounts.funding);
    // the job did not run during the lock: the first run after its end pays both days and returns the share
    const run = await payFundIncome(c, day("2041-05-09"));
    expect(run.finished).toBeGreaterThanOrEqual(1);
    await payFundIncome(c, day("2041-05-09"));
    await payFundIncome(c, day("2041-05-10"));
    expect(await sub(id)).toMatchObject({ status: 4, sumProfit: 2 * USD });
    expect(await incomes(id)).toHaveLength(2);
    expect(await balance(u.user.accounts.funding)).toBe(before + 100 * USD + 2 * USD);
    const finishes = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_transactions WHERE idempotency_key = ?1")
      .bind(`fund_finish:${id}`)
      .first<{ n: number }>();
    expect(finishes!.n).toBe(1);
  });

  it("runs from the scheduled handler's daily cron (as chunks on the jobs queue: tests/integration/jobs-queue.test.ts)", async () => {
    const { runScheduledJobs } = await import("~/services/jobs.server");
    const report = await runScheduledJobs(env, "0 3 * * *");
    expect(String(report["fund-income"])).toMatch(/\d+ chunks queued/);
  });
});

describe("redemption", () => {
  it("concurrent requests redeem once; the operator's approval returns share − penalty once (→ 3)", async () => {
    const u = await userWithCookie({ balance: 500 * USD });
    const fundId = await product({ lock: 30 });
    const bought = await api("/api/fund/buy", u.cookie, { id: String(fundId), amount: "200", request_id: "req-redeem-1" });
    const id = Number(bought.data!.id);
    const before = await balance(u.user.accounts.funding);
    const answers = await Promise.all(Array.from({ length: 5 }, () => api("/api/fund/applyRefund", u.cookie, { sub_id: String(id) })));
    expect(answers.filter((a) => a.code === 1)).toHaveLength(1);
    expect(answers.filter((a) => a.code === 0).every((a) => /in progress|redeem/i.test(a.msg))).toBe(true);
    expect(await sub(id)).toMatchObject({ status: 2, penalty: 10 * USD }); // 5 % of 200
    // no income while refunding
    const c = await ctx();
    const op = await operator();
    const approvals = await Promise.all([1, 2, 3].map(() => approveRedemption(c, op.session, "", id)));
    // without the session id the step-up guard refuses: nothing moved
    expect(approvals.every((a) => !a.ok)).toBe(true);
    expect(await balance(u.user.accounts.funding)).toBe(before);
    const sessionId = await sessionIdOf(op.token);
    const real = await Promise.all([1, 2, 3].map(() => approveRedemption(c, op.session, sessionId, id)));
    expect(real.filter((a) => a.ok)).toHaveLength(1);
    expect(await sub(id)).toMatchObject({ status: 3 });
    expect(await balance(u.user.accounts.funding)).toBe(before + 190 * USD);
    // redeeming twice or outside status 1
    const twice = await api("/api/fund/applyRefund", u.cookie, { sub_id: String(id) });
    expect(twice.code).toBe(0);
  });

  it("the operator's rejection returns it to status 1 without moving money; the console lists it", async () => {
    const u = await userWithCookie({ balance: 500 * USD });
    const fundId = await product({ lock: 30 });
    const c = await ctx();
    const s = await subscribe(c, u.session, { fundId, amount: "100", requestId: "req-reject-1" });
    const id = s.ok ? s.value.id : 0;
    expect((await requestRedemption(c, u.session, id)).ok).toBe(true);
    const op = await operator();
    const page = await get("/admin/funds", { cookie: op.cookie });
    expect(page.status).toBe(200);
    expect(visibleText(await page.text())).toContain(u.user.email!);
    const before = await balance(u.user.accounts.funding);
    const res = await form("/admin/funds", { intent: "reject", id: String(id), reason: "Lock period applies" }, { cookie: op.cookie });
    expect(res.status).toBe(302);
    expect(await sub(id)).toMatchObject({ status: 1, penalty: 0 });
    expect(await balance(u.user.accounts.funding)).toBe(before);
    expect((await rejectRedemption(c, op.session, id, "again")).ok).toBe(false);
    // a second request after the rejection works
    expect((await requestRedemption(c, u.session, id)).ok).toBe(true);
  });

  it("a product with auto_refund approves at once: share − penalty back, status 3", async () => {
    const u = await userWithCookie({ balance: 500 * USD });
    const fundId = await product({ lock: 7, autoRefund: 1 });
    const bought = await api("/api/fund/buy", u.cookie, { id: String(fundId), amount: "250.50", request_id: "req-auto-1" });
    const id = Number(bought.data!.id);
    const before = await balance(u.user.accounts.funding);
    const answer = await api("/api/fund/applyRefund", u.cookie, { sub_id: String(id) });
    expect(answer.code).toBe(1);
    expect(answer.data).toMatchObject({ status: 3, penalty: "12.53" }); // 5 % of 250.50 = 12.525 → 12.53
    expect(await balance(u.user.accounts.funding)).toBe(before + 250_500_000 - 12_530_000);
    expect(await sub(id)).toMatchObject({ status: 3 });
  });

  it("another user's subscription answers 404 alike (income list, refund, pages)", async () => {
    const owner = await userWithCookie({ balance: 500 * USD });
    const other = await userWithCookie({ balance: 500 * USD });
    const fundId = await product();
    const bought = await api("/api/fund/buy", owner.cookie, { id: String(fundId), amount: "100", request_id: "req-idor-1" });
    const id = String(bought.data!.id);
    const ins = await get(`/api/fund/insList?sub_id=${id}`, { cookie: other.cookie });
    expect(ins.status).toBe(404);
    const missing = await get(`/api/fund/insList?sub_id=999999999`, { cookie: other.cookie });
    expect(missing.status).toBe(404);
    const refund = await api("/api/fund/applyRefund", other.cookie, { sub_id: id });
    expect(refund.code).toBe(0);
    expect((await sub(Number(id))).status).toBe(1);
    expect((await get(`/mining/income?id=${id}`, { cookie: other.cookie })).status).toBe(404);
    expect((await get(`/mining/income?id=${id}`, { cookie: owner.cookie })).status).toBe(200);
    const redeemPage = await form(`/mining/record`, { intent: "fund-redeem", sub_id: id }, { cookie: other.cookie });
    expect(redeemPage.status).toBe(404);
    expect((await sub(Number(id))).status).toBe(1);
  });
});

describe("the operator's products", () => {
  it("edits are validated; a closed product leaves the list and refuses subscriptions; existing subscriptions keep their terms", async () => {
    const u = await userWithCookie({ balance: 500 * USD });
    const op = await operator();
    const fundId = await product({ lock: 10 });
    const bought = await api("/api/fund/buy", u.cookie, { id: String(fundId), amount: "100", request_id: "req-edit-1" });
    const id = Number(bought.data!.id);
    const save = (fields: Record<string, string>) =>
      form(
        "/admin/funds",
        {
          intent: "fund-save",
          fund_id: String(fundId),
          dividend_percentage: "2",
          starting_sub_amount: "100",
          max_sub_amount: "1000",
          lock_dividend_days: "10",
          liquidated_damages: "5",
          status: "1",
          ...fields,
        },
        { cookie: op.cookie },
      );
    const bads: Record<string, string>[] = [
      { dividend_percentage: "-1" },
      { dividend_percentage: "abc" },
      { max_sub_amount: "50" },
      { lock_dividend_days: "0" },
      { liquidated_damages: "101" },
      { starting_sub_amount: "1e3" },
    ];
    for (const bad of bads) {
      const res = await save(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      // the refused form shows what was typed
      const [name, value] = Object.entries(bad)[0]!;
      expect(await res.text(), name).toMatch(
        new RegExp(`name="${name}"[^>]*value="${value.replace(".", "\\.")}"|value="${value.replace(".", "\\.")}"[^>]*name="${name}"`),
      );
    }
    const unchanged = await env.DB.prepare("SELECT dividend_percentage AS pct, status FROM funds WHERE id = ?1")
      .bind(fundId)
      .first<{ pct: string; status: number }>();
    expect(unchanged).toEqual({ pct: "1", status: 1 });
    // close it (the status box unticked) and raise the profit
    const closed = await form(
      "/admin/funds",
      {
        intent: "fund-save",
        fund_id: String(fundId),
        dividend_percentage: "2",
        starting_sub_amount: "100",
        max_sub_amount: "1000",
        lock_dividend_days: "10",
        liquidated_damages: "5",
      },
      { cookie: op.cookie },
    );
    expect(closed.status).toBe(302);
    const list = await (await get("/api/fund/list?page=1")).json<Api>();
    expect((list.data!.data as { id: number }[]).some((f) => f.id === fundId)).toBe(false);
    const refused = await api("/api/fund/buy", u.cookie, { id: String(fundId), amount: "100", request_id: "req-edit-2" });
    expect(refused.code).toBe(0);
    expect((await get(`/mining/subscribe?id=${fundId}`, { cookie: u.cookie })).status).toBe(404);
    expect(await sub(id)).toMatchObject({ dayProfit: 1 * USD, status: 1 });
    // a user cannot use the console
    expect((await form("/admin/funds", { intent: "fund-save", fund_id: String(fundId), status: "1" }, { cookie: u.cookie })).status).toBe(
      404,
    );
  });
});
