/**
 * The contract order form on /trade (issue 8 §1, §4): visitors are sent to the login, a demo user
 * sees the preview of the figures before pressing Buy, places market and pending orders (with
 * and without JavaScript), gets the order-confirmed popup, sees the order in the open-orders
 * panel and as levels on the chart; bad input is refused with the translated message and places
 * nothing; a fixed-margin instrument needs no multiple; desktop shows chart, form and open orders
 * side by side. BTC/USDT is held at 50,000 where a test needs an exact price (and released after).
 */
import type { Page } from "@playwright/test";
import { isMarketOpen } from "../../app/domain/trading-hours";
import { expect, openInteractiveChart, test } from "./fixtures";

const BTC = "/trade?code=BTCUSDT";

async function demoUser(page: Page) {
  const res = await page.request.post("/login/demo", { form: { from: "/" } });
  expect(res.ok()).toBe(true);
}

async function holdBtc(page: Page, price: number | null) {
  const res = await page.request.post("/dev/market/price", { data: { code: "BTCUSDT", price } });
  expect(res.ok()).toBe(true);
}

const figure = (page: Page, name: string) => page.locator(`[data-figure="${name}"] dd`);
const buy = (page: Page) => page.getByRole("button", { name: "Buy", exact: true });
const lots = (page: Page) => page.getByLabel("Lots", { exact: true });
const orderForm = (page: Page) => page.locator("form.order-form");

test.afterAll(async ({ playwright }) => {
  const api = await playwright.request.newContext({ baseURL: process.env.E2E_BASE_URL ?? "http://localhost:8799" });
  await api.post("/dev/market/price", { data: { code: "BTCUSDT", price: null } });
  await api.dispose();
});

test("a visitor's Buy goes to the login, which comes back to this trade page", async ({ page }) => {
  await page.goto(`${BTC}&period=15min`);
  await expect(page.getByRole("region", { name: /Open orders/ }).or(page.locator(".open-orders"))).toContainText(
    "Log in to see your open orders",
  );
  await page.getByRole("link", { name: "Buy", exact: true }).click();
  await expect(page).toHaveURL(/\/login\?from=%2Ftrade%3Fcode%3DBTCUSDT%26period%3D15min$/);
});

test("a demo user sees margin and fee before buying 0.01 lots at 10x, then the confirmation, the open order and its chart levels", async ({
  page,
}, info) => {
  const js = info.project.use.javaScriptEnabled !== false;
  await demoUser(page);
  await holdBtc(page, 50000);
  await page.goto(BTC);
  await expect(page.locator(".open-orders")).toContainText("No open orders on this instrument.");
  await expect(page.getByText("Perpetual")).toBeVisible();
  await lots(page).fill("0.01");
  await page.getByLabel("Multiple").selectOption("10");
  if (js) {
    // the preview follows every input and every tick (held at 50,000)
    await expect(async () => {
      await holdBtc(page, 50000);
      await expect(figure(page, "margin")).toHaveText("50.000000 USD", { timeout: 2500 });
    }).toPass({ timeout: 20_000 });
    await expect(figure(page, "fee")).toHaveText("0.025000 USD");
    await expect(figure(page, "ratio")).toHaveText("10.00%");
    await expect(figure(page, "notional")).toHaveText("500.00 USD");
    await expect(figure(page, "liq-buy")).toHaveText("45,000.00");
    await expect(figure(page, "liq-sell")).toHaveText("55,000.00");
    await expect(page.getByText("At the current price 50,000.00")).toBeVisible();
  } else {
    // without JavaScript: the server's estimate at the render-time price, for the first multiple (5x)
    await expect(page.getByText("Estimate at 50,000.00, the price when this page loaded")).toBeVisible();
    await expect(figure(page, "margin")).toHaveText("100.000000 USD");
    await expect(figure(page, "fee")).toHaveText("0.050000 USD");
    await expect(figure(page, "liq-buy")).toHaveText("40,000.00");
  }
  await holdBtc(page, 50000);
  await buy(page).click();
  const dialog = page.getByRole("dialog", { name: "Order confirmed" });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/[?&]placed=\d+/);
  await expect(dialog).toContainText("Buy · Market");
  await expect(dialog).toContainText("BTC/USDT · 0.01 lots · 10x");
  await expect(dialog).toContainText("50,000.00");
  await expect(dialog).toContainText("50.000000 USD");
  await expect(dialog).toContainText("0.025000 USD");
  await expect(dialog.getByRole("link", { name: "View orders" })).toHaveAttribute("href", "/order?source=0&type=1");
  const row = page.locator(".open-orders li");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Buy");
  await expect(row).toContainText("0.01 lots");
  await expect(row).toContainText("50,000.00");
  await expect(row.getByRole("link")).toHaveAttribute("href", /^\/order\?source=0&type=1&detail=\d+$/);
  const levels = page.getByRole("list", { name: "Your order levels on the chart" });
  await expect(levels).toContainText("Buy 0.01 lots, Open: 50,000.00");
  await expect(levels).toContainText("Buy 0.01 lots, Liq.: 45,000.00");
  if (!js) await expect(page.locator("svg.candle-svg .level")).toHaveCount(2);
  const placed = new URL(page.url()).searchParams.get("placed");
  await dialog.getByRole("link", { name: "Confirm" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page).not.toHaveURL(/placed=/);
  // another user's order id shows nothing
  await page.context().clearCookies();
  await demoUser(page);
  await page.goto(`${BTC}&placed=${placed}`);
  await expect(page.locator(".open-orders")).toContainText("No open orders on this instrument.");
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("a pending buy at 40,000 is confirmed as pending and links to the pending orders", async ({ page }, info) => {
  const js = info.project.use.javaScriptEnabled !== false;
  await demoUser(page);
  await page.goto(BTC);
  const price = page.getByLabel("Buy price");
  if (js) await expect(price).toBeHidden();
  await page.getByRole("radio", { name: "Pending" }).check();
  await expect(price).toBeVisible();
  if (js) {
    // a price far off the market is refused as it is typed, with the band
    await price.fill("90000000000000");
    await expect(
      page.getByText(/Enter a buy price between a tenth of the market price and ten times it: [\d,.]+ – [\d,.]+\./),
    ).toBeVisible();
    await expect(price).toHaveAttribute("aria-invalid", "true");
  }
  await price.fill("40000");
  if (js) {
    await expect(page.getByText(/Enter a buy price between/)).toHaveCount(0);
    await expect(page.getByText("At your buy price 40,000.00")).toBeVisible();
    await expect(figure(page, "margin")).toHaveText("80.000000 USD");
    await expect(figure(page, "liq-buy")).toHaveText("32,000.00");
  }
  await buy(page).click();
  const dialog = page.getByRole("dialog", { name: "Order confirmed" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Buy · Pending");
  await expect(dialog).toContainText("40,000.00");
  await expect(dialog).toContainText("80.000000 USD");
  await expect(dialog.getByRole("link", { name: "View orders" })).toHaveAttribute("href", "/order?source=0&type=0");
  await expect(page.locator(".open-orders li")).toContainText("Pending");
  await expect(page.getByRole("list", { name: "Your order levels on the chart" })).toContainText("Pending: 40,000.00");
});

test("bad input shows the translated message and places nothing", async ({ page }, info) => {
  // seven page loads and posts in one test: room for a busy machine (a bound, not a timing)
  test.setTimeout(60_000);
  const js = info.project.use.javaScriptEnabled !== false;
  await demoUser(page);
  const errors = page.locator(".form-errors[role=alert]");
  /** Submits as a client without the browser's own checks would: the server's message shows. */
  const submitUnchecked = async () => {
    await orderForm(page).evaluate((f) => f.setAttribute("novalidate", ""));
    await buy(page).click();
  };

  await page.goto(BTC);
  await lots(page).fill("0");
  if (js) await expect(page.getByText("Enter the lots as a positive number, e.g. 0.01.")).toBeVisible();
  await buy(page).click();
  await expect(errors).toContainText("Enter the lots as a positive number, e.g. 0.01.");
  await expect(lots(page)).toHaveValue("0");

  await page.goto(BTC);
  await lots(page).fill("0.015");
  // the browser refuses a value off the lot step; with JavaScript the form says why, in the user's language
  expect(await lots(page).evaluate((el: HTMLInputElement) => el.validity.stepMismatch)).toBe(true);
  if (js) await expect(page.locator(".field-error").getByText("Lots must be a multiple of 0.01.")).toBeVisible();
  await submitUnchecked();
  await expect(errors).toContainText("Lots must be a multiple of 0.01.");
  await expect(lots(page)).toHaveValue("0.015");

  await page.goto(BTC);
  await page.getByRole("radio", { name: "Pending" }).check();
  await submitUnchecked();
  await expect(errors).toContainText("A pending order needs a buy price.");

  await page.goto(BTC);
  await page.getByRole("checkbox", { name: "Stop-loss" }).check();
  const stop = page.getByRole("spinbutton", { name: "Stop-loss" });
  // with JavaScript, switching it on starts at the current price
  if (js) await expect(stop).not.toHaveValue("");
  await stop.fill("9999999");
  await buy(page).click();
  await expect(errors).toContainText("The stop-loss must be on the losing side of the price");
  await expect(page.getByRole("checkbox", { name: "Stop-loss" })).toBeChecked();
  await expect(stop).toHaveValue("9999999");

  // Enter alone presses neither Buy nor Sell
  await page.goto(BTC);
  await lots(page).press("Enter");
  await expect(errors).toContainText("Press Buy or Sell to place the order.");

  // status codes: 400 for input, 409 for what the moment refuses (here the balance)
  const post = (form: Record<string, string>) =>
    page.request.post(BTC, { form: { forex_id: "1", type: "1", multiple: "5", ...form }, maxRedirects: 0 });
  expect((await post({ cont: "0.015" })).status()).toBe(400);
  expect((await post({ cont: "1000" })).status()).toBe(409);

  await page.goto(BTC);
  await expect(page.locator(".open-orders")).toContainText("No open orders on this instrument.");
});

test("a fixed-margin instrument (natural gas) needs no multiple", async ({ page }) => {
  await demoUser(page);
  await page.goto("/trade?code=NGAS");
  await expect(page.getByText("Fixed margin per lot: no multiple needed.")).toBeVisible();
  await expect(page.getByLabel("Multiple")).toHaveCount(0);
  if (!isMarketOpen("energy", Date.now())) {
    await expect(buy(page)).toBeDisabled();
    return;
  }
  await buy(page).click();
  const dialog = page.getByRole("dialog", { name: "Order confirmed" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("NatGas · 0.01 lots");
  await expect(dialog).not.toContainText("x ·");
  await expect(dialog).toContainText("100.000000 USD");
});

test("delivery contracts show their next delivery and a countdown; the candle shows when it closes", async ({ page }, info) => {
  await page.goto("/trade?code=USOIL&period=1min");
  const delivery = page.locator(".trade-delivery");
  await expect(delivery).toContainText("Delivery");
  await expect(delivery.locator("time")).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T20:00:00\.000Z$/);
  await expect(delivery.getByRole("timer")).toHaveText(/^in (\dd )?\d\d:\d\d(:\d\d)?$/);
  const candle = page.locator(".candle-countdown").getByRole("timer");
  await expect(candle).toHaveText(/^(00|0\d|1\d|2\d|3\d|4\d|5\d):\d\d$/);
  if (info.project.use.javaScriptEnabled !== false) {
    const first = await candle.textContent();
    await expect(candle).not.toHaveText(first!, { timeout: 3000 });
  }
  await page.goto(BTC);
  await expect(page.locator(".trade-delivery")).toHaveText("Perpetual");
});

test("chart, order form and open orders: side by side on desktop, stacked on phones", async ({ page }, info) => {
  await demoUser(page);
  await page.goto(BTC);
  const chart = (await page.locator(".trade-chart").boundingBox())!;
  const form = (await page.locator(".trade-panel").boundingBox())!;
  const orders = (await page.locator(".open-orders").boundingBox())!;
  if (info.project.name === "desktop") {
    expect(chart.x + chart.width).toBeLessThanOrEqual(form.x);
    expect(form.x + form.width).toBeLessThanOrEqual(orders.x);
    expect(Math.abs(chart.y - form.y)).toBeLessThan(60);
    expect(Math.abs(form.y - orders.y)).toBeLessThan(2);
    expect(chart.width).toBeGreaterThan(form.width);
  } else {
    expect(form.y).toBeGreaterThanOrEqual(chart.y + chart.height);
    expect(orders.y).toBeGreaterThanOrEqual(form.y + form.height);
  }
});

test("levels outside the chart's range are one edge marker each, labels apart; the future tab draws none of the contract's lines", async ({
  page,
}, info) => {
  const js = info.project.use.javaScriptEnabled !== false;
  await demoUser(page);
  const list = (await (await page.request.get("/v2/api/forex/trade_list")).json()) as {
    data: { Code: string; ForexQuotations: { Close: number } | null }[];
  };
  const price = list.data.find((i) => i.Code === "ETHUSDT")!.ForexQuotations!.Close;
  // a buy at 5x: stop-loss at half the price, take-profit at twice it, liquidation at 80 %: all far off a 10-hour chart
  const sl = (Math.round(price * 50) / 100).toFixed(2);
  const tp = (Math.round(price * 200) / 100).toFixed(2);
  const placed = await page.request.post("/trade?code=ETHUSDT", {
    form: {
      forex_id: "2",
      type: "1",
      multiple: "5",
      cont: "0.01",
      status: "1",
      stop_loss_on: "on",
      stop_loss_price: sl,
      take_profit_on: "on",
      target_profit_price: tp,
    },
    maxRedirects: 0,
  });
  expect(placed.status()).toBe(303);
  await page.goto("/trade?code=ETHUSDT");
  const levels = page.getByRole("list", { name: "Your order levels on the chart" });
  await expect(levels.getByRole("listitem")).toHaveCount(4);
  await expect(levels.locator('[data-level="open"]')).toHaveAttribute("data-edge", "none");
  await expect(levels.locator('[data-level="tp"]')).toHaveAttribute("data-edge", "top");
  await expect(levels.locator('[data-level="sl"]')).toHaveAttribute("data-edge", "bottom");
  await expect(levels.locator('[data-level="liq"]')).toHaveAttribute("data-edge", "bottom");
  await expect(levels.locator('[data-level="tp"]')).toHaveText(
    /^Buy 0\.01 lots, TP: [\d,.]+ \(above the chart's price range, marked at its top edge\)$/,
  );
  await expect(levels.locator('[data-level="sl"]')).toHaveText(
    /^Buy 0\.01 lots, SL: [\d,.]+ \(below the chart's price range, marked at its bottom edge\)$/,
  );
  if (!js) {
    // the server's chart: no line at a price the axis does not show, one marker per level, no label over another
    const svg = page.locator("svg.candle-svg");
    await expect(svg.locator(".level")).toHaveCount(4);
    await expect(svg.locator('.level[data-edge="top"] .level-arrow')).toHaveCount(1);
    await expect(svg.locator('.level[data-edge="bottom"] .level-arrow')).toHaveCount(2);
    await expect(svg.locator(".level:not([data-edge]) .level-arrow")).toHaveCount(0);
    const boxes = await svg
      .locator(".level text")
      .evaluateAll((els) => els.map((el) => el.getBoundingClientRect()).map((r) => ({ top: r.top, bottom: r.bottom })));
    expect(boxes).toHaveLength(4);
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++)
        expect(boxes[i]!.bottom <= boxes[j]!.top || boxes[j]!.bottom <= boxes[i]!.top, `labels ${i} and ${j}`).toBe(true);
  } else {
    await openInteractiveChart(page);
    await expect(page.locator("canvas.chart-canvas")).toBeVisible();
  }
  // the future tab: the options' chart, without the contract position's lines
  await page.goto("/trade?code=ETHUSDT&tab=future");
  await expect(page.locator('.trade-tabs [aria-current="page"]')).toHaveText("Future");
  await expect(page.getByRole("list", { name: "Your order levels on the chart" })).toHaveCount(0);
  await expect(page.locator("svg.candle-svg .level")).toHaveCount(0);
});
