// The search page as a user meets it, with and without JavaScript: a company and a pair found by
// typing (live with JavaScript, through the form without), the company popup (a modal that keeps
// focus and closes on Escape; a page without JavaScript), choosing a company (cookie company_id);
// typing fast over a slow network cancels earlier searches without console errors. Also the
// home's scrolling mini charts, its 'Market' tab and the sanctioned-countries notice.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const js = (info: { project: { use: { javaScriptEnabled?: boolean } } }) => info.project.use.javaScriptEnabled !== false;

/** Types a search; without JavaScript the form is sent (Enter), with it the results follow the typing. */
async function search(page: Page, text: string, withJs: boolean) {
  const box = page.getByRole("searchbox", { name: "Search pairs or companies" });
  await box.fill("");
  if (withJs) await box.pressSequentially(text, { delay: 40 });
  else {
    await box.fill(text);
    await box.press("Enter");
    await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(text)}`));
  }
}

test.describe("search page", () => {
  test("finds a company and a pair; the company opens a popup; choosing it sets company_id", async ({ page, context }, info) => {
    const withJs = js(info);
    await page.goto("/");
    await page.getByRole("link", { name: "Search pairs or companies" }).click();
    await expect(page).toHaveURL(/\/product$/);
    const companies = page.getByRole("region", { name: "Companies" });
    const pairs = page.getByRole("region", { name: "Currency pairs" });

    await search(page, "sakura", withJs);
    await expect(companies.getByRole("link", { name: /Sakura Securities Online/ })).toBeVisible();
    await expect(companies.getByRole("link", { name: /Harbour Capital Markets/ })).toHaveCount(0);
    await expect(pairs.getByText("No data")).toBeVisible();

    await search(page, "btc", withJs);
    await expect(pairs.getByRole("link", { name: /BTC\/USDT/ })).toBeVisible();
    await expect(pairs.getByRole("link", { name: /EUR\/USD/ })).toHaveCount(0);
    await expect(companies.getByText("No company matches your search.")).toBeVisible();

    await search(page, "sakura", withJs);
    const link = companies.getByRole("link", { name: /Sakura Securities Online/ });
    await link.click();
    const dialog = page.getByRole("dialog", { name: "Sakura Securities Online" });
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/\/product\?q=sakura&company=4$/);
    for (const text of [
      "Sakura Securities Online K.K.",
      "2-1 Marunouchi, Chiyoda-ku, Tokyo, Japan",
      "Japan",
      "support@sakura-securities.example",
      "https://sakura-securities.example/",
    ]) {
      await expect(dialog.getByText(text, { exact: true })).toBeVisible();
    }
    await expect(dialog.getByRole("link", { name: "support@sakura-securities.example" })).toHaveAttribute(
      "href",
      "mailto:support@sakura-securities.example",
    );

    if (withJs) {
      // a modal: focus starts on its title, Tab stays inside, Escape closes it and focus goes back
      await expect(dialog).toHaveAttribute("aria-modal", "true");
      await expect(dialog.getByRole("heading", { name: "Sakura Securities Online" })).toBeFocused();
      for (let i = 0; i < 7; i++) {
        await page.keyboard.press("Tab");
        await expect(dialog.locator(":focus")).toHaveCount(1);
      }
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      await expect(page).toHaveURL(/\/product\?q=sakura$/);
      await expect(link).toBeFocused();
      await link.click();
      await expect(dialog).toBeVisible();
    } else {
      // a page of its own: its close link leads back to the search
      await dialog.getByRole("link", { name: "Close" }).click();
      await expect(page).toHaveURL(/\/product\?q=sakura$/);
      await expect(dialog).toBeHidden();
      await link.click();
    }

    expect((await context.cookies()).find((c) => c.name === "company_id")).toBeUndefined();
    await dialog.getByRole("button", { name: "Choose this company" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Company chosen. This device will remember it." })).toBeVisible();
    await expect(dialog.getByText("Your company")).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Choose this company" })).toHaveCount(0);
    const cookie = (await context.cookies()).find((c) => c.name === "company_id");
    expect(cookie).toMatchObject({ value: "4", path: "/", httpOnly: true, secure: true, sameSite: "Lax" });
    // three years asked; Chromium keeps cookies at most 400 days, so more than a year is what a browser shows
    expect(cookie!.expires).toBeGreaterThan(Date.now() / 1000 + 365 * 24 * 3600);
    // the list marks the chosen company
    await page.goto("/product?q=sakura");
    await expect(companies.getByRole("link", { name: /Sakura Securities Online/ })).toContainText("Your company");
  });

  test("typing on over a slow network cancels the earlier searches quietly and shows the last one", async ({ page }, info) => {
    test.skip(!js(info), "live search needs JavaScript");
    const aborted: string[] = [];
    page.on("requestfailed", (r) => {
      if (r.url().includes("/product.data")) aborted.push(`${r.url()} ${r.failure()?.errorText}`);
    });
    await page.goto("/product");
    await expect(page.getByRole("region", { name: "Companies" }).getByRole("link")).not.toHaveCount(0);
    // every search answer takes 900 ms: each keystroke (400 ms apart) starts a new one before the last is back
    await page.route("**/product.data*", async (route) => {
      await new Promise((r) => setTimeout(r, 900));
      await route.continue().catch(() => {});
    });
    const box = page.getByRole("searchbox", { name: "Search pairs or companies" });
    await box.click();
    for (const key of ["n", "o", "r", "d"]) {
      await page.keyboard.type(key);
      await page.waitForTimeout(400);
    }
    const companies = page.getByRole("region", { name: "Companies" });
    await expect(companies.getByRole("link", { name: /Nordlicht Trading/ })).toBeVisible({ timeout: 5000 });
    await expect(companies.getByRole("link")).toHaveCount(1);
    expect(aborted.length).toBeGreaterThan(0);
    for (const a of aborted) expect(a).toMatch(/ERR_ABORTED|canceled|cancelled/i);
    // the console stays clean (checked by the fixture)
  });
});

test.describe("home", () => {
  test("mini charts with more than 10 points scroll sideways by keyboard; the tab says 'Market'; the sanctions notice", async ({
    page,
  }) => {
    await page.goto("/");
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Market" })).toHaveAttribute("href", "/");
    await expect(page.getByRole("heading", { name: "Quotes" })).toBeVisible();
    await expect(page.getByRole("complementary", { name: "Service restrictions" })).toContainText(
      "North Korea, Israel, China, Vanuatu and Cuba",
    );

    const box = page.getByRole("group", { name: /^BTC\/USDT price over the last 4 hours: scroll sideways/ });
    await expect(box).toBeVisible();
    const metrics = () => box.evaluate((el) => ({ left: el.scrollLeft, width: el.scrollWidth, client: el.clientWidth }));
    const start = await metrics();
    expect(start.width).toBeGreaterThan(start.client * 3); // 48 points, 10 per visible width
    expect(Math.abs(start.left)).toBeLessThan(2); // starts at the latest point (the scroll origin is at the end)
    await box.focus();
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await expect.poll(async () => (await metrics()).left).toBeLessThan(-10);
    // the card's link still opens the pair
    await page.locator(".featured-card").filter({ has: box }).getByRole("link").click();
    await expect(page).toHaveURL(/\/trade\?code=BTCUSDT/);
  });
});
