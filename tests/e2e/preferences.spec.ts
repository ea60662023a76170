import { readFileSync } from "node:fs";
import path from "node:path";
import { LANGUAGES } from "../../app/i18n/config";
import { expect, test } from "./fixtures";

test("language: Arabic renders right to left, Japanese is Japanese, the choice is remembered", async ({ page }) => {
  await page.goto("/language");
  await page.getByRole("button", { name: "العربية" }).click();
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.locator("html")).toHaveAttribute("lang", "ar");
  await page.goto("/login");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await page.goto("/language");
  await page.getByRole("button", { name: "日本語" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "ja");
  await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
  await page.goto("/login");
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Log in");
  await expect(page).toHaveTitle("ログイン · Bourse");
  // the next page's title, in the same language (in the browser too when JavaScript navigates)
  await page.getByRole("link", { name: "新規登録はこちら" }).click();
  await expect(page).toHaveTitle("新規登録 · Bourse");
});

test("every language renders the login page in its own words, Arabic right to left", async ({ page }) => {
  // 18 languages: 36 page loads and 18 posts in one test
  test.setTimeout(90_000);
  for (const lang of LANGUAGES) {
    const messages = JSON.parse(readFileSync(path.join(process.cwd(), "locales", lang.code, "common.json"), "utf8"));
    await page.goto("/language?from=/login");
    await page.getByRole("button", { name: lang.label }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.locator("html")).toHaveAttribute("lang", lang.htmlLang);
    await expect(page.locator("html")).toHaveAttribute("dir", lang.code === "ar" ? "rtl" : "ltr");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(messages.auth.login_title);
    await expect(page).toHaveTitle(`${messages.auth.login_title} · Bourse`);
    await expect(page.getByRole("button", { name: messages.auth.login_button, exact: true })).toBeVisible();
  }
});

test("dark theme: switched in the user centre, applied by the server on the next load (no flash)", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "Try a demo account" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/user");
  const html = page.locator("html");
  const before = await html.getAttribute("data-theme");
  expect(before).toBeNull();
  const saved = page.waitForResponse((r) => r.url().endsWith("/settings") || r.url().includes("/user"));
  await page.getByRole("switch", { name: "Dark theme" }).click();
  await expect(html).toHaveAttribute("data-theme", "dark");
  await saved;
  await expect(page.getByRole("switch", { name: "Dark theme" })).toHaveAttribute("aria-checked", "true");
  const response = await page.request.get("/user");
  expect(await response.text()).toContain('data-theme="dark"');
  await page.reload();
  await expect(html).toHaveAttribute("data-theme", "dark");
  await page.getByRole("switch", { name: "Dark theme" }).click();
  await expect(html).toHaveAttribute("data-theme", "light");
});

test.describe("messages by route", () => {
  const en = JSON.parse(readFileSync(path.join(process.cwd(), "locales", "en", "common.json"), "utf8"));

  test("a page's HTML carries the texts of its own routes, not the whole language", async ({ request }) => {
    const home = await (await request.get("/")).text();
    const rank = await (await request.get("/rank")).text();
    // the ranking's texts travel with /rank only; every page carries the frame's (the tab bar)
    expect(home).not.toContain(en.rank.empty_hint);
    expect(rank).toContain(en.rank.empty_hint);
    expect(home).toContain(en.tabs.rank);
    // the whole language, for the pages a browser navigates to: public, cached for good at its version
    const version = rank.match(/messagesVersion[\\"]+,[\\"]+([a-z0-9]+)/)?.[1]; // in the page's encoded data
    expect(version).toBeTruthy();
    const all = await request.get(`/locales/en?v=${version}`);
    expect(all.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect((await all.json()).rank.empty_hint).toBe(en.rank.empty_hint);
    expect((await request.get("/locales/xx")).status()).toBe(404);
  });

  test("a page the browser navigates to finds its texts, even before the rest of the language arrives", async ({
    page,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, "navigation in the browser");
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/locales/**", async (route) => {
      await held; // the rest of the language is slow to come
      await route.continue();
    });
    const documents: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "document") documents.push(r.url());
    });
    await page.goto("/");
    await page.waitForFunction(
      () => (window as unknown as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter?.state.initialized,
    );
    await page.getByRole("link", { name: en.tabs.rank }).click();
    await expect(page).toHaveURL(/\/rank$/);
    release();
    await expect(page.getByText(en.rank.empty_hint).or(page.getByText(en.rank.explain))).toBeVisible();
    await expect(page).toHaveTitle(`${en.tabs.rank} · Bourse`);
    expect(documents).toHaveLength(1); // one page load: /rank came through the browser's navigation
  });
});
