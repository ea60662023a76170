// The figures a user reads (issue 19 §1, §2) through the real Worker: today's profit is the day's
// realised result (not money coming back), and a balance is never shown larger than what can be
// moved, on every screen and in the JSON API; "transfer all" moves the exact amount.
import { SELF, env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { Side } from "~/domain/contract";
import { todayProfit } from "~/services/account.server";
import { closeOrder, placeOrder } from "~/services/contract/commands.server";
import { PlatformAccount, checkInvariants } from "~/services/ledger/accounts.server";
import { post } from "~/services/ledger/post.server";
import { buyOption } from "~/services/option/commands.server";
import { transfer } from "~/services/wallet.server";
import {
  accountBalances,
  createUser,
  form,
  fund,
  get,
  holdPrice,
  mainRoom,
  sessionFor,
  signedSessionCookie,
  tickMain,
  visibleText,
} from "./helpers";

const USD = 1_000_000;

function api(path: string, token: string, init: { method?: "GET" | "POST"; body?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { host: "localhost", lang: "en", authorization: token };
  if (init.body) headers["content-type"] = "application/x-www-form-urlencoded";
  return SELF.fetch(`http://localhost${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.body ? new URLSearchParams(init.body).toString() : undefined,
    redirect: "manual",
  });
}
const json = async <T = Record<string, unknown>>(res: Response) => (await res.json()) as { code: number; msg: string; data: T };
const page = async (path: string, cookie: string) => visibleText(await (await get(path, { cookie })).text());

async function signedIn(user: Awaited<ReturnType<typeof createUser>>) {
  const token = await sessionFor(user.id);
  return { ...user, token, cookie: await signedSessionCookie(token) };
}

afterEach(async () => {
  expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
});

describe("today's profit is the day's realised result", () => {
  it("won and lost options, positions closed in profit and in loss and a fee on an open one count; a deposit, transfers, stakes and margins coming back do not", async () => {
    const ctx = await createServiceContext(env);
    const u = await signedIn(await createUser());
    await fund(u.accounts.funding, 1_000 * USD); // a deposit
    for (const to of ["2", "3"]) expect((await transfer(ctx, { id: u.id, isDemo: false }, { from: "1", to, amount: "300" })).ok).toBe(true);

    // options: 100 up wins at 0.80 (+80.00), 50 down loses (−50.00)
    await holdPrice("ETHUSDT", 2_000);
    const up = await buyOption(ctx, u.id, { instrumentId: 2, direction: 1, amount: "100", seconds: 30 });
    const down = await buyOption(ctx, u.id, { instrumentId: 2, direction: 2, amount: "50", seconds: 30 });
    if (!up.ok || !down.ok) throw new Error("buying failed");
    await mainRoom().setPrice("ETHUSDT", 2_020);
    await tickMain(up.value.expiresAt);
    expect((await accountBalances(u.accounts.options)).balance).toBe(330 * USD);

    // contracts: 0.01 BTC × 10 at 50,000 (margin 50, fee 0.025 each); A closes at 51,000 (+10), B at 49,500 (−5);
    // C opens at 49,500 (fee 0.02475) and stays open
    await holdPrice("BTCUSDT", 50_000);
    const order = { side: Side.Buy, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10 } as const;
    const a = await placeOrder(ctx, u.id, order);
    const b = await placeOrder(ctx, u.id, order);
    if (!a.ok || !b.ok) throw new Error("placing failed");
    expect([a.value.fee, b.value.fee]).toEqual([25_000, 25_000]);
    await holdPrice("BTCUSDT", 51_000);
    expect((await closeOrder(ctx, u.id, a.value.id)).ok).toBe(true);
    await holdPrice("BTCUSDT", 49_500);
    expect((await closeOrder(ctx, u.id, b.value.id)).ok).toBe(true);
    const c = await placeOrder(ctx, u.id, order);
    if (!c.ok) throw new Error("placing failed");
    expect(c.value.fee).toBe(24_750);

    // by hand: 80 − 50 + 10 − 5 − 0.025 − 0.025 − 0.02475 = 34.92525
    const expected = 34_925_250;
    const figures = await todayProfit(ctx, u.id);
    expect(figures.profit).toBe(expected);
    // total = 1,000 deposited + 34.92525; 34.92525 / 1,034.92525 × 100 = 3.3746… → 3.37 (spec §9)
    expect(figures.total).toBe(1_000 * USD + expected);
    expect(figures.percent).toBe("3.37");

    expect((await json(await api("/api/user/get_profits", u.token))).data).toEqual({ profit: "34.93", percent: "3.37" });
    expect(await page("/", u.cookie)).toMatch(/Today's profit ?: \+ ?34\.93 \( ?3\.37 ?%\)/);
    const accounts = await page("/mine/accounts", u.cookie);
    expect(accounts).toMatch(/Today's profit \+ ?34\.93 Today's return \+ ?3\.37 ?%/);
    expect(accounts).toContain("1,034.92 USD");
    expect(await page("/user", u.cookie)).toContain("1,034.92 USD");
  });
});

describe("today's profit of copy trading and loans", () => {
  it("a copy's profit share counts for the follower (less) and the trader (more); loan interest and penalty paid count as a loss", async () => {
    const ctx = await createServiceContext(env);
    const follower = await signedIn(await createUser());
    const trader = await signedIn(await createUser());
    await fund(follower.accounts.contract, 100 * USD);
    // the shapes the services post: a copy opened (margin 50 locked, fee 0.025), closed at +10 with the trader's 10% share
    await post(env.DB, {
      idempotencyKey: crypto.randomUUID(),
      kind: "trade_margin",
      userId: follower.id,
      postings: [
        { accountId: follower.accounts.contract, amount: -50_025_000 },
        { accountId: follower.accounts.contract, bucket: 1, amount: 50 * USD },
        { accountId: PlatformAccount.Fees.id, amount: 25_000 },
      ],
    });
    await post(env.DB, {
      idempotencyKey: crypto.randomUUID(),
      kind: "trade_settle",
      userId: follower.id,
      postings: [
        { accountId: follower.accounts.contract, bucket: 1, amount: -50 * USD },
        { accountId: follower.accounts.contract, amount: 50 * USD + 10 * USD - 1 * USD },
        { accountId: PlatformAccount.Counterparty.id, amount: -10 * USD },
        { accountId: trader.accounts.contract, amount: 1 * USD },
      ],
    });
    // a loan repaid from outside: principal 100, interest 2.50, penalty 0.50 (approveRepayment's postings)
    await post(env.DB, {
      idempotencyKey: crypto.randomUUID(),
      kind: "loan_repay",
      userId: follower.id,
      postings: [
        { accountId: PlatformAccount.ExternalDeposits.id, amount: -103 * USD },
        { accountId: PlatformAccount.Loans.id, amount: 100 * USD },
        { accountId: PlatformAccount.LoanInterest.id, amount: 2_500_000 },
        { accountId: PlatformAccount.LoanPenalties.id, amount: 500_000 },
      ],
    });
    // follower: −0.025 fee + (10 − 1) − 3 = 5.975; trader: +1
    expect((await todayProfit(ctx, follower.id)).profit).toBe(5_975_000);
    expect((await todayProfit(ctx, trader.id)).profit).toBe(1 * USD);
    expect((await json(await api("/api/user/get_profits", follower.token))).data).toMatchObject({ profit: "5.98" });
    expect((await json(await api("/api/user/get_profits", trader.token))).data).toEqual({ profit: "1.00", percent: "100.00" });
  });
});

describe("a balance is never shown larger than what can be moved", () => {
  async function withFunding(micros: number) {
    const u = await signedIn(await createUser());
    await fund(u.accounts.funding, micros);
    return u;
  }

  it("0.175 reads 0.17 on every screen and in getBalance; 0.18 is refused, 0.17 moves and leaves 0.005, shown 0.00 (and exactly on the statement)", async () => {
    const u = await withFunding(175_000);
    expect(await page("/user", u.cookie)).toMatch(/0\.17 USD/);
    expect(await page("/user", u.cookie)).not.toContain("0.18");
    const wallet = await page("/mine/wallet", u.cookie);
    expect(wallet).toContain("0.17 USD");
    expect(wallet).toMatch(/Funding Details Available 0\.17 Locked 0\.00/);
    expect(wallet).not.toContain("0.18");
    const transferPage = await page("/mine/transfer", u.cookie);
    expect(transferPage).toContain("Available in Funding: 0.17 USD");
    expect(transferPage).not.toContain("0.18");
    expect(await page("/mine/accounts", u.cookie)).toMatch(/Funding Details Available 0\.17 Locked 0\.00/);
    const balance = await json<{ total: string; list: { type: string; balance: string; lockBalance: string }[] }>(
      await api("/v2/api/main/wallet/getBalance", u.token),
    );
    expect(balance.data.total).toBe("0.17");
    expect(balance.data.list.find((a) => a.type === "change")).toMatchObject({ balance: "0.17", lockBalance: "0.00" });
    const detail = await json(await api("/v2/api/main/account/forexDetail?type=change", u.token));
    expect(detail.data).toMatchObject({ balance: "0.17", total: "0.17" });

    // what the screens say can be moved, moves; more cannot
    const refused = await json(
      await api("/api/account/transfer", u.token, { method: "POST", body: { from: "1", to: "3", balance: "0.18" } }),
    );
    expect(refused.code).not.toBe(1);
    expect(refused.msg).toBe("Not enough available balance in your funding account for this transfer.");
    const moved = await json<{ accounts: { total: string; list: { type: string; balance: string }[] } }>(
      await api("/api/account/transfer", u.token, { method: "POST", body: { from: "1", to: "3", balance: "0.17" } }),
    );
    expect(moved.code).toBe(1);
    expect(moved.data.accounts.list.find((a) => a.type === "change")!.balance).toBe("0.00");
    expect(moved.data.accounts.total).toBe("0.17");
    expect(await accountBalances(u.accounts.funding)).toEqual({ balance: 5_000, locked: 0 });
    expect(await page("/mine/wallet", u.cookie)).toMatch(/Funding Details Available 0\.00 Locked 0\.00/);
    expect(await page("/mine/transfer", u.cookie)).toContain("Available in Funding: 0.00 USD");
    // the statement shows its lines and the balance above them exactly (they add up)
    const history = await page("/mine/history?accountTypeId=1", u.cookie);
    expect(history).toMatch(/0\.0050 USD/);
    expect(history).not.toContain("0.01");
  });

  it("transfer all moves the exact available balance (0.175), with its confirm step, and leaves 0", async () => {
    const u = await withFunding(175_000);
    const html = await (await get("/mine/transfer", { cookie: u.cookie })).text();
    const requestId = /name="request_id" value="([^"]+)"/.exec(html)![1]!;
    expect(visibleText(html)).toContain("Transfer all");
    const review = await form(
      "/mine/transfer",
      { intent: "transfer-all", from: "1", to: "3", balance: "", request_id: requestId },
      { cookie: u.cookie },
    );
    expect(review.status).toBe(200);
    const reviewHtml = await review.text();
    expect(visibleText(reviewHtml)).toContain("0.1750 USD will move from Funding to Contract");
    const amount = /name="balance" value="([^"]+)"/.exec(reviewHtml)![1]!;
    expect(await accountBalances(u.accounts.funding)).toEqual({ balance: 175_000, locked: 0 });
    const done = await form(
      "/mine/transfer",
      { intent: "transfer", from: "1", to: "3", balance: amount, request_id: requestId },
      { cookie: u.cookie },
    );
    expect(done.status).toBe(302);
    expect(await accountBalances(u.accounts.funding)).toEqual({ balance: 0, locked: 0 });
    expect(await accountBalances(u.accounts.contract)).toEqual({ balance: 175_000, locked: 0 });
    // the log shows the amount moved exactly; the balances, cut at 2 decimals
    const after = await page("/mine/transfer", u.cookie);
    expect(after).toContain("Funding 0.00 Option 0.00 Contract 0.17");
    expect(after).toMatch(/Funding → Contract 0\.1750/);

    // nothing to move: said so, nothing moves
    const empty = await form(
      "/mine/transfer",
      { intent: "transfer-all", from: "1", to: "3", balance: "", request_id: crypto.randomUUID() },
      { cookie: u.cookie },
    );
    expect(empty.status).toBe(400);
    expect(visibleText(await empty.text())).toContain("There is nothing to transfer from this account.");
  });

  it("the API moves an exact balance of more than 2 decimals only as a whole: 0.175 of 0.175, not 0.175 of 0.2", async () => {
    const u = await withFunding(175_000);
    const all = await json(
      await api("/api/account/transfer", u.token, { method: "POST", body: { from: "change", to: "micro", balance: "0.175" } }),
    );
    expect(all.code).toBe(1);
    expect(await accountBalances(u.accounts.options)).toEqual({ balance: 175_000, locked: 0 });
    const v = await withFunding(200_000);
    const part = await json(
      await api("/api/account/transfer", v.token, { method: "POST", body: { from: "change", to: "micro", balance: "0.175" } }),
    );
    expect(part.code).not.toBe(1);
    expect(part.msg).toContain("2 decimals");
    expect(await accountBalances(v.accounts.funding)).toEqual({ balance: 200_000, locked: 0 });
  });
});
