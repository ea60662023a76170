import { SELF, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "~/lib/encoding";
import { ORIGIN, createUser, formErrors, get, latestCode, sessionFor, uniqueEmail } from "./helpers";

function api(path: string, init: { method?: string; body?: Record<string, string>; json?: unknown; token?: string; lang?: string } = {}) {
  const headers: Record<string, string> = { host: "localhost", lang: init.lang ?? "en" };
  if (init.token) headers.authorization = init.token;
  let body: string | undefined;
  if (init.body) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(init.body).toString();
  } else if (init.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(init.json);
  }
  return SELF.fetch(`${ORIGIN}${path}`, { method: init.method ?? (body ? "POST" : "GET"), headers, body });
}

async function json(res: Response) {
  return (await res.json()) as { code: number; msg: string; data: Record<string, unknown> & { token?: string } };
}

describe("JSON API (spec §7, envelope of §8)", () => {
  it("area_list has 200+ calling codes with the spec's fields", async () => {
    const body = await json(await api("/api/default/area_list"));
    expect(body.code).toBe(1);
    const list = body.data as unknown as { id: number; code: string; global_code: string; area_id: number; area_code: string }[];
    expect(list.length).toBeGreaterThanOrEqual(200);
    expect(list[1]).toMatchObject({ code: "HK", global_code: "852", area_id: 2 });
  });

  it("getBasicInfo returns the base settings", async () => {
    const body = await json(await api("/api/basicSet/getBasicInfo"));
    expect(body).toMatchObject({ code: 1, data: { verify_reg_type: 1, trade_fee_type: 2, micro_loss_level: 0 } });
  });

  it("registers, logs in and reads user info with the token in the authorization header", async () => {
    const email = uniqueEmail("api");
    expect(await json(await api("/api/notify/send_email", { body: { to: email, type: "1" } }))).toMatchObject({ code: 1 });
    const code = (await latestCode(email))!;
    const reg = await json(
      await api("/api/user/register", {
        json: { type: "email", account: email, password: "api-password-1", re_password: "api-password-1", sms_code: code },
      }),
    );
    expect(reg.code).toBe(1);
    expect(typeof reg.data.token).toBe("string");
    const login = await json(await api("/api/user/loginForU", { body: { account: email, password: "api-password-1" } }));
    expect(login.code).toBe(1);
    const info = await json(await api("/api/user/info", { token: `Bearer ${login.data.token}` }));
    expect(info.data).toMatchObject({ email, is_demo: 0, is_trader: 0 });
    expect(String(info.data.uid)).toMatch(/^\d{8}$/);
    const balance = await json(await api("/v2/api/main/wallet/getBalance", { token: login.data.token }));
    expect(balance.data).toMatchObject({ total: "0.00" });
    expect((balance.data.list as unknown[]).length).toBe(3);
  });

  it("answers 999 without a valid session and a translated message in the lang header's language", async () => {
    const none = await json(await api("/api/user/info"));
    expect(none.code).toBe(999);
    const wrong = await json(await api("/api/user/loginForU", { body: { account: uniqueEmail("x"), password: "whatever-1" }, lang: "en" }));
    expect(wrong).toMatchObject({ code: 0, msg: "Incorrect account or password." });
    const wrongJp = await json(
      await api("/api/user/loginForU", { body: { account: uniqueEmail("x"), password: "whatever-1" }, lang: "jp" }),
    );
    expect(wrongJp.code).toBe(0);
    expect(wrongJp.msg.length).toBeGreaterThan(0);
  });

  it("creates a demo account, resumes it by demo_id, and funds it once", async () => {
    const first = await json(await api("/api/user/createAccountDemoForU"));
    expect(first.code).toBe(1);
    const demoId = first.data.demo_id as string;
    const again = await json(await api(`/api/user/createAccountDemoForU?demo_id=${demoId}`));
    expect((again.data.user as { uid: string }).uid).toBe((first.data.user as { uid: string }).uid);
    const balance = await json(await api("/v2/api/main/wallet/getBalance", { token: again.data.token }));
    expect(balance.data.total).toBe("120000.00");
  });

  it("rejects malformed bodies with a message, never a 5xx", async () => {
    const bad = await SELF.fetch(`${ORIGIN}/api/user/loginForU`, {
      method: "POST",
      headers: { host: "localhost", "content-type": "application/json" },
      body: "{not json",
    });
    expect(bad.status).toBe(400);
    expect((await json(bad)).code).toBe(0);
    const missing = await json(await api("/api/user/register", { json: { type: 5 } }));
    expect(missing.code).toBe(0);
    const unknown = await api("/api/nothing/here");
    expect(unknown.status).toBe(404);
  });
});

describe("picture captcha (verify_reg_type 2)", () => {
  it("shows a server-made image instead of the code button and accepts it once", async () => {
    await env.DB.prepare("UPDATE base_settings SET verify_reg_type = 2").run();
    try {
      const page = await (await get("/register")).text();
      expect(page).toContain("data:image/png;base64,");
      expect(page).not.toContain('value="send-code"');
      const api = await (
        await SELF.fetch(`${ORIGIN}/api/captcha`, { headers: { host: "localhost" } })
      ).json<{ data: { id: string; b64s: string } }>();
      expect(api.data.b64s).toMatch(/^data:image\/png;base64,iVBOR/);
      // a captcha whose answer the test knows
      const id = `test-${crypto.randomUUID()}`;
      await env.DB.prepare("INSERT INTO captchas (id, answer_hash, expires_at) VALUES (?1, ?2, ?3)")
        .bind(id, await sha256Hex(`captcha:${id}:ABCDE`), Date.now() + 60_000)
        .run();
      const email = uniqueEmail("captcha");
      const { form } = await import("./helpers");
      const fields = {
        intent: "register",
        type: "email",
        account: email,
        password: "captcha-pass-1",
        re_password: "captcha-pass-1",
        key: id,
      };
      const ok = await form("/register", { ...fields, captcha: "abcde" });
      expect(ok.status).toBe(302);
      const reused = await form("/register", { ...fields, account: uniqueEmail("captcha2"), captcha: "ABCDE" });
      expect(reused.status).toBe(400);
      expect(formErrors(await reused.text())).toContain("picture code is wrong or has expired");
    } finally {
      await env.DB.prepare("UPDATE base_settings SET verify_reg_type = 1").run();
    }
  });

  it("refuses an expired captcha", async () => {
    await env.DB.prepare("UPDATE base_settings SET verify_reg_type = 2").run();
    try {
      const id = `test-${crypto.randomUUID()}`;
      await env.DB.prepare("INSERT INTO captchas (id, answer_hash, expires_at) VALUES (?1, ?2, ?3)")
        .bind(id, await sha256Hex(`captcha:${id}:ABCDE`), Date.now() - 1)
        .run();
      const { form } = await import("./helpers");
      const res = await form("/register", {
        intent: "register",
        type: "email",
        account: uniqueEmail("exp"),
        password: "captcha-pass-1",
        re_password: "captcha-pass-1",
        key: id,
        captcha: "ABCDE",
      });
      expect(res.status).toBe(400);
    } finally {
      await env.DB.prepare("UPDATE base_settings SET verify_reg_type = 1").run();
    }
  });
});

describe("session token in the API", () => {
  it("accepts the raw token and the web cookie alike", async () => {
    const user = await createUser();
    const token = await sessionFor(user.id);
    expect((await json(await api("/api/user/info", { token }))).code).toBe(1);
  });
});

describe("company status (spec §4 startup)", () => {
  it("sends visitors to loss_url while the company's status is 0", async () => {
    await env.DB.prepare("UPDATE companies SET status = 0, loss_url = 'https://status.example/closed' WHERE id = 1").run();
    try {
      const res = await get("/");
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("https://status.example/closed");
      const status = await (
        await SELF.fetch(`${ORIGIN}/api/company/getCompanyStatus`, { headers: { host: "localhost" } })
      ).json<{ data: { status: number } }>();
      expect(status.data.status).toBe(0);
    } finally {
      await env.DB.prepare("UPDATE companies SET status = 1, loss_url = '' WHERE id = 1").run();
    }
    expect((await get("/")).status).toBe(200);
  });
});
