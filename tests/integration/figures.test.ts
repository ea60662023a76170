// The figures a user reads (issue 19 §2) through the real Worker: a balance is never shown larger
// than what can be moved, on every screen and in the JSON API; "transfer all" moves the exact amount.
import { SELF, env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { checkInvariants } from "~/services/ledger.server";
import { accountBalances, createUser, form, fund, get, sessionFor, signedSessionCookie, visibleText } from "./helpers";

const USD = 1_000_000;

function api(path: string, token: string, init: { method?: "GET" | "POST"; body?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { host: "localhost", lang: "en", authorization: token };
  if (init.body) headers["content-type"] = "application/x-www-form-urlencoded";
  return SELF.fetch(`http://localhost${path}`, { method: init.method ?? "GET", headers, body: init.body ? new URLSearchParams(init.body).toString() : undefined, redirect: "manual" });
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
    const balance = await json<{ total: string; list: { type: string; balance: string; lockBalance: string }[] }>(await api("/v2/api/main/wallet/getBalance", u.token));
    expect(balance.data.total).toBe("0.17");
    expect(balance.data.list.find((a) => a.type === "change")).toMatchObject({ balance: "0.17", lockBalance: "0.00" });
    const detail = await json(await api("/v2/api/main/account/forexDetail?type=change", u.token));
    expect(detail.data).toMatchObject({ balance: "0.17", total: "0.17" });

    // what the screens say can be moved, moves; more cannot
    const refused = await json(await api("/api/account/transfer", u.token, { method: "POST", body: { from: "1", to: "3", balance: "0.18" } }));
    expect(refused.code).not.toBe(1);
    expect(refused.msg).toContain("more than the available balance");
    const moved = await json<{ accounts: { total: string; list: { type: string; balance: string }[] } }>(await api("/api/account/transfer", u.token, { method: "POST", body: { from: "1", to: "3", balance: "0.17" } }));
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
    const review = await form("/mine/transfer", { intent: "transfer-all", from: "1", to: "3", balance: "", request_id: requestId }, { cookie: u.cookie });
    expect(review.status).toBe(200);
    const reviewHtml = await review.text();
    expect(visibleText(reviewHtml)).toContain("0.1750 USD will move from Funding to Contract");
    const amount = /name="balance" value="([^"]+)"/.exec(reviewHtml)![1]!;
    expect(await accountBalances(u.accounts.funding)).toEqual({ balance: 175_000, locked: 0 });
    const done = await form("/mine/transfer", { intent: "transfer", from: "1", to: "3", balance: amount, request_id: requestId }, { cookie: u.cookie });
    expect(done.status).toBe(302);
    expect(await accountBalances(u.accounts.funding)).toEqual({ balance: 0, locked: 0 });
    expect(await accountBalances(u.accounts.contract)).toEqual({ balance: 175_000, locked: 0 });
    // the log shows the amount moved exactly; the balances, cut at 2 decimals
    const after = await page("/mine/transfer", u.cookie);
    expect(after).toContain("Funding 0.00 Option 0.00 Contract 0.17");
    expect(after).toMatch(/Funding → Contract 0\.1750/);

    // nothing to move: said so, nothing moves
    const empty = await form("/mine/transfer", { intent: "transfer-all", from: "1", to: "3", balance: "", request_id: crypto.randomUUID() }, { cookie: u.cookie });
    expect(empty.status).toBe(400);
    expect(visibleText(await empty.text())).toContain("There is nothing to transfer from this account.");
  });

  it("the API moves an exact balance of more than 2 decimals only as a whole: 0.175 of 0.175, not 0.175 of 0.2", async () => {
    const u = await withFunding(175_000);
    const all = await json(await api("/api/account/transfer", u.token, { method: "POST", body: { from: "change", to: "micro", balance: "0.175" } }));
    expect(all.code).toBe(1);
    expect(await accountBalances(u.accounts.options)).toEqual({ balance: 175_000, locked: 0 });
    const v = await withFunding(200_000);
    const part = await json(await api("/api/account/transfer", v.token, { method: "POST", body: { from: "change", to: "micro", balance: "0.175" } }));
    expect(part.code).not.toBe(1);
    expect(part.msg).toContain("2 decimals");
    expect(await accountBalances(v.accounts.funding)).toEqual({ balance: 200_000, locked: 0 });
  });
});
