// Wallet accounts, transfers, history and the CSV statement (issue 10 §1, §7) through the real
// Worker: pages (plain form posts, as without JavaScript) and the spec §7 JSON calls, with the
// ledger's invariants checked after every test.
import { SELF, env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { PlatformAccount, checkInvariants } from "~/services/ledger/accounts.server";
import { post } from "~/services/ledger/post.server";
import {
  cookiesFrom,
  createUser,
  form,
  formErrors,
  fund,
  get,
  latestCode,
  sessionFor,
  signedSessionCookie,
  targets,
  uniqueEmail,
  visibleText,
} from "./helpers";

const USD = 1_000_000;
const PASSWORD = "wallet-pass-123";

async function balance(accountId: number) {
  return (await env.DB.prepare("SELECT balance, lock_balance AS locked FROM accounts WHERE id = ?1")
    .bind(accountId)
    .first<{ balance: number; locked: number }>())!;
}

async function transferCount(userId: number) {
  return (await env.DB.prepare("SELECT COUNT(*) AS n FROM transfers WHERE user_id = ?1").bind(userId).first<{ n: number }>())!.n;
}

async function realUser(amount = 100 * USD) {
  const user = await createUser({ password: PASSWORD });
  if (amount > 0) await fund(user.accounts.funding, amount);
  const token = await sessionFor(user.id);
  return { ...user, token, cookie: await signedSessionCookie(token) };
}

function api(path: string, token: string | null, init: { method?: "GET" | "POST"; body?: Record<string, string>; lang?: string } = {}) {
  const headers: Record<string, string> = { host: "localhost", lang: init.lang ?? "en" };
  if (token) headers.authorization = token;
  if (init.body) headers["content-type"] = "application/x-www-form-urlencoded";
  return SELF.fetch(`http://localhost${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.body ? new URLSearchParams(init.body).toString() : undefined,
    redirect: "manual",
  });
}

type Envelope<T = Record<string, unknown>> = { code: number; msg: string; data: T };
const json = async <T = Record<string, unknown>>(res: Response) => (await res.json()) as Envelope<T>;

let ips = 0;
/** Signs in through the login form, as its own client (the per-client throttle is not what these tests are about). */
function login(account: string, password: string) {
  ips += 1;
  return form("/login", { account, password }, { headers: { "cf-connecting-ip": `198.51.${Math.floor(ips / 250)}.${(ips % 250) + 1}` } });
}

const nonce = () => crypto.randomUUID().replace(/-/g, "");

afterEach(async () => {
  expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
});

describe("transfers move money exactly, once", () => {
  it("the page's confirm step shows what will move and moves nothing; confirming moves it in one ledger transaction with its transfer row", async () => {
    const u = await realUser(100 * USD);
    const page = await get("/mine/transfer", { cookie: u.cookie });
    expect(page.status).toBe(200);
    const html = await page.text();
    const requestId = /name="request_id" value="([^"]+)"/.exec(html)![1]!;
    expect(visibleText(html)).toContain("Available in Funding: 100.00 USD");

    const review = await form(
      "/mine/transfer",
      { intent: "transfer-review", from: "1", to: "3", balance: "30.25", request_id: requestId },
      { cookie: u.cookie },
    );
    expect(review.status).toBe(200);
    const reviewText = visibleText(await review.text());
    expect(reviewText).toContain("Confirm the transfer");
    expect(reviewText).toContain("30.25 USD will move from Funding to Contract");
    expect(await balance(u.accounts.funding)).toEqual({ balance: 100 * USD, locked: 0 });

    const done = await form(
      "/mine/transfer",
      { intent: "transfer", from: "1", to: "3", balance: "30.25", request_id: requestId },
      { cookie: u.cookie },
    );
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/mine/transfer?from=1&to=3&done=1");
    expect(await balance(u.accounts.funding)).toEqual({ balance: 69_750_000, locked: 0 });
    expect(await balance(u.accounts.contract)).toEqual({ balance: 30_250_000, locked: 0 });
    const row = await env.DB.prepare(
      "SELECT t.from_kind, t.to_kind, t.amount, l.kind, l.idempotency_key AS key FROM transfers t JOIN ledger_transactions l ON l.id = t.ledger_tx WHERE t.user_id = ?1",
    )
      .bind(u.id)
      .all();
    expect(row.results).toEqual([
      { from_kind: "funding", to_kind: "contract", amount: 30_250_000, kind: "transfer", key: `transfer:${u.id}:${requestId}` },
    ]);
    const after = visibleText(await (await get(done.headers.get("location")!, { cookie: cookiesFrom(done, u.cookie) })).text());
    expect(after).toContain("Transfer complete.");
    expect(after).toContain("Funding → Contract");
    expect(after).toContain("Available in Funding: 69.75 USD");
  });

  it("30 concurrent transfers exceeding the balance never overdraw: floor(balance / amount) are accepted", async () => {
    const u = await realUser(100 * USD);
    const results = await Promise.all(
      Array.from({ length: 30 }, () =>
        api("/api/account/transfer", u.token, {
          method: "POST",
          body: { balance: "7", currency_id: "1", from: "change", to: "forex", request_id: nonce() },
        }).then((r) => json(r)),
      ),
    );
    const accepted = results.filter((r) => r.code === 1).length;
    expect(accepted).toBe(Math.floor(100 / 7));
    for (const r of results.filter((x) => x.code !== 1))
      expect(r.msg).toBe("Not enough available balance in your funding account for this transfer.");
    expect(await balance(u.accounts.funding)).toEqual({ balance: 100 * USD - 14 * 7 * USD, locked: 0 });
    expect(await balance(u.accounts.contract)).toEqual({ balance: 14 * 7 * USD, locked: 0 });
    expect(await transferCount(u.id)).toBe(14);
  });

  it("a double-submitted form (same request_id, five at once) transfers once, and every answer says it is done", async () => {
    const u = await realUser(100 * USD);
    const requestId = nonce();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        form("/mine/transfer", { intent: "transfer", from: "1", to: "2", balance: "40", request_id: requestId }, { cookie: u.cookie }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual([302, 302, 302, 302, 302]);
    expect(await balance(u.accounts.funding)).toEqual({ balance: 60 * USD, locked: 0 });
    expect(await balance(u.accounts.options)).toEqual({ balance: 40 * USD, locked: 0 });
    expect(await transferCount(u.id)).toBe(1);
    // the same nonce with other details is refused, not applied
    const changed = await form(
      "/mine/transfer",
      { intent: "transfer", from: "1", to: "2", balance: "41", request_id: requestId },
      { cookie: u.cookie },
    );
    expect(changed.status).toBe(400);
    expect(formErrors(await changed.text())).toContain("already sent with different details");
    expect(await transferCount(u.id)).toBe(1);
  });

  it("refuses the same account, zero, negative, too precise, non-numeric, missing and over-balance amounts, with a clear message; nothing changes", async () => {
    const u = await realUser(50 * USD);
    const cases: [Record<string, string>, string][] = [
      [{ from: "1", to: "1", balance: "10" }, "The two accounts must be different"],
      [{ from: "3", to: "forex", balance: "10" }, "The two accounts must be different"],
      [{ from: "1", to: "3", balance: "0" }, "Enter a positive amount"],
      [{ from: "1", to: "3", balance: "-5" }, "Enter a positive amount"],
      [{ from: "1", to: "3", balance: "1.234" }, "Enter a positive amount"],
      [{ from: "1", to: "3", balance: "ten" }, "Enter a positive amount"],
      [{ from: "1", to: "3", balance: "1e3" }, "Enter a positive amount"],
      [{ from: "1", to: "3", balance: "" }, "Please enter an amount"],
      [{ from: "1", to: "3", balance: "50.01" }, "Not enough available balance in your funding account for this transfer."],
      [{ from: "2", to: "3", balance: "1" }, "Not enough available balance in your options account for this transfer."],
      [{ from: "9", to: "3", balance: "1" }, "Please choose an account"],
    ];
    for (const [fields, message] of cases) {
      for (const intent of ["transfer-review", "transfer"]) {
        const res = await form("/mine/transfer", { intent, ...fields, request_id: nonce() }, { cookie: u.cookie });
        expect([400, 409], `${intent} ${JSON.stringify(fields)}`).toContain(res.status);
        const html = await res.text();
        expect(formErrors(html), `${intent} ${JSON.stringify(fields)}`).toContain(message);
        // the values typed are kept
        if (fields.balance) expect(html).toContain(`value="${fields.balance}"`);
      }
      const viaApi = await json(await api("/api/account/transfer", u.token, { method: "POST", body: fields }));
      expect(viaApi.code, JSON.stringify(fields)).toBe(0);
      expect(viaApi.msg).toContain(message);
    }
    expect(await balance(u.accounts.funding)).toEqual({ balance: 50 * USD, locked: 0 });
    expect(await transferCount(u.id)).toBe(0);
  });

  it("a demo user is refused ('only real account') on the page, the form and the API; nothing moves", async () => {
    const demo = await createUser({ isDemo: true });
    await fund(demo.accounts.funding, 10 * USD);
    const token = await sessionFor(demo.id);
    const cookie = await signedSessionCookie(token);
    const page = await get("/mine/transfer", { cookie });
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/user");
    expect(visibleText(await (await get("/user", { cookie: cookiesFrom(page, cookie) })).text())).toContain("Only real account");
    const posted = await form("/mine/transfer", { intent: "transfer", from: "1", to: "3", balance: "1", request_id: nonce() }, { cookie });
    expect(posted.status).toBe(302);
    expect(posted.headers.get("location")).toBe("/user");
    const viaApi = await json(await api("/api/account/transfer", token, { method: "POST", body: { from: "1", to: "3", balance: "1" } }));
    expect(viaApi).toMatchObject({ code: 0, msg: expect.stringContaining("Only real account") });
    expect(await balance(demo.accounts.funding)).toEqual({ balance: 10 * USD, locked: 0 });
    expect(await transferCount(demo.id)).toBe(0);
  });

  it("a GET transfer authenticated by the cookie alone (a forged link) moves nothing; with the authorization header it works", async () => {
    const u = await realUser(10 * USD);
    const forged = await get("/api/account/transfer?balance=5&from=1&to=3", { cookie: u.cookie });
    expect(await json(forged)).toMatchObject({ code: 999 });
    expect(await balance(u.accounts.funding)).toEqual({ balance: 10 * USD, locked: 0 });
    const real = await json<{ transfer: Record<string, unknown>; accounts: { list: { type: string; balance: string }[] } }>(
      await api("/api/account/transfer?balance=5&from=1&to=3&currency_id=1", u.token),
    );
    expect(real.code).toBe(1);
    expect(real.data.transfer).toMatchObject({
      balance: "5.00",
      from: "change",
      to: "forex",
      from_id: 1,
      to_id: 3,
      from_name: "Funding",
      to_name: "Contract",
    });
    expect(real.data.accounts.list.map((a) => [a.type, a.balance])).toEqual([
      ["change", "5.00"],
      ["micro", "0.00"],
      ["forex", "5.00"],
    ]);
    expect(
      await json(
        await api("/api/account/transfer", u.token, { method: "POST", body: { balance: "1", from: "1", to: "3", currency_id: "2" } }),
      ),
    ).toMatchObject({ code: 0, msg: "These accounts hold USD only." });
  });
});

describe("history, statement and the JSON calls", () => {
  it("forexDetail and forexChange answer in the envelope with decimal strings, paged with total and last_page, translated", async () => {
    const u = await realUser(0);
    for (let i = 1; i <= 23; i++) await fund(u.accounts.contract, i * USD);
    await post(env.DB, {
      idempotencyKey: crypto.randomUUID(),
      kind: "transfer",
      memo: "transfer.memo|contract|funding",
      userId: u.id,
      postings: [
        { accountId: u.accounts.contract, amount: -12_500_000 },
        { accountId: u.accounts.funding, amount: 12_500_000 },
      ],
    });
    const detail = await json(await api("/v2/api/main/account/forexDetail", u.token));
    expect(detail).toEqual({
      code: 1,
      msg: "Success",
      data: { type: "forex", accountTypeId: 3, currencyId: 1, name: "Contract", balance: "263.50", lockBalance: "0.00", total: "263.50" },
    });
    expect((await json(await api("/v2/api/main/account/forexDetail?type=change", u.token))).data).toMatchObject({
      type: "change",
      accountTypeId: 1,
      balance: "12.50",
    });
    expect((await json(await api("/v2/api/main/account/forexDetail?accountTypeId=2", u.token))).data).toMatchObject({
      type: "micro",
      accountTypeId: 2,
      balance: "0.00",
    });
    expect(await json(await api("/v2/api/main/account/forexDetail?type=savings", u.token))).toMatchObject({ code: 0 });
    expect(await json(await api("/v2/api/main/account/forexDetail", null))).toMatchObject({ code: 999 });

    type Log = { data: Record<string, unknown>[]; total: number; last_page: number; page: number };
    const first = await json<Log>(await api("/v2/api/main/accountLog/forexChange?type=forex&page=1", u.token));
    expect(first.code).toBe(1);
    expect(first.data).toMatchObject({ total: 24, last_page: 2, page: 1 });
    expect(first.data.data).toHaveLength(20);
    expect(first.data.data[0]).toMatchObject({
      Value: "-12.50",
      Type: "transfer",
      TypeTran: "Transfer",
      Memo: "transfer.memo|contract|funding",
      MemoTran: "Transfer from Contract to Funding",
    });
    expect(first.data.data[0]!.CreatedAtTran).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(first.data.data[1]).toMatchObject({ Value: "23.00", Type: "deposit", TypeTran: "Deposit" });
    const second = await json<Log>(await api("/v2/api/main/accountLog/forexChange?type=3&page=2", u.token));
    expect(second.data.data).toHaveLength(4);
    expect(second.data.data.at(-1)).toMatchObject({ Value: "1.00" });
    const funding = await json<Log>(await api("/v2/api/main/accountLog/forexChange?type=change", u.token));
    expect(funding.data).toMatchObject({ total: 1, last_page: 1 });
    expect(funding.data.data[0]).toMatchObject({ Value: "12.50" });
  });

  it("transfer_log lists the user's transfers (balance, from, to, created_at), filtered by type, paged", async () => {
    const u = await realUser(100 * USD);
    for (const [from, to, amount] of [
      ["1", "3", "10"],
      ["1", "2", "5"],
      ["3", "2", "1.5"],
    ] as const) {
      expect((await json(await api("/api/account/transfer", u.token, { method: "POST", body: { from, to, balance: amount } }))).code).toBe(
        1,
      );
    }
    type Log = { data: { balance: string; from: string; to: string; created_at: string }[]; total: number; last_page: number };
    const all = await json<Log>(await api("/api/account/transfer_log?page=1", u.token));
    expect(all.data.total).toBe(3);
    expect(all.data.last_page).toBe(1);
    expect(all.data.data.map((r) => [r.balance, r.from, r.to])).toEqual([
      ["1.50", "forex", "micro"],
      ["5.00", "change", "micro"],
      ["10.00", "change", "forex"],
    ]);
    expect(all.data.data[0]!.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const funding = await json<Log>(await api("/api/account/transfer_log?type=change", u.token));
    expect(funding.data.data.map((r) => r.balance)).toEqual(["5.00", "10.00"]);
    expect(await json(await api("/api/account/transfer_log?type=bogus", u.token))).toMatchObject({ code: 0 });
    expect(await json(await api("/api/account/transfer_log", null))).toMatchObject({ code: 999 });
  });

  it("another user's accounts, logs, transfers and statement are never visible", async () => {
    const a = await realUser(77 * USD);
    expect(
      (await json(await api("/api/account/transfer", a.token, { method: "POST", body: { from: "1", to: "3", balance: "33.33" } }))).code,
    ).toBe(1);
    const b = await realUser(0);
    const bLog = await json<{ data: unknown[]; total: number }>(await api("/v2/api/main/accountLog/forexChange?type=change", b.token));
    expect(bLog.data).toMatchObject({ data: [], total: 0 });
    expect((await json<{ total: number }>(await api("/api/account/transfer_log", b.token))).data.total).toBe(0);
    expect((await json(await api("/v2/api/main/account/forexDetail", b.token))).data).toMatchObject({ balance: "0.00" });
    for (const path of [
      "/mine/history?accountTypeId=1",
      "/mine/history?accountTypeId=3",
      "/mine/transfer",
      "/mine/wallet",
      "/mine/accounts",
    ]) {
      const text = visibleText(await (await get(path, { cookie: b.cookie })).text());
      expect(text, path).not.toContain("33.33");
      expect(text, path).not.toContain("77.00");
    }
    const csv = await (await get("/mine/history.csv?accountTypeId=1", { cookie: b.cookie })).text();
    expect(
      csv
        .replace(/^\uFEFF/, "")
        .trim()
        .split("\r\n"),
    ).toHaveLength(1);
  });

  it("the history page shows the account's detail and its log, translated, paged by plain links; odd ids go to the funding account's", async () => {
    const u = await realUser(0);
    for (let i = 1; i <= 21; i++) await fund(u.accounts.funding, USD);
    await post(env.DB, {
      idempotencyKey: crypto.randomUUID(),
      kind: "option_stake",
      memo: "memo.option_stake",
      userId: u.id,
      postings: [
        { accountId: u.accounts.funding, amount: -250_000 },
        { accountId: u.accounts.funding, bucket: 1, amount: 250_000 },
      ],
    });
    const res = await get("/mine/history?accountTypeId=1", { cookie: u.cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    const text = visibleText(html);
    expect(text).toContain("Funding account details");
    expect(text).toMatch(/Available 20\.75 USD/);
    expect(text).toMatch(/Locked 0\.25 USD/);
    expect(text).toContain("Option stake");
    expect(text).toContain("Option bought: stake held");
    expect(text).toContain("-0.25");
    expect(text).toContain("Page 1 of 2");
    expect(targets(html)).toContain("/mine/history?accountTypeId=1&amp;page=2");
    expect(targets(html)).toContain("/mine/history.csv?accountTypeId=1");
    const second = visibleText(await (await get("/mine/history?accountTypeId=1&page=2", { cookie: u.cookie })).text());
    expect(second).toContain("Page 2 of 2");
    for (const odd of ["0", "4", "x", "01"]) {
      const r = await get(`/mine/history?accountTypeId=${odd}`, { cookie: u.cookie });
      expect(r.status, odd).toBe(302);
      expect(r.headers.get("location")).toBe("/mine/history?accountTypeId=1");
    }
    expect((await get("/mine/history?accountTypeId=1")).headers.get("location")).toContain("/login?from=");
  });

  it("the CSV statement: the same entries, header translated, attachment, no-store, formulas neutralised, amounts numeric", async () => {
    const u = await realUser(100 * USD);
    await post(env.DB, {
      idempotencyKey: crypto.randomUUID(),
      kind: "adjustment",
      memo: '=HYPERLINK("http://evil.example","x")',
      userId: u.id,
      postings: [
        { accountId: u.accounts.funding, amount: -12_500_000 },
        { accountId: PlatformAccount.ExternalDeposits.id, amount: 12_500_000 },
      ],
    });
    expect(
      (await json(await api("/api/account/transfer", u.token, { method: "POST", body: { from: "1", to: "3", balance: "7.25" } }))).code,
    ).toBe(1);
    const res = await get("/mine/history.csv?accountTypeId=1", { cookie: u.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="statement-funding-\d{4}-\d\d-\d\d\.csv"$/);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const lines = (await res.text()).replace(/^\uFEFF/, "").split("\r\n");
    expect(lines[0]).toBe("Time,Type,Memo,Amount (USD)");
    expect(lines).toHaveLength(5); // header, 3 entries, the final line end
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z,Transfer,Transfer from Funding to Contract,-7\.25$/);
    expect(lines[2]).toMatch(/^[^,]+,Adjustment,"'=HYPERLINK\(""http:\/\/evil\.example"",""x""\)",-12\.50$/);
    expect(lines[3]).toMatch(/,Deposit,,100\.00$/);
    // the same entries as the page
    const page = await (await json<{ total: number }>(await api("/v2/api/main/accountLog/forexChange?type=change", u.token))).data;
    expect(page.total).toBe(3);
    // another language's header
    const ja = await get("/mine/history.csv?accountTypeId=3", { cookie: u.cookie, headers: { "accept-language": "ja" } });
    expect((await ja.text()).split("\r\n")[0]).not.toBe("");
    expect((await get("/mine/history.csv?accountTypeId=9", { cookie: u.cookie })).status).toBe(404);
    expect((await get("/mine/history.csv?accountTypeId=1")).status).toBe(302);
  });
});

describe("assets figures agree everywhere", () => {
  it("home, user centre, /mine/accounts and the API show the same total and today's profit and percentage", async () => {
    const u = await realUser(1_000 * USD);
    await fund(u.accounts.contract, 200 * USD);
    await post(env.DB, {
      idempotencyKey: crypto.randomUUID(),
      kind: "option_stake",
      memo: "memo.option_stake",
      userId: u.id,
      postings: [
        { accountId: u.accounts.funding, amount: -100 * USD },
        { accountId: u.accounts.funding, bucket: 1, amount: 100 * USD },
      ],
    });
    await post(env.DB, {
      idempotencyKey: crypto.randomUUID(),
      kind: "trade_settle",
      userId: u.id,
      postings: [
        { accountId: u.accounts.contract, amount: 12_345_000 },
        { accountId: PlatformAccount.Counterparty.id, amount: -12_345_000 },
      ],
    });
    // total = 900 + 100 locked + 212.345 = 1,212.345 → "1,212.34" (a balance is never shown larger than it is);
    // profit 12.345 → "12.35" (spec §9, half away from zero); percent = 12.345 / 1212.345 × 100 = 1.0182… → 1.02
    const overview = visibleText(await (await get("/mine/accounts", { cookie: u.cookie })).text());
    expect(overview).toContain("1,212.34 USD");
    expect(overview).toMatch(/Today's profit \+ ?12\.35 Today's return \+ ?1\.02 ?%/);
    expect(overview).toMatch(/Funding Details Available 900\.00 Locked 100\.00/);
    expect(overview).toMatch(/Contract Details Available 212\.34 Locked 0\.00/);
    const home = visibleText(await (await get("/", { cookie: u.cookie })).text());
    expect(home).toContain("1,212.34 USD");
    expect(home).toMatch(/Today's profit ?: \+ ?12\.35 \( ?1\.02 ?%\)/);
    const centre = visibleText(await (await get("/user", { cookie: u.cookie })).text());
    expect(centre).toContain("1,212.34 USD");
    const profits = await json(await api("/api/user/get_profits", u.token));
    expect(profits.data).toEqual({ profit: "12.35", percent: "1.02" });
    const wallet = visibleText(await (await get("/mine/wallet", { cookie: u.cookie })).text());
    expect(wallet).toContain("1,212.34 USD");
    expect(wallet).toMatch(/Option Details Available 0\.00 Locked 0\.00/);
  });

  it("the wallet links to each account's details, the payout methods, transfer, deposit and withdraw", async () => {
    const u = await realUser(0);
    const links = targets(await (await get("/mine/wallet", { cookie: u.cookie })).text());
    for (const to of [
      "/mine/history?accountTypeId=1",
      "/mine/history?accountTypeId=2",
      "/mine/history?accountTypeId=3",
      "/mine/bank-card-list",
      "/mine/coin-address-list",
      "/mine/transfer",
      "/mine/accounts",
      "/mine/charge",
      "/mine/withdraw",
    ]) {
      expect(links, to).toContain(to);
    }
  });
});

describe("password change asks for the current password", () => {
  it("a wrong current password is refused with a translated message and changes nothing; the right one works with the same code", async () => {
    const user = await createUser({ password: PASSWORD });
    const cookie = await signedSessionCookie(await sessionFor(user.id));
    const page = visibleText(await (await get("/mine/password", { cookie })).text());
    expect(page).toContain("Current password");
    expect((await form("/mine/password", { intent: "send-code" }, { cookie })).status).toBe(200);
    const code = (await latestCode(user.email!))!;
    const wrong = await form(
      "/mine/password",
      { intent: "amend", old_password: "not-my-password", auth_code: code, password: "brand-new-pass-9", re_password: "brand-new-pass-9" },
      { cookie },
    );
    expect(wrong.status).toBe(400);
    expect(formErrors(await wrong.text())).toContain("Your current password is not correct.");
    expect((await login(user.email!, "brand-new-pass-9")).status).toBe(400);
    expect((await login(user.email!, PASSWORD)).status).toBe(302);
    const missing = await form(
      "/mine/password",
      { intent: "amend", old_password: "", auth_code: code, password: "brand-new-pass-9", re_password: "brand-new-pass-9" },
      { cookie },
    );
    expect(formErrors(await missing.text())).toContain("Please enter your password");
    const ok = await form(
      "/mine/password",
      { intent: "amend", old_password: PASSWORD, auth_code: code, password: "brand-new-pass-9", re_password: "brand-new-pass-9" },
      { cookie },
    );
    expect(ok.status).toBe(302);
    expect((await login(user.email!, "brand-new-pass-9")).status).toBe(302);
  });

  it("the API checks it too, and the checks are limited per user", async () => {
    const user = await createUser({ password: PASSWORD });
    const token = await sessionFor(user.id);
    const attempt = (old: string) =>
      api("/api/user/amend_password", token, {
        method: "POST",
        body: { old_password: old, new_password: "another-pass-77", secondary_password: "another-pass-77", auth_code: "123456" },
      }).then((r) => json(r));
    expect(await attempt("wrong")).toMatchObject({ code: 0, msg: "Your current password is not correct." });
    const many = await Promise.all(Array.from({ length: 12 }, () => attempt("wrong")));
    expect(many.filter((r) => r.msg.includes("Too many attempts")).length).toBeGreaterThan(0);
  });
});

describe("every named screen is real", () => {
  it("every user-centre row and home shortcut leads to a page (not back to /)", async () => {
    const u = await realUser(0);
    const built = new Set(["/mine/auth", "/mine/charge", "/mine/withdraw"]); // being built alongside
    const pages = [
      ...targets(await (await get("/user", { cookie: u.cookie })).text()),
      ...targets(await (await get("/", { cookie: u.cookie })).text()),
    ];
    const paths = [...new Set(pages.filter((p) => p.startsWith("/mine/") || ["/loan", "/mining"].includes(p)))].filter(
      (p) => !built.has(p),
    );
    expect(paths).toEqual(
      expect.arrayContaining([
        "/mine/wallet",
        "/mine/transfer",
        "/mine/invite",
        "/mine/chat",
        "/mine/email",
        "/mine/announcement",
        "/loan",
        "/mining",
      ]),
    );
    for (const path of paths) {
      const res = await get(path, { cookie: u.cookie });
      expect(res.status, path).toBe(200);
    }
  });

  it("every screen the spec names is built: none says 'coming soon'; unknown paths still go home; demo users are refused the invite page", async () => {
    const u = await realUser(0);
    const pages: [string, string | undefined][] = [
      ...["/feedback", "/loan", "/loan/record", "/mining", "/mining/record", "/news", "/product", "/rank"].map(
        (p): [string, string | undefined] => [p, u.cookie],
      ),
      ["/user/web3-login", undefined], // a visitor's page (signed-in users are sent on)
    ];
    for (const [path, cookie] of pages) {
      const r = await get(path, cookie ? { cookie } : {});
      expect(r.status, path).toBe(200);
      expect(visibleText(await r.text()), path).not.toContain("Coming soon");
    }
    const unknown = await get("/definitely/not/here");
    expect(unknown.status).toBe(302);
    expect(unknown.headers.get("location")).toBe("/");
    const demo = await createUser({ isDemo: true });
    const demoRes = await get("/mine/invite", { cookie: await signedSessionCookie(await sessionFor(demo.id)) });
    expect(demoRes.status).toBe(302);
    expect(demoRes.headers.get("location")).toBe("/user");
  });
});

describe("local tools", () => {
  it("POST /dev/credit credits a real user's funding account through the ledger", async () => {
    const email = uniqueEmail("credit");
    const user = await createUser({ email });
    const res = await SELF.fetch("http://localhost/dev/credit", {
      method: "POST",
      headers: { host: "localhost", "content-type": "application/json" },
      body: JSON.stringify({ email: email.toUpperCase(), amount: "250.50" }),
    });
    expect(res.status).toBe(200);
    expect(await balance(user.accounts.funding)).toEqual({ balance: 250_500_000, locked: 0 });
    const bad = await SELF.fetch("http://localhost/dev/credit", {
      method: "POST",
      headers: { host: "localhost", "content-type": "application/json" },
      body: JSON.stringify({ email, amount: "-1" }),
    });
    expect(bad.status).toBe(400);
  });
});

describe("bad input to the wallet's forms and calls", () => {
  it("garbage answers with a 4xx or a translated refusal, never a 5xx, and moves nothing", async () => {
    const u = await realUser(20 * USD);
    const bodies: { type: string; body: BodyInit }[] = [
      { type: "application/x-www-form-urlencoded", body: "" },
      { type: "application/x-www-form-urlencoded", body: "intent=transfer&from=%00&to[]=1&balance=%E0%A4&request_id=../../x" },
      { type: "application/x-www-form-urlencoded", body: "__proto__[x]=1&intent=transfer-review&from=toString&to=constructor&balance=1" },
      { type: "application/json", body: '{"from": {"toString": 1}, "to": [1], "balance": null}' },
      { type: "application/json", body: "{broken" },
      { type: "multipart/form-data; boundary=x", body: new Uint8Array([0, 255, 254, 1]) },
      { type: "text/plain", body: "a".repeat(70_000) },
    ];
    for (const path of ["/mine/transfer", "/api/account/transfer", "/mine/history?accountTypeId=1", "/mine/wallet", "/mine/invite"]) {
      for (const { type, body } of bodies) {
        const headers: Record<string, string> = {
          host: "localhost",
          origin: "http://localhost",
          "content-type": type,
          cookie: u.cookie,
          authorization: u.token,
          lang: "en",
        };
        const res = await SELF.fetch(`http://localhost${path}`, { method: "POST", headers, body, redirect: "manual" });
        const text = await res.text();
        expect(res.status, `${path} ${type}`).toBeLessThan(500);
        expect(text, `${path} ${type}`).not.toMatch(/\bat \w+ \(|TypeError|SyntaxError|Invalid type: Expected/);
      }
    }
    for (const q of ["page=-1", "page=abc&type=%00", "type=__proto__", "page=99999999999"]) {
      for (const path of ["/v2/api/main/accountLog/forexChange", "/api/account/transfer_log", "/v2/api/main/account/forexDetail"]) {
        const res = await api(`${path}?${q}`, u.token);
        expect(res.status, `${path}?${q}`).toBeLessThan(500);
      }
      expect((await get(`/mine/transfer?${q}&from=x&to=__proto__`, { cookie: u.cookie })).status).toBe(200);
    }
    expect(await balance(u.accounts.funding)).toEqual({ balance: 20 * USD, locked: 0 });
    expect(await transferCount(u.id)).toBe(0);
  });
});
