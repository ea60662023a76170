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
