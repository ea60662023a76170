// Operators writing news and announcements per language, the content cache, news pictures and
// feedback, through the real Worker: an edit is visible on the next request, other languages
// fall back to English, a language's own text is shown in that language (pages and API), news
// pictures are public but only for the news-image purpose, bodies with markup are shown as text;
// feedback is stored, rate limited, and private to its writer.
import { SELF, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { companyInfo } from "~/services/account.server";
import { bumpStatement, clearContentCache } from "~/services/cache.server";
import { Limits } from "~/services/rate-limit.server";
import { ORIGIN, cookiesFrom, createUser, form, formErrors, get, sessionFor, signedSessionCookie, visibleText } from "./helpers";

type Answer<T = Record<string, unknown>> = { code: number; msg: string; data: T };
type NewsAnswer = { id: number; title: string; desc: string; logo: string; content: string };

const JPEG = () =>
  new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, ...Array(200).fill(7), 0xff, 0xd9]);

let operatorCookie = "";

async function cookieOf(userId: number) {
  return signedSessionCookie(await sessionFor(userId));
}

async function userCookie() {
  const user = await createUser();
  return { user, cookie: await cookieOf(user.id) };
}

/** Saves one language's text as the operator, as the editor's form posts it; answers the item's id. */
async function save(kind: "news" | "announcements", id: number | null, lang: string, fields: Record<string, string>) {
  const q = new URLSearchParams({ lang });
  if (id !== null) q.set("id", String(id));
  const res = await form(`/admin/${kind}/edit?${q}`, { intent: "save-content", ...fields }, { cookie: operatorCookie });
  expect(res.status, await res.clone().text()).toBe(302);
  const location = res.headers.get("location")!;
  expect(location).toContain(`/admin/${kind}/edit?id=`);
  return Number(new URL(location, ORIGIN).searchParams.get("id"));
}

function lang(code: string) {
  // the language cookie as the language page sets it, and the API's lang header
  return { headers: { cookie: `lang=${code}`, lang: code } };
}

async function upload(cookie: string, purpose: string) {
  const fd = new FormData();
  fd.append("file", new Blob([JPEG()], { type: "image/jpeg" }), "photo.jpg");
  const res = await SELF.fetch(`${ORIGIN}/api/common/image_upload?purpose=${purpose}`, {
    method: "POST",
    body: fd,
    headers: { cookie, origin: ORIGIN, "accept-language": "en" },
  });
  const body = (await res.json()) as Answer<{ id: string; url: string }>;
  expect(body.code).toBe(1);
  return body.data.id;
}

beforeAll(async () => {
  const operator = await env.DB.prepare("SELECT id FROM users WHERE role = 'operator' LIMIT 1").first<{ id: number }>();
  operatorCookie = await cookieOf(operator!.id);
});

describe("operators write news per language", () => {
  it("a new item (English first) and every edit are seen on the next request, in pages and the API", async () => {
    // warm the cache: list, detail and API
    expect(visibleText(await (await get("/news")).text())).not.toContain("Harbour opening");
    const id = await save("news", null, "en", {
      title: "Harbour opening hours",
      desc: "When the desk is open",
      content: "The desk opens at nine.\n\nIt closes at five.",
    });
    const list = visibleText(await (await get("/news")).text());
    expect(list).toContain("Harbour opening hours");
    expect(list).toContain("When the desk is open");
    const detail = await (await get(`/news/detail?id=${id}`)).text();
    expect(visibleText(detail)).toContain("The desk opens at nine.");
    const api = (await (await get(`/api/news/info?id=${id}`)).json()) as Answer<NewsAnswer>;
    expect(api.data.title).toBe("Harbour opening hours");

    // edited: the very next request shows the new text everywhere
    await save("news", id, "en", { title: "Harbour opening hours (new)", desc: "", content: "The desk now opens at eight." });
    expect(visibleText(await (await get(`/news/detail?id=${id}`)).text())).toContain("The desk now opens at eight.");
    expect(visibleText(await (await get("/news")).text())).toContain("Harbour opening hours (new)");
    const api2 = (await (await get(`/api/news/info?id=${id}`)).json()) as Answer<NewsAnswer>;
    expect(api2.data).toMatchObject({ title: "Harbour opening hours (new)", content: "The desk now opens at eight." });
    const listed = (await (await get("/api/news/list")).json()) as Answer<{ data: NewsAnswer[] }>;
    expect(listed.data.data.find((n) => n.id === id)?.title).toBe("Harbour opening hours (new)");
  });

  it("shows a reader's language where it is written, else English; each language is saved on its own", async () => {
    const id = await save("news", null, "en", { title: "Market holiday", desc: "", content: "Markets are closed on Friday." });
    // French and German readers both see English at first
    for (const code of ["fr", "de"]) {
      const html = visibleText(await (await get(`/news/detail?id=${id}`, lang(code))).text());
      expect(html, code).toContain("Markets are closed on Friday.");
    }
    await save("news", id, "fr", { title: "Jour férié", desc: "Fermeture", content: "Les marchés sont fermés vendredi." });
    const fr = visibleText(await (await get(`/news/detail?id=${id}`, lang("fr"))).text());
    expect(fr).toContain("Jour férié");
    expect(fr).toContain("Les marchés sont fermés vendredi.");
    expect(fr).not.toContain("Markets are closed");
    expect(visibleText(await (await get("/news", lang("fr"))).text())).toContain("Jour férié");
    const frApi = (await (await get(`/api/news/info?id=${id}`, lang("fr"))).json()) as Answer<NewsAnswer>;
    expect(frApi.data).toMatchObject({ title: "Jour férié", desc: "Fermeture", content: "Les marchés sont fermés vendredi." });
    // German still falls back to English; English is untouched
    expect(visibleText(await (await get(`/news/detail?id=${id}`, lang("de"))).text())).toContain("Markets are closed on Friday.");
    expect(visibleText(await (await get(`/news/detail?id=${id}`, lang("en"))).text())).toContain("Markets are closed on Friday.");
    // the editor shows which languages are written, and the French text in the French form
    const editor = await (await get(`/admin/news/edit?id=${id}&lang=fr`, { cookie: operatorCookie })).text();
    expect(editor).toContain("Les marchés sont fermés vendredi.");
    expect(editor.match(/<nav aria-label="Language"[\s\S]*?<\/nav>/)![0].match(/<a /g)).toHaveLength(18);
    // a new item must start in English
    const res = await form(
      `/admin/news/edit?lang=fr`,
      { intent: "save-content", title: "French first", content: "y" },
      { cookie: operatorCookie },
    );
    expect(res.headers.get("location")).toBe("/admin/news/edit?lang=en");
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM news WHERE title = 'French first'").first<{ n: number }>())!.n).toBe(0);
  });

  it("a double-submitted new item is one item", async () => {
    const fields = { intent: "save-content", title: "Twice posted", desc: "", content: "Only once, please." };
    const answers = await Promise.all([1, 2].map(() => form("/admin/news/edit?lang=en", fields, { cookie: operatorCookie })));
    const locations = answers.map((r) => r.headers.get("location"));
    expect(locations[0]).toMatch(/^\/admin\/news\/edit\?id=\d+&lang=en$/);
    expect(locations[1]).toBe(locations[0]);
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM news WHERE title = 'Twice posted'").first<{ n: number }>())!.n).toBe(1);
  });

  it("announcements: written per language, English as the fallback, visible at once", async () => {
    const id = await save("announcements", null, "en", { title: "Deposit address change", content: "Use the new address from Monday." });
    expect(visibleText(await (await get("/mine/announcement")).text())).toContain("Deposit address change");
    await save("announcements", id, "jp", { title: "入金アドレス変更", content: "月曜日から新しいアドレスをご利用ください。" });
    expect(visibleText(await (await get("/mine/announcement", lang("jp"))).text())).toContain("入金アドレス変更");
    expect(visibleText(await (await get("/mine/announcement", lang("kr"))).text())).toContain("Deposit address change");
  });

  it("bodies and titles with markup are shown as text, never as markup", async () => {
    const id = await save("news", null, "en", {
      title: "<img src=x onerror=alert(1)>Title",
      desc: "",
      content: 'Hello <script>alert("owned")</script><b>bold</b>\n\n<iframe src="https://evil.example"></iframe>Second',
    });
    const html = await (await get(`/news/detail?id=${id}`)).text();
    const body = html.split('<div class="text-body">')[1]!.split("</div>")[0]!;
    expect(body).toBe("<p>Hello bold</p><p>Second</p>");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;Title");
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain('alert("owned")');
    expect(html).not.toContain("evil.example");
    const api = (await (await get(`/api/news/info?id=${id}`)).json()) as Answer<NewsAnswer>;
    expect(api.data.content).toBe("Hello bold\n\nSecond");
  });

  it("deleting asks first (a confirm page), then removes the item in every language", async () => {
    const id = await save("news", null, "en", { title: "Short-lived story", desc: "", content: "Soon gone." });
    await save("news", id, "it", { title: "Storia breve", desc: "", content: "Presto sparita." });
    const confirm = await (await get(`/admin/news/edit?id=${id}&lang=en&confirm=delete`, { cookie: operatorCookie })).text();
    expect(visibleText(confirm)).toContain("Delete this item?");
    expect(visibleText(confirm)).toContain("Short-lived story");
    const res = await form(`/admin/news/edit?id=${id}&lang=en`, { intent: "delete-content" }, { cookie: operatorCookie });
    expect(res.status).toBe(302);
    expect((await get(`/news/detail?id=${id}`)).status).toBe(404);
    expect((await get(`/news/detail?id=${id}`, lang("it"))).status).toBe(404);
    expect(visibleText(await (await get("/news")).text())).not.toContain("Short-lived story");
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM news_texts WHERE news_id = ?1").bind(id).first<{ n: number }>())!.n).toBe(0);
  });

  it("refuses everyone but operators (404), and empty titles or bodies with the field's message", async () => {
    const { cookie } = await userCookie();
    for (const path of ["/admin/news", "/admin/news/edit", "/admin/announcements", "/admin/feedback"]) {
      expect((await get(path, { cookie })).status, path).toBe(404);
      expect((await get(path)).status, path).toBe(404);
    }
    expect((await form("/admin/news/edit?lang=en", { intent: "save-content", title: "Sneaky", content: "x" }, { cookie })).status).toBe(
      404,
    );
    const res = await form("/admin/news/edit?lang=en", { intent: "save-content", title: " ", content: "" }, { cookie: operatorCookie });
    expect(res.status).toBe(400);
    const errors = formErrors(await res.text());
    expect(errors).toContain("Enter a title.");
    expect(errors).toContain("Enter the body.");
    expect((await get("/admin/news/edit?id=987654&lang=en", { cookie: operatorCookie })).status).toBe(404);
    expect((await get("/admin/news/edit?id=1&lang=xx", { cookie: operatorCookie })).status).toBe(404);
  });
});

describe("news pictures", () => {
  it("are served to everyone with a long immutable cache, only for the news-image purpose", async () => {
    const imageId = await upload(operatorCookie, "news_image");
    // not used by a news item yet: not public
    expect((await get(`/news/image/${imageId}`)).status).toBe(404);
    // a form refused for another field keeps the uploaded picture (shown and posted again)
    const refusedTitle = await form(
      "/admin/news/edit?lang=en",
      { intent: "save-content", title: "", content: "With a picture.", image: imageId },
      { cookie: operatorCookie },
    );
    expect(refusedTitle.status).toBe(400);
    expect(await refusedTitle.text()).toContain(`<input type="hidden" name="image" value="${imageId}"/>`);
    const id = await save("news", null, "en", { title: "Picture story", desc: "", content: "With a picture.", image: imageId });
    const detail = await (await get(`/news/detail?id=${id}`)).text();
    expect(detail).toContain(`src="/news/image/${imageId}"`);
    for (const cookie of [undefined, (await userCookie()).cookie]) {
      const res = await get(`/news/image/${imageId}`, cookie ? { cookie } : {});
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/jpeg");
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
      expect(res.headers.get("x-bourse-public-asset")).toBeNull();
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(JPEG());
    }

    // a user's identity photo is never served here, even by id, even to its owner
    const { cookie } = await userCookie();
    const identity = await upload(cookie, "identity");
    expect((await get(`/news/image/${identity}`, { cookie })).status).toBe(404);
    expect((await get(`/news/image/${identity}`)).status).toBe(404);
    // an operator's upload of another purpose is not public either, even when a news item points at it
    const other = await upload(operatorCookie, "deposit_proof");
    await env.DB.prepare("UPDATE news SET logo = ?2 WHERE id = ?1").bind(id, `/news/image/${other}`).run();
    expect((await get(`/news/image/${other}`)).status).toBe(404);
    // a user cannot make a news picture: the purpose falls back to 'other'
    const userTry = await upload(cookie, "news_image");
    const row = await env.DB.prepare("SELECT purpose FROM uploads WHERE id = ?1").bind(userTry).first<{ purpose: string }>();
    expect(row!.purpose).toBe("other");
    for (const bad of ["nope", "00000000-0000-4000-8000-000000000000", "%3Cscript%3E"])
      expect((await get(`/news/image/${bad}`)).status, bad).toBe(404);
    // and the editor refuses a picture that is not the operator's news picture
    const refused = await form(
      `/admin/news/edit?id=${id}&lang=en`,
      { intent: "save-content", title: "Picture story", content: "x", image: identity },
      { cookie: operatorCookie },
    );
    expect(refused.status).toBe(400);
    expect(formErrors(await refused.text())).toContain("This picture cannot be used.");
  });
});

describe("settings cache", () => {
  it("keeps the company in memory under the settings counter: a bump is seen at once, a change without one is not", async () => {
    clearContentCache();
    const ctx = await createServiceContext(env);
    const prod = { ...ctx, config: { ...ctx.config, isLocal: false } };
    const before = (await companyInfo(prod))!.name;
    await env.DB.prepare("UPDATE companies SET name = 'Renamed Bourse' WHERE id = 1").run();
    try {
      // the same isolate within the check interval: still the kept copy (no query)
      expect((await companyInfo({ ...prod }))!.name).toBe(before);
      // an operator's edit bumps the counter in its batch: the next request sees it
      await bumpStatement(env.DB, "settings").run();
      const { forgetVersions } = await import("~/services/cache.server");
      forgetVersions();
      expect((await companyInfo({ ...prod }))!.name).toBe("Renamed Bourse");
    } finally {
      await env.DB.batch([env.DB.prepare("UPDATE companies SET name = ?1 WHERE id = 1").bind(before), bumpStatement(env.DB, "settings")]);
    }
  });
});

describe("feedback", () => {
  it("visitors are sent to log in; a user's message is stored, listed and read by an operator", async () => {
    const visitor = await get("/feedback");
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toBe("/login?from=%2Ffeedback");

    const { user, cookie } = await userCookie();
    const page = await get("/feedback", { cookie });
    expect(page.status).toBe(200);
    expect(visibleText(await page.text())).not.toContain("Coming soon");
    const sent = await form(
      "/feedback",
      { intent: "send-feedback", content: "The chart <b>freezes</b> on my phone.", contact: "tg: @me" },
      { cookie },
    );
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toBe("/feedback");
    const after = await get("/feedback", { cookie: cookiesFrom(sent, cookie) });
    expect(visibleText(await after.text())).toContain("Thank you: your message was sent.");
    const row = await env.DB.prepare("SELECT id, content, contact, status FROM feedback WHERE user_id = ?1")
      .bind(user.id)
      .first<{ id: number; content: string; contact: string; status: number }>();
    expect(row).toMatchObject({ content: "The chart <b>freezes</b> on my phone.", contact: "tg: @me", status: 0 });
    const list = await (await get("/feedback", { cookie })).text();
    expect(list).toContain("The chart &lt;b&gt;freezes&lt;/b&gt; on my phone.");
    expect(list).not.toContain("<b>freezes");
    expect(visibleText(await (await get(`/feedback?id=${row!.id}`, { cookie })).text())).toContain("tg: @me");

    // the console counts new messages; the operator sees it and marks it read; the user sees it read
    const unread = async () => (await env.DB.prepare("SELECT COUNT(*) AS n FROM feedback WHERE status = 0").first<{ n: number }>())!.n;
    const overview = visibleText(await (await get("/admin", { cookie: operatorCookie })).text());
    expect(overview).toContain(`Feedback ${await unread()} waiting`);
    const admin = await (await get("/admin/feedback", { cookie: operatorCookie })).text();
    expect(visibleText(admin)).toContain(user.uid);
    expect(admin).not.toContain("<b>freezes");
    const marked = await form("/admin/feedback", { intent: "mark-read", id: String(row!.id) }, { cookie: operatorCookie });
    expect(marked.status).toBe(302);
    expect((await env.DB.prepare("SELECT status FROM feedback WHERE id = ?1").bind(row!.id).first<{ status: number }>())!.status).toBe(1);
    expect(visibleText(await (await get("/admin", { cookie: operatorCookie })).text())).toContain(`Feedback ${await unread()} waiting`);
    expect(visibleText(await (await get("/feedback", { cookie })).text())).toContain("Read by our team");
    // a user cannot mark anything (the console is 404 to them)
    expect((await form("/admin/feedback", { intent: "mark-read", id: String(row!.id) }, { cookie })).status).toBe(404);
  });

  it("another user's message is 404 like a missing one", async () => {
    const a = await userCookie();
    const b = await userCookie();
    await form("/feedback", { intent: "send-feedback", content: "Private note from A" }, { cookie: a.cookie });
    const row = await env.DB.prepare("SELECT id FROM feedback WHERE user_id = ?1").bind(a.user.id).first<{ id: number }>();
    expect((await get(`/feedback?id=${row!.id}`, { cookie: a.cookie })).status).toBe(200);
    const foreign = await get(`/feedback?id=${row!.id}`, { cookie: b.cookie });
    expect(foreign.status).toBe(404);
    expect(await foreign.text()).not.toContain("Private note from A");
    for (const id of ["987654", "abc", "-1", "1 OR 1=1"])
      expect((await get(`/feedback?id=${encodeURIComponent(id)}`, { cookie: b.cookie })).status, id).toBe(404);
    expect(visibleText(await (await get("/feedback", { cookie: b.cookie })).text())).not.toContain("Private note from A");
  });

  it("checks the message: required, at most 1,000 characters; the values are kept", async () => {
    const { user, cookie } = await userCookie();
    const empty = await form("/feedback", { intent: "send-feedback", content: "   ", contact: "me@example.com" }, { cookie });
    expect(empty.status).toBe(400);
    const html = await empty.text();
    expect(formErrors(html)).toContain("Write your message.");
    expect(html).toContain('value="me@example.com"');
    const long = await form("/feedback", { intent: "send-feedback", content: "x".repeat(1001) }, { cookie });
    expect(long.status).toBe(400);
    expect(formErrors(await long.text())).toContain("Your message is too long.");
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM feedback WHERE user_id = ?1").bind(user.id).first<{ n: number }>())!.n).toBe(0);
  });

  it("is rate limited per user, however parallel the burst; a double submit is stored once", async () => {
    const { user, cookie } = await userCookie();
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) => form("/feedback", { intent: "send-feedback", content: `Burst message ${i}` }, { cookie })),
    );
    const stored = burst.filter((r) => r.status === 302).length;
    expect(stored).toBe(Limits.feedbackPerUser.max);
    const refused = burst.find((r) => r.status === 429)!;
    expect(formErrors(await refused.text())).toContain("You have sent many messages in the last hour.");
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM feedback WHERE user_id = ?1").bind(user.id).first<{ n: number }>())!.n).toBe(
      Limits.feedbackPerUser.max,
    );

    const other = await userCookie();
    const twice = await Promise.all(
      [1, 2].map(() => form("/feedback", { intent: "send-feedback", content: "Same words twice" }, { cookie: other.cookie })),
    );
    expect(twice.map((r) => r.status)).toEqual([302, 302]);
    expect(
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM feedback WHERE user_id = ?1").bind(other.user.id).first<{ n: number }>())!.n,
    ).toBe(1);
  });
});
