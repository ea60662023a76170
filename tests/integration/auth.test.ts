import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { checkInvariants } from "~/services/ledger/accounts.server";
import { DEMO_STARTING_BALANCES } from "~/db/seed";
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
  uniqueEmail,
  visibleText,
} from "./helpers";

const PASSWORD = "correct-horse-1";

async function register(email: string, extra: Record<string, string> = {}) {
  const sent = await form("/register", { intent: "send-code", type: "email", account: email });
  expect(sent.status).toBe(200);
  const code = await latestCode(email);
  expect(code).toMatch(/^\d{6}$/);
  return form("/register", {
    intent: "register",
    type: "email",
    account: email,
    sms_code: code!,
    password: PASSWORD,
    re_password: PASSWORD,
    ...extra,
  });
}

async function login(account: string, password = PASSWORD) {
  return form("/login", { account, password });
}

describe("registration", () => {
  it("registers by e-mail with the outbox code, signs in, and opens three empty accounts", async () => {
    const email = uniqueEmail();
    const res = await register(email);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    const cookie = cookiesFrom(res);
    expect(cookie).toContain("__Host-bourse_session=");
    const user = await get("/user", { cookie });
    expect(user.status).toBe(200);
    const html = await user.text();
    expect(html).toContain(email);
    const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM accounts a JOIN users u ON u.id = a.user_id WHERE u.email = ?1")
      .bind(email)
      .first<{ n: number }>();
    expect(row!.n).toBe(3);
  });

  it("sets the session cookie HttpOnly, Secure, SameSite=Lax with the __Host- prefix", async () => {
    const res = await register(uniqueEmail());
    const line = res.headers.getSetCookie().find((c) => c.startsWith("__Host-bourse_session="))!;
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/Secure/i);
    expect(line).toMatch(/SameSite=Lax/i);
    expect(line).toMatch(/Path=\//);
    expect(line).not.toMatch(/Domain=/i);
  });

  it("registers by mobile with an area code and signs in with the number", async () => {
    const number = String(90000000 + Math.floor(Math.random() * 9999999));
    await form("/register", { intent: "send-code", type: "mobile", area_id: "2", account: number });
    const code = await latestCode(`+852${number}`);
    expect(code).not.toBeNull();
    const res = await form("/register", {
      intent: "register",
      type: "mobile",
      area_id: "2",
      account: number,
      sms_code: code!,
      password: PASSWORD,
      re_password: PASSWORD,
    });
    expect(res.status).toBe(302);
    // one canonical form (E.164) whatever the spelling
    const row = await env.DB.prepare("SELECT mobile, area_id AS areaId FROM users WHERE mobile = ?1").bind(`+852${number}`).first();
    expect(row).toEqual({ mobile: `+852${number}`, areaId: 2 });
    expect((await login(`+852${number}`)).status).toBe(302);
    expect((await login(`852-${number}`)).status).toBe(302);
    expect((await login(`+852 ${number.slice(0, 4)} ${number.slice(4)}`)).status).toBe(302);
  });

  it("records the referrer of an invite code and refuses an unknown one", async () => {
    const referrer = await createUser();
    const email = uniqueEmail();
    expect((await register(email, { invite_code: referrer.inviteCode })).status).toBe(302);
    const row = await env.DB.prepare("SELECT referrer_id AS r FROM users WHERE email = ?1").bind(email).first<{ r: number }>();
    expect(row!.r).toBe(referrer.id);
    const bad = await register(uniqueEmail(), { invite_code: "NOPE1234" });
    expect(bad.status).toBe(400);
  });

  it("refuses a second code within 60 seconds (server-side countdown)", async () => {
    const email = uniqueEmail();
    expect((await form("/register", { intent: "send-code", type: "email", account: email })).status).toBe(200);
    const again = await form("/register", { intent: "send-code", type: "email", account: email });
    expect(again.status).toBe(429);
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM outbox WHERE `to` = ?1").bind(email).first<{ n: number }>();
    expect(count!.n).toBe(1);
  });

  it("rejects a wrong code, an expired code and a reused code, creating no user", async () => {
    const email = uniqueEmail();
    await form("/register", { intent: "send-code", type: "email", account: email });
    const code = (await latestCode(email))!;
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    const base = { intent: "register", type: "email", account: email, password: PASSWORD, re_password: PASSWORD };
    expect((await form("/register", { ...base, sms_code: wrong })).status).toBe(400);
    // expire it
    await env.DB.prepare("UPDATE verification_codes SET expires_at = 0 WHERE target = ?1").bind(email).run();
    expect((await form("/register", { ...base, sms_code: code })).status).toBe(400);
    expect(await env.DB.prepare("SELECT id FROM users WHERE email = ?1").bind(email).first()).toBeNull();
    // a used code cannot be used twice
    const email2 = uniqueEmail();
    expect((await register(email2)).status).toBe(302);
    const used = (await env.DB.prepare("SELECT id FROM verification_codes WHERE target = ?1").bind(email2).first<{ id: number }>())!;
    expect(used.id).toBeGreaterThan(0);
  });

  it("answers bad input with field errors and no 5xx", async () => {
    const cases: Record<string, string>[] = [
      {},
      { intent: "register" },
      { intent: "register", type: "email", account: "not-an-email", password: PASSWORD, re_password: PASSWORD, sms_code: "123456" },
      { intent: "register", type: "email", account: uniqueEmail(), password: PASSWORD, re_password: "different-1", sms_code: "123456" },
      { intent: "register", type: "email", account: uniqueEmail(), password: "short", re_password: "short", sms_code: "123456" },
      { intent: "register", type: "mobile", account: "12ab", area_id: "2", password: PASSWORD, re_password: PASSWORD, sms_code: "123456" },
      {
        intent: "register",
        type: "email",
        account: `${"a".repeat(300)}@example.com`,
        password: PASSWORD,
        re_password: PASSWORD,
        sms_code: "123456",
      },
      {
        intent: "register",
        type: "email",
        account: "bin\u0000ary@example.com",
        password: "pass\u0001word",
        re_password: "pass\u0001word",
        sms_code: "123456",
      },
      { intent: "send-code", type: "fax", account: "x" },
    ];
    for (const fields of cases) {
      const res = await form("/register", fields);
      expect(res.status, JSON.stringify(fields)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(fields)).toBeLessThan(500);
    }
    const mismatch = await form("/register", cases[3]!, { headers: { accept: "text/html" } });
    expect(formErrors(await mismatch.text())).toContain("The two passwords do not match");
  });

  it("does not reveal an existing account: its owner gets a notice instead of a code, and the answer is the same", async () => {
    const email = uniqueEmail();
    expect((await register(email)).status).toBe(302);
    await env.DB.prepare("UPDATE rate_limits SET blocked_until = 0 WHERE key = ?1").bind(`code:a:register:${email}`).run(); // the 60 s interval
    const again = await form(
      "/register",
      { intent: "send-code", type: "email", account: email },
      { headers: { "cf-connecting-ip": "198.51.100.7" } },
    );
    const fresh = await form(
      "/register",
      { intent: "send-code", type: "email", account: uniqueEmail() },
      { headers: { "cf-connecting-ip": "198.51.100.7" } },
    );
    expect(again.status).toBe(200);
    expect(fresh.status).toBe(200);
    expect(visibleText(await again.text())).toContain("We sent a verification code");
    expect(visibleText(await fresh.text())).toContain("We sent a verification code");
    const notice = await env.DB.prepare("SELECT subject, body FROM outbox WHERE `to` = ?1 ORDER BY id DESC LIMIT 1")
      .bind(email)
      .first<{ subject: string; body: string }>();
    expect(notice!.body).toContain("already");
    expect(notice!.body).not.toMatch(/\b\d{6}\b/);
    // without a code nobody can go further, and the refusal is about the code
    const res = await form("/register", {
      intent: "register",
      type: "email",
      account: email,
      sms_code: "123456",
      password: PASSWORD,
      re_password: PASSWORD,
    });
    expect(res.status).toBe(400);
    expect(formErrors(await res.text())).toContain("The code is wrong or has expired");
  });

  it("survives a body that is not a form, a huge body and binary garbage", async () => {
    const { SELF } = await import("cloudflare:test");
    const empty = await SELF.fetch(`${ORIGIN}/login`, {
      method: "POST",
      headers: { host: "localhost", origin: ORIGIN },
      redirect: "manual",
    });
    expect(empty.status).toBe(400);
    const huge = await SELF.fetch(`${ORIGIN}/login`, {
      method: "POST",
      headers: { host: "localhost", origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      body: "account=" + "x".repeat(100_000),
      redirect: "manual",
    });
    expect(huge.status).toBe(413);
    const binary = await SELF.fetch(`${ORIGIN}/register`, {
      method: "POST",
      headers: { host: "localhost", origin: ORIGIN, "content-type": "multipart/form-data; boundary=zz" },
      body: new Uint8Array([0, 255, 1, 2, 3]),
      redirect: "manual",
    });
    expect(binary.status).toBe(400);
  });
});

describe("sign-in", () => {
  it("signs in, and a wrong password gets the same message as an unknown account", async () => {
    const user = await createUser({ password: PASSWORD });
    const ok = await login(user.email!);
    expect(ok.status).toBe(302);
    const wrong = await login(user.email!, "wrong-password");
    const unknown = await login(uniqueEmail(), "wrong-password");
    expect(wrong.status).toBe(400);
    expect(unknown.status).toBe(400);
    const a = formErrors(await wrong.text());
    const b = formErrors(await unknown.text());
    expect(a).toBe("Incorrect account or password.");
    expect(b).toBe(a);
  });

  it("sends a logged-out visitor of /user to /login?from=%2Fuser and back after login", async () => {
    const res = await get("/user");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login?from=%2Fuser");
    const user = await createUser({ password: PASSWORD });
    const signed = await form("/login?from=%2Fuser", { account: user.email!, password: PASSWORD, from: "/user" });
    expect(signed.headers.get("location")).toBe("/user");
    const evil = await form("/login", { account: user.email!, password: PASSWORD, from: "//evil.example/x" });
    expect(evil.headers.get("location")).toBe("/");
  });

  it("treats a forged or revoked session as logged out", async () => {
    const forged = await get("/user", { cookie: "__Host-bourse_session=forged.value" });
    expect(forged.headers.get("location")).toBe("/login?from=%2Fuser");
    const api = await get("/api/user/info", { headers: { authorization: "not-a-token" } });
    expect(await api.json()).toMatchObject({ code: 999 });
  });

  it("logs out: the session row is revoked, the cookie cleared, home with 'Logout success'", async () => {
    const user = await createUser({ password: PASSWORD });
    const cookie = cookiesFrom(await login(user.email!));
    const out = await form("/logout", {}, { cookie });
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/");
    expect(out.headers.getSetCookie().some((c) => c.startsWith("__Host-bourse_session=") && /Max-Age=0/i.test(c))).toBe(true);
    // the old cookie no longer works even if a client keeps it
    expect((await get("/user", { cookie })).status).toBe(302);
    const home = await get("/", { cookie: cookiesFrom(out) });
    expect(visibleText(await home.text())).toContain("Logout success");
  });

  it("refuses cross-site form posts", async () => {
    const user = await createUser({ password: PASSWORD });
    const res = await form("/login", { account: user.email!, password: PASSWORD }, { origin: "https://evil.example" });
    expect(res.status).toBe(403);
    const referer = await form("/logout", {}, { origin: null, headers: { referer: "https://evil.example/page" } });
    expect(referer.status).toBe(403);
  });

  it("redirects unknown paths to /", async () => {
    const res = await get("/no/such/page");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
  });
});

describe("passwords", () => {
  it("resets a forgotten password by e-mail code; old sessions end", async () => {
    const user = await createUser({ password: PASSWORD });
    const oldSession = cookiesFrom(await login(user.email!));
    expect((await form("/forgot", { intent: "send-code", account: user.email! })).status).toBe(200);
    const code = (await latestCode(user.email!))!;
    const res = await form("/forgot", {
      intent: "reset",
      account: user.email!,
      auth_code: code,
      password: "brand-new-pass",
      re_password: "brand-new-pass",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login");
    expect((await login(user.email!, "brand-new-pass")).status).toBe(302);
    expect((await login(user.email!)).status).toBe(400);
    expect((await get("/user", { cookie: oldSession })).status).toBe(302);
  });

  it("answers a reset request for an unknown e-mail like a known one, and sends nothing", async () => {
    const email = uniqueEmail();
    const res = await form("/forgot", { intent: "send-code", account: email });
    expect(res.status).toBe(200);
    expect(await latestCode(email)).toBeNull();
  });

  it("/mine/password needs the current password, both fields filled and equal and the code", async () => {
    const user = await createUser({ password: PASSWORD });
    const cookie = await signedSessionCookie(await sessionFor(user.id));
    expect((await get("/mine/password", { cookie })).status).toBe(200);
    expect((await form("/mine/password", { intent: "send-code" }, { cookie })).status).toBe(200);
    const code = (await latestCode(user.email!))!;
    const empty = await form(
      "/mine/password",
      { intent: "amend", old_password: PASSWORD, auth_code: code, password: "", re_password: "" },
      { cookie },
    );
    expect(formErrors(await empty.text())).toContain("Please fill in both password fields");
    const unequal = await form(
      "/mine/password",
      { intent: "amend", old_password: PASSWORD, auth_code: code, password: "new-pass-111", re_password: "new-pass-222" },
      { cookie },
    );
    expect(formErrors(await unequal.text())).toContain("do not match");
    const ok = await form(
      "/mine/password",
      { intent: "amend", old_password: PASSWORD, auth_code: code, password: "new-pass-111", re_password: "new-pass-111" },
      { cookie },
    );
    expect(ok.status).toBe(302);
    expect((await login(user.email!, "new-pass-111")).status).toBe(302);
  });
});

describe("demo account", () => {
  it("creates a demo user with simulated balances and resumes it on the same browser", async () => {
    const res = await form("/login/demo", {});
    expect(res.status).toBe(302);
    const cookie = cookiesFrom(res);
    expect(cookie).toContain("bourse_demo_id=");
    const page = visibleText(await (await get("/user", { cookie })).text());
    expect(page).toContain("Demo account");
    expect(page).toContain("100,000.00");
    const again = await form(
      "/login/demo",
      {},
      {
        cookie: cookie
          .split("; ")
          .filter((c) => c.startsWith("bourse_demo_id"))
          .join("; "),
      },
    );
    const page2 = await (await get("/user", { cookie: cookiesFrom(again) })).text();
    const uid = (s: string) => s.match(/UID[^0-9]*(\d{8})/)?.[1];
    expect(uid(page2)).toBe(uid(page));
  });

  it("refuses /mine/password to a demo user with the 'only real account' message", async () => {
    const demo = await createUser({ isDemo: true });
    const cookie = await signedSessionCookie(await sessionFor(demo.id));
    const res = await get("/mine/password", { cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/user");
    const page = visibleText(await (await get("/user", { cookie: cookiesFrom(res, cookie) })).text());
    expect(page).toContain("Only real account");
    const api = await (
      await form(
        "/api/user/amend_password",
        { old_password: "whatever-old", new_password: "whatever-123", auth_code: "123456" },
        { cookie },
      )
    ).json();
    expect(api).toMatchObject({ code: 0 });
  });

  it("20 concurrent resets of a demo account restore the starting balances once, ledger intact", async () => {
    const res = await form("/login/demo", {});
    const cookie = cookiesFrom(res);
    const user = await env.DB.prepare("SELECT id FROM users WHERE is_demo = 1 ORDER BY id DESC LIMIT 1").first<{ id: number }>();
    // spend some of the contract balance
    const { post } = await import("~/services/ledger/post.server");
    const { PlatformAccount } = await import("~/services/ledger/accounts.server");
    const contract = await env.DB.prepare("SELECT id FROM accounts WHERE user_id = ?1 AND kind = 'contract'")
      .bind(user!.id)
      .first<{ id: number }>();
    await post(env.DB, {
      idempotencyKey: crypto.randomUUID(),
      kind: "trade_settle",
      postings: [
        { accountId: contract!.id, amount: -1_234_560_000 },
        { accountId: PlatformAccount.Counterparty.id, amount: 1_234_560_000 },
      ],
    });
    const results = await Promise.all(Array.from({ length: 20 }, () => form("/user", { intent: "reset-demo" }, { cookie })));
    expect(results.every((r) => r.status === 302)).toBe(true);
    const after = await env.DB.prepare("SELECT balance FROM accounts WHERE id = ?1").bind(contract!.id).first<{ balance: number }>();
    expect(after!.balance).toBe(DEMO_STARTING_BALANCES.contract);
    expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
  });
});

describe("security headers", () => {
  it("sends a content security policy and no-sniff on pages", async () => {
    const res = await get("/login");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("connect-src 'self';");
    expect(/script-src ([^;]*)/.exec(csp)![1]).not.toContain("unsafe-inline"); // inline scripts only with the nonce
    const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(csp)![1]!;
    const html = await res.text();
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const attrs of scripts) expect(attrs).toContain(`nonce="${nonce}"`);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });
});
