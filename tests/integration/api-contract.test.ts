// The JSON API's contract (issue 21): every spec §7 call of app/api/router.server.ts, with a
// success and its typical refusals (missing field, bad value, not signed in), answers exactly as
// recorded in tests/integration/fixtures/api-contract.json: the HTTP status, the content-type and
// cache-control headers, and the body byte for byte (key order, numbers, msg texts, error keys).
//
// The scenario is fixed: the seeded local D1 every integration test file gets, users made by the
// helpers with fixed e-mails, a fixed clock (vi.useFakeTimers fakes Date in this isolate, which
// the Worker and its rooms share), Math.random seeded (the helpers' uids and invite codes), and
// prices held through the main market room's scripted mode (holdPrice). Values that are random by
// nature (crypto: session tokens, demo ids, server-made uids and invite codes, nonces, captcha ids
// and pictures, upload ids) go through ONE normaliser, `normalise` below, which puts a placeholder
// keeping the value's shape in their place (`<token:43b64url>`, `<uuid>`) and never drops a key.
//
// Re-recording: `npx remix build && UPDATE_API_CONTRACT=1 npx vitest run --config
// vitest.workers.config.ts tests/integration/api-contract.test.ts` rewrites the fixture (through
// tests/integration/api-contract-recorder.ts, since workerd cannot write files). Re-record ONLY
// for a change of the spec (§3 fields, §7 calls, §8 envelope) that the commit names; a
// restructuring must pass against the committed fixture unchanged. Review the fixture's diff
// like code: every changed line is a change every API client sees.
/// <reference types="vite/client" />
import { SELF, env, runInDurableObject } from "cloudflare:test";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { createServiceContext } from "~/context.server";
import { MARKET_ROOM } from "~/domain/rooms";
import { buildLoginMessage } from "~/domain/web3";
import { approveLoan } from "~/services/loan/operator.server";
import { userForToken, sessionIdOf, type SessionUser } from "~/services/session.server";
import { ORIGIN, aTrader, createUser, fund, latestCode, mainRoom, sessionFor, tickMain } from "./helpers";

// A long scenario on a shared machine: each step below is many calls in a row.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 120_000 });

/** The fixed clock: a Monday morning (UTC), every market open. */
const T0 = Date.parse("2026-01-05T10:00:00.000Z");
const USD = 1_000_000;

type Recorded = { request: string; status: number; contentType: string | null; cacheControl: string | null; body: string };
// (Vite's import.meta.glob: an empty object while the fixture does not exist yet, before the first recording)
const fixtures = import.meta.glob<Record<string, Recorded>>("./fixtures/api-contract.json", { eager: true, import: "default" });
const expected: Record<string, Recorded> = fixtures["./fixtures/api-contract.json"] ?? {};
const recording = inject("apiContractRecorderPort") > 0;
const recorded: Record<string, Recorded> = {};

// ---------------------------------------------------------------------------------------------
// The normaliser (the only place an answer is changed before comparing)
// ---------------------------------------------------------------------------------------------

/** Keys whose token-like string values are random by nature (made from crypto.getRandomValues / randomUUID). */
const RANDOM_KEYS = new Set(["token", "demo_id", "uid", "invite_code", "nonce", "b64s", "id"]);
const TOKEN_LIKE = /^[A-Za-z0-9_-]+$/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SQL_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
/**
 * The real time this file started (read before the clock is faked). Rows whose time a column
 * default gives (`unixepoch('subsec') * 1000` in the migrations) carry D1's own clock, which no
 * fake reaches: a time at or after this (less 5 minutes) is the database's clock, never the
 * scenario's (which stays at T0 and a few days after it).
 */
const REAL_START = Date.now() - 5 * 60_000;
const dbClock = (ms: number) => Number.isFinite(ms) && ms >= REAL_START;
/**
 * The simulated feed adds volume on every tick of the market room, and the room also ticks on its
 * own alarm (real time, however many times the machine's load allows): volumes are not fixed by
 * the held prices. Prices (Open, Close, High, Low, Change) are compared exactly.
 */
const FEED_VOLUME_KEYS = new Set(["Volume", "volume"]);

/** A value's shape: its length and alphabet ("43b64url", "8digits"). */
function shapeOf(value: string) {
  const alphabet = /^\d+$/.test(value) ? "digits" : /^[0-9a-f]+$/.test(value) ? "hex" : /^[A-Z0-9]+$/.test(value) ? "upper" : "b64url";
  return `${value.length}${alphabet}`;
}

function mask(value: unknown, key: string): unknown {
  if (typeof value === "string") {
    const withoutUuids = value.replace(UUID, "<uuid>");
    if (withoutUuids !== value) return withoutUuids;
    if (ISO_TIME.test(value) && dbClock(Date.parse(value))) return "<db-clock:iso>";
    if (SQL_TIME.test(value) && dbClock(Date.parse(`${value.replace(" ", "T")}Z`))) return "<db-clock:datetime>";
    if (RANDOM_KEYS.has(key) && /^data:image\/png;base64,[A-Za-z0-9+/=]+$/.test(value)) return `<${key}:png-base64>`;
    if (RANDOM_KEYS.has(key) && TOKEN_LIKE.test(value)) return `<${key}:${shapeOf(value)}>`;
    return value;
  }
  if (typeof value === "number" && FEED_VOLUME_KEYS.has(key)) return "<feed-volume:number>";
  if (typeof value === "number") return value > 1e12 && dbClock(value) ? "<db-clock:ms>" : value;
  if (Array.isArray(value)) return value.map((v) => mask(v, key));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mask(v, k)]));
  return value; // row ids (the scenario makes them in a fixed order), amounts, booleans, null
}

/**
 * The body as compared: random values replaced by placeholders of their shape: a token-like
 * string under one of RANDOM_KEYS (an error text under "id" is kept), any UUID anywhere in a
 * string, and times of the database's clock (REAL_START) in the form they have (ISO,
 * "YYYY-MM-DD HH:MM:SS", epoch ms). A JSON body must be exactly JSON.stringify's output, so re-serialising it after the
 * placeholders keeps its bytes (key order, spacing, number forms); any other body is compared as
 * text with its UUIDs replaced.
 */
export function normalise(raw: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return raw.replace(UUID, "<uuid>");
  }
  if (JSON.stringify(parsed) !== raw) return `NOT CANONICAL JSON: ${raw.replace(UUID, "<uuid>")}`;
  return JSON.stringify(mask(parsed, ""));
}

// ---------------------------------------------------------------------------------------------
// Calls
// ---------------------------------------------------------------------------------------------

type Call = {
  method?: "GET" | "POST" | "PUT";
  /** query parameters (GET) */
  query?: Record<string, string | number>;
  /** a urlencoded body (POST) */
  form?: Record<string, string | number>;
  /** a JSON body (POST) */
  json?: unknown;
  /** a raw body with its content-type */
  raw?: { body: BodyInit; type?: string };
  /** the session token, sent as the spec's clients send it: the authorization header */
  token?: string;
  lang?: string;
};

/** Calls the Worker, records or compares the answer under `name`, and answers the parsed body. */
async function call<T = Record<string, unknown>>(
  name: string,
  path: string,
  init: Call = {},
): Promise<{ code: number; msg: string; data: T }> {
  const headers: Record<string, string> = { host: "localhost", lang: init.lang ?? "en", "accept-language": init.lang ?? "en" };
  if (init.token) headers.authorization = init.token;
  let body: BodyInit | undefined;
  if (init.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(Object.entries(init.form).map(([k, v]) => [k, String(v)])).toString();
  } else if (init.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(init.json);
  } else if (init.raw) {
    if (init.raw.type) headers["content-type"] = init.raw.type;
    body = init.raw.body;
  }
  const method = init.method ?? (body === undefined ? "GET" : "POST");
  if (method !== "GET") headers.origin = ORIGIN;
  const search = init.query ? `?${new URLSearchParams(Object.entries(init.query).map(([k, v]) => [k, String(v)])).toString()}` : "";
  const response = await SELF.fetch(`${ORIGIN}${path}${search}`, { method, headers, body, redirect: "manual" });
  const text = await response.text();
  const answer: Recorded = {
    request: `${method} ${path}${search}`.replace(UUID, "<uuid>"),
    status: response.status,
    contentType: response.headers.get("content-type"),
    cacheControl: response.headers.get("cache-control"),
    body: normalise(text),
  };
  expect(Object.hasOwn(recorded, name), `two calls named ${name}`).toBe(false);
  recorded[name] = answer;
  if (!recording) {
    expect(expected[name], `${name} is not in the fixture: re-record only with a spec change (see the header)`).toBeDefined();
    const want = expected[name]!;
    // headers whole; the body as the first place it differs (a whole-body diff of a long line is unreadable and slow)
    expect.soft({ ...answer, body: "" }, name).toEqual({ ...want, body: "" });
    if (answer.body !== want.body) console.log(`MISMATCH ${name}: ${whereDiffers(answer.body, want.body)}`);
    expect.soft(answer.body === want.body, `${name}: the body differs ${whereDiffers(answer.body, want.body)}`).toBe(true);
  }
  try {
    return JSON.parse(text);
  } catch {
    return { code: -1, msg: text, data: null as T };
  }
}

/** Where two texts part: the offset and 80 characters of each from a little before it. */
function whereDiffers(actual: string, wanted: string) {
  let i = 0;
  while (i < actual.length && actual[i] === wanted[i]) i += 1;
  const from = Math.max(0, i - 40);
  return `at ${i}:\n  got      …${actual.slice(from, i + 80)}\n  recorded …${wanted.slice(from, i + 80)}`;
}

/** A seeded Math.random (mulberry32), so the helpers' uids, invite codes and e-mails are the same every run. */
function seededRandom(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const JPEG = () =>
  new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, ...Array(200).fill(7), 0xff, 0xd9]);

function picture() {
  const fd = new FormData();
  fd.append("file", new Blob([JPEG()], { type: "image/jpeg" }), "photo.jpg");
  return fd;
}

/** A real user with a session token (authorization header) and `funding` USD in the funding account. */
async function customer(email: string, funding = 0, contract = 0, options = 0) {
  const user = await createUser({ email, password: "contract-pass-1" });
  if (funding) await fund(user.accounts.funding, funding * USD);
  if (contract) await fund(user.accounts.contract, contract * USD);
  if (options) await fund(user.accounts.options, options * USD);
  return { ...user, token: await sessionFor(user.id) };
}

const NOT_SIGNED_IN = undefined;

/**
 * The main room's ticks at fixed times, a minute apart after T0 (tickMain runs a tick at the
 * time given when it is past the room's last tick, which the room's own alarm ticks at the
 * frozen T0 never pass), so the times orders and options open at are the same every run.
 */
let ticks = 0;
const tick = () => tickMain(T0 + ++ticks * 60_000);
async function holdPrice(code: string, price: number) {
  await mainRoom().setPrice(code, price);
  await tick();
}

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ["Date"], now: T0 });
  vi.spyOn(Math, "random").mockImplementation(seededRandom(21));
  await holdPrice("BTCUSDT", 50_000);
  await holdPrice("ETHUSDT", 2_000);
});

afterAll(async () => {
  // the room's alarm was armed at the frozen clock: with the real clock back it would catch up
  // on days of ticks and keep the run from ending
  await runInDurableObject(env.MARKET_ROOM.get(env.MARKET_ROOM.idFromName(MARKET_ROOM)), async (_room, state) =>
    state.storage.deleteAlarm(),
  );
  vi.useRealTimers();
  vi.restoreAllMocks();
  if (recording) {
    const res = await fetch(`http://127.0.0.1:${inject("apiContractRecorderPort")}/`, { method: "POST", body: JSON.stringify(recorded) });
    expect(await res.text()).toBe("written");
  } else {
    // every recorded call still made: a call dropped from the scenario is a gap in the proof
    expect(Object.keys(recorded)).toEqual(Object.keys(expected));
  }
});

// ---------------------------------------------------------------------------------------------
// The scenario (in order: later steps use ids made by earlier ones)
// ---------------------------------------------------------------------------------------------

describe("public calls", () => {
  it("areas, settings, company, captcha, news, search; unknown paths and methods", async () => {
    await call("area_list", "/api/default/area_list");
    await call("setting", "/api/default/setting", { query: { key: "is_show_mobile" } });
    await call("setting unknown key", "/api/default/setting", { query: { key: "no_such_key" } });
    await call("getBasicInfo", "/api/basicSet/getBasicInfo");
    await call("getCompany", "/api/company/getCompany");
    await call("getCompany by id", "/api/company/getCompany", { query: { id: 1 } });
    await call("getCompany unknown id", "/api/company/getCompany", { query: { id: 999 } });
    await call("getCompanyStatus", "/api/company/getCompanyStatus");
    await call("getCompanyEmail", "/api/company/getCompanyEmail");
    await call("captcha", "/api/captcha");
    await call("searchCompany", "/api/company/searchCompany", { query: { name: "bo" } });
    await call("searchCompany empty", "/api/company/searchCompany");
    await call("searchCurrency", "/v2/api/forex/searchCurrency", { query: { name: "btc" } });
    await call("searchCurrency no match", "/v2/api/forex/searchCurrency", { query: { name: "zzzz" } });
    const news = await call<{ data: { id: number }[] }>("news list", "/api/news/list", { query: { category_id: 1, page: 1 } });
    await call("news list page 2", "/api/news/list", { query: { category_id: 1, page: 2 } });
    await call("news list unknown category", "/api/news/list", { query: { category_id: "x" } });
    await call("news info", "/api/news/info", { query: { id: news.data.data[0]?.id ?? 1 } });
    await call("news info unknown", "/api/news/info", { query: { id: 999999 } });
    await call("news info bad id", "/api/news/info", { query: { id: "abc" } });
    await call("unknown path", "/api/nothing/here");
    await call("unknown v2 path", "/v2/api/nothing/here");
    await call("method not allowed", "/api/default/area_list", { method: "POST", form: {} });
    await call("getCompany unknown id in Japanese", "/api/company/getCompany", { query: { id: 999 }, lang: "jp" });
  });
});

describe("sign-up and sign-in", () => {
  it("codes, register, login, demo, passwords, logout", async () => {
    const email = "contract-register@example.com";
    await call("send_email register code", "/api/notify/send_email", { form: { to: email, type: 1 } });
    await call("send_email missing to", "/api/notify/send_email", { form: { type: 1 } });
    await call("send_email bad address", "/api/notify/send_email", { form: { to: "not-an-email", type: 1 } });
    await call("send_sms register code", "/api/notify/send_sms", { form: { to: "61234567", area_id: 2, type: 1 } });
    await call("send_sms missing area", "/api/notify/send_sms", { form: { to: "61234567", type: 1 } });
    const code = (await latestCode(email))!;
    const fields = { type: "email", account: email, password: "register-pass-1", re_password: "register-pass-1" };
    await call("register missing code", "/api/user/register", { json: fields });
    await call("register wrong code", "/api/user/register", { json: { ...fields, sms_code: "000000" } });
    await call("register passwords differ", "/api/user/register", { json: { ...fields, re_password: "other-pass-1", sms_code: code } });
    await call("register bad type", "/api/user/register", { json: { type: 5 } });
    const registered = await call<{ token: string }>("register", "/api/user/register", { json: { ...fields, sms_code: code } });
    await call("register taken", "/api/user/register", { json: { ...fields, sms_code: code } });

    await call("loginForU", "/api/user/loginForU", { form: { account: email, password: "register-pass-1" } });
    await call("loginForU json", "/api/user/loginForU", { json: { account: email, password: "register-pass-1" } });
    await call("loginForU wrong password", "/api/user/loginForU", { form: { account: email, password: "wrong-pass-1" } });
    await call("loginForU wrong password jp", "/api/user/loginForU", { form: { account: email, password: "wrong-pass-1" }, lang: "jp" });
    await call("loginForU missing password", "/api/user/loginForU", { form: { account: email } });
    await call("loginForU malformed json", "/api/user/loginForU", { raw: { body: "{not json", type: "application/json" } });
    await call("loginForU by GET", "/api/user/loginForU", { query: { account: email, password: "register-pass-1" } });

    const demo = await call<{ demo_id: string }>("createAccountDemoForU", "/api/user/createAccountDemoForU");
    await call("createAccountDemoForU again", "/api/user/createAccountDemoForU", { query: { demo_id: demo.data.demo_id } });
    await call("createAccountDemoForU unknown demo_id", "/api/user/createAccountDemoForU", { query: { demo_id: "no-such-demo" } });

    // a reset code (type 2, not signed in) and the reset
    await call("send_email reset code", "/api/notify/send_email", { form: { to: email, type: 2 } });
    const reset = (await latestCode(email))!;
    const forget = { type: "email", account: email, new_password: "register-pass-2", secondary_password: "register-pass-2" };
    await call("forget_password wrong code", "/api/user/forget_password", { form: { ...forget, auth_code: "000000" } });
    await call("forget_password missing account", "/api/user/forget_password", { form: { new_password: "x", auth_code: reset } });
    await call("forget_password", "/api/user/forget_password", { form: { ...forget, auth_code: reset } });

    // the signed-in user's own code (type 2 with a session) and amend_password
    const login = await call<{ token: string }>("loginForU after reset", "/api/user/loginForU", {
      form: { account: email, password: "register-pass-2" },
    });
    const token = login.data.token;
    expect(registered.data.token).not.toBe(token);
    await call("send_email amend code", "/api/notify/send_email", { form: { to: email, type: 2 }, token });
    const amend = (await latestCode(email))!;
    await call("amend_password not signed in", "/api/user/amend_password", { form: { new_password: "register-pass-3", auth_code: amend } });
    await call("amend_password wrong code", "/api/user/amend_password", {
      form: { new_password: "register-pass-3", auth_code: "000000", type: "email" },
      token,
    });
    await call("amend_password short password", "/api/user/amend_password", { form: { new_password: "x", auth_code: amend }, token });
    const amended = await call<{ token: string }>("amend_password", "/api/user/amend_password", {
      form: { new_password: "register-pass-3", auth_code: amend, type: "email" },
      token,
    });
    await call("logout", "/api/user/logout", { method: "POST", form: {}, token: amended.data.token });
    await call("user info after logout", "/api/user/info", { token: amended.data.token });
  });

  it("web3 nonce and login", async () => {
    const account = privateKeyToAccount(`0x${"42".repeat(32)}`);
    await call("get_nonce missing address", "/api/user/get_nonce", { form: {} });
    await call("get_nonce bad address", "/api/user/get_nonce", { form: { w_address: "0x1234" } });
    const issued = await call<{ nonce: string; issued_at: string; expiration_time: string }>("get_nonce", "/api/user/get_nonce", {
      form: { w_address: account.address.toLowerCase() },
    });
    const message = buildLoginMessage({
      domain: "localhost",
      origin: ORIGIN,
      address: account.address,
      nonce: issued.data.nonce,
      chainId: 1,
      issuedAt: new Date(issued.data.issued_at),
      expirationTime: new Date(issued.data.expiration_time),
    });
    const signature = await account.signMessage({ message });
    await call("web3_login missing signature", "/api/user/web3_login", {
      json: { w_address: account.address, nonce: issued.data.nonce, message },
    });
    await call("web3_login wrong signature", "/api/user/web3_login", {
      json: { w_address: account.address, nonce: issued.data.nonce, message, signature: `0x${"1b".repeat(65)}` },
    });
    await call("web3_login", "/api/user/web3_login", {
      json: { w_address: account.address, nonce: issued.data.nonce, message, signature },
    });
    await call("web3_login nonce reused", "/api/user/web3_login", {
      json: { w_address: account.address, nonce: issued.data.nonce, message, signature },
    });
  });
});

describe("the signed-in user", () => {
  it("info, profits, balances, demo reset, uploads, real name", async () => {
    const u = await customer("contract-user@example.com", 1_000);
    await call("user info", "/api/user/info", { token: u.token });
    await call("user info not signed in", "/api/user/info", { token: NOT_SIGNED_IN });
    await call("user info bad token", "/api/user/info", { token: "not-a-session" });
    await call("get_profits", "/api/user/get_profits", { token: u.token });
    await call("get_profits not signed in", "/api/user/get_profits");
    await call("getBalance", "/v2/api/main/wallet/getBalance", { token: u.token });
    await call("getBalance not signed in", "/v2/api/main/wallet/getBalance");

    const demo = await createUser({ isDemo: true });
    const demoToken = await sessionFor(demo.id);
    await call("resetForexDemoAccount", "/v2/api/main/user/resetForexDemoAccount", { token: demoToken });
    await call("resetForexDemoAccount by POST", "/v2/api/main/user/resetForexDemoAccount", { method: "POST", form: {}, token: demoToken });
    await call("resetForexDemoAccount real account", "/v2/api/main/user/resetForexDemoAccount", { token: u.token });
    await call("resetForexDemoAccount not signed in", "/v2/api/main/user/resetForexDemoAccount");

    const front = await call<{ id: string }>("image_upload", "/api/common/image_upload", {
      query: { purpose: "identity" },
      raw: { body: picture() },
      token: u.token,
    });
    const back = await call<{ id: string }>("image_upload second", "/api/common/image_upload", {
      query: { purpose: "identity" },
      raw: { body: picture() },
      token: u.token,
    });
    const noFile = new FormData();
    noFile.append("file", "text, not a file");
    await call("image_upload no file", "/api/common/image_upload", { raw: { body: noFile }, token: u.token });
    await call("image_upload not a picture", "/api/common/image_upload", {
      raw: { body: (() => (noFile.set("file", new Blob(["plain text"], { type: "text/plain" }), "a.txt"), noFile))() },
      token: u.token,
    });
    await call("image_upload not signed in", "/api/common/image_upload", { raw: { body: picture() } });

    await call("center before", "/api/user_real/center", { token: u.token });
    const id = { name: "Ann Lee", card_id: "P1234567", front_pic: front.data.id, reverse_pic: back.data.id };
    await call("real_name missing name", "/api/user_real/real_name", { form: { ...id, name: "" }, token: u.token });
    await call("real_name missing pictures", "/api/user_real/real_name", {
      form: { name: "Ann Lee", card_id: "P1234567" },
      token: u.token,
    });
    await call("real_name demo", "/api/user_real/real_name", { form: id, token: demoToken });
    await call("real_name by GET without header", "/api/user_real/real_name", { query: id });
    await call("real_name", "/api/user_real/real_name", { form: id, token: u.token });
    await call("real_name again", "/api/user_real/real_name", { form: id, token: u.token });
    await call("center", "/api/user_real/center", { token: u.token });
    await call("center not signed in", "/api/user_real/center");
  });
});

describe("market", () => {
  it("instruments, categories, candles", async () => {
    await call("trade_list", "/v2/api/forex/trade_list");
    await call("trade_list category", "/v2/api/forex/trade_list", { query: { category_id: 3 } });
    await call("getCategories", "/v2/api/forex/getCategories");
    await call("getCategories in French", "/v2/api/forex/getCategories", { lang: "fr" });
    await call("abbreviated_cache_kline", "/v2/api/forex/abbreviated_cache_kline", { query: { forex_id: 1 } });
    await call("kline", "/v2/api/forex/kline", { query: { forex_id: 2, period: "1day" } });
    await call("kline bad period", "/v2/api/forex/kline", { query: { forex_id: 1, period: "7min" } });
    await call("kline unknown instrument", "/v2/api/forex/kline", { query: { forex_id: 999 } });
    await call("kline missing instrument", "/v2/api/forex/abbreviated_cache_kline");
  });
});

describe("contract trading and options", () => {
  it("submit, my_deal, deal_info, set_stop_price, cancel_trade, close", async () => {
    const u = await customer("contract-trader@example.com", 0, 10_000);
    const market = { type: 1, cont: "0.01", forex_id: 1, status: 1, multiple: 10 };
    const opened = await call<{ Id: number }>("submit market buy", "/v2/api/forex/submit", { query: market, token: u.token });
    await call("submit by POST", "/v2/api/forex/submit", { form: { ...market, type: 2, forex_id: 2 }, token: u.token });
    const pending = await call<{ Id: number }>("submit limit order", "/v2/api/forex/submit", {
      query: { ...market, status: 0, target_price: "40000" },
      token: u.token,
    });
    await call("submit missing cont", "/v2/api/forex/submit", { query: { ...market, cont: "" }, token: u.token });
    await call("submit bad lots", "/v2/api/forex/submit", { query: { ...market, cont: "0.001" }, token: u.token });
    await call("submit unknown instrument", "/v2/api/forex/submit", { query: { ...market, forex_id: 999 }, token: u.token });
    await call("submit bad side", "/v2/api/forex/submit", { query: { ...market, type: 7 }, token: u.token });
    await call("submit bad leverage", "/v2/api/forex/submit", { query: { ...market, multiple: 3 }, token: u.token });
    await call("submit too large", "/v2/api/forex/submit", { query: { ...market, cont: "100" }, token: u.token });
    await call("submit not signed in", "/v2/api/forex/submit", { query: market });

    await call("my_deal holding", "/v2/api/forex/my_deal", { query: { status: 1, page: 1 }, token: u.token });
    await call("my_deal pending", "/v2/api/forex/my_deal", { query: { status: 0 }, token: u.token });
    await call("my_deal bad status", "/v2/api/forex/my_deal", { query: { status: 5 }, token: u.token });
    await call("my_deal not signed in", "/v2/api/forex/my_deal");
    await call("deal_info", "/v2/api/forex/deal_info", { query: { id: opened.data.Id }, token: u.token });
    await call("deal_info unknown", "/v2/api/forex/deal_info", { query: { id: 999999 }, token: u.token });

    const stops = { id: opened.data.Id, stop_loss_price: "45000", target_profit_price: "60000" };
    await call("set_stop_price", "/v2/api/forex/set_stop_price", { query: stops, token: u.token });
    await call("set_stop_price wrong side", "/v2/api/forex/set_stop_price", {
      query: { ...stops, stop_loss_price: "55000" },
      token: u.token,
    });
    await call("set_stop_price bad price", "/v2/api/forex/set_stop_price", { query: { ...stops, stop_loss_price: "abc" }, token: u.token });
    await call("set_stop_price unknown order", "/v2/api/forex/set_stop_price", { query: { ...stops, id: 999999 }, token: u.token });
    await call("set_stop_price without header", "/v2/api/forex/set_stop_price", { query: stops });

    await call("cancel_trade", "/v2/api/forex/cancel_trade", { query: { id: pending.data.Id }, token: u.token });
    await call("cancel_trade again", "/v2/api/forex/cancel_trade", { query: { id: pending.data.Id }, token: u.token });
    await call("cancel_trade open order", "/v2/api/forex/cancel_trade", { query: { id: opened.data.Id }, token: u.token });
    await call("cancel_trade missing id", "/v2/api/forex/cancel_trade", { query: {}, token: u.token });

    await holdPrice("BTCUSDT", 51_000);
    await call("close", "/v2/api/forex/close", { query: { id: opened.data.Id }, token: u.token });
    await call("close again", "/v2/api/forex/close", { query: { id: opened.data.Id }, token: u.token });
    await call("close by POST unknown", "/v2/api/forex/close", { form: { id: 999999 }, token: u.token });
    await call("close without header", "/v2/api/forex/close", { query: { id: opened.data.Id } });
    await call("my_deal closed", "/v2/api/forex/my_deal", { query: { status: 3 }, token: u.token });
    await call("my_deal cancelled", "/v2/api/forex/my_deal", { query: { status: 4 }, token: u.token });
    await call("getBalance after trading", "/v2/api/main/wallet/getBalance", { token: u.token });
    await call("get_profits after trading", "/api/user/get_profits", { token: u.token });
  });

  it("get_seconds, micro submit, micro orders", async () => {
    const u = await customer("contract-options@example.com", 0, 0, 1_000);
    await call("get_seconds", "/v2/api/micro/get_seconds");
    const option = { forex_id: 2, type: 1, number: "100", seconds: 30 };
    await call("micro submit", "/v2/api/micro/submit", { query: option, token: u.token });
    await call("micro submit by POST", "/v2/api/micro/submit", { form: { ...option, type: 2 }, token: u.token });
    await call("micro submit bad seconds", "/v2/api/micro/submit", { query: { ...option, seconds: 31 }, token: u.token });
    await call("micro submit missing amount", "/v2/api/micro/submit", { query: { ...option, number: "" }, token: u.token });
    await call("micro submit too little", "/v2/api/micro/submit", { query: { ...option, number: "0.5" }, token: u.token });
    await call("micro submit bad direction", "/v2/api/micro/submit", { query: { ...option, type: 3 }, token: u.token });
    await call("micro submit not signed in", "/v2/api/micro/submit", { query: option });
    await call("micro orders", "/v2/api/micro/orders", { query: { status: 1, page: 1 }, token: u.token });
    await call("micro orders settled", "/v2/api/micro/orders", { query: { status: 3 }, token: u.token });
    await call("micro orders bad status", "/v2/api/micro/orders", { query: { status: 2 }, token: u.token });
    await call("micro orders not signed in", "/v2/api/micro/orders");
  });
});

describe("copy trading", () => {
  it("leaders, traders, follow, pause, copy stop, follow orders, unfollow, apply", async () => {
    const trader = await aTrader();
    const traderToken = await sessionFor(trader.id);
    const f = await customer("contract-follower@example.com", 0, 2_000);
    await call("follow list", "/api/follow/list", { query: { page: 1 } });
    await call("trader_list", "/api/follow/trader_list", { query: { page: 1 }, token: f.token });
    await call("trader_list not signed in", "/api/follow/trader_list");
    await call("trader_detail", "/api/follow/trader_detail", { query: { trader_id: trader.id }, token: f.token });
    await call("trader_detail unknown", "/api/follow/trader_detail", { query: { trader_id: 999999 } });
    await call("trader_detail missing id", "/api/follow/trader_detail");

    const follow = { trader_id: trader.id, multiple: 2, max_amount: "500" };
    await call("follow_trader missing multiple", "/api/follow/follow_trader", { form: { ...follow, multiple: "" }, token: f.token });
    await call("follow_trader too much", "/api/follow/follow_trader", { form: { ...follow, max_amount: "5000000" }, token: f.token });
    await call("follow_trader unknown trader", "/api/follow/follow_trader", { form: { ...follow, trader_id: 999999 }, token: f.token });
    await call("follow_trader self", "/api/follow/follow_trader", { form: follow, token: traderToken });
    await call("follow_trader without header", "/api/follow/follow_trader", { query: follow });
    await call("follow_trader", "/api/follow/follow_trader", { form: follow, token: f.token });
    await call("follow_trader again", "/api/follow/follow_trader", { form: follow, token: f.token });

    // the trader opens an order: the follower's copy opens with it
    await call("trader submit", "/v2/api/forex/submit", {
      query: { type: 1, cont: "0.01", forex_id: 2, status: 1, multiple: 10 },
      token: traderToken,
    });
    await tick(); // the engine copies the trader's new order to the followers in its next tick
    await call("my_deal_follow_order", "/v2/api/forex/my_deal_follow_order", { query: { status: 1, page: 1 }, token: f.token });
    await call("my_deal_follow_order by trader", "/v2/api/forex/my_deal_follow_order", { query: { user_id: trader.id }, token: f.token });
    await call("my_deal_follow_order other follower", "/v2/api/forex/my_deal_follow_order", {
      query: { follower_user_id: trader.id },
      token: f.token,
    });
    await call("my_deal_follow_order bad status", "/v2/api/forex/my_deal_follow_order", { query: { status: 2 }, token: f.token });
    await call("my_deal_follow_order not signed in", "/v2/api/forex/my_deal_follow_order");

    await call("followed_trader", "/api/follow/followed_trader", { token: f.token });
    await call("followed_trader not signed in", "/api/follow/followed_trader");
    await call("my_follower", "/api/follow/my_follower", { token: traderToken });
    await call("my_follower not a trader", "/api/follow/my_follower", { token: f.token });
    await call("trader_detail following", "/api/follow/trader_detail", { form: { trader_id: trader.id }, token: f.token });

    await call("pause_follow", "/api/follow/pause_follow", { form: { trader_id: trader.id, paused: 1 }, token: f.token });
    await call("pause_follow resume", "/api/follow/pause_follow", { form: { trader_id: trader.id, paused: 0 }, token: f.token });
    await call("pause_follow not following", "/api/follow/pause_follow", { form: { trader_id: 999999 }, token: f.token });
    await call("set_copy_stop", "/api/follow/set_copy_stop", { form: { trader_id: trader.id, copy_stop_loss: "50" }, token: f.token });
    await call("set_copy_stop bad amount", "/api/follow/set_copy_stop", {
      form: { trader_id: trader.id, copy_stop_loss: "-1" },
      token: f.token,
    });

    await call("canal_follow", "/api/follow/canal_follow", { form: { trader_id: trader.id, close_orders: 1 }, token: f.token });
    await call("canal_follow again", "/api/follow/canal_follow", { form: { trader_id: trader.id }, token: f.token });
    await call("canal_follow without header", "/api/follow/canal_follow", { query: { trader_id: trader.id } });
    await call("my_deal_follow_order closed", "/v2/api/forex/my_deal_follow_order", { query: { status: 3 }, token: f.token });

    const a = await customer("contract-applicant@example.com");
    await call("apply_trader state", "/api/follow/apply_trader", { token: a.token });
    await call("apply_trader not agreed", "/api/follow/apply_trader", { form: { agree: "" }, token: a.token });
    await call("apply_trader", "/api/follow/apply_trader", { form: { agree: 1 }, token: a.token });
    await call("apply_trader again", "/api/follow/apply_trader", { form: { agree: 1 }, token: a.token });
    await call("apply_trader state after", "/api/follow/apply_trader", { token: a.token });
    await call("apply_trader not signed in", "/api/follow/apply_trader");
  });
});

describe("wallet: deposits, transfers, withdrawals", () => {
  it("quickCharge info, symbols, wire_info, submit, wire_submit, quick_ist", async () => {
    const u = await customer("contract-depositor@example.com");
    const proof = await call<{ id: string }>("image_upload deposit proof", "/api/common/image_upload", {
      query: { purpose: "deposit_proof" },
      raw: { body: picture() },
      token: u.token,
    });
    const proof2 = await call<{ id: string }>("image_upload deposit proof 2", "/api/common/image_upload", {
      query: { purpose: "deposit_proof" },
      raw: { body: picture() },
      token: u.token,
    });
    await call("quickCharge info", "/api/quickCharge/info", { token: u.token });
    await call("quickCharge info not signed in", "/api/quickCharge/info");
    await call("quickCharge symbols", "/api/quickCharge/symbols", { token: u.token });
    await call("quickCharge wire_info", "/api/quickCharge/wire_info", { query: { bank_coin: "USD" }, token: u.token });
    const coin = { number: "25", proofImg: proof.data.id, charge_id: 1, request_id: "contract-deposit-1" };
    await call("quickCharge submit", "/api/quickCharge/submit", { form: coin, token: u.token });
    await call("quickCharge submit replayed", "/api/quickCharge/submit", { form: coin, token: u.token });
    await call("quickCharge submit missing proof", "/api/quickCharge/submit", {
      form: { ...coin, proofImg: "", request_id: "contract-deposit-2" },
      token: u.token,
    });
    await call("quickCharge submit bad amount", "/api/quickCharge/submit", {
      form: { ...coin, number: "abc", request_id: "contract-deposit-3" },
      token: u.token,
    });
    await call("quickCharge submit unknown currency", "/api/quickCharge/submit", {
      form: { ...coin, charge_id: 999, request_id: "contract-deposit-4" },
      token: u.token,
    });
    await call("quickCharge submit without header", "/api/quickCharge/submit", { query: coin });
    await call("quickCharge wire_submit", "/api/quickCharge/wire_submit", {
      form: { number: "20.5", proofImg: proof2.data.id, wire_id: 1, request_id: "contract-wire-1" },
      token: u.token,
    });
    await call("quickCharge wire_submit missing wire", "/api/quickCharge/wire_submit", {
      form: { number: "20.5", proofImg: proof2.data.id, request_id: "contract-wire-2" },
      token: u.token,
    });
    await call("quickCharge quick_ist", "/api/quickCharge/quick_ist", { query: { page: 1 }, token: u.token });
    await call("quickCharge quick_ist coin", "/api/quickCharge/quick_ist", { query: { type: 0 }, token: u.token });
    await call("quickCharge quick_ist not signed in", "/api/quickCharge/quick_ist");
  });

  it("forexDetail, forexChange, transfer, transfer_log", async () => {
    const u = await customer("contract-wallet@example.com", 500);
    await call("forexDetail", "/v2/api/main/account/forexDetail", { token: u.token });
    await call("forexDetail funding", "/v2/api/main/account/forexDetail", { query: { accountTypeId: 1 }, token: u.token });
    await call("forexDetail unknown account", "/v2/api/main/account/forexDetail", { query: { type: "savings" }, token: u.token });
    await call("forexDetail not signed in", "/v2/api/main/account/forexDetail");
    const transfer = { balance: "120.5", currency_id: 1, from: 1, to: 3, request_id: "contract-transfer-1" };
    await call("transfer", "/api/account/transfer", { form: transfer, token: u.token });
    await call("transfer replayed", "/api/account/transfer", { form: transfer, token: u.token });
    await call("transfer bad amount", "/api/account/transfer", {
      form: { ...transfer, balance: "abc", request_id: "contract-transfer-2" },
      token: u.token,
    });
    await call("transfer too much", "/api/account/transfer", {
      form: { ...transfer, balance: "100000", request_id: "contract-transfer-3" },
      token: u.token,
    });
    await call("transfer same account", "/api/account/transfer", {
      form: { ...transfer, to: 1, request_id: "contract-transfer-4" },
      token: u.token,
    });
    await call("transfer missing amount", "/api/account/transfer", { form: { from: 1, to: 3, currency_id: 1 }, token: u.token });
    await call("transfer without header", "/api/account/transfer", { query: transfer });
    await call("transfer_log", "/api/account/transfer_log", { query: { page: 1 }, token: u.token });
    await call("transfer_log by account", "/api/account/transfer_log", { query: { type: 3 }, token: u.token });
    await call("transfer_log unknown account", "/api/account/transfer_log", { query: { type: "savings" }, token: u.token });
    await call("transfer_log not signed in", "/api/account/transfer_log");
    await call("forexChange", "/v2/api/main/accountLog/forexChange", { query: { type: 1, page: 1 }, token: u.token });
    await call("forexChange contract", "/v2/api/main/accountLog/forexChange", { query: { type: "forex" }, token: u.token });
    await call("forexChange unknown account", "/v2/api/main/accountLog/forexChange", { query: { type: "savings" }, token: u.token });
    await call("forexChange not signed in", "/v2/api/main/accountLog/forexChange");
  });

  it("draw_symbol_list, payout methods, draw, draw_list", async () => {
    const u = await customer("contract-withdraw@example.com", 1_000);
    await call("draw_symbol_list coin", "/api/account/draw_symbol_list", { query: { type: 1 }, token: u.token });
    await call("draw_symbol_list bank", "/api/account/draw_symbol_list", { query: { type: 2 }, token: u.token });
    await call("draw_symbol_list bad type", "/api/account/draw_symbol_list", { query: { type: 3 }, token: u.token });
    await call("draw_symbol_list not signed in", "/api/account/draw_symbol_list");
    const coinMethod = { draw_type: 1, draw_currency_id: 1, dc_address: "TQ7vY3kCmhG8pN2xW5rLd9sJf4uBzE6aKt" };
    const coin = await call<{ id: number }>("bind_draw_method coin", "/api/wallet/bind_draw_method", { form: coinMethod, token: u.token });
    await call("bind_draw_method bank", "/api/wallet/bind_draw_method", {
      form: {
        draw_type: 2,
        draw_currency_id: 5,
        bank_name: "Harbour Commercial Bank",
        bank_address: "1 Queen's Road, Hong Kong",
        bank_swift: "HCBKHKHH",
        payee_name: "Chan Tai Man",
        payee_account: "012-345678-901",
      },
      token: u.token,
    });
    await call("bind_draw_method bad address", "/api/wallet/bind_draw_method", {
      form: { ...coinMethod, dc_address: "T123" },
      token: u.token,
    });
    await call("bind_draw_method missing address", "/api/wallet/bind_draw_method", {
      form: { ...coinMethod, dc_address: "" },
      token: u.token,
    });
    await call("bind_draw_method bad type", "/api/wallet/bind_draw_method", { form: { ...coinMethod, draw_type: 3 }, token: u.token });
    await call("bind_draw_method not signed in", "/api/wallet/bind_draw_method", { form: coinMethod });
    await call("get_draw_method coin", "/api/wallet/get_draw_method", { query: { draw_type: 1 }, token: u.token });
    await call("get_draw_method bank", "/api/wallet/get_draw_method", { query: { draw_type: 2 }, token: u.token });
    await call("get_draw_method by id", "/api/wallet/get_draw_method", { query: { draw_type: 1, draw_id: coin.data.id }, token: u.token });
    await call("get_draw_method unknown id", "/api/wallet/get_draw_method", { query: { draw_id: 999999 }, token: u.token });
    await call("get_draw_method bad type", "/api/wallet/get_draw_method", { query: { draw_type: 9 }, token: u.token });

    const draw = { draw_currency_id: 1, draw_method_id: coin.data.id, number: "100", memo: "", request_id: "contract-draw-1" };
    await call("draw", "/api/account/draw", { form: draw, token: u.token });
    await call("draw replayed", "/api/account/draw", { form: draw, token: u.token });
    await call("draw below minimum", "/api/account/draw", {
      form: { ...draw, number: "5", request_id: "contract-draw-2" },
      token: u.token,
    });
    await call("draw too much", "/api/account/draw", { form: { ...draw, number: "5000", request_id: "contract-draw-3" }, token: u.token });
    await call("draw missing method", "/api/account/draw", {
      form: { ...draw, draw_method_id: "", request_id: "contract-draw-4" },
      token: u.token,
    });
    await call("draw without header", "/api/account/draw", { query: draw });
    await call("draw_list", "/api/account/draw_list", { query: { page: 1 }, token: u.token });
    await call("draw_list coin", "/api/account/draw_list", { query: { type: 1 }, token: u.token });
    await call("draw_list bad type", "/api/account/draw_list", { query: { type: 7 }, token: u.token });
    await call("draw_list not signed in", "/api/account/draw_list");
    await call("del_draw_method", "/api/wallet/del_draw_method", { form: { id: coin.data.id }, token: u.token });
    await call("del_draw_method again", "/api/wallet/del_draw_method", { form: { id: coin.data.id }, token: u.token });
    await call("del_draw_method missing id", "/api/wallet/del_draw_method", { form: {}, token: u.token });
  });
});

describe("loans", () => {
  it("info, kyc_submit, configs, get_date, loan_submit, lists, repayment", async () => {
    const u = await customer("contract-borrower@example.com");
    await call("loan info", "/api/loan/info", { token: u.token });
    await call("loan info not signed in", "/api/loan/info");
    const hand = await call<{ id: string }>("image_upload hand picture", "/api/common/image_upload", {
      query: { purpose: "identity" },
      raw: { body: picture() },
      token: u.token,
    });
    const kyc = {
      name: "Lovelace",
      last_name: "Ada",
      sex: 2,
      birthday: "1990/05/17",
      country: "United Kingdom",
      mobile: "+44 7700 900123",
      id_card_type: 2,
      hand_pic: hand.data.id,
    };
    await call("kyc_submit empty", "/api/loan/kyc_submit", { form: {}, token: u.token });
    await call("kyc_submit bad birthday", "/api/loan/kyc_submit", { form: { ...kyc, birthday: "1949/12/31" }, token: u.token });
    await call("kyc_submit without header", "/api/loan/kyc_submit", { query: kyc });
    await call("kyc_submit", "/api/loan/kyc_submit", { form: kyc, token: u.token });
    await call("kyc_submit while waiting", "/api/loan/kyc_submit", { form: kyc, token: u.token });
    await call("loan info waiting", "/api/loan/info", { token: u.token });
    await call("loan_submit before approval", "/api/loan/loan_submit", {
      form: { config_id: 1, amount: "1000", signature_name: "Ada Lovelace" },
      token: u.token,
    });
    // the operator approves the KYC (the loan KYC row, as /admin/loans does)
    await env.DB.prepare("UPDATE loan_kyc SET status = 2, reviewed_at = ?2 WHERE user_id = ?1").bind(u.id, Date.now()).run();
    await call("loan info approved", "/api/loan/info", { token: u.token });

    await call("loan_config", "/api/loan/loan_config", { token: u.token });
    await call("loan_config not signed in", "/api/loan/loan_config");
    await call("config_info", "/api/loan/config_info", { query: { id: 2 }, token: u.token });
    await call("config_info unknown", "/api/loan/config_info", { query: { id: 999 }, token: u.token });
    await call("get_date", "/api/loan/get_date", { query: { config_id: 2, amount: "5000" }, token: u.token });
    await call("get_date out of bounds", "/api/loan/get_date", { query: { config_id: 2, amount: "10000.01" }, token: u.token });
    await call("get_date missing amount", "/api/loan/get_date", { query: { config_id: 2 }, token: u.token });

    const apply = { config_id: 1, amount: "1000", signature_name: "Ada Lovelace", request_id: "contract-loan-1" };
    await call("loan_submit unsigned", "/api/loan/loan_submit", {
      form: { ...apply, signature_name: "", request_id: "contract-loan-2" },
      token: u.token,
    });
    await call("loan_submit wrong name", "/api/loan/loan_submit", {
      form: { ...apply, signature_name: "Someone Else", request_id: "contract-loan-3" },
      token: u.token,
    });
    await call("loan_submit bad amount", "/api/loan/loan_submit", {
      form: { ...apply, amount: "1", request_id: "contract-loan-4" },
      token: u.token,
    });
    await call("loan_submit without header", "/api/loan/loan_submit", { query: apply });
    const loan = await call<{ id: number }>("loan_submit", "/api/loan/loan_submit", { form: apply, token: u.token });
    await call("loan_submit replayed", "/api/loan/loan_submit", { form: apply, token: u.token });
    await call("loan_list", "/api/loan/loan_list", { query: { page: 1 }, token: u.token });
    await call("loan_list not signed in", "/api/loan/loan_list");
    await call("loan_info", "/api/loan/loan_info", { query: { id: loan.data.id }, token: u.token });
    await call("loan_info unknown", "/api/loan/loan_info", { query: { id: 999999 }, token: u.token });
    await call("repayment_accounts", "/api/loan/repayment_accounts", { token: u.token });
    const proof = await call<{ id: string }>("image_upload repayment proof", "/api/common/image_upload", {
      query: { purpose: "repayment_proof" },
      raw: { body: picture() },
      token: u.token,
    });
    const repay = { loan_id: loan.data.id, charge_id: 1, proofImg: proof.data.id };
    await call("repayment before approval", "/api/loan/repayment", { form: repay, token: u.token });

    // the operator approves the loan (step-up verified): the amount reaches the funding account
    const op = await createUser({ email: "contract-operator@example.com" });
    await env.DB.prepare("UPDATE users SET role = 'operator' WHERE id = ?1").bind(op.id).run();
    const opToken = await sessionFor(op.id);
    const opSessionId = await sessionIdOf(opToken);
    await env.DB.prepare("INSERT INTO operator_step_ups (session_id, verified_at) VALUES (?1, ?2)").bind(opSessionId, Date.now()).run();
    const opSession = (await userForToken(env.DB, opToken)) as SessionUser;
    expect((await approveLoan(await createServiceContext(env, { lang: "en" }), opSession, opSessionId, loan.data.id)).ok).toBe(true);

    await call("repayment_info", "/api/loan/repayment_info", { query: { loan_id: loan.data.id }, token: u.token });
    await call("repayment_info unknown", "/api/loan/repayment_info", { query: { loan_id: 999999 }, token: u.token });
    await call("repayment missing proof", "/api/loan/repayment", { form: { ...repay, proofImg: "" }, token: u.token });
    await call("repayment", "/api/loan/repayment", { form: repay, token: u.token });
    await call("repayment again", "/api/loan/repayment", { form: repay, token: u.token });
    await call("repayment without header", "/api/loan/repayment", { query: repay });
    await call("loan_info after repayment", "/api/loan/loan_info", { query: { id: loan.data.id }, token: u.token });
  });
});

describe("mining funds", () => {
  it("list, info, buy, subList, insList, applyRefund", async () => {
    const u = await customer("contract-miner@example.com", 2_000);
    const list = await call<{ data: { id: number }[] }>("fund list", "/api/fund/list", { query: { page: 1 } });
    const fundId = list.data.data[0]!.id;
    await call("fund list page 9", "/api/fund/list", { query: { page: 9 } });
    await call("fund info", "/api/fund/info", { query: { id: fundId } });
    await call("fund info unknown", "/api/fund/info", { query: { id: 999 } });
    const buy = { id: fundId, amount: "1000", request_id: "contract-fund-1" };
    await call("fund buy", "/api/fund/buy", { form: buy, token: u.token });
    await call("fund buy replayed", "/api/fund/buy", { form: buy, token: u.token });
    await call("fund buy too little", "/api/fund/buy", { form: { ...buy, amount: "0.5", request_id: "contract-fund-2" }, token: u.token });
    await call("fund buy too much", "/api/fund/buy", { form: { ...buy, amount: "900000", request_id: "contract-fund-3" }, token: u.token });
    await call("fund buy unknown fund", "/api/fund/buy", { form: { ...buy, id: 999, request_id: "contract-fund-4" }, token: u.token });
    await call("fund buy missing amount", "/api/fund/buy", { form: { id: fundId, request_id: "contract-fund-5" }, token: u.token });
    await call("fund buy without header", "/api/fund/buy", { query: buy });
    const subs = await call<{ data: { id: number }[] }>("fund subList", "/api/fund/subList", { query: { page: 1 }, token: u.token });
    await call("fund subList not signed in", "/api/fund/subList");
    const subId = subs.data.data[0]!.id;
    await call("fund insList", "/api/fund/insList", { query: { sub_id: subId, page: 1 }, token: u.token });
    await call("fund insList unknown", "/api/fund/insList", { query: { sub_id: 999999 }, token: u.token });
    await call("fund applyRefund unknown", "/api/fund/applyRefund", { form: { sub_id: 999999 }, token: u.token });
    await call("fund applyRefund without header", "/api/fund/applyRefund", { query: { sub_id: subId } });
    await call("fund applyRefund", "/api/fund/applyRefund", { form: { sub_id: subId }, token: u.token });
    await call("fund applyRefund again", "/api/fund/applyRefund", { form: { sub_id: subId }, token: u.token });
    await call("fund subList after refund", "/api/fund/subList", { token: u.token });
  });
});
