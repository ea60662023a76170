// Content screens through the real Worker: news (paged list, detail, bodies shown as text, bad
// ids answered 404), announcements, the invite page with its QR code, the company e-mail, the
// three support-chat modes (and the chat frame's CSP), and the JSON calls.
import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createUser, get, sessionFor, signedSessionCookie, targets, visibleText } from "./helpers";

type Answer<T = Record<string, unknown>> = { code: number; msg: string; data: T };
type NewsAnswer = { id: number; title: string; desc: string; logo: string; content: string; created_at: number; category_id: number };

const EVIL_ID = 9_001;
const EVIL_BODY =
  '<p>First paragraph with <b>bold</b> text.</p><script>alert("stored-xss")</script><img src=x onerror="alert(2)">\n\nSecond paragraph &amp; more.<iframe src="https://evil.example"></iframe>';

async function userCookie(options: { isDemo?: boolean } = {}) {
  const user = await createUser(options);
  return { user, cookie: await signedSessionCookie(await sessionFor(user.id)) };
}

async function setChat(link: string, type: number) {
  await env.DB.prepare("UPDATE base_settings SET service_link = ?1, service_link_type = ?2 WHERE company_id = 1").bind(link, type).run();
}

beforeAll(async () => {
  // 14 more news items (20 in category 1 with the 6 seeded, one of them with markup) and one in another category.
  const rows = Array.from({ length: 14 }, (_, i) => i);
  await env.DB.batch([
    ...rows.map((i) =>
      env.DB.prepare(
        "INSERT INTO news (id, category_id, title, \"desc\", logo, content, created_at) VALUES (?1, 1, ?2, '', '', ?3, ?4)",
      ).bind(8_000 + i, `Extra story ${i}`, `Body of story ${i}`, Date.parse("2025-01-01T00:00:00Z") + i * 60_000),
    ),
    env.DB.prepare(
      "INSERT INTO news (id, category_id, title, \"desc\", logo, content, created_at) VALUES (?1, 1, ?2, '', 'javascript:alert(1)', ?3, ?4)",
    ).bind(EVIL_ID, "Markup <em>story</em>", EVIL_BODY, Date.parse("2024-06-01T00:00:00Z")),
    env.DB.prepare(
      "INSERT INTO news (id, category_id, title, \"desc\", logo, content, created_at) VALUES (9002, 2, 'Other category', '', '', 'Hidden from category 1', 1)",
    ),
  ]);
});

afterEach(async () => {
  await setChat("", 1);
});

describe("news pages", () => {
  it("lists category 1 newest first, ten a page, with plain previous / next links", async () => {
    const first = await get("/news");
    expect(first.status).toBe(200);
    const html = await first.text();
    const text = visibleText(html);
    // The seeded items are the newest (November 2026), the latest first.
    expect(text.indexOf("Account Security Tips")).toBeGreaterThan(-1);
    expect(text.indexOf("Account Security Tips")).toBeLessThan(text.indexOf("Understanding Leverage and Margin"));
    expect(text).not.toContain("Other category");
    expect(targets(html)).toContain("/news?page=2");
    expect(targets(html)).toContain("/news/detail?id=6");
    expect(html.match(/href="\/news\/detail\?id=/g)).toHaveLength(10);
    expect(text).toContain("Page 1 of 3");

    const second = await (await get("/news?page=2")).text();
    expect(second.match(/href="\/news\/detail\?id=/g)).toHaveLength(10);
    expect(targets(second)).toContain("/news?page=1");
    const third = await (await get("/news?page=3")).text();
    expect(third.match(/href="\/news\/detail\?id=/g)).toHaveLength(1);
    expect(visibleText(third)).toContain("Markup &lt;em&gt;story&lt;/em&gt;"); // a title is text, escaped
    expect(third).not.toContain("<em>story");
    // A page past the end says so and links back to the last page.
    const past = await (await get("/news?page=9")).text();
    expect(visibleText(past)).toContain("No news yet");
    expect(targets(past)).toContain("/news?page=3");
    // A malformed or huge page number is a page, never an error.
    for (const q of ["?page=abc", "?page=-1", "?page=99999999999", "?page=1%27%20OR%201=1"])
      expect((await get(`/news${q}`)).status, q).toBe(200);
  });

  it("shows one item: title, date, picture and the body as text paragraphs", async () => {
    const res = await get("/news/detail?id=1");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(visibleText(html)).toContain("Understanding Leverage and Margin");
    expect(html).toMatch(/<time dateTime="2026-11-02T08:00:00.000Z"/);
    expect(html).toContain('src="/news/1.svg"');
    expect(html.match(/<div class="text-body"><p>/)).not.toBeNull();
    expect(html.split('<div class="text-body">')[1]!.split("</div>")[0]!.match(/<p>/g)).toHaveLength(3);
  });

  it("renders stored markup as text: no script, no handler, no frame, no unsafe picture", async () => {
    const res = await get(`/news/detail?id=${EVIL_ID}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const body = html.split('<div class="text-body">')[1]!.split("</div>")[0]!;
    expect(body).toBe("<p>First paragraph with bold text.</p><p>Second paragraph &amp; more.</p>");
    expect(html).not.toContain("stored-xss");
    expect(html).not.toContain("onerror");
    expect(html).not.toContain("evil.example");
    expect(html).not.toContain("javascript:alert");
    // Remix's own scripts carry the nonce; no other script tag exists.
    for (const tag of html.match(/<script[^>]*>/g) ?? []) expect(tag).toMatch(/nonce="/);
  });

  it("answers unknown and malicious ids with a 404 page in the user's language, never a 5xx", async () => {
    for (const id of ["999999", "0", "-1", "abc", "1%20OR%201=1", "%3Cscript%3E", "1e3", "99999999999999999999", ""]) {
      const res = await get(`/news/detail?id=${id}`);
      expect(res.status, id).toBe(404);
      expect(visibleText(await res.text()), id).toContain("Not found");
    }
    expect((await get("/news/detail")).status).toBe(404);
    const fr = await get("/news/detail?id=424242", { headers: { "accept-language": "fr" } });
    expect(fr.status).toBe(404);
    const frText = visibleText(await fr.text());
    expect(frText).not.toContain("Not found");
  });

  it("lets visitors' copies be cached for a minute, keeps signed-in pages private", async () => {
    for (const path of ["/news", "/news/detail?id=2"]) {
      const visitor = await get(path);
      expect(visitor.headers.get("cache-control"), path).toBe("private, max-age=60");
      expect(visitor.headers.get("vary"), path).toContain("Cookie");
      const { cookie } = await userCookie();
      const signedIn = await get(path, { cookie });
      expect(signedIn.status).toBe(200);
      expect(signedIn.headers.get("cache-control"), path).toBe("private, no-store");
    }
    expect((await get("/news/detail?id=424242")).headers.get("cache-control")).not.toContain("public");
  });
});

describe("announcements", () => {
  it("lists every announcement newest first, each in its own details element", async () => {
    const html = await (await get("/mine/announcement")).text();
    const text = visibleText(html);
    expect(html.match(/<details class="card announcement">/g)).toHaveLength(4);
    expect(text.indexOf("Scheduled Maintenance")).toBeLessThan(text.indexOf("Welcome to Bourse"));
    expect(text).toContain("North Korea, Israel, China, Vanuatu and Cuba");
  });
});

describe("invite page", () => {
  it("shows the user's link and its QR code; demo users are refused", async () => {
    const { user, cookie } = await userCookie();
    const res = await get("/mine/invite", { cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    const link = `http://localhost/register?invite_code=${user.inviteCode}`;
    expect(targets(html)).toContain(link);
    expect(html).toMatch(new RegExp(`<svg class="qr"[^>]*data-qr-text="${link.replace(/[?.]/g, "\\$&")}"`));
    expect(html).toMatch(/<svg class="qr"[^>]*><title>QR code of your invite link<\/title><rect[^>]*><\/rect><path d="M\d/);
    expect(visibleText(html)).not.toContain("Coming soon");

    const demo = await userCookie({ isDemo: true });
    const refused = await get("/mine/invite", { cookie: demo.cookie });
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe("/user");
    expect((await get("/mine/invite")).headers.get("location")).toMatch(/^\/login\?from=/);
  });

  it("the link opens the register page with the invite code filled", async () => {
    const res = await get("/register?invite_code=ABCD1234");
    expect(await res.text()).toMatch(/name="invite_code"[^>]*value="ABCD1234"|value="ABCD1234"[^>]*name="invite_code"/);
  });
});

describe("company e-mail", () => {
  it("shows the company's address as a mailto link, and the call answers it", async () => {
    const email = (await env.DB.prepare("SELECT email FROM companies WHERE id = 1").first<{ email: string }>())!.email;
    expect(email).toContain("@");
    const html = await (await get("/mine/email")).text();
    expect(targets(html)).toContain(`mailto:${email}`);
    const api = (await (await get("/api/company/getCompanyEmail")).json()) as Answer<{ email: string }>;
    expect(api).toMatchObject({ code: 1, data: { email } });
  });
});

describe("support chat", () => {
  it("mode 2: a page (a dialog with JavaScript) showing the link with copy; the rows stay on the chat page", async () => {
    await setChat("https://t.me/bourse_support", 2);
    const { cookie } = await userCookie();
    const res = await get("/mine/chat", { cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(targets(html)).toContain("https://t.me/bourse_support");
    expect(html).not.toContain("<iframe");
    expect(res.headers.get("content-security-policy")).not.toContain("frame-src");
    expect(targets(await (await get("/user", { cookie })).text())).toContain("/mine/chat");
  });

  it("mode 3: the chat page and the buttons go straight to an http(s) link; other links fall back to the chat page", async () => {
    await setChat("https://help.example.com/chat", 3);
    const { cookie } = await userCookie();
    const res = await get("/mine/chat", { cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("https://help.example.com/chat");
    expect(targets(await (await get("/user", { cookie })).text())).toContain("https://help.example.com/chat");
    expect(targets(await (await get("/")).text())).toContain("https://help.example.com/chat");

    await setChat("javascript:alert(1)", 3);
    const fallback = await get("/mine/chat", { cookie });
    expect(fallback.status).toBe(200);
    const html = await fallback.text();
    expect(html).not.toContain("javascript:alert");
    expect(visibleText(html)).toContain("Online chat is not available");
    expect(targets(await (await get("/user", { cookie })).text())).toContain("/mine/chat");
  });

  it("otherwise: the embedded frame with clientid and {uid, email} metadata, allowed by this page's CSP alone", async () => {
    await setChat("https://chat.example.com/widget?site=bourse", 1);
    const { user, cookie } = await userCookie();
    const res = await get("/mine/chat", { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("frame-src https://chat.example.com");
    expect(res.headers.get("x-bourse-frame-src")).toBeNull();
    const html = await res.text();
    const src = /<iframe[^>]*src="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, "&");
    expect(src).toBeTruthy();
    const url = new URL(src!);
    expect(url.origin).toBe("https://chat.example.com");
    expect(url.searchParams.get("site")).toBe("bourse");
    expect(url.searchParams.get("clientid")).toBe(user.uid);
    expect(JSON.parse(url.searchParams.get("metadata")!)).toEqual({ uid: user.uid, email: user.email });
    // Other pages do not allow frames.
    expect((await get("/user", { cookie })).headers.get("content-security-policy")).not.toContain("frame-src");
    // A visitor gets the frame without identity.
    const visitor = await (await get("/mine/chat")).text();
    expect(visitor).toContain('src="https://chat.example.com/widget?site=bourse"');
  });

  it("an unusable link shows a way to write instead, and no frame", async () => {
    await setChat("not a url", 1);
    const res = await get("/mine/chat");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toContain("<iframe");
    expect(targets(html)).toContain("/mine/email");
  });
});

describe("JSON calls", () => {
  it("GET /api/news/list pages category 1 with data, total and last_page", async () => {
    const one = (await (await get("/api/news/list?category_id=1&page=1")).json()) as Answer<{
      data: NewsAnswer[];
      total: number;
      last_page: number;
    }>;
    expect(one.code).toBe(1);
    expect(one.data.total).toBe(21);
    expect(one.data.last_page).toBe(3);
    expect(one.data.data).toHaveLength(10);
    expect(one.data.data[0]).toMatchObject({ id: 6, title: "Account Security Tips", logo: "/news/6.svg", category_id: 1 });
    expect(Object.keys(one.data.data[0]!).sort()).toEqual(["category_id", "content", "created_at", "desc", "id", "logo", "title"]);
    const three = (await (await get("/api/news/list?page=3")).json()) as Answer<{ data: NewsAnswer[] }>;
    expect(three.data.data.map((n) => n.id)).toEqual([EVIL_ID]);
    expect(three.data.data[0]!.content).toBe("First paragraph with bold text.\n\nSecond paragraph & more.");
    expect(three.data.data[0]!.logo).toBe("");
    const other = (await (await get("/api/news/list?category_id=2")).json()) as Answer<{ data: NewsAnswer[]; total: number }>;
    expect(other.data.data.map((n) => n.id)).toEqual([9002]);
    const bad = await get("/api/news/list?category_id=%3Cscript%3E");
    expect(bad.status).toBe(404);
    expect(((await bad.json()) as Answer).code).toBe(0);
  });

  it("GET /api/news/info answers an item, and 404 in the envelope for unknown or malformed ids", async () => {
    const found = (await (await get("/api/news/info?id=3")).json()) as Answer<NewsAnswer>;
    expect(found.code).toBe(1);
    expect(found.data).toMatchObject({ id: 3, title: "Stop-Loss and Take-Profit Orders Explained" });
    expect(found.data.content.split("\n\n")).toHaveLength(3);
    for (const id of ["424242", "x", "1;DROP TABLE news", ""]) {
      const res = await get(`/api/news/info?id=${encodeURIComponent(id)}`);
      expect(res.status, id).toBe(404);
      const body = (await res.json()) as Answer;
      expect(body.code, id).toBe(0);
      expect(body.msg, id).toBe("Not found");
    }
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM news").first<{ n: number }>())!.n).toBe(22);
  });
});
