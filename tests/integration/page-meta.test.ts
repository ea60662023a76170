// Page titles and descriptions through the real Worker: every page route names itself (in the
// page's language), with the instrument or record where one is shown.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
// @ts-expect-error -- no type declarations for the generated bundle (the Worker's own build)
import * as workerBuild from "../../build/index.js";
import { createUser, get, holdPrice, sessionFor, signedSessionCookie } from "./helpers";

/** Routes that render no page (files, redirects, actions): no title to give. */
const RESOURCE_ROUTES = [
  "routes/$",
  "routes/follow.avatar.$id",
  "routes/locales.$lang",
  "routes/login.demo",
  "routes/logout",
  "routes/mine.history[.]csv",
  "routes/news.image.$id",
  "routes/settings",
  "routes/uploads.$id",
];

type RouteModule = { default?: unknown; meta?: unknown };
const routes = (workerBuild as { routes: Record<string, { module: RouteModule }> }).routes;

function titleOf(html: string): string {
  const m = /<title>([^<]*)<\/title>/.exec(html);
  return (m?.[1] ?? "")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"');
}

function descriptionOf(html: string): string | null {
  return /<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? null;
}

async function page(path: string, init: { cookie?: string; lang?: string } = {}) {
  const response = await get(path, { cookie: init.cookie, headers: init.lang ? { lang: init.lang } : {} });
  expect(response.status, path).toBe(200);
  return response.text();
}

async function operatorCookie() {
  const user = await createUser();
  await env.DB.prepare("UPDATE users SET role = 'operator' WHERE id = ?1").bind(user.id).run();
  return signedSessionCookie(await sessionFor(user.id));
}

describe("page titles", () => {
  it("every route that renders a page exports meta; the routes without a page are the listed resource routes", () => {
    const ids = Object.keys(routes).filter((id) => id.startsWith("routes/"));
    expect(ids.length).toBeGreaterThan(60);
    const withoutPage = ids.filter((id) => !routes[id]!.module.default).sort();
    expect(withoutPage).toEqual([...RESOURCE_ROUTES].sort());
    const untitled = ids.filter((id) => routes[id]!.module.default && typeof routes[id]!.module.meta !== "function");
    expect(untitled).toEqual([]);
  });

  it("public pages: the brand alone at home, the page's name elsewhere, described, in the page's language", async () => {
    const home = await page("/");
    expect(titleOf(home)).toBe("Bourse");
    expect(descriptionOf(home)).toBeTruthy();
    const login = await page("/login");
    expect(titleOf(login)).toBe("Log in · Bourse");
    expect(descriptionOf(login)).toBeTruthy();
    expect(titleOf(await page("/login", { lang: "jp" }))).toBe("ログイン · Bourse");
    expect(titleOf(await page("/login", { lang: "ar" }))).toBe("تسجيل الدخول · Bourse");
    expect(titleOf(await page("/register"))).toBe("Create account · Bourse");
    expect(titleOf(await page("/news"))).toBe("News · Bourse");
  });

  it("the trade page names the instrument and its price as the page shows it", async () => {
    await holdPrice("BTCUSDT", 99_329.06);
    const html = await page("/trade?code=BTCUSDT");
    expect(titleOf(html)).toBe("BTC/USDT 99,329.06 · Bourse");
    expect(descriptionOf(html)).toContain("BTC/USDT");
    expect(titleOf(await page("/trade?code=BTCUSDT", { lang: "jp" }))).toBe("BTC/USDT 99,329.06 · Bourse");
  });

  it("a news item and a mining plan are titled by their own names", async () => {
    const news = await env.DB.prepare(
      "INSERT INTO news (category_id, title, \"desc\", logo, content, created_at) VALUES (1, 'Rates held at 4.5%', 'The central bank kept its rate.', '', 'Body', ?1) RETURNING id",
    )
      .bind(Date.parse("2025-02-01T00:00:00Z"))
      .first<{ id: number }>();
    const item = await page(`/news/detail?id=${news!.id}`);
    expect(titleOf(item)).toBe("Rates held at 4.5% · Bourse");
    expect(descriptionOf(item)).toBe("The central bank kept its rate.");
    const fund = await env.DB.prepare(
      `INSERT INTO funds (title, currency_code, dividend_percentage, starting_sub_amount, lock_dividend_days, max_sub_amount, liquidated_damages, auto_refund, status, sort)
       VALUES ('Titled plan', 'USDT', '1', 100000000, 3, 1000000000, '5', 0, 1, 99) RETURNING id`,
    ).first<{ id: number }>();
    const user = await createUser();
    const cookie = await signedSessionCookie(await sessionFor(user.id));
    expect(titleOf(await page(`/mining/subscribe?id=${fund!.id}`, { cookie }))).toBe("Titled plan · Bourse");
  });

  it("signed-in and console pages: the user's page by name, the console's pages with the console's name", async () => {
    const user = await createUser();
    const cookie = await signedSessionCookie(await sessionFor(user.id));
    expect(titleOf(await page("/mine/wallet", { cookie }))).toBe("Wallet · Bourse");
    expect(titleOf(await page("/mine/wallet", { cookie, lang: "jp" }))).toBe("ウォレット · Bourse");
    const op = await operatorCookie();
    expect(titleOf(await page("/admin/deposits", { cookie: op }))).toBe("Deposits · Operator console · Bourse");
    expect(titleOf(await page("/admin/deposits", { cookie: op, lang: "ar" }))).toBe("الإيداعات · لوحة المشغّل · Bourse");
  });
});
