// The spec §7 contract as an existing client calls it (issue 19 §7): every row of the table with
// the spec's parameters, the `lang` and `authorization` headers and `t` on GETs, each answer in
// the §8 envelope {code, msg, data} with the fields the spec names. Calls that answer
// differently on purpose are listed in the README's API notes.
import { SELF, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ORIGIN, createUser, fund, holdPrice, latestCode, sessionFor, signedSessionCookie, uniqueEmail } from "./helpers";

const PASSWORD = "correct-horse-1";
const USD = 1_000_000;
let ipCounter = 0;
const newIp = () => `198.18.${Math.floor(++ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;

type Envelope = { code: number; msg: string; data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A §7 call as the spec's clients send it: lang and authorization headers, GET with t. */
async function call(method: "GET" | "POST", path: string, params: Record<string, string | number> = {}, init: { token?: string; lang?: string; cookie?: string; json?: boolean; ip?: string } = {}): Promise<Envelope & { status: number }> {
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
    const bought = await call("GET", "/v2/api/forex/submit", { type: 1, cont: "0.01", forex_id: 2, status: 1, multiple: 10, stop_loss_price: 0, target_profit_price: 0 }, { token });
    expect(bought.code, bought.msg).toBe(1);
    expect((await balances(token)).list.some((a) => a.lockBalance !== "0.00")).toBe(true);
    const reset = await call("GET", "/v2/api/main/user/resetForexDemoAccount", {}, { token });
    expect(reset).toMatchObject({ code: 1, msg: "Your demo positions are closed and your demo balances have been restored." });
    expect(reset.data).toMatchObject({ total: start.total });
    expect((await balances(token)).list.map((a) => [a.type, a.balance, a.lockBalance])).toEqual(start.list.map((a) => [a.type, a.balance, a.lockBalance]));
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
    expect((await call("GET", "/v2/api/forex/submit", { type: 1, cont: "0.01", forex_id: 2, status: 1, multiple: 10 }, { token })).code).toBe(1);
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
    const changed = await call("POST", "/api/user/amend_password", { new_password: "sunflower-lamp-42", auth_code: code, type: "email" }, { token });
    expect(changed, changed.msg).toMatchObject({ code: 1, msg: "Your password has been changed." });
    expect(typeof changed.data.token).toBe("string");
    expect((await login(user.email!, "sunflower-lamp-42")).code).toBe(1);
    expect((await login(user.email!, PASSWORD)).code).toBe(0);
  });

  it("an old_password the client sends is checked: a wrong one is refused and changes nothing; the right one works", async () => {
    const { user, token, code } = await signedIn();
    const wrong = await call("POST", "/api/user/amend_password", { old_password: "not-my-password-9", new_password: "sunflower-lamp-42", auth_code: code, type: "email" }, { token });
    expect(wrong).toMatchObject({ code: 0, msg: "Your current password is not correct." });
    expect((await login(user.email!, PASSWORD)).code).toBe(1);
    const right = await call("POST", "/api/user/amend_password", { old_password: PASSWORD, new_password: "sunflower-lamp-42", auth_code: code, type: "email" }, { token });
    expect(right.code, right.msg).toBe(1);
  });

  it("without the right code nothing changes; the web form still asks for the current password", async () => {
    const { user, token, code } = await signedIn();
    const noCode = await call("POST", "/api/user/amend_password", { new_password: "sunflower-lamp-42", auth_code: String((Number(code) + 1) % 1_000_000).padStart(6, "0"), type: "email" }, { token });
    expect(noCode.code).toBe(0);
    expect(noCode.msg).toContain("code");
    expect((await login(user.email!, PASSWORD)).code).toBe(1);
    const cookie = await signedSessionCookie(await sessionFor(user.id));
    const page = await SELF.fetch(`${ORIGIN}/mine/password`, {
      method: "POST",
      headers: { host: "localhost", origin: ORIGIN, "accept-language": "en", "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ intent: "amend", auth_code: code, password: "sunflower-lamp-42", re_password: "sunflower-lamp-42" }).toString(),
      redirect: "manual",
    });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("Please enter your password.");
    expect((await login(user.email!, PASSWORD)).code).toBe(1);
  });
});

void uniqueEmail;
