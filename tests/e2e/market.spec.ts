import { isMarketOpen } from "../../app/domain/trading-hours";
import { expect, openInteractiveChart, test } from "./fixtures";

test.describe("live market", () => {
  test("home shows prices for every instrument, and with JavaScript they move within 2 seconds", async ({ page }, info) => {
    await page.goto("/");
    // ETH/USDT: trading specs hold BTC/USDT (and others) at fixed prices through the price control
    const featured = page.locator(".featured-card").filter({ hasText: "ETH/USDT" }).locator(".price");
    await expect(featured).toHaveText(/^\d{1,3}(,\d{3})*\.\d{2}$/);
    const rows = page.locator(".instrument-list:not(.skeleton) .instrument-row");
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(20);
    await expect(rows.first().locator(".price")).not.toHaveText("—");
    if (info.project.name === "mobile-nojs") return;
    await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible({ timeout: 7000 });
    const first = await featured.textContent();
    await expect(featured).not.toHaveText(first!, { timeout: 4000 });
  });

  test("category tabs filter, and tapping the active tab again clears the filter", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("link", { name: "Crypto" }).click();
    await expect(page).toHaveURL(/category=3/);
    const rows = page.locator(".instrument-list:not(.skeleton) .instrument-row");
    await expect(rows).toHaveCount(5);
    await page.getByRole("link", { name: "Crypto" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(20);
  });

  test("tapping an instrument opens it on the trade screen with its candles for every period", async ({ page }, info) => {
    await page.goto("/");
    await page
      .locator(".instrument-list")
      .getByRole("link", { name: /ETH\/USDT/ })
      .click();
    await expect(page).toHaveURL(/\/trade\?code=ETHUSDT/);
    await expect(page.locator(".trade-header summary .symbol")).toHaveText("ETH/USDT");
    for (const label of ["1M", "5M", "15M", "30M", "1H", "1D"]) {
      await page.getByRole("navigation", { name: "Chart period" }).getByRole("link", { name: label, exact: true }).click();
      await expect(page.getByRole("navigation", { name: "Chart period" }).getByRole("link", { name: label, exact: true })).toHaveAttribute(
        "aria-current",
        "page",
      );
      if (info.project.name === "mobile-nojs") {
        // the SVG draws its candles as two paths (up, down): one closed body ("z") per candle
        const bodies = await page
          .locator("svg.candle-svg path")
          .evaluateAll((paths) => paths.reduce((n, p) => n + (p.getAttribute("d")?.match(/z/g)?.length ?? 0), 0));
        expect(bodies).toBeGreaterThanOrEqual(50);
      } else {
        await openInteractiveChart(page);
      }
    }
  });

  test("the trade page draws the server's chart, live, and fetches chart.js only when the user reaches for the chart", async ({
    page,
  }, info) => {
    test.skip(info.project.name.endsWith("nojs"), "the interactive chart needs JavaScript");
    const chartCode: string[] = [];
    page.on("request", (r) => {
      if (/candle-chart\.client/.test(r.url())) chartCode.push(r.url());
    });
    // ETH/USDT trades around the clock and no spec holds its price (trade-form holds BTC/USDT): its candles move
    await page.goto("/trade?code=ETHUSDT");
    const svg = page.locator("svg.candle-svg");
    await expect(svg).toBeVisible();
    // the SVG follows the live candles: the latest candle's shape changes with the ticks
    const latest = () => svg.locator("path").evaluateAll((paths) => paths.map((p) => p.getAttribute("d")).join("|"));
    const before = await latest();
    await expect.poll(latest, { timeout: 15_000 }).not.toBe(before);
    expect(chartCode).toEqual([]);
    await expect(page.locator(".chart canvas")).toHaveCount(0);
    await openInteractiveChart(page);
    await expect(svg).toHaveCount(0);
    expect(chartCode.length).toBeGreaterThan(0);
  });

  test("a forex pair follows New York trading hours: closed on weekends with trade buttons disabled", async ({ page }) => {
    await page.goto("/trade?code=EURUSD");
    const buy = page.getByRole("button", { name: "Buy", exact: true }).or(page.getByRole("link", { name: "Buy", exact: true }));
    if (!isMarketOpen("fx", Date.now())) {
      await expect(page.locator(".trade-quote").getByText("Closed")).toBeVisible();
      await expect(page.getByText("This market is closed")).toBeVisible();
      await expect(page.getByRole("button", { name: "Buy", exact: true })).toBeDisabled();
      await expect(page.getByRole("button", { name: "Sell", exact: true })).toBeDisabled();
      await page.goto("/trade?code=EURUSD&tab=future");
      await expect(page.getByRole("link", { name: "Buy up" })).toHaveCount(0);
    } else {
      await expect(page.locator(".trade-quote .change")).toHaveText(/%/);
      await expect(buy).toBeVisible();
    }
    // crypto trades around the clock
    // ETH/USDT trades around the clock and no spec holds its price (trade-form holds BTC/USDT): its candles move
    await page.goto("/trade?code=ETHUSDT");
    await expect(page.locator(".trade-quote .change")).toHaveText(/%/);
  });

  test("bad instrument or period in the URL: a clear notice and a working page", async ({ page }) => {
    await page.goto("/trade?code=NOPE&period=7min");
    await expect(page.getByRole("alert").filter({ hasText: "instrument doesn't exist" })).toBeVisible();
    await expect(page.getByRole("alert").filter({ hasText: "chart period doesn't exist" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Chart period" }).getByRole("link", { name: "5M", exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
  });

  test("search finds a pair and opens it", async ({ page }) => {
    await page.goto("/product?q=eur");
    const result = page.locator(".instrument-list").getByRole("link", { name: /EUR\/USD/ });
    await expect(result).toBeVisible();
    await expect(page.locator(".instrument-list").getByRole("link", { name: /BTC\/USDT/ })).toHaveCount(0);
    await result.click();
    await expect(page).toHaveURL(/\/trade\?code=EURUSD/);
  });
});
