// The search page and its calls, the company popup and cookie, the startup status check, the
// sanctioned-countries notice, the home's tab labels and scrolling mini charts, and the pc-host
// desktop site, through the real Worker in workerd.
import { SELF, createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import worker from "../../app/server";
import { LOCAL_OPERATOR_EMAIL } from "~/env.server";
import { ORIGIN, cookiesFrom, form, get, sessionFor, signedSessionCookie, visibleText } from "./helpers";

type Answer<T> = { code: number; msg: string; data: T };
type Card = {
  id: number;
  name: string;
  logo: string;
  url: string;
  subject: string;
  registered_address: string;
  location: string;
  email: string;
};

async function call<T>(path: string) {
  const res = await SELF.fetch(`${ORIGIN}${path}`, { headers: { host: "localhost", lang: "en" } });
  return { status: res.status, body: (await res.json()) as Answer<T> };
}

const DESKTOP_UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const PHONE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

/** A request through the Worker's own fetch with other settings (e.g. PC_HOST), as the platform would call it. */
async function withSettings(vars: Record<string, string>, url: string, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(url, { redirect: "manual", ...init }) as Request<unknown, IncomingRequestCfProperties>,
    { ...env, ...vars },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

afterEach(async () => {
  await env.DB.prepare("UPDATE companies SET status = 1, type = 0, loss_url = '' WHERE id = 1").run();
});

describe("/product: companies by name (main site) and currency pairs", () => {
  it("finds companies by any part of their name, in any case, and pairs by code", async () => {
    const text = visibleText(await (await get("/product?q=HARBOUR")).text());
    expect(text).toContain("Harbour Capital Markets");
    expect(text).not.toContain("Nordlicht Trading");
    const pairs = await (await get("/product?q=eur%2Fusd")).text();
    expect(pairs).toContain('href="/trade?code=EURUSD"');
    expect(pairs).not.toContain('href="/trade?code=BTCUSDT"');
    // closed companies are never listed
    const all = visibleText(await (await get("/product")).text());
    for (const name of ["Bourse", "Harbour Capital Markets", "Nordlicht Trading", "Sakura Securities Online", "Atlas Bourse Partners"])
      expect(all).toContain(name);
    expect(all).not.toContain("Meridian Markets");
    // each company opens its popup, keeping the search
    expect(await (await get("/product?q=sakura")).text()).toContain('href="/product?q=sakura&amp;company=4"');
  });

  it("keeps markup, SQL and wildcards harmless and cuts long input", async () => {
    const markup = await get(`/product?q=${encodeURIComponent('<script>alert("x")</script><img src=x onerror=alert(1)>')}`);
    expect(markup.status).toBe(200);
    const html = await markup.text();
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<img src=x");
    for (const q of ["' OR 1=1 --", "%", "_", "\\", "'; DROP TABLE companies; --"]) {
      const res = await get(`/product?q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
      expect(visibleText(await res.text()), q).toContain("No company matches your search.");
    }
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM companies").first<{ n: number }>())!.n).toBeGreaterThanOrEqual(6);
    const long = await (await get(`/product?q=${"a".repeat(600)}`)).text();
    expect(long).toContain(`value="${"a".repeat(64)}"`);
    expect(long).not.toContain("a".repeat(65));
  });

  it("lists no companies when the site is not the main site (type 0)", async () => {
    await env.DB.prepare("UPDATE companies SET type = 1 WHERE id = 1").run();
    const text = visibleText(await (await get("/product?q=harbour")).text());
    expect(text).not.toContain("Harbour Capital Markets");
    expect(text).not.toContain("Companies");
    expect((await call<{ data: Card[] }>("/api/company/searchCompany?name=harbour")).body.data.data).toEqual([]);
    expect((await get("/product?company=2")).status).toBe(404);
  });
});

describe("the company popup and the company_id cookie", () => {
  it("shows a company's name, logo, website, legal entity, registered address, location and e-mail", async () => {
    const res = await get("/product?q=nord&company=3");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/role="dialog"[^>]*aria-labelledby="company-name"/);
    const text = visibleText(html);
    for (const s of [
      "Nordlicht Trading",
      "Nordlicht Trading GmbH",
      "Neuer Wall 10, 20354 Hamburg, Germany",
      "Germany",
      "service@nordlicht-trading.example",
      "https://nordlicht-trading.example/",
    ])
      expect(text).toContain(s);
    expect(html).toContain('href="mailto:service@nordlicht-trading.example"');
    expect(html).toContain('href="/product?q=nord"'); // close keeps the search
    expect(text).toContain("Choose this company");
  });

  it("answers unknown, closed and malformed ids with a not-found notice (404), never an error", async () => {
    for (const id of ["999999", "6", "abc", "1%20OR%201=1", "-2", "99999999999999999999"]) {
      const res = await get(`/product?company=${id}`);
      expect(res.status, id).toBe(404);
      const text = visibleText(await res.text());
      expect(text, id).toContain("This company was not found.");
      expect(text, id).toContain("Currency pairs");
    }
  });

  it("choosing a company sets company_id for three years (Secure, HttpOnly, SameSite=Lax, Path=/)", async () => {
    const res = await form("/product", { intent: "choose-company", company_id: "4", q: "sakura" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/product?q=sakura&company=4");
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("company_id="));
    expect(cookie).toBe(`company_id=4; Max-Age=${3 * 365 * 24 * 3600}; Path=/; HttpOnly; Secure; SameSite=Lax`);
    // the chosen company is marked in the list and in its popup
    const jar = cookiesFrom(res);
    const page = visibleText(await (await get("/product?q=sakura&company=4", { cookie: jar })).text());
    expect(page).toContain("Your company");
    expect(page).not.toContain("Choose this company");
  });

  it("refuses unknown, closed or malformed ids, other intents and other sites' posts without setting the cookie", async () => {
    for (const id of ["999", "6", "0", "abc", "2 OR 1=1", ""]) {
      const res = await form("/product", { intent: "choose-company", company_id: id, q: "sak" });
      // back to the search with the reason shown (the popup's company was closed meanwhile)
      expect([res.status, res.headers.get("location")], id).toEqual([302, "/product?q=sak"]);
      expect(
        res.headers.getSetCookie().some((c) => c.startsWith("company_id=")),
        id,
      ).toBe(false);
      if (id === "6")
        expect(visibleText(await (await get("/product?q=sak", { cookie: cookiesFrom(res) })).text())).toContain(
          "This company was not found.",
        );
    }
    const other = await form("/product", { intent: "something", company_id: "2" });
    expect(other.status).toBe(302);
    expect(other.headers.getSetCookie().some((c) => c.startsWith("company_id="))).toBe(false);
    const cross = await form("/product", { intent: "choose-company", company_id: "2" }, { origin: "https://evil.example" });
    expect(cross.status).toBe(403);
    expect(cross.headers.getSetCookie().some((c) => c.startsWith("company_id="))).toBe(false);
  });

  it("ignores a forged or stale cookie", async () => {
    for (const cookie of ["company_id=6", "company_id=999", "company_id=<b>", "company_id=2%3B"]) {
      const text = visibleText(await (await get("/product", { cookie })).text());
      expect(text, cookie).not.toContain("Your company");
    }
  });
});

describe("search calls (§7, envelope)", () => {
  it("searchCompany finds companies by name; wildcards and long text are plain text", async () => {
    const found = await call<{ name: string; data: Card[] }>("/api/company/searchCompany?name=securities");
    expect(found.body.code).toBe(1);
    expect(found.body.data.data.map((c) => c.name)).toEqual(["Sakura Securities Online"]);
    expect(found.body.data.data[0]).toEqual({
      id: 4,
      name: "Sakura Securities Online",
      logo: "",
      url: "https://sakura-securities.example/",
      subject: "Sakura Securities Online K.K.",
      registered_address: "2-1 Marunouchi, Chiyoda-ku, Tokyo, Japan",
      location: "Japan",
      email: "support@sakura-securities.example",
    });
    expect((await call<{ data: Card[] }>("/api/company/searchCompany?name=%25")).body.data.data).toEqual([]);
    expect((await call<{ data: Card[] }>("/api/company/searchCompany?name=' OR '1'='1")).body.data.data).toEqual([]);
    const long = await call<{ name: string; data: Card[] }>(`/api/company/searchCompany?name=${"b".repeat(300)}`);
    expect(long.body.code).toBe(1);
    expect(long.body.data.name).toHaveLength(64);
    expect(long.body.data.data).toEqual([]);
    // 64 characters of a real name's text still find it
    const full = "Sakura Securities Online".padEnd(64, " x").slice(0, 64);
    expect(
      (await call<{ data: Card[] }>(`/api/company/searchCompany?name=${encodeURIComponent("Sakura Securities Online")}`)).body.data.data,
    ).toHaveLength(1);
    expect((await call<{ data: Card[] }>(`/api/company/searchCompany?name=${encodeURIComponent(full)}`)).body.data.data).toEqual([]);
  });

  it("searchCurrency finds pairs with their last price", async () => {
    const res = await call<{ data: { Id: number; ShowCode: string; ForexQuotations: { Close: number } | null }[] }>(
      "/v2/api/forex/searchCurrency?name=btc",
    );
    expect(res.body.code).toBe(1);
    expect(res.body.data.data.map((p) => p.ShowCode)).toEqual(["BTC/USDT"]);
    expect(res.body.data.data[0]!.ForexQuotations?.Close).toBeGreaterThan(0);
    expect((await call<{ data: unknown[] }>("/v2/api/forex/searchCurrency?name=<script>")).body.data.data).toEqual([]);
  });

  it("getCompany without id is the site's company; with an id, that open company's card, else 404", async () => {
    const own = await call<{ id: number; status: number; type: number }>("/api/company/getCompany");
    expect(own.body.data).toMatchObject({ id: 1, status: 1, type: 0 });
    const other = await call<Card>("/api/company/getCompany?id=5");
    expect(other.body).toMatchObject({ code: 1, data: { id: 5, name: "Atlas Bourse Partners", location: "Switzerland" } });
    expect(other.body.data).not.toHaveProperty("loss_url");
    for (const id of ["6", "999", "abc", "1 OR 1=1"]) {
      const missing = await call<unknown>(`/api/company/getCompany?id=${encodeURIComponent(id)}`);
      expect(missing.status, id).toBe(404);
      expect(missing.body.code, id).not.toBe(1);
      expect(missing.body.msg, id).toBe("Not found");
    }
  });
});

describe("startup status (spec §4)", () => {
  it("a closed company without a usable loss_url shows a translated closed page (503) instead of the site", async () => {
    for (const loss of ["", "javascript:alert(1)", "/elsewhere"]) {
      await env.DB.prepare("UPDATE companies SET status = 0, loss_url = ?1 WHERE id = 1").bind(loss).run();
      const res = await get("/");
      expect(res.status, loss).toBe(503);
      const text = visibleText(await res.text());
      expect(text).toContain("Service unavailable");
      expect(text).toContain("This site is closed at the moment.");
      expect(text).not.toContain("Quotes");
      expect((await get("/trade")).status).toBe(503);
    }
    const status = await call<{ status: number; loss_url: string }>("/api/company/getCompanyStatus");
    expect(status.body.data).toMatchObject({ status: 0, loss_url: "/elsewhere" });
  });

  it("signed-in operators keep working while it is closed, and the login page stays reachable", async () => {
    await env.DB.prepare("UPDATE companies SET status = 0, loss_url = 'https://status.example/closed' WHERE id = 1").run();
    expect((await get("/")).headers.get("location")).toBe("https://status.example/closed");
    expect((await get("/login")).status).toBe(200);
    const operator = await env.DB.prepare("SELECT id FROM users WHERE email = ?1").bind(LOCAL_OPERATOR_EMAIL).first<{ id: number }>();
    const cookie = await signedSessionCookie(await sessionFor(operator!.id));
    expect((await get("/", { cookie })).status).toBe(200);
    expect((await get("/admin", { cookie })).status).toBe(200);
  });

  it("an open company starts normally", async () => {
    expect((await get("/")).status).toBe(200);
  });
});

describe("home and registration", () => {
  it("show the sanctioned-countries announcement", async () => {
    for (const path of ["/", "/register"]) {
      const html = await (await get(path)).text();
      expect(html).toMatch(/<aside class="sanctions-notice[^"]*" aria-label="Service restrictions">/);
      expect(visibleText(html), path).toContain("Services are not provided to residents of North Korea, Israel, China, Vanuatu and Cuba.");
    }
  });

  it("label the home tab with the spec's 'market' and head its list 'Quotes'; the mini charts scroll beyond 10 points", async () => {
    const html = await (await get("/")).text();
    expect(html).toMatch(/<a[^>]*href="\/"[^>]*><svg[^>]*>[\s\S]*?<\/svg><span>Market<\/span><\/a>/);
    expect(html).toMatch(/<h2 id="markets-title" class="section-title">Quotes<\/h2>/);
    // 48 five-minute points: four scroll boxes that take focus, each chart 47/9 of the box wide
    const boxes = [
      ...html.matchAll(/<div class="sparkline-scroll" tabindex="0" role="group" aria-label="([^"]+)" dir="ltr" data-points="(\d+)">/g),
    ];
    expect(boxes).toHaveLength(4);
    for (const [, label, points] of boxes) {
      expect(Number(points)).toBeGreaterThan(10);
      expect(label).toMatch(/scroll sideways for earlier prices/);
    }
    expect(html).toContain(`inline-size:${((47 / 9) * 100).toFixed(2)}%`);
    // the chart is no longer inside the card's link (a focusable box cannot live in a link)
    expect(html).not.toMatch(/<a[^>]*class="featured-link"[^>]*>(?:(?!<\/a>)[\s\S])*sparkline/);
  });
});

describe("desktop site on the pc host (PC_HOST)", () => {
  it("is off by default: desktop browsers stay on the main host with the responsive layout", async () => {
    const res = await get("/trade", { headers: { "user-agent": DESKTOP_UA } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toContain('data-site="pc"');
    expect(html).toContain('content="width=device-width, initial-scale=1, viewport-fit=cover"');
  });

  it("when set, sends desktop browsers' page requests to the same path and query on the pc host", async () => {
    const vars = { PC_HOST: "pc.localhost" };
    const res = await withSettings(vars, `${ORIGIN}/trade?code=BTCUSDT&period=15min`, { headers: { "user-agent": DESKTOP_UA } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("http://pc.localhost/trade?code=BTCUSDT&period=15min");
    expect(res.headers.get("vary")).toContain("User-Agent");
    // an unsafe path lands on the pc host's home
    const unsafe = await withSettings(vars, `${ORIGIN}//evil.example/x`, { headers: { "user-agent": DESKTOP_UA } });
    expect(unsafe.headers.get("location")).toBe("http://pc.localhost/");
    // phones stay; the API, and form posts, are never moved
    expect((await withSettings(vars, `${ORIGIN}/trade`, { headers: { "user-agent": PHONE_UA } })).status).toBe(200);
    expect((await withSettings(vars, `${ORIGIN}/api/company/getCompanyStatus`, { headers: { "user-agent": DESKTOP_UA } })).status).toBe(
      200,
    );
    const post = await withSettings(vars, `${ORIGIN}/product`, {
      method: "POST",
      headers: { host: "localhost", "user-agent": DESKTOP_UA, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      body: "intent=choose-company&company_id=2",
    });
    expect(post.status).toBe(302);
    expect(post.headers.get("location")).toBe("/product?company=2");
  });

  it("serves the desktop layout on the pc host to every browser", async () => {
    const vars = { PC_HOST: "pc.localhost" };
    for (const ua of [DESKTOP_UA, PHONE_UA]) {
      const res = await withSettings(vars, "http://pc.localhost/trade", { headers: { "user-agent": ua } });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('data-site="pc"');
      expect(html).toContain('<meta name="viewport" content="width=1280, viewport-fit=cover"/>');
    }
  });

  it("refuses a malformed setting at the edge (503, no page)", async () => {
    const res = await withSettings({ PC_HOST: "https://pc.localhost/x" }, `${ORIGIN}/`, { headers: { "user-agent": DESKTOP_UA } });
    expect(res.status).toBe(503);
  });
});
