// The operator's site settings (/admin/settings) through the real Worker and D1: each save is
// seen by users at once (the settings cache is bumped in the same batch), bad input is refused
// with the field's message and changes nothing, closing the site needs a ticked confirmation and
// a fresh step-up, and only operators reach the page.
import { SELF, env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { basicInfo } from "~/services/account.server";
import { saveChatSettings } from "~/services/settings.server";
import { sessionIdOf, userForToken } from "~/services/session.server";
import { ORIGIN, cookiesFrom, createUser, form, formErrors, get, sessionFor, signedSessionCookie, targets, visibleText } from "./helpers";

async function signedIn(role: "operator" | "user", stepUp = false) {
  const user = await createUser();
  if (role === "operator") await env.DB.prepare("UPDATE users SET role = 'operator' WHERE id = ?1").bind(user.id).run();
  const token = await sessionFor(user.id);
  if (stepUp)
    await env.DB.prepare("INSERT INTO operator_step_ups (session_id, verified_at) VALUES (?1, ?2)")
      .bind(await sessionIdOf(token), Date.now())
      .run();
  return { user, token, cookie: await signedSessionCookie(token) };
}

type Stored = {
  link: string;
  type: number;
  email: string;
  status: number;
  lossUrl: string;
  funding: number;
  options: number;
  contract: number;
};
const stored = () =>
  env.DB.prepare(
    `SELECT s.service_link AS link, s.service_link_type AS type, c.email, c.status, c.loss_url AS lossUrl, s.demo_funding_balance AS funding,
            s.demo_options_balance AS options, s.demo_contract_balance AS contract FROM companies c JOIN base_settings s ON s.company_id = c.id WHERE c.id = 1`,
  ).first<Stored>() as Promise<Stored>;

let original: Stored | null = null;
afterEach(async () => {
  if (!original) return;
  const o = original;
  await env.DB.batch([
    env.DB.prepare(
      "UPDATE base_settings SET service_link = ?1, service_link_type = ?2, demo_funding_balance = ?3, demo_options_balance = ?4, demo_contract_balance = ?5 WHERE company_id = 1",
    ).bind(o.link, o.type, o.funding, o.options, o.contract),
    env.DB.prepare("UPDATE companies SET email = ?1, status = ?2, loss_url = ?3 WHERE id = 1").bind(o.email, o.status, o.lossUrl),
  ]);
});

describe("site settings (/admin/settings)", () => {
  it("only operators reach the page and its saves; a user's post changes nothing", async () => {
    original = await stored();
    const user = await signedIn("user");
    expect((await get("/admin/settings", { cookie: user.cookie })).status).toBe(404);
    expect((await get("/admin/settings")).status).toBe(404);
    expect(
      (
        await form(
          "/admin/settings",
          { intent: "settings-chat", service_link_type: "3", service_link: "https://evil.example/" },
          { cookie: user.cookie },
        )
      ).status,
    ).toBe(404);
    expect(await stored()).toEqual(original);
    const op = await signedIn("operator");
    const page = await get("/admin/settings", { cookie: op.cookie });
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toContain("no-store");
    expect(visibleText(await page.text())).toContain("Support chat");
  });

  it("the support chat: the operator switches to 'go to the link' and the user's chat button leads there at once; a bad link is refused and changes nothing", async () => {
    original = await stored();
    const op = await signedIn("operator");
    const user = await signedIn("user");
    const save = (fields: Record<string, string>) => form("/admin/settings", { intent: "settings-chat", ...fields }, { cookie: op.cookie });

    for (const [fields, message] of [
      [{ service_link_type: "3", service_link: "javascript:alert(1)" }, "Enter a web address starting with https:// or http://."],
      [{ service_link_type: "3", service_link: "" }, "Enter the link for this mode."],
      [{ service_link_type: "2", service_link: "   " }, "Enter the link for this mode."],
      [
        { service_link_type: "1", service_link: `https://chat.example.com/${"a".repeat(500)}` },
        "This link is too long (500 characters at most).",
      ],
      [{ service_link_type: "4", service_link: "https://chat.example.com/" }, "The request could not be understood."],
    ] as const) {
      const res = await save(fields);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      const html = await res.text();
      expect(formErrors(html)).toContain(message);
      // what was typed stays in the field
      if (fields.service_link.trim() && fields.service_link.length < 100) expect(html).toContain(`value="${fields.service_link}"`);
    }
    expect(await stored()).toEqual(original);

    const ok = await save({ service_link_type: "3", service_link: " https://help.example.com/chat " });
    expect(ok.status).toBe(302);
    expect(visibleText(await (await get("/admin/settings", { cookie: cookiesFrom(ok, op.cookie) })).text())).toContain("Settings saved.");
    expect(await stored()).toMatchObject({ link: "https://help.example.com/chat", type: 3 });
    const chat = await get("/mine/chat", { cookie: user.cookie });
    expect(chat.status).toBe(302);
    expect(chat.headers.get("location")).toBe("https://help.example.com/chat");
    expect(targets(await (await get("/user", { cookie: user.cookie })).text())).toContain("https://help.example.com/chat");

    // the dialog mode takes any contact text
    expect((await save({ service_link_type: "2", service_link: "@bourse_support" })).status).toBe(302);
    const dialog = await get("/mine/chat", { cookie: user.cookie });
    expect(dialog.status).toBe(200);
    expect(visibleText(await dialog.text())).toContain("@bourse_support");
  });

  it("the contact e-mail: saved in its canonical form and shown on /mine/email; a bad address is refused", async () => {
    original = await stored();
    const op = await signedIn("operator");
    const bad = await form("/admin/settings", { intent: "settings-email", email: "not an address" }, { cookie: op.cookie });
    expect(bad.status).toBe(400);
    expect(formErrors(await bad.text())).toContain("This e-mail address doesn't look right.");
    expect((await stored()).email).toBe(original.email);
    expect(
      (await form("/admin/settings", { intent: "settings-email", email: " Help@Bourse.Example " }, { cookie: op.cookie })).status,
    ).toBe(302);
    expect((await stored()).email).toBe("help@bourse.example");
    expect(visibleText(await (await get("/mine/email")).text())).toContain("help@bourse.example");
  });

  it("closing the site: refused without a fresh step-up and without the ticked confirmation; then visitors go to the loss URL while the operator keeps working, and opening it again lets them back", async () => {
    original = await stored();
    const close = { intent: "settings-site", status: "0", loss_url: "https://status.example/closed" };
    const noStepUp = await signedIn("operator");
    const refused = await form("/admin/settings", { ...close, confirm_close: "1" }, { cookie: noStepUp.cookie });
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe("/admin/verify?from=%2Fadmin%2Fsettings");
    expect((await stored()).status).toBe(1);

    const op = await signedIn("operator", true);
    const unconfirmed = await form("/admin/settings", close, { cookie: op.cookie });
    expect(unconfirmed.status).toBe(400);
    expect(formErrors(await unconfirmed.text())).toContain("Tick the box to confirm that you want to close the site.");
    const badUrl = await form("/admin/settings", { ...close, loss_url: "ftp://status.example", confirm_close: "1" }, { cookie: op.cookie });
    expect(badUrl.status).toBe(400);
    expect((await stored()).status).toBe(1);

    const closed = await form("/admin/settings", { ...close, confirm_close: "1" }, { cookie: op.cookie });
    expect(closed.status).toBe(302);
    const visitor = await get("/");
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toBe("https://status.example/closed");
    const console = await get("/admin/settings", { cookie: cookiesFrom(closed, op.cookie) });
    expect(console.status).toBe(200);
    const text = visibleText(await console.text());
    expect(text).toContain("The site is closed. Visitors are being turned away.");
    expect(text).toContain("The site is closed");

    // a closed site's address changes without the tick; an address on this site itself is refused (visitors would loop)
    expect((await form("/admin/settings", { ...close, loss_url: "https://status.example/v2" }, { cookie: op.cookie })).status).toBe(302);
    expect((await get("/")).headers.get("location")).toBe("https://status.example/v2");
    const own = await form("/admin/settings", { ...close, loss_url: "http://localhost/maintenance" }, { cookie: op.cookie });
    expect(own.status).toBe(400);
    expect(formErrors(await own.text())).toContain(
      "Choose an address on another site: this site is closed to visitors, so they would come straight back here.",
    );
    // one set straight in D1 shows the closed page rather than a redirect loop
    await env.DB.prepare("UPDATE companies SET loss_url = 'http://localhost/maintenance' WHERE id = 1").run();
    const loop = await get("/");
    expect(loop.headers.get("location")).toBeNull();
    expect(loop.status).toBe(503);

    expect(
      (
        await form(
          "/admin/settings",
          { intent: "settings-site", status: "1", loss_url: "https://status.example/closed" },
          { cookie: op.cookie },
        )
      ).status,
    ).toBe(302);
    expect((await get("/")).status).toBe(200);
  });

  it("outside local mode a save is read back at once by the isolate that made it (the settings cache is bumped and forgotten), not after the cache's minute", async () => {
    original = await stored();
    const op = await signedIn("operator");
    const operator = (await userForToken(env.DB, op.token))!;
    const production = async () => {
      const ctx = await createServiceContext(env);
      return { ...ctx, config: { ...ctx.config, isLocal: false } };
    };
    await saveChatSettings(await production(), operator, { type: "3", link: "https://first.example/chat" });
    expect((await basicInfo(await production())).service_link).toBe("https://first.example/chat");
    // cached now; the next save must be seen by the next request
    await saveChatSettings(await production(), operator, { type: "3", link: "https://second.example/chat" });
    expect((await basicInfo(await production())).service_link).toBe("https://second.example/chat");
  });

  it("demo starting balances: a new demo account starts with the saved figures; amounts out of range or with 3 decimals are refused", async () => {
    original = await stored();
    const op = await signedIn("operator");
    const save = (fields: Record<string, string>) =>
      form(
        "/admin/settings",
        { intent: "settings-demo", demo_funding: "500", demo_options: "250.50", demo_contract: "1000", ...fields },
        { cookie: op.cookie },
      );
    const bads: Record<string, string>[] = [
      { demo_funding: "-1" },
      { demo_options: "1.005" },
      { demo_contract: "1000000.01" },
      { demo_funding: "1e3" },
      { demo_options: "" },
    ];
    for (const bad of bads) {
      const res = await save(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(formErrors(await res.text())).toContain("Enter an amount from 0 up to the maximum above, with at most 2 decimals.");
    }
    expect(await stored()).toEqual(original);
    expect((await save({})).status).toBe(302);
    expect(await stored()).toMatchObject({ funding: 500_000_000, options: 250_500_000, contract: 1_000_000_000 });
    const demo = await form("/login/demo", {});
    const page = visibleText(await (await get("/user", { cookie: cookiesFrom(demo) })).text());
    expect(page).toContain("Demo account");
    expect(page).toContain("1,750.50");
  });

  it("garbage posts (markup, arrays, broken bodies, every intent with nothing) answer 4xx and change nothing", async () => {
    original = await stored();
    const op = await signedIn("operator", true);
    const bodies: { type: string; body: BodyInit }[] = [
      { type: "application/x-www-form-urlencoded", body: "" },
      { type: "application/x-www-form-urlencoded", body: "intent=settings-chat" },
      { type: "application/x-www-form-urlencoded", body: "intent=settings-email&email=%3Cscript%3E%40x" },
      { type: "application/x-www-form-urlencoded", body: "intent=settings-site&status=0" },
      {
        type: "application/x-www-form-urlencoded",
        body: "intent=settings-demo&demo_funding[]=1&demo_options=%00&demo_contract=9999999999999999",
      },
      {
        type: "application/x-www-form-urlencoded",
        body: "intent=settings-chat&service_link_type=3&service_link=https%3A%2F%2F%22%3E%3Csvg%20onload%3Dalert(1)%3E",
      },
      { type: "application/x-www-form-urlencoded", body: "__proto__[x]=1&intent[]=settings-chat" },
      { type: "application/json", body: "{broken" },
      { type: "multipart/form-data; boundary=x", body: new Uint8Array([0, 255, 254, 1]) },
    ];
    for (const { type, body } of bodies) {
      const res = await SELF.fetch(`${ORIGIN}/admin/settings`, {
        method: "POST",
        headers: { host: "localhost", origin: ORIGIN, "content-type": type, cookie: op.cookie, "accept-language": "en" },
        body,
        redirect: "manual",
      });
      const text = await res.text();
      expect(res.status, String(body)).toBeGreaterThanOrEqual(400);
      expect(res.status, String(body)).toBeLessThan(500);
      expect(text).not.toMatch(/\bat \w+ \(|TypeError|SyntaxError|<svg onload/);
    }
    expect(await stored()).toEqual(original);
  });
});
