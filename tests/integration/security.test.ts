// The findings of the security probe (issue "Safe to hold money", part 1), each reproduced as
// an attacker would try it, against the real Worker, D1 and rooms.
import { SELF, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "~/lib/encoding";
import { Backoffs, Limits, hit, reserve, reserveWithBackoff } from "~/services/rate-limit.server";
import {
  ORIGIN,
  cookiesFrom,
  createUser,
  form,
  formErrors,
  get,
  latestCode,
  sessionFor,
  signedSessionCookie,
  targets,
  uniqueEmail,
} from "./helpers";

const PASSWORD = "correct-horse-1";
let ipCounter = 0;
/** A fresh client address (CF-Connecting-IP, which Cloudflare sets and clients cannot). */
const newIp = () => `203.0.${Math.floor(++ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;

function loginAs(account: string, password: string, ip: string, extra: Record<string, string> = {}) {
  return form("/login", { account, password, intent: "login", ...extra }, { headers: { "cf-connecting-ip": ip } });
}

/** A captcha whose answer the test knows (what a human would type). */
async function knownCaptcha(answer = "ABCDE") {
  const id = `test-${crypto.randomUUID()}`;
  await env.DB.prepare("INSERT INTO captchas (id, answer_hash, expires_at) VALUES (?1, ?2, ?3)")
    .bind(id, await sha256Hex(`captcha:${id}:${answer}`), Date.now() + 60_000)
    .run();
  return { key: id, captcha: answer };
}

async function outcome(res: Response) {
  const text = formErrors(await res.text());
  if (res.status === 302) return "signed-in";
  if (text.includes("Incorrect account or password")) return "evaluated";
  if (text.includes("type the characters in the picture")) return "captcha";
  if (text.includes("Too many attempts from this device")) return "wait";
  return `other ${res.status}`;
}

describe("sign-in throttles: reserved before the hash, no lock a stranger can impose", () => {
  it("150 parallel wrong guesses from many addresses: at most 3 are checked, the rest need a captcha", async () => {
    const user = await createUser({ password: PASSWORD });
    const results = await Promise.all(
      Array.from({ length: 150 }, (_, i) => loginAs(user.email!, `wrong-guess-${i}`, newIp()).then(outcome)),
    );
    const evaluated = results.filter((r) => r === "evaluated").length;
    expect(evaluated).toBeLessThanOrEqual(3);
    expect(results.filter((r) => r === "captcha").length).toBe(150 - evaluated);
    // The owner is not locked out: with a picture captcha the right password works.
    const ip = newIp();
    expect(await outcome(await loginAs(user.email!, PASSWORD, ip))).toBe("captcha");
    const res = await loginAs(user.email!, PASSWORD, ip, await knownCaptcha());
    expect(res.status).toBe(302);
  });

  it("a burst from one client waits with growing delays (only that client)", async () => {
    const ip = newIp();
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => loginAs(`nobody-${i}@example.com`, "wrong-password-1", ip).then(outcome)),
    );
    expect(results.filter((r) => r === "wait").length).toBeGreaterThanOrEqual(29);
    expect(results.filter((r) => r === "evaluated").length).toBeLessThanOrEqual(11);
    // another client is unaffected
    const user = await createUser({ password: PASSWORD });
    expect((await loginAs(user.email!, PASSWORD, newIp())).status).toBe(302);
  });

  it("spelling variants of a mobile number are one account and one limit", async () => {
    const number = String(60_000_000 + Math.floor(Math.random() * 9_999_999));
    const user = await createUser({ password: PASSWORD, mobile: `+852${number}` });
    for (const variant of [`+852 ${number}`, `852-${number}`, `+852-${number.slice(0, 4)} ${number.slice(4)}`]) {
      expect(await outcome(await loginAs(variant, "wrong-password-1", newIp(), { login_type: "2" }))).toBe("evaluated");
    }
    // the fourth guess, spelled yet another way, needs a captcha: the limit counted all three
    expect(await outcome(await loginAs(`0085${"2"}${number}`, "wrong-password-1", newIp(), { login_type: "mobile" }))).toBe("captcha");
    // an "@a" suffix is not the account at all (it cannot be used to guess its password)
    expect(await outcome(await loginAs(`852-${number}@a`, PASSWORD, newIp(), { login_type: "2" }))).not.toBe("signed-in");
    expect(user.id).toBeGreaterThan(0);
  });

  it("a second account cannot be made with another spelling of the same number", async () => {
    const number = String(50_000_000 + Math.floor(Math.random() * 9_999_999));
    await createUser({ password: PASSWORD, mobile: `+852${number}` });
    const sent = await form(
      "/register",
      { intent: "send-code", type: "mobile", area_id: "2", account: `0${number.slice(0, 4)} ${number.slice(4)}` },
      { headers: { "cf-connecting-ip": newIp() } },
    );
    expect(sent.status).toBe(200);
    // the owner gets a notice, not a code
    expect(await latestCode(`+852${number}`)).toBeNull();
    const api = await SELF.fetch(`${ORIGIN}/api/user/register`, {
      method: "POST",
      headers: { host: "localhost", "content-type": "application/json", lang: "en", "cf-connecting-ip": newIp() },
      body: JSON.stringify({ type: "mobile", mobile: `852-${number}`, password: PASSWORD, re_password: PASSWORD, sms_code: "123456" }),
    });
    expect(await api.json()).toMatchObject({ code: 0 });
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE mobile = ?1").bind(`+852${number}`).first<{ n: number }>();
    expect(count!.n).toBe(1);
  });

  it("overlapping area codes name one number: one SMS interval for both spellings", async () => {
    const bahamas = await env.DB.prepare("SELECT id FROM areas WHERE global_code = '1242'").first<{ id: number }>();
    const us = await env.DB.prepare("SELECT id FROM areas WHERE global_code = '1' ORDER BY id LIMIT 1").first<{ id: number }>();
    if (!bahamas || !us) return; // the seed's area list has both
    const local = String(3_000_000 + Math.floor(Math.random() * 999_999));
    const first = await SELF.fetch(`${ORIGIN}/api/notify/send_sms`, {
      method: "POST",
      headers: { host: "localhost", "content-type": "application/json", "cf-connecting-ip": newIp() },
      body: JSON.stringify({ to: local, area_id: String(bahamas.id), type: "1" }),
    });
    expect(await first.json()).toMatchObject({ code: 1 });
    const second = await SELF.fetch(`${ORIGIN}/api/notify/send_sms`, {
      method: "POST",
      headers: { host: "localhost", "content-type": "application/json", "cf-connecting-ip": newIp() },
      body: JSON.stringify({ to: `242${local}`, area_id: String(us.id), type: "1" }),
    });
    expect(second.status).toBe(429);
  });
});

describe("limits hold over any window, not only over each fixed one", () => {
  const HOUR = 60 * 60_000;
  const hour = (n: number) => Math.floor(Date.now() / HOUR) * HOUR + n * HOUR;

  it("a burst split across a window boundary counts as one burst", async () => {
    const limit = Limits.demoPerClient; // 30 an hour
    const key = `test:boundary:${crypto.randomUUID()}`;
    const end = hour(1) - 1_000; // the last second of a window
    const first = await Promise.all(Array.from({ length: 30 }, () => hit(env.DB, key, limit, end)));
    expect(first.filter(Boolean).length).toBe(30);
    // Two seconds later a new fixed window starts: a fixed-window counter would let 30 more in.
    const second = await Promise.all(Array.from({ length: 30 }, () => hit(env.DB, key, limit, end + 2_000)));
    expect(second.filter(Boolean).length).toBe(0);
    expect(await hit(env.DB, `${key}:other`, limit, end + 2_000)).toBe(true);
  });

  it("sign-in's growing delays carry across a window boundary", async () => {
    const rule = Backoffs.loginPerClient; // 10 an hour at once, then 1 s, 2 s, 4 s …
    const key = `test:backoff:${crypto.randomUUID()}`;
    const end = hour(1) - 1_000;
    for (let i = 0; i < 10; i++) expect((await reserveWithBackoff(env.DB, key, rule, end)).ok).toBe(true);
    // A new fixed window two seconds later: the 11th attempt passes, but the next waits 1 s.
    expect((await reserveWithBackoff(env.DB, key, rule, end + 2_000)).ok).toBe(true);
    expect(await reserveWithBackoff(env.DB, key, rule, end + 2_000)).toEqual({ ok: false, waitSeconds: 1 });
    // After the wait the 12th passes and the delay doubles.
    expect((await reserveWithBackoff(env.DB, key, rule, end + 3_000)).ok).toBe(true);
    expect(await reserveWithBackoff(env.DB, key, rule, end + 3_000)).toEqual({ ok: false, waitSeconds: 2 });
  });

  it("the earlier window's slots fade out as it slides away", async () => {
    const limit = { windowMs: HOUR, max: 10 };
    const key = `test:slide:${crypto.randomUUID()}`;
    const start = hour(1);
    for (let i = 0; i < 10; i++) await reserve(env.DB, key, limit, start + 1_000);
    // A quarter into the next window, three quarters of the earlier 10 still count (8, rounded up).
    expect(await reserve(env.DB, key, limit, start + HOUR + HOUR / 4)).toBe(1 + 8);
    expect(await hit(env.DB, key, limit, start + HOUR + HOUR / 4)).toBe(true); // 2 + 8 = 10
    expect(await hit(env.DB, key, limit, start + HOUR + HOUR / 4)).toBe(false);
    // Two windows later nothing of it is left.
    expect(await reserve(env.DB, key, limit, start + 3 * HOUR)).toBe(1);
  });
});

describe("redirect targets go through one safeRedirect", () => {
  const evil = [
    "/\t/evil.example",
    "/%09/evil.example",
    "//evil.example",
    "/\\evil.example",
    "/%5Cevil.example",
    "https://evil.example",
    "/\n/evil.example",
    "/%0A/evil.example",
    " /x",
    "/%2F%2Fevil.example",
  ];

  it("/login (after sign-in) never leaves the site, and a newline is not a 500", async () => {
    const user = await createUser({ password: PASSWORD });
    for (const from of evil) {
      const res = await loginAs(user.email!, PASSWORD, newIp(), { from });
      expect(res.status, JSON.stringify(from)).toBe(302);
      expect(res.headers.get("location"), JSON.stringify(from)).toBe("/");
    }
    const ok = await loginAs(user.email!, PASSWORD, newIp(), { from: "/trade?code=BTCUSDT" });
    expect(ok.headers.get("location")).toBe("/trade?code=BTCUSDT");
  });

  it("/login?from= for a signed-in visitor, /settings, /language and /login/demo too", async () => {
    const user = await createUser({ password: PASSWORD });
    const cookie = await signedSessionCookie(await sessionFor(user.id));
    for (const from of evil) {
      const loader = await get(`/login?from=${encodeURIComponent(from)}`, { cookie });
      expect(loader.headers.get("location"), from).toBe("/user");
      const theme = await form("/settings", { intent: "theme", theme: "dark", redirectTo: from }, { cookie });
      expect(theme.headers.get("location"), from).toBe("/user");
      const language = await form("/language", { intent: "language", lang: "en", from });
      expect(language.headers.get("location"), from).toBe("/");
      const links = targets(await (await get(`/language?from=${encodeURIComponent(from)}`)).text());
      expect(links.filter((l) => l.includes("evil"))).toEqual([]);
      const demo = await form("/login/demo", { from }, { headers: { "cf-connecting-ip": newIp() } });
      expect(demo.headers.get("location"), from).toBe("/");
    }
  });
});

describe("rooms are reachable only through /v2/ws", () => {
  it("answers 404 under /parties/ for pages and sockets alike", async () => {
    const upgrade = {
      upgrade: "websocket",
      connection: "Upgrade",
      "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
      "sec-websocket-version": "13",
    };
    for (const path of ["/parties/live-room/live-0", "/parties/market-room/main", "/parties/live-room/anything", "/parties"]) {
      expect((await get(path)).status, path).toBe(404);
      expect((await get(path, { headers: upgrade })).status, path).toBe(404);
    }
  });

  it("a crafted x-partykit-props header neither reaches the room nor gives error text", async () => {
    const res = await SELF.fetch(`${ORIGIN}/v2/ws`, {
      headers: { upgrade: "websocket", host: "localhost", "x-partykit-props": "{not json", "x-partykit-room": "market-room" },
    });
    expect(res.status).toBe(101);
    const ws = res.webSocket!;
    ws.accept();
    const first = await new Promise<string>((resolve) => {
      ws.addEventListener("message", (e) => resolve(String(e.data)));
      ws.send(JSON.stringify({ type: "ping", timestamp: 3 }));
    });
    expect(JSON.parse(first)).toEqual({ type: "pong", timestamp: 3 });
    ws.close();
  });

  it("refusals of /v2/ws carry a status and security headers, never a stack", async () => {
    const plain = await get("/v2/ws");
    expect(plain.status).toBe(426);
    expect(plain.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await plain.text()).not.toMatch(/Error|at \w+ \(/);
    const foreign = await get("/v2/ws", { headers: { upgrade: "websocket", origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
  });
});

describe("new passwords are checked on the server", () => {
  async function registerWith(email: string, password: string) {
    const ip = newIp();
    await form("/register", { intent: "send-code", type: "email", account: email }, { headers: { "cf-connecting-ip": ip } });
    const code = (await latestCode(email))!;
    return form(
      "/register",
      { intent: "register", type: "email", account: email, sms_code: code, password, re_password: password },
      { headers: { "cf-connecting-ip": ip } },
    );
  }

  it("refuses common passwords and the user's own e-mail, with a translated reason, and creates nothing", async () => {
    for (const password of ["12345678", "password", "qwertyuiop", "iloveyou123"]) {
      const email = uniqueEmail("weak");
      const res = await registerWith(email, password);
      expect(res.status, password).toBe(400);
      expect(formErrors(await res.text())).toContain("too common or too easy to guess");
      expect(await env.DB.prepare("SELECT id FROM users WHERE email = ?1").bind(email).first()).toBeNull();
    }
    const email = uniqueEmail("self");
    const same = await registerWith(email, email);
    expect(formErrors(await same.text())).toContain("does not contain your e-mail");
    const ja = await form(
      "/register",
      { intent: "register", type: "email", account: uniqueEmail("ja"), sms_code: "123456", password: "12345678", re_password: "12345678" },
      { headers: { "accept-language": "ja" } },
    );
    const jaErrors = formErrors(await ja.text());
    expect(jaErrors.length).toBeGreaterThan(0);
    expect(jaErrors).not.toContain("too common or too easy to guess");
  });

  it("checks resets and changes the same way", async () => {
    const user = await createUser({ password: PASSWORD });
    await form("/forgot", { intent: "send-code", account: user.email! }, { headers: { "cf-connecting-ip": newIp() } });
    const code = (await latestCode(user.email!))!;
    const weak = await form("/forgot", {
      intent: "reset",
      account: user.email!,
      auth_code: code,
      password: "password1",
      re_password: "password1",
    });
    expect(weak.status).toBe(400);
    expect(formErrors(await weak.text())).toContain("too common");
    const api = await SELF.fetch(`${ORIGIN}/api/user/amend_password`, {
      method: "POST",
      headers: { host: "localhost", "content-type": "application/json", lang: "en", authorization: await sessionFor(user.id) },
      body: JSON.stringify({ old_password: PASSWORD, new_password: user.email, secondary_password: user.email, auth_code: "123456" }),
    });
    expect(await api.json()).toMatchObject({ code: 0, msg: expect.stringContaining("does not contain your e-mail") });
  });
});

describe("sessions end when they should", () => {
  it("POST /api/user/logout ends the token's session", async () => {
    const user = await createUser();
    const token = await sessionFor(user.id);
    const headers = { host: "localhost", authorization: token, lang: "en" };
    expect(await (await SELF.fetch(`${ORIGIN}/api/user/info`, { headers })).json()).toMatchObject({ code: 1 });
    const out = await SELF.fetch(`${ORIGIN}/api/user/logout`, { method: "POST", headers });
    expect(await out.json()).toMatchObject({ code: 1 });
    expect(await (await SELF.fetch(`${ORIGIN}/api/user/info`, { headers })).json()).toMatchObject({ code: 999 });
  });

  it("a password change ends every other session; this device keeps a new one", async () => {
    const user = await createUser({ password: PASSWORD });
    const other = await sessionFor(user.id);
    const cookie = await signedSessionCookie(await sessionFor(user.id));
    await form("/mine/password", { intent: "send-code" }, { cookie, headers: { "cf-connecting-ip": newIp() } });
    const code = (await latestCode(user.email!))!;
    const res = await form(
      "/mine/password",
      { intent: "amend", old_password: PASSWORD, auth_code: code, password: "sunflower-lamp-42", re_password: "sunflower-lamp-42" },
      { cookie },
    );
    expect(res.status).toBe(302);
    const api = await SELF.fetch(`${ORIGIN}/api/user/info`, { headers: { host: "localhost", authorization: other } });
    expect(await api.json()).toMatchObject({ code: 999 });
    expect((await get("/user", { cookie })).status).toBe(302);
    expect((await get("/user", { cookie: cookiesFrom(res, cookie) })).status).toBe(200);
  });
});

describe("codes", () => {
  it("a new code voids the older one; using a code voids every code of its purpose", async () => {
    const email = uniqueEmail("codes");
    await form("/register", { intent: "send-code", type: "email", account: email }, { headers: { "cf-connecting-ip": newIp() } });
    const older = (await latestCode(email))!;
    // let the 60 s interval pass
    await env.DB.prepare("UPDATE rate_limits SET blocked_until = 0 WHERE key = ?1").bind(`code:a:register:${email}`).run();
    await form("/register", { intent: "send-code", type: "email", account: email }, { headers: { "cf-connecting-ip": newIp() } });
    const newer = (await latestCode(email))!;
    const base = { intent: "register", type: "email", account: email, password: PASSWORD, re_password: PASSWORD };
    if (older !== newer) expect((await form("/register", { ...base, sms_code: older })).status).toBe(400);
    expect((await form("/register", { ...base, sms_code: newer })).status).toBe(302);
    const live = await env.DB.prepare("SELECT COUNT(*) AS n FROM verification_codes WHERE target = ?1 AND consumed_at IS NULL")
      .bind(email)
      .first<{ n: number }>();
    expect(live!.n).toBe(0);
  });

  it("a burst of 20 wrong codes spends at most 5 tries, and then even the right code fails", async () => {
    const user = await createUser({ password: PASSWORD });
    await form("/forgot", { intent: "send-code", account: user.email! }, { headers: { "cf-connecting-ip": newIp() } });
    const code = (await latestCode(user.email!))!;
    const wrong = (n: number) => String((Number(code) + 1 + n) % 1_000_000).padStart(6, "0");
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        form("/forgot", {
          intent: "reset",
          account: user.email!,
          auth_code: wrong(i),
          password: "sunflower-lamp-42",
          re_password: "sunflower-lamp-42",
        }),
      ),
    );
    const row = await env.DB.prepare("SELECT attempts FROM verification_codes WHERE target = ?1 ORDER BY id DESC LIMIT 1")
      .bind(user.email)
      .first<{ attempts: number }>();
    expect(row!.attempts).toBeLessThanOrEqual(5);
    const right = await form("/forgot", {
      intent: "reset",
      account: user.email!,
      auth_code: code,
      password: "sunflower-lamp-42",
      re_password: "sunflower-lamp-42",
    });
    expect(right.status).toBe(400);
  });
});

describe("headers and bodies", () => {
  it("signed-in answers are private, no-store: pages, data requests and JSON calls", async () => {
    const user = await createUser();
    const token = await sessionFor(user.id);
    const cookie = await signedSessionCookie(token);
    for (const path of ["/user", "/", "/user.data", "/trade"]) {
      const res = await get(path, { cookie });
      expect(res.headers.get("cache-control"), path).toBe("private, no-store");
    }
    const api = await SELF.fetch(`${ORIGIN}/v2/api/main/wallet/getBalance`, { headers: { host: "localhost", authorization: token } });
    expect(api.headers.get("cache-control")).toBe("private, no-store");
  });

  it("security headers are on refusals too (403 cross-site, 404, 413)", async () => {
    const cross = await form("/login", { account: "a@b.co", password: "x" }, { origin: "https://evil.example" });
    expect(cross.status).toBe(403);
    expect(cross.headers.get("x-frame-options")).toBe("DENY");
    const missing = await get("/api/nothing");
    expect(missing.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("the body limit holds for a chunked body (bytes read, not Content-Length)", async () => {
    const chunk = new TextEncoder().encode("account=" + "x".repeat(16 * 1024));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 8; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const res = await SELF.fetch(`${ORIGIN}/login`, {
      method: "POST",
      headers: { host: "localhost", origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      body: stream,
      redirect: "manual",
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    const apiStream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 8; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const api = await SELF.fetch(`${ORIGIN}/api/user/loginForU`, {
      method: "POST",
      headers: { host: "localhost", "content-type": "application/x-www-form-urlencoded" },
      body: apiStream,
      duplex: "half",
    } as RequestInit);
    expect(api.status).toBe(413);
    expect(await api.json()).toMatchObject({ code: 0 });
  });

  it("errors give a status and a translated message, never error text", async () => {
    const res = await SELF.fetch(`${ORIGIN}/api/user/register`, {
      method: "POST",
      headers: { host: "localhost", "content-type": "application/json", lang: "en" },
      body: JSON.stringify({ type: "email", account: 5, password: { toString: 1 } }),
    });
    const body = await res.json<{ code: number; msg: string; data: { errors: Record<string, string> } }>();
    expect(body.code).toBe(0);
    expect(body.msg).not.toMatch(/Invalid type|Expected|undefined|errors\./);
    for (const text of Object.values(body.data.errors)) expect(text).not.toMatch(/errors\.|Invalid type/);
  });
});

describe("demo accounts", () => {
  it("GET /login/demo creates nothing; the API's GET is limited per client", async () => {
    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE is_demo = 1").first<{ n: number }>();
    expect((await get("/login/demo")).status).toBe(302);
    const after = await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE is_demo = 1").first<{ n: number }>();
    expect(after!.n).toBe(before!.n);
    const ip = newIp();
    const codes = [];
    for (let i = 0; i < 32; i++) {
      const res = await SELF.fetch(`${ORIGIN}/api/user/createAccountDemoForU`, {
        headers: { host: "localhost", "cf-connecting-ip": ip, lang: "en" },
      });
      codes.push((await res.json<{ code: number }>()).code);
    }
    expect(codes.filter((c) => c === 1).length).toBe(30);
  });
});

describe("bad input anywhere: a refusal, never a 5xx or error text", () => {
  it("every form and JSON call answers garbage with a 4xx or a translated refusal", async () => {
    const user = await createUser({ password: PASSWORD });
    const token = await sessionFor(user.id);
    const cookie = await signedSessionCookie(token);
    const forms = [
      "/login",
      "/register",
      "/forgot",
      "/mine/password",
      "/language",
      "/settings",
      "/login/demo",
      "/logout",
      "/user",
      "/trade",
      "/",
    ];
    const apis = [
      "/api/user/loginForU",
      "/api/user/register",
      "/api/notify/send_email",
      "/api/notify/send_sms",
      "/api/user/forget_password",
      "/api/user/amend_password",
      "/api/user/logout",
      "/v2/api/forex/submit",
      "/v2/api/forex/close",
      "/v2/api/forex/cancel_trade",
      "/v2/api/forex/set_stop_price",
    ];
    const bodies: { type: string; body: BodyInit }[] = [
      { type: "application/x-www-form-urlencoded", body: "" },
      { type: "application/x-www-form-urlencoded", body: "intent=register&type=mobile&account=%00%01&area_id=99999&password=%E0%A4" },
      { type: "application/x-www-form-urlencoded", body: "__proto__[x]=1&intent[]=login&account[a]=b" },
      { type: "application/json", body: '{"account": {"toString": 1}, "password": [1,2], "type": null, "login_type": 7}' },
      { type: "application/json", body: "[1,2,3]" },
      { type: "application/json", body: "{broken" },
      { type: "multipart/form-data; boundary=x", body: new Uint8Array([0, 255, 254, 1]) },
      { type: "text/plain", body: "a".repeat(70_000) },
    ];
    for (const path of [...forms, ...apis]) {
      for (const { type, body } of bodies) {
        const headers: Record<string, string> = {
          host: "localhost",
          origin: ORIGIN,
          "content-type": type,
          "cf-connecting-ip": newIp(),
          lang: "en",
        };
        if (path === "/mine/password" || path === "/user" || path === "/trade" || path.startsWith("/v2/api/forex/"))
          headers.cookie = cookie;
        const res = await SELF.fetch(`${ORIGIN}${path}`, { method: "POST", headers, body, redirect: "manual" });
        const text = await res.text();
        expect(res.status, `${path} ${type}`).toBeLessThan(500);
        expect(text, `${path} ${type}`).not.toMatch(/\bat \w+ \(|TypeError|SyntaxError|Invalid type: Expected/);
      }
    }
    // and nothing was written for the user by any of it
    const sessions = await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?1 AND revoked_at IS NULL")
      .bind(user.id)
      .first<{ n: number }>();
    expect(sessions!.n).toBe(1);
    const orders = await env.DB.prepare("SELECT COUNT(*) AS n FROM contract_orders WHERE user_id = ?1")
      .bind(user.id)
      .first<{ n: number }>();
    expect(orders!.n).toBe(0);
  }, 120_000);
});
