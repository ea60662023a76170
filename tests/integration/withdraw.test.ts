// Withdrawals end to end in workerd (real D1): payout methods, requests locking the amount in one
// ledger post, bad input changing nothing, concurrency (no overdraft, one request per nonce, one
// decision per withdrawal), the operator's approve (step-up, payout to external and fees) and
// reject (unlock), and object-level access.
import { SELF, env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { LOCAL_OPERATOR_EMAIL } from "~/env.server";
import { OperatorOnly, STEP_UP_TTL_MS } from "~/services/operator.server";
import { PlatformAccount, checkInvariants } from "~/services/ledger/accounts.server";
import { post } from "~/services/ledger/post.server";
import { sessionIdOf, userForToken, type SessionUser } from "~/services/session.server";
import { approveWithdrawal, rejectWithdrawal, withdrawalQueue } from "~/services/withdraw/operator.server";
import { requestWithdrawal } from "~/services/withdraw/commands.server";
import { withdrawalOf } from "~/services/withdraw/queries.server";
import { ORIGIN, cookiesFrom, createUser, form, get, latestCode, sessionFor, signedSessionCookie, visibleText } from "./helpers";

const USD = 1_000_000;
const TRC20_ADDRESS = "TQ7vY3kCmhG8pN2xW5rLd9sJf4uBzE6aKt";
const ERC20_ADDRESS = "0x8f3A1c9B2e47D6a05F1b8C3d9E2f4A6b7C8d9E0f";
// seeded withdraw currencies: 1 USDT TRC20 (fixed 1 USD, min 10), 2 USDT ERC20 (1%, min 20), 3 USD bank (fixed 15, min 50), 4 EUR (0.5%, ×0.92), 5 HKD (0.5%, ×7.8)
const Currency = { Trc20: 1, Erc20: 2, Usd: 3, Eur: 4, Hkd: 5 };

interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}
interface WireRecord {
  id: number;
  number: string;
  real_number: string;
  fee: string;
  status: number;
  status_name: string;
  type: number;
  address: string;
  payee_account: string;
  notes: string;
  draw_currency: { code: string };
}

/** A real user with a session token and money in the funding account (a ledger adjustment from external deposits). */
async function customer(funding = 0) {
  const user = await createUser();
  const token = await sessionFor(user.id);
  if (funding > 0) await credit(user.accounts.funding, funding);
  return { ...user, token };
}

async function credit(accountId: number, amount: number) {
  await post(env.DB, {
    idempotencyKey: `test_credit:${crypto.randomUUID()}`,
    kind: "adjustment",
    postings: [
      { accountId, amount },
      { accountId: PlatformAccount.ExternalDeposits.id, amount: -amount },
    ],
  });
}

async function api<T = unknown>(
  token: string,
  path: string,
  fields?: Record<string, string>,
): Promise<{ status: number; body: Envelope<T> }> {
  const headers: Record<string, string> = { host: "localhost", "accept-language": "en", authorization: `Bearer ${token}` };
  const init: RequestInit = fields
    ? {
        method: "POST",
        body: new URLSearchParams(fields).toString(),
        headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
      }
    : { headers };
  const res = await SELF.fetch(`${ORIGIN}${path}`, init);
  return { status: res.status, body: (await res.json()) as Envelope<T> };
}

async function bindCoin(token: string, address = TRC20_ADDRESS, currency = Currency.Trc20) {
  const res = await api<{ id: number }>(token, "/api/wallet/bind_draw_method", {
    draw_type: "1",
    draw_currency_id: String(currency),
    dc_address: address,
  });
  expect(res.body.code, res.body.msg).toBe(1);
  return res.body.data.id;
}

async function bindBank(token: string, currency = Currency.Hkd, swift = "HCBKHKHH") {
  return api<{ id: number }>(token, "/api/wallet/bind_draw_method", {
    draw_type: "2",
    draw_currency_id: String(currency),
    bank_name: "Harbour Commercial Bank",
    bank_address: "1 Queen's Road, Hong Kong",
    bank_swift: swift,
    payee_name: "Chan Tai Man",
    payee_account: "012-345678-901",
  });
}

function draw(token: string, fields: Record<string, string>) {
  return api<WireRecord>(token, "/api/account/draw", { memo: "", ...fields });
}

async function funding(accountId: number) {
  return (await env.DB.prepare("SELECT balance, lock_balance AS locked FROM accounts WHERE id = ?1")
    .bind(accountId)
    .first<{ balance: number; locked: number }>())!;
}
async function platform(id: number) {
  return (await env.DB.prepare("SELECT balance FROM accounts WHERE id = ?1").bind(id).first<{ balance: number }>())!.balance;
}
async function count(sql: string, ...args: unknown[]) {
  return (await env.DB.prepare(sql)
    .bind(...args)
    .first<{ n: number }>())!.n;
}
async function withdrawal(id: number) {
  return (await env.DB.prepare(
    "SELECT status, amount, fee, real_number AS realNumber, notes, reviewed_by AS reviewedBy, settle_tx AS settleTx, lock_tx AS lockTx, tx_id AS txId, tx_network AS txNetwork FROM withdrawals WHERE id = ?1",
  )
    .bind(id)
    .first<{
      status: number;
      amount: number;
      fee: number;
      realNumber: string;
      notes: string;
      reviewedBy: number | null;
      settleTx: string | null;
      lockTx: string;
      txId: string | null;
      txNetwork: string | null;
    }>())!;
}

/** A user with a bound TRC20 address and a pending withdrawal of `amount` USD. */
async function pendingWithdrawal(amount = "100") {
  const user = await customer(1_000 * USD);
  const method = await bindCoin(user.token);
  const res = await draw(user.token, {
    draw_currency_id: String(Currency.Trc20),
    draw_method_id: String(method),
    number: amount,
    request_id: crypto.randomUUID(),
  });
  expect(res.body.code, res.body.msg).toBe(1);
  return { user, method, id: res.body.data.id };
}

/** A TRON transaction id (64 hex digits), different each call, as an operator pastes it (upper case). */
const txId = () =>
  [...crypto.getRandomValues(new Uint8Array(32))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("")
    .toUpperCase();

let operator: SessionUser;
let operatorCookie = "";
let operatorSession = "";

beforeAll(async () => {
  const row = (await env.DB.prepare("SELECT id FROM users WHERE email = ?1").bind(LOCAL_OPERATOR_EMAIL).first<{ id: number }>())!;
  const token = await sessionFor(row.id);
  operator = (await userForToken(env.DB, token))!;
  operatorSession = await sessionIdOf(token);
  operatorCookie = await signedSessionCookie(token);
  // the payout step-up, with the code the operator reads in their e-mail (the local outbox)
  const from = "/admin/verify?from=%2Fadmin%2Fwithdrawals";
  const sent = await form(from, { intent: "send-code" }, { cookie: operatorCookie });
  expect(sent.status).toBe(200);
  const code = await latestCode(LOCAL_OPERATOR_EMAIL);
  expect(code).toMatch(/^\d{6}$/);
  const verified = await form(from, { intent: "verify", code: code! }, { cookie: operatorCookie });
  expect(verified.status).toBe(302);
  expect(verified.headers.get("location")).toBe("/admin/withdrawals");
});

afterEach(async () => {
  expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
});

describe("payout methods", () => {
  it("binds a coin address checked against its network and a bank account with a valid SWIFT; lists them", async () => {
    const user = await customer();
    const id = await bindCoin(user.token);
    await bindCoin(user.token, ERC20_ADDRESS, Currency.Erc20);
    const bank = await bindBank(user.token);
    expect(bank.body.code).toBe(1);
    const coins = await api<{ id: number; dc_address: string; draw_currency: { code: string; protocol: string } }[]>(
      user.token,
      "/api/wallet/get_draw_method?draw_type=1",
    );
    expect(coins.body.data.map((m) => m.dc_address)).toEqual([ERC20_ADDRESS, TRC20_ADDRESS]);
    const one = await api<{ id: number; dc_address: string; draw_currency: { protocol: string } }>(
      user.token,
      `/api/wallet/get_draw_method?draw_type=1&draw_id=${id}`,
    );
    expect(one.body.data).toMatchObject({ id, dc_address: TRC20_ADDRESS, draw_currency: { protocol: "TRC20" } });
    const banks = await api<{ bank_swift: string; payee_account: string }[]>(user.token, "/api/wallet/get_draw_method?draw_type=2");
    expect(banks.body.data).toEqual([expect.objectContaining({ bank_swift: "HCBKHKHH", payee_account: "012-345678-901" })]);
    // the list page shows addresses as the first 6 and last 4 characters, the detail in full
    const cookie = await signedSessionCookie(user.token);
    const list = visibleText(await (await get("/mine/coin-address-list", { cookie })).text());
    expect(list).toContain("TQ7vY3…6aKt");
    expect(list).not.toContain(TRC20_ADDRESS);
    expect(visibleText(await (await get(`/mine/coin-address-list?id=${id}`, { cookie })).text())).toContain(TRC20_ADDRESS);
  });

  it("refuses invalid addresses and SWIFT codes clearly, saving nothing", async () => {
    const user = await customer();
    const cases: [Record<string, string>, string][] = [
      [{ draw_type: "1", draw_currency_id: String(Currency.Trc20), dc_address: ERC20_ADDRESS }, "This is not a valid TRC20 address."],
      [{ draw_type: "1", draw_currency_id: String(Currency.Erc20), dc_address: TRC20_ADDRESS }, "This is not a valid ERC20 address."],
      [{ draw_type: "1", draw_currency_id: String(Currency.Trc20), dc_address: "T123" }, "This is not a valid TRC20 address."],
      [{ draw_type: "1", draw_currency_id: String(Currency.Trc20), dc_address: "" }, "Please enter the address."],
      [{ draw_type: "1", draw_currency_id: String(Currency.Usd), dc_address: TRC20_ADDRESS }, "Please choose a withdrawal currency."],
      [{ draw_type: "1", draw_currency_id: "999", dc_address: TRC20_ADDRESS }, "Please choose a withdrawal currency."],
      [{ draw_type: "3", draw_currency_id: "1", dc_address: TRC20_ADDRESS }, "The request could not be understood."],
    ];
    for (const [fields, msg] of cases) {
      const res = await api(user.token, "/api/wallet/bind_draw_method", fields);
      expect(res.body, JSON.stringify(fields)).toMatchObject({ code: 0, msg });
    }
    for (const [swift, msg] of [
      ["HCBK", "A SWIFT code has 8 or 11 letters and digits, e.g. HCBKHKHH."],
      ["HCBKHKHH1", "A SWIFT code has 8 or 11 letters and digits, e.g. HCBKHKHH."],
      ["12BKHKHH", "A SWIFT code has 8 or 11 letters and digits, e.g. HCBKHKHH."],
      ["", "Please enter the SWIFT code."],
    ]) {
      expect((await bindBank(user.token, Currency.Hkd, swift!)).body, swift).toMatchObject({ code: 0, msg });
    }
    // a bank account must use a bank currency
    expect((await bindBank(user.token, Currency.Trc20)).body).toMatchObject({ code: 0, msg: "Please choose a withdrawal currency." });
    expect(await count("SELECT COUNT(*) AS n FROM payout_methods WHERE user_id = ?1", user.id)).toBe(0);
  });

  it("keeps at most 10 live methods per type; deleting keeps the row and frees a place", async () => {
    const user = await customer();
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) ids.push(await bindCoin(user.token));
    const eleventh = await api(user.token, "/api/wallet/bind_draw_method", {
      draw_type: "1",
      draw_currency_id: "1",
      dc_address: TRC20_ADDRESS,
    });
    expect(eleventh.body).toMatchObject({ code: 0, msg: "You can keep at most 10 methods of this type. Delete one first." });
    // a bank account is another type: still allowed
    expect((await bindBank(user.token)).body.code).toBe(1);
    expect((await api(user.token, "/api/wallet/del_draw_method", { id: String(ids[0]) })).body).toMatchObject({
      code: 1,
      msg: "Withdrawal method deleted.",
    });
    const row = await env.DB.prepare("SELECT deleted_at AS deletedAt FROM payout_methods WHERE id = ?1")
      .bind(ids[0])
      .first<{ deletedAt: number | null }>();
    expect(row?.deletedAt).toBeGreaterThan(0);
    expect((await api(user.token, "/api/wallet/del_draw_method", { id: String(ids[0]) })).status).toBe(404);
    expect((await api<unknown[]>(user.token, "/api/wallet/get_draw_method?draw_type=1")).body.data).toHaveLength(9);
    await bindCoin(user.token);
  });

  it("deletes from the list page only after the confirm step (works without JavaScript)", async () => {
    const user = await customer();
    const id = await bindCoin(user.token);
    const cookie = await signedSessionCookie(user.token);
    const confirm = visibleText(await (await get(`/mine/coin-address-list?id=${id}&confirm=delete`, { cookie })).text());
    expect(confirm).toContain("Delete this withdrawal address?");
    expect(await count("SELECT COUNT(*) AS n FROM payout_methods WHERE id = ?1 AND deleted_at IS NULL", id)).toBe(1);
    const res = await form("/mine/coin-address-list", { intent: "delete-method", id: String(id) }, { cookie });
    expect(res.status).toBe(302);
    expect(await count("SELECT COUNT(*) AS n FROM payout_methods WHERE id = ?1 AND deleted_at IS NOT NULL", id)).toBe(1);
  });

  it("another user's methods answer as missing ones (404) and are not deleted", async () => {
    const owner = await customer();
    const other = await customer();
    const id = await bindCoin(owner.token);
    expect((await api(other.token, `/api/wallet/get_draw_method?draw_type=1&draw_id=${id}`)).status).toBe(404);
    expect((await api(other.token, `/api/wallet/get_draw_method?draw_type=1&draw_id=999999`)).status).toBe(404);
    expect((await api(other.token, "/api/wallet/del_draw_method", { id: String(id) })).status).toBe(404);
    const cookie = await signedSessionCookie(other.token);
    expect((await get(`/mine/coin-address-list?id=${id}`, { cookie })).status).toBe(404);
    const page = await form("/mine/coin-address-list", { intent: "delete-method", id: String(id) }, { cookie });
    expect(page.status).toBe(302);
    expect(await count("SELECT COUNT(*) AS n FROM payout_methods WHERE id = ?1 AND deleted_at IS NULL", id)).toBe(1);
    expect((await api<unknown[]>(other.token, "/api/wallet/get_draw_method?draw_type=1")).body.data).toEqual([]);
  });
});

describe("requesting a withdrawal", () => {
  it("locks the amount in one ledger post with the record (fee and received from the spec's formula)", async () => {
    const user = await customer(500 * USD);
    const bank = (await bindBank(user.token, Currency.Hkd)).body.data.id;
    const res = await draw(user.token, {
      draw_currency_id: String(Currency.Hkd),
      draw_method_id: String(bank),
      number: "100",
      memo: "rent",
      request_id: crypto.randomUUID(),
    });
    expect(res.body).toMatchObject({ code: 1, msg: "Withdrawal requested. It is now under review." });
    // fee 0.5% of 100 = 0.50; received (100 − 0.50) × 7.8 = 776.10 HKD
    expect(res.body.data).toMatchObject({
      number: "100.00",
      fee: "0.50",
      real_number: "776.10",
      status: 0,
      status_name: "Under review",
      type: 2,
      payee_account: "012-345678-901",
      draw_currency: { code: "HKD" },
    });
    expect(await funding(user.accounts.funding)).toEqual({ balance: 400 * USD, locked: 100 * USD });
    const w = await withdrawal(res.body.data.id);
    const tx = await env.DB.prepare("SELECT kind, idempotency_key AS k FROM ledger_transactions WHERE id = ?1")
      .bind(w.lockTx)
      .first<{ kind: string; k: string }>();
    expect(tx?.kind).toBe("withdraw");
    expect(tx?.k).toMatch(new RegExp(`^withdraw:${user.id}:`));
    const list = await api<{ data: WireRecord[]; total: number }>(user.token, "/api/account/draw_list?type=2&page=1");
    expect(list.body.data.total).toBe(1);
    expect(list.body.data.data[0]).toMatchObject({
      id: res.body.data.id,
      number: "100.00",
      real_number: "776.10",
      status_name: "Under review",
    });
    expect((await api<{ total: number }>(user.token, "/api/account/draw_list?type=1")).body.data.total).toBe(0);
  });

  it("a double submit (same request_id) creates one request", async () => {
    const user = await customer(500 * USD);
    const method = await bindCoin(user.token);
    const fields = { draw_currency_id: "1", draw_method_id: String(method), number: "50", request_id: "double-submit-1" };
    const answers = await Promise.all([draw(user.token, fields), draw(user.token, fields), draw(user.token, fields)]);
    for (const a of answers) expect(a.body.code, a.body.msg).toBe(1);
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    // later, the same nonce with another amount: still the first request
    const again = await draw(user.token, { ...fields, number: "70" });
    expect(again.body.data.id).toBe(answers[0]!.body.data.id);
    expect(await count("SELECT COUNT(*) AS n FROM withdrawals WHERE user_id = ?1", user.id)).toBe(1);
    expect(await funding(user.accounts.funding)).toEqual({ balance: 450 * USD, locked: 50 * USD });
  });

  it("40 concurrent requests whose total exceeds the balance never overdraw", async () => {
    const user = await customer(500 * USD);
    const method = await bindCoin(user.token);
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        draw(user.token, { draw_currency_id: "1", draw_method_id: String(method), number: "30", request_id: crypto.randomUUID() }),
      ),
    );
    for (const a of answers) expect(a.status).toBe(200);
    const accepted = answers.filter((a) => a.body.code === 1);
    expect(accepted).toHaveLength(Math.floor(500 / 30));
    for (const a of answers.filter((x) => x.body.code !== 1))
      expect(a.body.msg).toBe("Not enough available balance in your funding account for this withdrawal.");
    expect(await funding(user.accounts.funding)).toEqual({ balance: 20 * USD, locked: 480 * USD });
    expect(await count("SELECT COUNT(*) AS n FROM withdrawals WHERE user_id = ?1", user.id)).toBe(16);
  });

  it("bad input answers clearly and changes nothing", async () => {
    const user = await customer(100 * USD);
    const other = await customer(100 * USD);
    const coin = await bindCoin(user.token);
    const erc = await bindCoin(user.token, ERC20_ADDRESS, Currency.Erc20);
    const bank = (await bindBank(user.token, Currency.Usd)).body.data.id;
    const deleted = await bindCoin(user.token);
    await api(user.token, "/api/wallet/del_draw_method", { id: String(deleted) });
    const foreign = await bindCoin(other.token);
    const base = { draw_currency_id: "1", draw_method_id: String(coin), number: "20" };
    const cases: [Record<string, string>, string][] = [
      [{ number: "0" }, "Enter a positive amount with at most 2 decimals, e.g. 10 or 12.50."],
      [{ number: "-5" }, "Enter a positive amount with at most 2 decimals, e.g. 10 or 12.50."],
      [{ number: "ten" }, "Enter a positive amount with at most 2 decimals, e.g. 10 or 12.50."],
      [{ number: "20.001" }, "Enter a positive amount with at most 2 decimals, e.g. 10 or 12.50."],
      [{ number: "1e3" }, "Enter a positive amount with at most 2 decimals, e.g. 10 or 12.50."],
      [{ number: "" }, "Please enter an amount."],
      [{ number: "100.01" }, "Not enough available balance in your funding account for this withdrawal."],
      [{ number: "9.99" }, "The minimum for this currency is 10.00 USD."],
      [{ draw_method_id: "999999" }, "This withdrawal method doesn't exist any more. Choose another one."],
      [{ draw_method_id: String(foreign) }, "This withdrawal method doesn't exist any more. Choose another one."],
      [{ draw_method_id: String(deleted) }, "This withdrawal method doesn't exist any more. Choose another one."],
      [{ draw_method_id: "abc" }, "Please choose where to send the money."],
      [{ draw_method_id: String(bank) }, "This address or account is for another currency. Choose the currency it was added for."],
      [{ draw_method_id: String(erc) }, "This address or account is for another currency. Choose the currency it was added for."],
      [{ draw_currency_id: "999" }, "Please choose a withdrawal currency."],
      [{ draw_currency_id: "" }, "Please choose a withdrawal currency."],
    ];
    for (const [change, msg] of cases) {
      const res = await draw(user.token, { ...base, ...change, request_id: crypto.randomUUID() });
      expect(res.status, JSON.stringify(change)).toBeLessThan(500);
      expect(res.body, JSON.stringify(change)).toMatchObject({ code: 0, msg });
    }
    expect(await funding(user.accounts.funding)).toEqual({ balance: 100 * USD, locked: 0 });
    expect(await count("SELECT COUNT(*) AS n FROM withdrawals WHERE user_id = ?1", user.id)).toBe(0);
    expect(await count("SELECT COUNT(*) AS n FROM ledger_transactions WHERE user_id = ?1", user.id)).toBe(0);
  });

  it("a demo user is refused (API and pages)", async () => {
    const demo = await createUser({ isDemo: true });
    const token = await sessionFor(demo.id);
    const res = await draw(token, { draw_currency_id: "1", draw_method_id: "1", number: "20" });
    expect(res.body).toMatchObject({ code: 0, msg: "Only real account: please register or log in to a real account." });
    expect(
      (await api(token, "/api/wallet/bind_draw_method", { draw_type: "1", draw_currency_id: "1", dc_address: TRC20_ADDRESS })).body.code,
    ).toBe(0);
    const cookie = await signedSessionCookie(token);
    for (const path of ["/mine/withdraw?type=0", "/mine/withdraw-way?type=1", "/mine/coin-address-list"]) {
      const page = await get(path, { cookie });
      expect(page.status, path).toBe(302);
      expect(page.headers.get("location")).toBe("/user");
    }
    expect(await count("SELECT COUNT(*) AS n FROM payout_methods WHERE user_id = ?1", demo.id)).toBe(0);
  });

  it("the page flow without JavaScript: not bound → confirm; preview shows the figures; confirm requests once", async () => {
    const user = await customer(200 * USD);
    const cookie = await signedSessionCookie(user.token);
    const empty = visibleText(await (await get("/mine/withdraw?type=0", { cookie })).text());
    expect(empty).toContain("Please bind a withdrawal method first.");
    const method = await bindCoin(user.token, ERC20_ADDRESS, Currency.Erc20);
    const fields = {
      draw_currency_id: String(Currency.Erc20),
      draw_method_id: String(method),
      number: "120.50",
      memo: "",
      request_id: "page-flow-0001",
    };
    const preview = await form("/mine/withdraw?type=0", { ...fields, intent: "preview" }, { cookie });
    expect(preview.status).toBe(200);
    const text = visibleText(await preview.text());
    // 1% of 120.50 = 1.205 → 1.21 (rounded up to the cent); received 119.29 USDT
    expect(text).toContain("Confirm withdrawal");
    expect(text).toMatch(/Fee 1\.21 USD/);
    expect(text).toMatch(/You receive 119\.29 USDT/);
    expect(text).toContain(ERC20_ADDRESS);
    expect(await count("SELECT COUNT(*) AS n FROM withdrawals WHERE user_id = ?1", user.id)).toBe(0);
    const bad = await form("/mine/withdraw?type=0", { ...fields, number: "5000", intent: "preview" }, { cookie });
    expect(bad.status).toBe(400);
    expect(visibleText(await bad.text())).toContain("Not enough available balance in your funding account for this withdrawal.");
    const done = await Promise.all([1, 2].map(() => form("/mine/withdraw?type=0", { ...fields, intent: "withdraw" }, { cookie })));
    for (const d of done) expect(d.status).toBe(302);
    expect(await count("SELECT COUNT(*) AS n FROM withdrawals WHERE user_id = ?1", user.id)).toBe(1);
    const page = visibleText(await (await get("/mine/withdraw?type=0", { cookie: cookiesFrom(done[0]!, cookie) })).text());
    expect(page).toContain("Withdrawal requested. It is now under review.");
    expect(page).toContain("Under review");
    expect(page).toMatch(/Locked \(under review\) 120\.50 USD/);
  });

  it("another user's records are not listed nor readable by id", async () => {
    const { user, id } = await pendingWithdrawal("30");
    const other = await customer();
    const ctx = await createServiceContext(env);
    expect(await withdrawalOf(ctx, other.id, id)).toBeNull();
    expect((await withdrawalOf(ctx, user.id, id))?.id).toBe(id);
    expect((await api<{ total: number }>(other.token, "/api/account/draw_list")).body.data.total).toBe(0);
  });
});

describe("the operator's review", () => {
  it("approve pays the locked amount out: amount − fee to external withdrawals, the fee to fees", async () => {
    const { user, id } = await pendingWithdrawal("100");
    const [external, fees] = [await platform(PlatformAccount.ExternalWithdrawals.id), await platform(PlatformAccount.Fees.id)];
    const page = visibleText(await (await get("/admin/withdrawals", { cookie: operatorCookie })).text());
    expect(page).toContain(`#${id}`);
    expect(page).toContain(user.uid);
    const tx = txId();
    const res = await form("/admin/withdrawals", { intent: "approve", id: String(id), tx }, { cookie: operatorCookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/admin/withdrawals");
    expect(await funding(user.accounts.funding)).toEqual({ balance: 900 * USD, locked: 0 });
    expect((await platform(PlatformAccount.ExternalWithdrawals.id)) - external).toBe(99 * USD);
    expect((await platform(PlatformAccount.Fees.id)) - fees).toBe(1 * USD);
    const w = await withdrawal(id);
    expect(w).toMatchObject({ status: 1, reviewedBy: operator.id });
    expect(w.settleTx).toBeTruthy();
    expect(
      await count(
        "SELECT COUNT(*) AS n FROM operator_decisions WHERE subject = 'withdrawal' AND subject_id = ?1 AND decision = 'approve'",
        String(id),
      ),
    ).toBe(1);
    // the payout's transaction id, stored in one form, shown to the user with the network's explorer page
    expect(w).toMatchObject({ txId: tx.toLowerCase(), txNetwork: "TRC20" });
    const list = await api<{ data: (WireRecord & { tx_id: string; tx_url: string })[] }>(user.token, "/api/account/draw_list?type=1");
    expect(list.body.data.data[0]).toMatchObject({
      id,
      status: 1,
      status_name: "Paid",
      tx_id: tx.toLowerCase(),
      tx_url: `https://tronscan.org/#/transaction/${tx.toLowerCase()}`,
    });
    const records = await (await get("/mine/withdraw?type=0", { cookie: await signedSessionCookie(user.token) })).text();
    expect(visibleText(records)).toContain(`Transaction ID ${tx.toLowerCase()} View on explorer`);
    expect(records).toContain(`href="https://tronscan.org/#/transaction/${tx.toLowerCase()}"`);
  });

  it("approval needs the payout's transaction id in its network's format; without one nothing moves", async () => {
    const { user, id } = await pendingWithdrawal("100");
    const external = await platform(PlatformAccount.ExternalWithdrawals.id);
    // missing, an EVM hash for a TRON payout, too short, script in it
    for (const tx of [undefined, `0x${txId().toLowerCase()}`, "abc123", `${txId().slice(0, 60)}<b>x`]) {
      const res = await form(
        "/admin/withdrawals",
        { intent: "approve", id: String(id), ...(tx === undefined ? {} : { tx }) },
        { cookie: operatorCookie },
      );
      expect(res.status).toBe(302);
      expect(visibleText(await (await get("/admin/withdrawals", { cookie: cookiesFrom(res, operatorCookie) })).text())).toContain(
        "Enter the payout's transaction ID in its network's format",
      );
    }
    expect(await withdrawal(id)).toMatchObject({ status: 0, txId: null });
    expect(await funding(user.accounts.funding)).toEqual({ balance: 900 * USD, locked: 100 * USD });
    expect(await platform(PlatformAccount.ExternalWithdrawals.id)).toBe(external);
    expect(await count("SELECT COUNT(*) AS n FROM operator_decisions WHERE subject = 'withdrawal' AND subject_id = ?1", String(id))).toBe(
      0,
    );
  });

  it("reject needs a reason, then unlocks the amount and shows the reason", async () => {
    const { user, id } = await pendingWithdrawal("100");
    const noReason = await form("/admin/withdrawals", { intent: "reject", id: String(id), reason: "  " }, { cookie: operatorCookie });
    expect(noReason.status).toBe(302);
    expect(visibleText(await (await get("/admin/withdrawals", { cookie: cookiesFrom(noReason, operatorCookie) })).text())).toContain(
      "Give the reason for rejecting.",
    );
    expect((await withdrawal(id)).status).toBe(0);
    const res = await form(
      "/admin/withdrawals",
      { intent: "reject", id: String(id), reason: "Address on a sanctions list" },
      { cookie: operatorCookie },
    );
    expect(res.status).toBe(302);
    expect(await funding(user.accounts.funding)).toEqual({ balance: 1_000 * USD, locked: 0 });
    expect(await withdrawal(id)).toMatchObject({ status: 2, notes: "Address on a sanctions list", reviewedBy: operator.id });
    const refund = await env.DB.prepare("SELECT kind FROM ledger_transactions WHERE id = ?1")
      .bind((await withdrawal(id)).settleTx)
      .first<{ kind: string }>();
    expect(refund?.kind).toBe("withdraw_refund");
    const list = await api<{ data: WireRecord[] }>(user.token, "/api/account/draw_list");
    expect(list.body.data.data[0]).toMatchObject({ id, status: 2, status_name: "Rejected", notes: "Address on a sanctions list" });
  });

  it("concurrent approve and reject decide once; the loser is told it was already decided", async () => {
    for (let round = 0; round < 3; round++) {
      const { user, id } = await pendingWithdrawal("100");
      const ctx = await createServiceContext(env);
      const results = await Promise.all([
        approveWithdrawal(ctx, operator, operatorSession, id, txId()),
        rejectWithdrawal(ctx, operator, id, "duplicate"),
      ]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, error: "admin.already_decided" }]);
      expect(await count("SELECT COUNT(*) AS n FROM operator_decisions WHERE subject = 'withdrawal' AND subject_id = ?1", String(id))).toBe(
        1,
      );
      const w = await withdrawal(id);
      const after = await funding(user.accounts.funding);
      if (w.status === 1) expect(after).toEqual({ balance: 900 * USD, locked: 0 });
      else expect(after).toEqual({ balance: 1_000 * USD, locked: 0 });
    }
  });

  it("a double approval (two posts at once) pays once", async () => {
    const { user, id } = await pendingWithdrawal("100");
    const external = await platform(PlatformAccount.ExternalWithdrawals.id);
    const answers = await Promise.all(
      [1, 2].map(() => form("/admin/withdrawals", { intent: "approve", id: String(id), tx: txId() }, { cookie: operatorCookie })),
    );
    const texts = await Promise.all(
      answers.map(async (a) => visibleText(await (await get("/admin/withdrawals", { cookie: cookiesFrom(a, operatorCookie) })).text())),
    );
    expect(texts.filter((t) => t.includes("Approved."))).toHaveLength(1);
    expect(texts.filter((t) => t.includes("This request was already decided."))).toHaveLength(1);
    expect((await platform(PlatformAccount.ExternalWithdrawals.id)) - external).toBe(99 * USD);
    expect(await funding(user.accounts.funding)).toEqual({ balance: 900 * USD, locked: 0 });
  });

  it("approval without a step-up is sent to confirm one first and changes nothing", async () => {
    const { user, id } = await pendingWithdrawal("100");
    const fresh = await signedSessionCookie(await sessionFor(operator.id));
    const res = await form("/admin/withdrawals", { intent: "approve", id: String(id), tx: txId() }, { cookie: fresh });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/admin/verify?from=%2Fadmin%2Fwithdrawals");
    expect((await withdrawal(id)).status).toBe(0);
    expect(await funding(user.accounts.funding)).toEqual({ balance: 900 * USD, locked: 100 * USD });
  });

  it("a step-up that has expired is refused inside the payout's batch", async () => {
    const { user, id } = await pendingWithdrawal("100");
    const token = await sessionFor(operator.id);
    const sessionId = await sessionIdOf(token);
    await env.DB.prepare("INSERT INTO operator_step_ups (session_id, verified_at) VALUES (?1, ?2)")
      .bind(sessionId, Date.now() - STEP_UP_TTL_MS - 1000)
      .run();
    const ctx = await createServiceContext(env);
    expect(await approveWithdrawal(ctx, operator, sessionId, id, txId())).toEqual({ ok: false, error: "admin.step_up_expired" });
    // a step-up that was fresh when the page loaded but expires before the click: the same
    expect(await approveWithdrawal(ctx, operator, operatorSession, id, txId(), Date.now() + STEP_UP_TTL_MS + 1000)).toEqual({
      ok: false,
      error: "admin.step_up_expired",
    });
    expect(await count("SELECT COUNT(*) AS n FROM operator_decisions WHERE subject = 'withdrawal' AND subject_id = ?1", String(id))).toBe(
      0,
    );
    expect((await withdrawal(id)).status).toBe(0);
    expect(await funding(user.accounts.funding)).toEqual({ balance: 900 * USD, locked: 100 * USD });
  });

  it("a non-operator cannot use the operator services, and /admin/withdrawals is 404 for them", async () => {
    const { user, id } = await pendingWithdrawal("100");
    const ctx = await createServiceContext(env);
    const normal = (await userForToken(env.DB, user.token))!;
    await expect(withdrawalQueue(ctx, normal)).rejects.toBeInstanceOf(OperatorOnly);
    await expect(approveWithdrawal(ctx, normal, await sessionIdOf(user.token), id, txId())).rejects.toBeInstanceOf(OperatorOnly);
    await expect(rejectWithdrawal(ctx, normal, id, "no")).rejects.toBeInstanceOf(OperatorOnly);
    await expect(rejectWithdrawal(ctx, null, id, "no")).rejects.toBeInstanceOf(OperatorOnly);
    const cookie = await signedSessionCookie(user.token);
    expect((await get("/admin/withdrawals", { cookie })).status).toBe(404);
    expect((await form("/admin/withdrawals", { intent: "reject", id: String(id), reason: "x" }, { cookie })).status).toBe(404);
    expect((await get("/admin/withdrawals")).status).toBe(404);
    expect((await withdrawal(id)).status).toBe(0);
  });
});

describe("e-mail notices", () => {
  /** The user's notices in the outbox, oldest first (they are sent in the background after the change commits). */
  const mails = async (to: string) =>
    (await env.DB.prepare("SELECT subject, body FROM outbox WHERE `to` = ?1 ORDER BY id").bind(to).all<{ subject: string; body: string }>())
      .results;

  it("requested, paid with its transaction id and explorer page, rejected with the reason: once each, in the user's language", async () => {
    const { user, id } = await pendingWithdrawal("100");
    await env.DB.prepare("UPDATE users SET lang = 'en' WHERE id = ?1").bind(user.id).run();
    // the request's notice went in the language the user had then (the default, hk): only its count is checked here
    await expect.poll(async () => (await mails(user.email!)).length).toBe(1);
    const tx = txId();
    const res = await form("/admin/withdrawals", { intent: "approve", id: String(id), tx }, { cookie: operatorCookie });
    expect(res.status).toBe(302);
    await expect.poll(async () => (await mails(user.email!)).length).toBe(2);
    const paid = (await mails(user.email!))[1]!;
    expect(paid.subject).toBe(`Your Bourse withdrawal #${id} has been paid`);
    expect(paid.body).toBe(
      `Your withdrawal of 100.00 USD has been paid: 99.00 USDT sent. Transaction ID: ${tx.toLowerCase()}\n\nhttps://tronscan.org/#/transaction/${tx.toLowerCase()}`,
    );

    const second = await pendingWithdrawal("50");
    await env.DB.prepare("UPDATE users SET lang = 'de' WHERE id = ?1").bind(second.user.id).run();
    await expect.poll(async () => (await mails(second.user.email!)).length).toBe(1);
    await form(
      "/admin/withdrawals",
      { intent: "reject", id: String(second.id), reason: "Adresse nicht bestätigt" },
      { cookie: operatorCookie },
    );
    await expect.poll(async () => (await mails(second.user.email!)).length).toBe(2);
    expect((await mails(second.user.email!))[1]).toEqual({
      subject: `Ihre Bourse-Auszahlung Nr. ${second.id} wurde abgelehnt`,
      body: "Ihre Auszahlung über 50.00 USD wurde abgelehnt, der Betrag ist wieder in Ihrem verfügbaren Guthaben. Grund: Adresse nicht bestätigt",
    });
  });

  it("the request's notice says what was asked; a replay of the same request sends nothing more", async () => {
    const user = await customer(1_000 * USD);
    await env.DB.prepare("UPDATE users SET lang = 'en' WHERE id = ?1").bind(user.id).run();
    const method = await bindCoin(user.token);
    // the same request three times at once, in one isolate: all pass the "already placed?" read
    // before any of them writes, so two are replays of the ledger's idempotent transaction
    const ctx = await createServiceContext(env);
    const session = (await userForToken(env.DB, user.token))!;
    const input = { drawCurrencyId: Currency.Trc20, methodId: method, amount: "100", memo: "", requestId: crypto.randomUUID() };
    const answers = await Promise.all([1, 2, 3].map(() => requestWithdrawal(ctx, session, input)));
    const ids = new Set(answers.map((a) => (a.ok ? a.value.id : 0)));
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    await expect.poll(async () => (await mails(user.email!)).length).toBe(1);
    // nothing more arrives later either
    await new Promise((r) => setTimeout(r, 300));
    expect(await mails(user.email!)).toEqual([
      {
        subject: `Your Bourse withdrawal request #${id}`,
        body: "We received your request to withdraw 100.00 USD (you receive 99.00 USDT). The amount is held until it is reviewed. If you did not make this request, change your password and contact support at once.",
      },
    ]);
  });

  it("a failed approval (no transaction id) sends no notice", async () => {
    const { user, id } = await pendingWithdrawal("100");
    await expect.poll(async () => (await mails(user.email!)).length).toBe(1);
    await form("/admin/withdrawals", { intent: "approve", id: String(id) }, { cookie: operatorCookie });
    await new Promise((r) => setTimeout(r, 300));
    expect(await mails(user.email!)).toHaveLength(1);
  });
});
