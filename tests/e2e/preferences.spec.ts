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
});

test("every language renders the login page in its own words", async ({ page }) => {
  const labels = ["繁體中文", "English", "日本語", "한국어", "ไทย", "Tiếng Việt", "Français", "Deutsch", "Русский", "Español", "Português", "العربية", "Italiano", "Türkçe", "Bahasa Indonesia", "မြန်မာ", "हिन्दी", "Čeština"];
  const seen = new Set<string>();
  for (const label of labels) {
    await page.goto("/language?from=/login");
    await page.getByRole("button", { name: label }).click();
    await expect(page).toHaveURL(/\/login$/);
    seen.add((await page.getByRole("button", { name: /./ }).last().textContent()) ?? "");
    seen.add(await page.locator("h1").innerText());
  }
  expect(seen.size).toBeGreaterThan(17);
});

test("dark theme: switched in the user centre, applied by the server on the next load (no flash)", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "Try a demo account" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/user");
  const html = page.locator("html");
  const before = await html.getAttribute("data-theme");
  expect(before).toBeNull();
  await page.getByRole("switch", { name: "Dark theme" }).click();
  await expect(html).toHaveAttribute("data-theme", "dark");
  const response = await page.request.get("/user");
  expect(await response.text()).toContain('data-theme="dark"');
  await page.reload();
  await expect(html).toHaveAttribute("data-theme", "dark");
  await page.getByRole("switch", { name: "Dark theme" }).click();
  await expect(html).toHaveAttribute("data-theme", "light");
});
