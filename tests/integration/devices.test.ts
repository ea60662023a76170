// Sign-in from a new device (issue 24): the user is e-mailed, in their language, when the account
// signs in from a browser or API client it has not used before; never for the account's first
// device, never twice for the same one.
import { SELF, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ORIGIN, cookiesFrom, createUser, form } from "./helpers";

const PASSWORD = "device-pass-1";
const PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile";
const LAPTOP = "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0";

const mails = async (to: string) =>
  (
    await env.DB.prepare("SELECT subject, body FROM outbox WHERE `to` = ?1 AND subject LIKE '%sign-in%' ORDER BY id")
      .bind(to)
      .all<{ subject: string; body: string }>()
  ).results;

/** A web sign-in from a browser holding `cookie` (its device cookie, if any): answers the browser's cookies after it. */
async function webLogin(email: string, userAgent: string, cookie = "") {
  const res = await form("/login", { account: email, password: PASSWORD }, { cookie, headers: { "user-agent": userAgent } });
  expect(res.status).toBe(302);
  return cookiesFrom(res, cookie);
}

const deviceOf = (cookies: string) => cookies.split("; ").find((c) => c.startsWith("__Host-bourse_device=")) ?? "";

async function apiLogin(email: string, userAgent: string, ip: string) {
  const res = await SELF.fetch(`${ORIGIN}/api/user/loginForU`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": userAgent, "cf-connecting-ip": ip, lang: "en" },
    body: new URLSearchParams({ account: email, password: PASSWORD }).toString(),
  });
  expect(((await res.json()) as { code: number }).code).toBe(1);
}

async function settle() {
  await new Promise((r) => setTimeout(r, 300));
}

describe("sign-in from a new device", () => {
  it("the first device is silent; another browser is told once, with the device and the time", async () => {
    const user = await createUser({ password: PASSWORD });
    await env.DB.prepare("UPDATE users SET lang = 'en' WHERE id = ?1").bind(user.id).run();
    const phone = await webLogin(user.email!, PHONE);
    expect(deviceOf(phone)).not.toBe("");
    await webLogin(user.email!, PHONE, deviceOf(phone));
    await settle();
    expect(await mails(user.email!)).toEqual([]);

    const laptop = await webLogin(user.email!, LAPTOP);
    expect(deviceOf(laptop)).not.toBe(deviceOf(phone));
    await expect.poll(async () => (await mails(user.email!)).length).toBe(1);
    const [mail] = await mails(user.email!);
    expect(mail!.subject).toBe("New sign-in to your Bourse account");
    expect(mail!.body).toMatch(
      new RegExp(
        `^Your Bourse account was signed in from a device it had not used before: ${LAPTOP.replace(/[().]/g, "\\$&")}, from \\?, at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\.`,
      ),
    );
    // the laptop again, with its cookie: nothing more
    await webLogin(user.email!, LAPTOP, deviceOf(laptop));
    await settle();
    expect(await mails(user.email!)).toHaveLength(1);
  });

  it("an API client is known by its user agent and network: a new one is told, the same one is not", async () => {
    const user = await createUser({ password: PASSWORD });
    await env.DB.prepare("UPDATE users SET lang = 'de' WHERE id = ?1").bind(user.id).run();
    await apiLogin(user.email!, "BourseApp/3.1 (iOS 18)", "198.51.100.7");
    await apiLogin(user.email!, "BourseApp/3.1 (iOS 18)", "198.51.100.7");
    await settle();
    expect(await mails(user.email!)).toEqual([]);
    await apiLogin(user.email!, "BourseApp/3.1 (Android 15)", "203.0.113.50");
    await expect
      .poll(
        async () => (await env.DB.prepare("SELECT COUNT(*) AS n FROM outbox WHERE `to` = ?1").bind(user.email).first<{ n: number }>())!.n,
      )
      .toBe(1);
    const mail = await env.DB.prepare("SELECT subject, body FROM outbox WHERE `to` = ?1")
      .bind(user.email)
      .first<{ subject: string; body: string }>();
    // in the user's language, with the address the request came from
    expect(mail!.subject).toBe("Neue Anmeldung bei Ihrem Bourse-Konto");
    expect(mail!.body).toContain("BourseApp/3.1 (Android 15), von 203.0.113.50, um ");
  });

  it("a wrong password records no device and sends nothing", async () => {
    const user = await createUser({ password: PASSWORD });
    await webLogin(user.email!, PHONE);
    const res = await form("/login", { account: user.email!, password: "wrong-password-9" }, { headers: { "user-agent": LAPTOP } });
    expect(res.status).toBe(400);
    await settle();
    expect(
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM user_devices WHERE user_id = ?1").bind(user.id).first<{ n: number }>())!.n,
    ).toBe(1);
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM outbox WHERE `to` = ?1").bind(user.email).first<{ n: number }>())!.n).toBe(0);
  });
});
