// The spec §7 contract as an existing client calls it (issue 19 §7): every row of the table with
// the spec's parameters, the `lang` and `authorization` headers and `t` on GETs, each answer in
// the §8 envelope {code, msg, data} with the fields the spec names. Calls that answer
// differently on purpose are listed in the README's API notes.
import { SELF, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { reviewApplication } from "~/services/copy/operator.server";
import { approveLoan, decideKyc } from "~/services/loan/operator.server";
import { sessionIdOf, userForToken } from "~/services/session.server";
import { ORIGIN, createUser, fund, holdPrice, latestCode, sessionFor, signedSessionCookie, uniqueEmail } from "./helpers";

const PASSWORD = "correct-horse-1";
const USD = 1_000_000;
let ipCounter = 0;
const newIp = () => `198.18.${Math.floor(++ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;

type Envelope = { code: number; msg: string; data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A §7 call as the spec's clients send it: lang and authorization headers, GET with t. */
async function call(
  method: "GET" | "POST",
  path: string,
  params: Record<string, string | number> = {},
  init: { token?: string; lang?: string; cookie?: string; json?: boolean; ip?: string } = {},
): Promise<Envelope & { status: number }> {
  const headers: Record<string, string> = { host: "localhost", lang: init.lang ?? "en", "cf-connecting-ip": init.ip ?? newIp() };
  if (init.token) headers.authorization = init.token;
  if (init.cookie) headers.cookie = init.cookie;
  const fields = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]));
  let url = `${ORIGIN}${path}`;
  let body: string | undefined;
  if (method === "GET") url += `?${new URLSearchParams({ ...fields, t: String(Date.now()) })}`;
  else if (init.json) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(fields);
  } else {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(fields).toString();
  }
  if (method === "POST") headers.origin = ORIGIN;
  const res = await SELF.fetch(url, { method, headers, body });
  const json = (await res.json()) as Envelope;
  expect(typeof json.code, `${method} ${path}`).toBe("number");
  expect(typeof json.msg, `${method} ${path}`).toBe("string");
  expect(json.msg.length, `${method} ${path}`).toBeGreaterThan(0);
  expect(json.msg, `${method} ${path}`).not.toMatch(/^(errors|api|auth|user)\.\w+/);
  return { ...json, status: res.status };
}

async function balances(token: string) {
  const got = await call("GET", "/v2/api/main/wallet/getBalance", {}, { token });
  return got.data as { total: string; list: { type: string; balance: string; lockBalance: string; accountTypeId: number }[] };
}

describe("GET /v2/api/main/user/resetForexDemoAccount (the /user demo reset)", () => {
  it("resets a demo account with the token: open orders closed, balances back to the starting ones", async () => {
    const demo = await call("GET", "/api/user/createAccountDemoForU");
    expect(demo.code).toBe(1);
    const token = demo.data.token as string;
    const start = await balances(token);
    await holdPrice("ETHUSDT", 2_000);
    const bought = await call(
      "GET",
      "/v2/api/forex/submit",
      { type: 1, cont: "0.01", forex_id: 2, status: 1, multiple: 10, stop_loss_price: 0, target_profit_price: 0 },
      { token },
    );
    expect(bought.code, bought.msg).toBe(1);
    expect((await balances(token)).list.some((a) => a.lockBalance !== "0.00")).toBe(true);
    const reset = await call("GET", "/v2/api/main/user/resetForexDemoAccount", {}, { token });
    expect(reset).toMatchObject({ code: 1, msg: "Your demo positions are closed and your demo balances have been restored." });
    expect(reset.data).toMatchObject({ total: start.total });
    expect((await balances(token)).list.map((a) => [a.type, a.balance, a.lockBalance])).toEqual(
      start.list.map((a) => [a.type, a.balance, a.lockBalance]),
    );
    const holding = await call("GET", "/v2/api/forex/my_deal", { status: 1, page: 1 }, { token });
    expect(holding.data.total).toBe(0);
    // in the caller's language
    const jp = await call("GET", "/v2/api/main/user/resetForexDemoAccount", {}, { token, lang: "jp" });
    expect(jp.code).toBe(1);
    expect(jp.msg).not.toBe(reset.msg);
  });

  it("refuses a real account with a translated message and moves nothing", async () => {
    const user = await createUser({ password: PASSWORD });
    await fund(user.accounts.funding, 50 * USD);
    const token = await sessionFor(user.id);
    const refused = await call("GET", "/v2/api/main/user/resetForexDemoAccount", {}, { token });
    expect(refused).toMatchObject({ code: 0, msg: "This is only available for demo accounts." });
    expect((await balances(token)).total).toBe("50.00");
  });

  it("a GET with the cookie alone (a link on another site) changes nothing: 999", async () => {
    const demo = await call("GET", "/api/user/createAccountDemoForU");
    const token = demo.data.token as string;
    await holdPrice("ETHUSDT", 2_000);
    expect(
      (await call("GET", "/v2/api/forex/submit", { type: 1, cont: "0.01", forex_id: 2, status: 1, multiple: 10 }, { token })).code,
    ).toBe(1);
    const before = await balances(token);
    const cookie = await signedSessionCookie(token);
    const forged = await call("GET", "/v2/api/main/user/resetForexDemoAccount", {}, { cookie });
    expect(forged.code).toBe(999);
    expect(await balances(token)).toEqual(before);
    expect((await call("GET", "/api/user/info", {})).code).toBe(999);
  });
});

describe("POST /api/user/amend_password with the spec's parameters", () => {
  async function signedIn() {
    const user = await createUser({ password: PASSWORD });
    const token = await sessionFor(user.id);
    const sent = await call("POST", "/api/notify/send_email", { to: user.email!, type: 2 }, { token });
    expect(sent.code, sent.msg).toBe(1);
    return { user, token, code: (await latestCode(user.email!))! };
  }
  const login = (account: string, password: string) => call("POST", "/api/user/loginForU", { account, password, login_type: "email" });

  it("new_password, auth_code and type 'email' change the password: the e-mailed code proves the mailbox", async () => {
    const { user, token, code } = await signedIn();
    const changed = await call(
      "POST",
      "/api/user/amend_password",
      { new_password: "sunflower-lamp-42", auth_code: code, type: "email" },
      { token },
    );
    expect(changed, changed.msg).toMatchObject({ code: 1, msg: "Your password has been changed." });
    expect(typeof changed.data.token).toBe("string");
    expect((await login(user.email!, "sunflower-lamp-42")).code).toBe(1);
    expect((await login(user.email!, PASSWORD)).code).toBe(0);
  });

  it("an old_password the client sends is checked: a wrong one is refused and changes nothing; the right one works", async () => {
    const { user, token, code } = await signedIn();
    const wrong = await call(
      "POST",
      "/api/user/amend_password",
      { old_password: "not-my-password-9", new_password: "sunflower-lamp-42", auth_code: code, type: "email" },
      { token },
    );
    expect(wrong).toMatchObject({ code: 0, msg: "Your current password is not correct." });
    expect((await login(user.email!, PASSWORD)).code).toBe(1);
    const right = await call(
      "POST",
      "/api/user/amend_password",
      { old_password: PASSWORD, new_password: "sunflower-lamp-42", auth_code: code, type: "email" },
      { token },
    );
    expect(right.code, right.msg).toBe(1);
  });

  it("without the right code nothing changes; the web form still asks for the current password", async () => {
    const { user, token, code } = await signedIn();
    const noCode = await call(
      "POST",
      "/api/user/amend_password",
      { new_password: "sunflower-lamp-42", auth_code: String((Number(code) + 1) % 1_000_000).padStart(6, "0"), type: "email" },
      { token },
    );
    expect(noCode.code).toBe(0);
    expect(noCode.msg).toContain("code");
    expect((await login(user.email!, PASSWORD)).code).toBe(1);
    const cookie = await signedSessionCookie(await sessionFor(user.id));
    const page = await SELF.fetch(`${ORIGIN}/mine/password`, {
      method: "POST",
      headers: { host: "localhost", origin: ORIGIN, "accept-language": "en", "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({
        intent: "amend",
        auth_code: code,
        password: "sunflower-lamp-42",
        re_password: "sunflower-lamp-42",
      }).toString(),
      redirect: "manual",
    });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("Please enter your password.");
    expect((await login(user.email!, PASSWORD)).code).toBe(1);
  });
});

const JPEG = () =>
  new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, ...Array(200).fill(7), 0xff, 0xd9]);
const PNG = () =>
  new Uint8Array([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    0,
    0,
    0,
    13,
    0x49,
    0x48,
    0x44,
    0x52,
    ...Array(200).fill(1),
    0,
    0,
    0,
    0,
    0x49,
    0x45,
    0x4e,
    0x44,
    0xae,
    0x42,
    0x60,
    0x82,
  ]);

/** POST /api/common/image_upload: multipart file, as a client sends it. */
async function upload(token: string, purpose = "other", content: Uint8Array<ArrayBuffer> = JPEG(), type = "image/jpeg") {
  const fd = new FormData();
  fd.append("file", new Blob([content], { type }), "photo");
  const res = await SELF.fetch(`${ORIGIN}/api/common/image_upload?purpose=${purpose}`, {
    method: "POST",
    body: fd,
    headers: { host: "localhost", lang: "en", authorization: token },
  });
  const body = (await res.json()) as Envelope;
  expect(body.code, body.msg).toBe(1);
  expect(body.data).toEqual({ url: `/uploads/${body.data.id}`, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  return body.data as { url: string; id: string };
}

/** A real user with money in each account and a token. */
async function client(amounts: { funding?: number; options?: number; contract?: number } = {}) {
  const user = await createUser({ password: PASSWORD });
  for (const kind of ["funding", "options", "contract"] as const) if (amounts[kind]) await fund(user.accounts[kind], amounts[kind]!);
  return { user, token: await sessionFor(user.id) };
}

async function operatorUser() {
  const op = await createUser();
  await env.DB.prepare("UPDATE users SET role = 'operator' WHERE id = ?1").bind(op.id).run();
  const token = await sessionFor(op.id);
  const sessionId = await sessionIdOf(token);
  await env.DB.prepare("INSERT INTO operator_step_ups (session_id, verified_at) VALUES (?1, ?2)").bind(sessionId, Date.now()).run();
  return Object.assign((await userForToken(env.DB, token))!, { sessionId });
}

const ok = (e: Envelope & { status: number }, what: string) => expect(e.code, `${what}: ${e.msg}`).toBe(1);
const paged = (data: { data: unknown[]; total?: number; last_page?: number }, what: string) => {
  expect(Array.isArray(data.data), what).toBe(true);
  expect(typeof (data.total ?? data.last_page), what).toBe("number");
};

describe("every row of spec §7 with the spec's parameters", () => {
  it("settings, areas, company, news, captcha and the market (no session)", async () => {
    const areas = await call("GET", "/api/default/area_list");
    ok(areas, "area_list");
    expect(areas.data[0]).toEqual(
      expect.objectContaining({
        id: expect.any(Number),
        code: expect.any(String),
        global_code: expect.any(String),
        area_id: expect.any(Number),
        area_code: expect.any(String),
      }),
    );
    const basic = await call("GET", "/api/basicSet/getBasicInfo");
    ok(basic, "getBasicInfo");
    for (const key of ["service_link", "service_link_type", "verify_reg_type", "trade_fee_type", "micro_loss_level"])
      expect(basic.data, key).toHaveProperty(key);
    const setting = await call("GET", "/api/default/setting", { key: "is_show_mobile" });
    ok(setting, "setting");
    expect(setting.data).toMatchObject({ key: "is_show_mobile" });
    ok(await call("GET", "/api/company/getCompany"), "getCompany");
    const status = await call("GET", "/api/company/getCompanyStatus");
    ok(status, "getCompanyStatus");
    expect(status.data).toMatchObject({ status: 1, type: expect.any(Number) });
    const news = await call("GET", "/api/news/list", { category_id: 1, page: 1 });
    ok(news, "news/list");
    paged(news.data, "news/list");
    if (news.data.data.length > 0) {
      const item = await call("GET", "/api/news/info", { id: news.data.data[0].id });
      ok(item, "news/info");
      for (const key of ["id", "title", "desc", "logo", "created_at", "content"]) expect(item.data, key).toHaveProperty(key);
    }
    const captcha = await call("GET", "/api/captcha");
    ok(captcha, "captcha");
    expect(captcha.data).toEqual({ id: expect.any(String), b64s: expect.stringMatching(/^data:image\/png;base64,/) });
    const list = await call("GET", "/v2/api/forex/trade_list");
    ok(list, "trade_list");
    const first = list.data[0];
    for (const key of [
      "Id",
      "Code",
      "ShowCode",
      "Logo",
      "CategoryId",
      "MarketStatus",
      "PricePrecision",
      "Pip",
      "ForexMinCont",
      "ForexContNum",
      "ForexFeeRate",
      "MarginMode",
      "HasForexMultiple",
      "ForexQuotations",
    ])
      expect(first, key).toHaveProperty(key);
    const categories = await call("GET", "/v2/api/forex/getCategories");
    ok(categories, "getCategories");
    expect(categories.data[0]).toEqual(expect.objectContaining({ Id: expect.any(Number), NameShowTrans: expect.any(String) }));
    await holdPrice("ETHUSDT", 2_000);
    for (const path of ["/v2/api/forex/kline", "/v2/api/forex/abbreviated_cache_kline"]) {
      const k = await call("GET", path, { forex_id: 2, period: "5min" });
      ok(k, path);
      expect(Array.isArray(k.data), path).toBe(true);
    }
    const candle = (await call("GET", "/v2/api/forex/kline", { forex_id: 2, period: "1min" })).data[0];
    for (const key of ["timestamp", "open", "high", "low", "close", "volume"]) expect(candle, key).toHaveProperty(key);
    const seconds = await call("GET", "/v2/api/micro/get_seconds");
    ok(seconds, "get_seconds");
    expect(seconds.data.sec[0]).toEqual(
      expect.objectContaining({
        Id: expect.any(Number),
        Seconds: expect.any(Number),
        ProfitRatio: expect.anything(),
        LimitAmount: expect.anything(),
      }),
    );
    expect(seconds.data.number[0]).toHaveProperty("Number");
    const leaders = await call("GET", "/api/follow/list", { page: 1 });
    ok(leaders, "follow/list");
  });

  it("registration, sign-in, codes, reset, password change, demo account and wallet login", async () => {
    const email = uniqueEmail("walk");
    ok(await call("POST", "/api/notify/send_email", { to: email, area_id: "", type: 1 }), "send_email register");
    const reg = await call("POST", "/api/user/register", {
      type: "email",
      area_id: "",
      account: email,
      password: PASSWORD,
      re_password: PASSWORD,
      invite_code: "",
      sms_code: (await latestCode(email))!,
      key: "",
    });
    ok(reg, "register");
    expect(reg.data).toEqual(
      expect.objectContaining({
        token: expect.any(String),
        user: expect.objectContaining({
          uid: expect.anything(),
          email,
          invite_code: expect.any(String),
          id: expect.any(Number),
          is_trader: 0,
          is_demo: 0,
        }),
      }),
    );
    const login = await call("POST", "/api/user/loginForU", { account: email, password: PASSWORD, login_type: "email" });
    ok(login, "loginForU");
    const token = login.data.token as string;
    ok(await call("POST", "/api/notify/send_sms", { to: "91234567", area_id: 2, type: 1 }), "send_sms register");
    // reset by e-mail (no session)
    ok(await call("POST", "/api/notify/send_email", { to: email, area_id: "", type: 2 }), "send_email reset");
    const reset = await call("POST", "/api/user/forget_password", {
      type: "email",
      account: email,
      new_password: "sunflower-lamp-42",
      secondary_password: "sunflower-lamp-42",
      auth_code: (await latestCode(email))!,
    });
    ok(reset, "forget_password");
    const again = await call("POST", "/api/user/loginForU", { account: email, password: "sunflower-lamp-42", login_type: "email" });
    ok(again, "loginForU after reset");
    // password change with the session's code
    ok(await call("POST", "/api/notify/send_email", { to: email, area_id: "", type: 2 }, { token: again.data.token }), "send_email amend");
    ok(
      await call(
        "POST",
        "/api/user/amend_password",
        { new_password: "meadow-violin-77", auth_code: (await latestCode(email))!, type: "email" },
        { token: again.data.token },
      ),
      "amend_password",
    );
    expect((await call("GET", "/api/user/info", {}, { token })).code).toBe(999); // a password change ends the other sessions
    const demo = await call("GET", "/api/user/createAccountDemoForU", { demo_id: crypto.randomUUID() });
    ok(demo, "createAccountDemoForU");
    expect(demo.data).toEqual(
      expect.objectContaining({ token: expect.any(String), demo_id: expect.any(String), user: expect.objectContaining({ is_demo: 1 }) }),
    );
    ok(await call("GET", "/v2/api/main/user/resetForexDemoAccount", {}, { token: demo.data.token }), "resetForexDemoAccount");
    const address = "0x" + "ab".repeat(20);
    const nonce = await call("POST", "/api/user/get_nonce", { w_address: address.toUpperCase().replace("0X", "0x") });
    ok(nonce, "get_nonce");
    expect(nonce.data).toMatchObject({ nonce: expect.any(String), w_address: address });
    // on purpose: the spec's three fields are not enough, the signed EIP-4361 message is needed (README)
    const web3 = await call("POST", "/api/user/web3_login", {
      w_address: address,
      signature: "0x" + "11".repeat(65),
      nonce: nonce.data.nonce,
    });
    expect(web3.code).toBe(0);
  });

  it("the user, balances, account log and transfers", async () => {
    const { token } = await client({ funding: 100 * USD });
    const info = await call("GET", "/api/user/info", {}, { token });
    ok(info, "user/info");
    for (const key of ["uid", "email", "invite_code", "id", "is_trader", "is_demo"]) expect(info.data, key).toHaveProperty(key);
    const profits = await call("GET", "/api/user/get_profits", {}, { token });
    ok(profits, "get_profits");
    expect(profits.data).toEqual(expect.objectContaining({ profit: expect.any(String) }));
    const balance = await call("GET", "/v2/api/main/wallet/getBalance", {}, { token });
    ok(balance, "getBalance");
    expect(balance.data.list).toHaveLength(3);
    for (const key of ["type", "balance", "lockBalance", "accountTypeId", "currencyId"])
      expect(balance.data.list[0], key).toHaveProperty(key);
    const transfer = await call("POST", "/api/account/transfer", { balance: "10.00", currency_id: 1, from: 1, to: 3 }, { token });
    ok(transfer, "transfer");
    const log = await call("GET", "/api/account/transfer_log", { type: 1, page: 1 }, { token });
    ok(log, "transfer_log");
    paged(log.data, "transfer_log");
    expect(log.data.data[0]).toEqual(
      expect.objectContaining({
        balance: expect.any(String),
        from: expect.anything(),
        to: expect.anything(),
        created_at: expect.any(String),
      }),
    );
    const detail = await call("GET", "/v2/api/main/account/forexDetail", {}, { token });
    ok(detail, "forexDetail");
    const changes = await call("GET", "/v2/api/main/accountLog/forexChange", { page: 1, type: 1 }, { token });
    ok(changes, "forexChange");
    paged(changes.data, "forexChange");
    for (const key of ["Value", "Type", "Memo", "MemoTran", "CreatedAtTran"]) expect(changes.data.data[0], key).toHaveProperty(key);
  });

  it("contract orders, stops, close, cancel, options and follow orders (GETs with the token)", async () => {
    const { token } = await client({ contract: 10_000 * USD, options: 1_000 * USD });
    await holdPrice("ETHUSDT", 2_000);
    const market = await call(
      "GET",
      "/v2/api/forex/submit",
      { type: 1, cont: "0.01", forex_id: 2, status: 1, target_price: "", stop_loss_price: 0, target_profit_price: 0, multiple: 10 },
      { token },
    );
    ok(market, "forex/submit market");
    for (const key of [
      "Id",
      "OriginId",
      "ForexTradeLists",
      "OrderType",
      "Quantity",
      "OriginPrice",
      "Price",
      "UpdatePrice",
      "FactProfits",
      "CautionMoney",
      "TradeFee",
      "TargetLossPrice",
      "TargetProfitPrice",
      "Status",
      "CreateTimeHandler",
      "CompleteTimeHandler",
      "FollowType",
    ]) {
      expect(market.data, key).toHaveProperty(key);
    }
    const pending = await call(
      "GET",
      "/v2/api/forex/submit",
      { type: 1, cont: "0.01", forex_id: 2, status: 0, target_price: "1990", stop_loss_price: 0, target_profit_price: 0, multiple: 10 },
      { token },
    );
    ok(pending, "forex/submit pending");
    expect(pending.data.Status).toBe(0);
    const stops = await call(
      "GET",
      "/v2/api/forex/set_stop_price",
      { id: market.data.Id, stop_loss_price: "1900", target_profit_price: "2100" },
      { token },
    );
    ok(stops, "set_stop_price");
    expect(stops.data).toMatchObject({ TargetLossPrice: 1900, TargetProfitPrice: 2100 });
    const holding = await call("GET", "/v2/api/forex/my_deal", { status: 1, page: 1 }, { token });
    ok(holding, "my_deal");
    expect(holding.data).toEqual(expect.objectContaining({ all_fact_profits: expect.anything(), total: 1, data: expect.any(Array) }));
    ok(await call("GET", "/v2/api/forex/cancel_trade", { id: pending.data.Id }, { token }), "cancel_trade");
    ok(await call("GET", "/v2/api/forex/close", { id: market.data.Id }, { token }), "close");
    const history = await call("GET", "/v2/api/forex/my_deal", { status: 3, page: 1 }, { token });
    expect(history.data.data.map((o: { Id: number }) => o.Id)).toContain(market.data.Id);
    ok(await call("GET", "/v2/api/forex/my_deal_follow_order", { page: 1, status: 1 }, { token }), "my_deal_follow_order");
    const seconds = (await call("GET", "/v2/api/micro/get_seconds")).data.sec[0];
    const option = await call(
      "GET",
      "/v2/api/micro/submit",
      { forex_id: 2, type: 1, number: seconds.LimitAmount, seconds: seconds.Seconds },
      { token },
    );
    ok(option, "micro/submit");
    for (const key of [
      "Id",
      "Type",
      "Number",
      "OpenPrice",
      "EndPrice",
      "ProfitRatio",
      "Seconds",
      "RemainMilliSeconds",
      "Status",
      "FactProfits",
      "ForexTradeList",
      "CreatedAtST",
      "CompleteAtST",
    ])
      expect(option.data, key).toHaveProperty(key);
    const options = await call("GET", "/v2/api/micro/orders", { status: 1, page: 1 }, { token });
    ok(options, "micro/orders");
    paged(options.data, "micro/orders");
  });

  it("uploads, real-name, deposits, payout methods and withdrawals", async () => {
    const { token } = await client({ funding: 500 * USD });
    const front = await upload(token, "identity");
    const back = await upload(token, "identity");
    const real = await call(
      "POST",
      "/api/user_real/real_name",
      { name: "Ada Lovelace", card_id: "AB1234567", front_pic: front.url, reverse_pic: back.url },
      { token },
    );
    ok(real, "real_name");
    const center = await call("GET", "/api/user_real/center", {}, { token });
    ok(center, "user_real/center");
    expect(center.data).toEqual(
      expect.objectContaining({
        review_status: 1,
        name: "Ada Lovelace",
        card_id: expect.any(String),
        front_pic: expect.any(String),
        reverse_pic: expect.any(String),
      }),
    );

    ok(await call("GET", "/api/quickCharge/info", {}, { token }), "quickCharge/info");
    const symbols = await call("GET", "/api/quickCharge/symbols", {}, { token });
    ok(symbols, "quickCharge/symbols");
    for (const key of ["id", "currency_code", "protocol_code", "address"]) expect(symbols.data[0], key).toHaveProperty(key);
    const wires = await call("GET", "/api/quickCharge/wire_info", { bank_coin: "USD" }, { token });
    ok(wires, "wire_info");
    for (const key of ["id", "bank_name", "bank_address", "bank_swift", "payee_name", "payee_account", "bank_remark"])
      expect(wires.data[0], key).toHaveProperty(key);
    const proof = await upload(token, "deposit_proof");
    ok(
      await call(
        "GET",
        "/api/quickCharge/submit",
        { number: "100", proofImg: proof.url, address: "0x" + "12".repeat(20), charge_id: symbols.data[0].id },
        { token },
      ),
      "quickCharge/submit",
    );
    const proof2 = await upload(token, "deposit_proof");
    ok(
      await call("GET", "/api/quickCharge/wire_submit", { number: "100", proofImg: proof2.url, wire_id: wires.data[0].id }, { token }),
      "wire_submit",
    );
    const charges = await call("GET", "/api/quickCharge/quick_ist", { type: "", page: 1 }, { token });
    ok(charges, "quick_ist");
    paged(charges.data, "quick_ist");
    for (const key of ["number", "type", "currency_code", "status", "created_at", "remark"])
      expect(charges.data.data[0], key).toHaveProperty(key);

    const coins = await call("GET", "/api/account/draw_symbol_list", { type: 1 }, { token });
    ok(coins, "draw_symbol_list 1");
    for (const key of ["id", "code", "protocol", "draw_rate", "fee_type", "usd_price"]) expect(coins.data[0], key).toHaveProperty(key);
    ok(await call("GET", "/api/account/draw_symbol_list", { type: 2 }, { token }), "draw_symbol_list 2");
    const erc20 = coins.data.find((c: { protocol: string }) => c.protocol === "ERC20");
    const bound = await call(
      "POST",
      "/api/wallet/bind_draw_method",
      { draw_type: 1, draw_currency_id: erc20.id, dc_address: "0x" + "34".repeat(20) },
      { token },
    );
    ok(bound, "bind_draw_method");
    const methods = await call("GET", "/api/wallet/get_draw_method", { draw_type: 1 }, { token });
    ok(methods, "get_draw_method");
    const method = methods.data[0];
    expect(method).toEqual(expect.objectContaining({ id: expect.any(Number), dc_address: expect.any(String) }));
    ok(await call("GET", "/api/wallet/get_draw_method", { draw_type: 1, draw_id: method.id }, { token }), "get_draw_method by id");
    const draw = await call(
      "POST",
      "/api/account/draw",
      { draw_currency_id: erc20.id, number: "50", memo: "", draw_method_id: method.id },
      { token },
    );
    ok(draw, "draw");
    const draws = await call("GET", "/api/account/draw_list", { type: 1, page: 1 }, { token });
    ok(draws, "draw_list");
    paged(draws.data, "draw_list");
    for (const key of [
      "number",
      "real_number",
      "draw_currency",
      "fee",
      "status_name",
      "created_at",
      "type",
      "address",
      "payee_account",
      "notes",
    ])
      expect(draws.data.data[0], key).toHaveProperty(key);
    ok(await call("POST", "/api/wallet/del_draw_method", { id: method.id }, { token }), "del_draw_method");
  });

  it("copy trading: traders, apply, detail, follow, followed, my followers, unfollow", async () => {
    const trader = await client({ contract: 1_000 * USD });
    ok(await call("GET", "/api/follow/apply_trader", { agree: 1 }, { token: trader.token }), "apply_trader");
    const application = await env.DB.prepare("SELECT id FROM trader_applications WHERE user_id = ?1")
      .bind(trader.user.id)
      .first<{ id: number }>();
    expect(
      (await reviewApplication(await createServiceContext(env), await operatorUser(), { id: application!.id, decision: "approve" })).ok,
    ).toBe(true);
    const follower = await client({ contract: 1_000 * USD });
    const traders = await call("GET", "/api/follow/trader_list", { page: 1 }, { token: follower.token });
    ok(traders, "trader_list");
    const item = traders.data.data.find((t: { user_id: number }) => t.user_id === trader.user.id);
    // spec §3 Trader
    for (const key of ["user_id", "id", "nickname", "avatar", "follow_num", "is_followed", "profit_percent", "total_profit"])
      expect(item, key).toHaveProperty(key);
    const detail = await call("GET", "/api/follow/trader_detail", { id: item.id }, { token: follower.token });
    ok(detail, "trader_detail");
    expect(detail.data).toHaveProperty("is_followed");
    ok(
      await call("GET", "/api/follow/follow_trader", { trader_id: item.id, multiple: 1, max_amount: "100" }, { token: follower.token }),
      "follow_trader",
    );
    const followed = await call("GET", "/api/follow/followed_trader", { page: 1 }, { token: follower.token });
    ok(followed, "followed_trader");
    expect(followed.data.data).toHaveLength(1);
    // spec §3 Master list item (the follow list's cards)
    for (const key of [
      "id",
      "user_id",
      "nickname",
      "avatar",
      "follow_num",
      "position_num",
      "total_num",
      "total_amount",
      "position_quantity",
      "max_amount",
      "total_profits",
    ])
      expect(followed.data.data[0], key).toHaveProperty(key);
    const mine = await call("GET", "/api/follow/my_follower", { page: 1 }, { token: trader.token });
    ok(mine, "my_follower");
    for (const key of ["total_profits", "position_profits", "follow_num", "data"]) expect(mine.data, key).toHaveProperty(key);
    for (const key of ["follow_id", "nickname", "avatar", "profitability", "total_profits"])
      expect(mine.data.data[0], key).toHaveProperty(key);
    const copies = await call(
      "GET",
      "/v2/api/forex/my_deal_follow_order",
      { page: 1, user_id: trader.user.id, follower_user_id: follower.user.id, status: 1 },
      { token: follower.token },
    );
    ok(copies, "my_deal_follow_order");
    paged(copies.data, "my_deal_follow_order");
    // on purpose: follower_user_id is the caller's own id; another user's answers as not found (README)
    expect(
      (
        await call(
          "GET",
          "/v2/api/forex/my_deal_follow_order",
          { page: 1, user_id: trader.user.id, follower_user_id: follower.user.id, status: 1 },
          { token: trader.token },
        )
      ).status,
    ).toBe(404);
    ok(await call("GET", "/api/follow/canal_follow", { trader_id: item.id }, { token: follower.token }), "canal_follow");
  });

  it("loans: KYC, terms, dates, apply with a signature, lists, repayment", async () => {
    const borrower = await client();
    const hand = await upload(borrower.token, "identity");
    const kyc = await call(
      "POST",
      "/api/loan/kyc_submit",
      {
        name: "Lovelace",
        last_name: "Ada",
        sex: 2,
        birthday: "1990/05/17",
        country: "United Kingdom",
        mobile: "+44 7700 900123",
        id_card_type: 2,
        hand_pic: hand.url,
      },
      { token: borrower.token },
    );
    ok(kyc, "kyc_submit");
    expect((await decideKyc(await createServiceContext(env), await operatorUser(), borrower.user.id, true, "")).ok).toBe(true);
    const info = await call("GET", "/api/loan/info", {}, { token: borrower.token });
    ok(info, "loan/info");
    expect(info.data).toMatchObject({ status: 2 });
    const configs = await call("GET", "/api/loan/loan_config", {}, { token: borrower.token });
    ok(configs, "loan_config");
    const config = configs.data[0];
    for (const key of ["id", "loan_period", "min_amount", "max_amount", "interest_rate", "free_period", "penalty_rate"])
      expect(config, key).toHaveProperty(key);
    ok(await call("GET", "/api/loan/config_info", { id: config.id }, { token: borrower.token }), "config_info");
    ok(await call("GET", "/api/loan/get_date", { id: config.id, amount: config.min_amount }, { token: borrower.token }), "get_date");
    const sign = await upload(borrower.token, "signature", PNG(), "image/png");
    const applied = await call(
      "POST",
      "/api/loan/loan_submit",
      { amount: config.min_amount, config_id: config.id, sign: sign.url, agreement: "1" },
      { token: borrower.token },
    );
    ok(applied, "loan_submit");
    const loans = await call("GET", "/api/loan/loan_list", { page: 1 }, { token: borrower.token });
    ok(loans, "loan_list");
    paged(loans.data, "loan_list");
    for (const key of [
      "id",
      "amount",
      "loan_period",
      "interest_amount",
      "interest_rate",
      "penalty_amount",
      "reviewed_at",
      "repayment_time",
      "status",
      "created_at",
    ])
      expect(loans.data.data[0], key).toHaveProperty(key);
    const loan = await call("GET", "/api/loan/loan_info", { id: applied.data.id }, { token: borrower.token });
    ok(loan, "loan_info");
    expect(loan.data).toHaveProperty("agreement");
    ok(await call("GET", "/api/loan/repayment_accounts", {}, { token: borrower.token }), "repayment_accounts");
    // on purpose: the agreement is the server's own text for these terms (a client's `agreement` is not taken)
    expect(loan.data.agreement).not.toBe("1");
    const op = await operatorUser();
    expect((await approveLoan(await createServiceContext(env), op, op.sessionId, applied.data.id)).ok).toBe(true);
    const repayInfo = await call("GET", "/api/loan/repayment_info", { loan_id: applied.data.id }, { token: borrower.token });
    ok(repayInfo, "repayment_info");
    expect(repayInfo.data).toEqual(
      expect.objectContaining({
        status: 2,
        amount: expect.any(String),
        interest_amount: expect.any(String),
        penalty_amount: expect.any(String),
      }),
    );
    const accounts = await call("GET", "/api/loan/repayment_accounts", {}, { token: borrower.token });
    const proof = await upload(borrower.token, "repayment_proof");
    const repay = await call(
      "POST",
      "/api/loan/repayment",
      { charge_id: accounts.data[0].id, loan_id: applied.data.id, proofImg: proof.url },
      { token: borrower.token },
    );
    ok(repay, "repayment");
  });

  it("funds: list, info, buy, subscriptions, income, redemption", async () => {
    const { token } = await client({ funding: 5_000 * USD });
    const list = await call("GET", "/api/fund/list", { page: 1 }, { token });
    ok(list, "fund/list");
    paged(list.data, "fund/list");
    const product = list.data.data[0];
    for (const key of [
      "id",
      "title",
      "image",
      "currency_code",
      "dividend_percentage",
      "staring_sub_amount",
      "lock_dividend_days",
      "max_sub_amount",
      "desc",
      "liquidated_damages",
    ])
      expect(product, key).toHaveProperty(key);
    ok(await call("GET", "/api/fund/info", { id: product.id }, { token }), "fund/info");
    ok(await call("GET", "/api/fund/buy", { id: product.id, amount: product.staring_sub_amount }, { token }), "fund/buy");
    const subs = await call("GET", "/api/fund/subList", { page: 1 }, { token });
    ok(subs, "subList");
    paged(subs.data, "subList");
    const sub = subs.data.data[0];
    for (const key of ["id", "status", "share_amount", "sub_time", "day_profit", "sum_profit", "get_fund"])
      expect(sub, key).toHaveProperty(key);
    const income = await call("GET", "/api/fund/insList", { sub_id: sub.id, page: 1 }, { token });
    ok(income, "insList");
    paged(income.data, "insList");
    ok(await call("GET", "/api/fund/applyRefund", { sub_id: sub.id }, { token }), "applyRefund");
  });
});
