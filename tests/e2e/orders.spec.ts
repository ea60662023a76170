/**
 * Orders page (/order, spec §2 Orders, §4 contract order states): the lists with their figures,
 * the detail sheet, closing and cancelling with their confirm steps, stop-loss / take-profit, the
 * server closing an order on its take-profit, paging, and other users' orders staying hidden.
 *
 * Each test is a new demo user (the mock-account login, as a form post); orders are placed with
 * the spec's JSON call (POST /v2/api/forex/submit, the session cookie). Scenarios that need exact
 * prices hold an instrument at a price (POST /dev/market/price): each project holds its own
 * crypto pair (they trade around the clock), and those tests run one after another, so no other
 * test moves the price under them. BTC/USDT is never held (the market spec watches it move).
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

interface WireOrder {
  Id: number;
  /** Amounts are exact decimal strings ("12.50"). */
  FactProfits: string;
  Status: number;
}

/** Per project: its pair, the held price, a price 5 USD of profit away (1 lot), the take-profit, a price beyond it. */
const HELD: Record<
  string,
  {
    code: string;
    id: number;
    show: string;
    price: number;
    up5: number;
    takeProfit: string;
    wrongTakeProfit: string;
    beyond: number;
    text: { price: string; up5: string; liquidation: string; takeProfit: string };
  }
> = {
  "mobile-js": {
    code: "SOLUSDT",
    id: 12,
    show: "SOL/USDT",
    price: 200,
    up5: 205,
    takeProfit: "210",
    wrongTakeProfit: "190",
    beyond: 220,
    text: { price: "200.00", up5: "205.00", liquidation: "180.00", takeProfit: "210.00" },
  },
  "mobile-nojs": {
    code: "BNBUSDT",
    id: 14,
    show: "BNB/USDT",
    price: 900,
    up5: 905,
    takeProfit: "950",
    wrongTakeProfit: "850",
    beyond: 1000,
    text: { price: "900.00", up5: "905.00", liquidation: "810.00", takeProfit: "950.00" },
  },
  desktop: {
    code: "XRPUSDT",
    id: 13,
    show: "XRP/USDT",
    price: 2.5,
    up5: 2.505,
    takeProfit: "2.6",
    wrongTakeProfit: "2.4",
    beyond: 2.7,
    text: { price: "2.5000", up5: "2.5050", liquidation: "2.2500", takeProfit: "2.6000" },
  },
};

/** A new demo user in this page's browser context (the login form's post, without the UI). */
async function demoUser(page: Page) {
  const res = await page.request.post("/login/demo", { form: { from: "/" } });
  expect(res.ok()).toBe(true);
}

/** Places a contract order through the JSON API; retries while the market feed starts. */
async function place(page: Page, params: Record<string, string>): Promise<WireOrder> {
  let last = "";
  for (let i = 0; i < 20; i++) {
    const res = await page.request.post("/v2/api/forex/submit", {
      form: { type: "1", cont: "0.01", forex_id: "1", status: "1", multiple: "10", ...params },
    });
    const body = (await res.json()) as { code: number; msg: string; data: WireOrder };
    if (body.code === 1) return body.data;
    last = body.msg;
    await page.waitForTimeout(500);
  }
  throw new Error(`order refused: ${last}`);
}

async function hold(page: Page, code: string, price: number | null) {
  const res = await page.request.post("/dev/market/price", { data: { code, price } });
  expect(res.ok()).toBe(true);
}

/** Waits until the market's quote of `code` is the held price. */
async function quoteIs(page: Page, code: string, price: number) {
  await expect
    .poll(
      async () => {
        const res = await page.request.get("/v2/api/forex/trade_list");
        const body = (await res.json()) as { data: { Code: string; ForexQuotations: { Close: number } | null }[] };
        return body.data.find((i) => i.Code === code)?.ForexQuotations?.Close;
      },
      { timeout: 10_000 },
    )
    .toBe(price);
}

async function contractBalance(page: Page) {
  const res = await page.request.get("/v2/api/main/wallet/getBalance");
  const body = (await res.json()) as { data: { list: { type: string; balance: string; lockBalance: string }[] } };
  return body.data.list.find((a) => a.type === "forex")!;
}

const sheet = (page: Page) => page.getByRole("dialog", { name: "Order details" });
const row = (page: Page, text: string) => page.locator("a.order-row").filter({ hasText: text });
/** A value of the sheet's description list, by its term. */
const detailValue = (page: Page, term: string) =>
  sheet(page)
    .locator(".order-details > div")
    .filter({ has: page.getByText(term, { exact: true }) })
    .locator("dd");

test.describe("orders with a held price", () => {
  test.describe.configure({ mode: "serial" });

  test.afterAll(async ({ playwright }, info) => {
    const api = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
    await api.post("/dev/market/price", { data: { code: HELD[info.project.name]!.code, price: null } });
    await api.dispose();
  });

  test("a holding order: its figures, the sheet, stop-loss / take-profit, and the server closing it at its take-profit", async ({
    page,
  }, info) => {
    test.setTimeout(60_000);
    const js = info.project.use.javaScriptEnabled !== false;
    const held = HELD[info.project.name]!;
    await demoUser(page);
    await hold(page, held.code, held.price);
    await quoteIs(page, held.code, held.price);
    const order = await place(page, { forex_id: String(held.id), cont: "1" });

    await page.goto("/order");
    await expect(page.getByRole("link", { name: "Holding" })).toHaveAttribute("aria-current", "page");
    const line = row(page, held.show);
    await expect(line).toHaveCount(1);
    await expect(line).toContainText("Buy");
    await expect(line).toContainText("1 lots");
    await expect(line.locator(".order-figures > span").nth(0)).toContainText(held.text.price);
    await expect(line.locator(".order-figures > span").nth(1)).toContainText(held.text.price);
    await expect(line.locator(".order-figures > span").nth(2)).toContainText("0.00");
    await expect(page.locator(".orders-total")).toContainText("0.00");
    if (js) {
      // the socket's figures update the row and the total in place
      await hold(page, held.code, held.up5);
      await expect(line.locator(".order-figures > span").nth(1)).toContainText(held.text.up5, { timeout: 10_000 });
      await expect(line.locator(".order-figures > span").nth(2)).toContainText("+5.00");
      await expect(page.locator(".orders-total")).toContainText("+5.00");
      await hold(page, held.code, held.price);
      await expect(line.locator(".order-figures > span").nth(2)).toContainText("0.00", { timeout: 10_000 });
    }

    await line.click();
    await expect(page).toHaveURL(new RegExp(`detail=${order.Id}`));
    await expect(sheet(page)).toBeVisible();
    if (js) await expect(sheet(page)).toHaveAttribute("aria-modal", "true");
    await expect(detailValue(page, "Status")).toHaveText("Holding");
    await expect(detailValue(page, "Quantity (lots)")).toHaveText("1");
    await expect(detailValue(page, "Multiple")).toHaveText("10×");
    await expect(detailValue(page, "Open price")).toHaveText(held.text.price);
    await expect(detailValue(page, "Current price")).toHaveText(held.text.price);
    await expect(detailValue(page, "Liquidation price")).toHaveText(held.text.liquidation);
    await expect(detailValue(page, "Stop-loss")).toHaveText("Not set");
    await expect(detailValue(page, "Take-profit")).toHaveText("Not set");
    await expect(detailValue(page, "Risk rate")).toHaveText("100.00%");
    await expect(detailValue(page, "Margin (USD)")).toHaveText(/^\d[\d,]*\.\d{2,6}$/);

    // a take-profit on the wrong side is refused next to its field, the value kept
    await sheet(page).getByLabel("Take-profit price").fill(held.wrongTakeProfit);
    await sheet(page).getByRole("button", { name: "Save" }).click();
    await expect(sheet(page).locator(".field-error")).toContainText("The take-profit must be on the winning side");
    await expect(sheet(page).getByLabel("Take-profit price")).toHaveValue(held.wrongTakeProfit);
    await sheet(page).getByLabel("Take-profit price").fill(held.takeProfit);
    await sheet(page).getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Stop-loss and take-profit saved")).toBeVisible();
    await expect(detailValue(page, "Take-profit")).toHaveText(held.text.takeProfit);

    // the price passes the take-profit: the server closes the position by itself
    await hold(page, held.code, held.beyond);
    if (js) {
      // the open sheet closes and says why; the row leaves the list without a reload
      await expect(page.getByRole("status").filter({ hasText: "This order was closed." })).toBeVisible({ timeout: 10_000 });
      await expect(sheet(page)).toHaveCount(0);
      await expect(row(page, held.show)).toHaveCount(0);
    } else {
      await expect(async () => {
        await page.goto("/order?source=0&type=1");
        await expect(row(page, held.show)).toHaveCount(0, { timeout: 500 });
      }).toPass({ timeout: 10_000 });
    }
    await expect(page.getByText("No data")).toBeVisible();

    await page.getByRole("link", { name: "History" }).click();
    const closed = row(page, held.show);
    await expect(closed).toHaveCount(1);
    await expect(closed.locator(".order-figures > span").nth(2)).toContainText("+");
    await closed.click();
    await expect(detailValue(page, "Close reason")).toHaveText("Take-profit");
    await expect(detailValue(page, "Status")).toHaveText("Closed");
    await expect(detailValue(page, "Profit (USD)")).toHaveText(/^\+\d+\.\d{2}$/);
    await expect(sheet(page).getByRole("link", { name: "Close position" })).toHaveCount(0);
  });

  test("the trade page's open orders follow the engine: a pending order that fills shows as holding without a reload", async ({
    page,
  }, info) => {
    test.skip(info.project.use.javaScriptEnabled === false, "live updates need JavaScript");
    const held = HELD[info.project.name]!;
    await demoUser(page);
    await hold(page, held.code, held.price);
    await quoteIs(page, held.code, held.price);
    const below = Math.round(held.price * 0.9 * 100) / 100;
    const order = await place(page, { forex_id: String(held.id), status: "0", target_price: String(below), cont: "1" });
    await page.goto(`/trade?code=${held.code}`);
    const panel = page.locator(".open-orders");
    await expect(panel.locator("li")).toContainText("Pending");
    await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible({ timeout: 10_000 });
    await hold(page, held.code, below);
    await expect(panel.locator("li")).toContainText("Holding", { timeout: 15_000 });
    const info2 = (await (await page.request.get(`/v2/api/forex/deal_info?id=${order.Id}`)).json()) as { data: WireOrder };
    expect(info2.data.Status).toBe(1);
  });
});

test.describe("orders", () => {
  test("close a position with its confirm step: it moves to history with its realised profit, and the balance changes", async ({
    page,
  }) => {
    await demoUser(page);
    const order = await place(page, {});
    const afterOpen = await contractBalance(page);
    expect(afterOpen.lockBalance).not.toBe("0.00");

    await page.goto("/order");
    await row(page, "BTC/USDT").click();
    await expect(sheet(page)).toBeVisible();
    await sheet(page).getByRole("link", { name: "Close position" }).click();
    await expect(page).toHaveURL(/confirm=close/);
    const confirm = page.getByRole("alertdialog", { name: "Close this position?" });
    await expect(confirm).toBeVisible();
    await expect(confirm).toContainText("Estimated profit (USD)");
    // Back returns to the sheet without closing anything
    await confirm.getByRole("link", { name: "Back" }).click();
    await expect(page.getByRole("alertdialog")).toHaveCount(0);
    await expect(detailValue(page, "Status")).toHaveText("Holding");
    await sheet(page).getByRole("link", { name: "Close position" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Close position" }).click();

    await expect(page.getByText("Position closed")).toBeVisible();
    await expect(page).not.toHaveURL(/detail=/);
    await expect(row(page, "BTC/USDT")).toHaveCount(0);
    const afterClose = await contractBalance(page);
    expect(afterClose.lockBalance).toBe("0.00");
    expect(Number(afterClose.balance)).toBeGreaterThan(Number(afterOpen.balance));

    await page.getByRole("link", { name: "History" }).click();
    await expect(page).toHaveURL(/type=3/);
    const info = (await (await page.request.get(`/v2/api/forex/deal_info?id=${order.Id}`)).json()) as { data: WireOrder };
    expect(info.data.Status).toBe(3);
    await row(page, "BTC/USDT").click();
    await expect(detailValue(page, "Close reason")).toHaveText("Closed by you");
    const profit = (await detailValue(page, "Profit (USD)").textContent())!;
    expect(profit.replace(/[+,]/g, "")).toBe(info.data.FactProfits);
    await expect(page.locator(".orders-total")).toContainText(profit);
  });

  test("cancel a pending order with its confirm step", async ({ page }, info) => {
    const js = info.project.use.javaScriptEnabled !== false;
    await demoUser(page);
    await place(page, { status: "0", target_price: "20000" });
    const before = await contractBalance(page);
    await page.goto("/order?source=0&type=0");
    const line = row(page, "BTC/USDT");
    await expect(line).toContainText("Buy price");
    await expect(line).toContainText("20,000.00");
    await line.click();
    await expect(detailValue(page, "Status")).toHaveText("Pending");
    if (js) {
      // Escape closes the modal sheet and gives focus back to the order's row
      await expect(sheet(page).getByRole("heading", { name: "Order details" })).toBeFocused();
      await page.keyboard.press("Escape");
      await expect(sheet(page)).toHaveCount(0);
      await expect(line).toBeFocused();
      await line.click();
    }
    await expect(detailValue(page, "Buy price")).toHaveText("20,000.00");
    await sheet(page).getByRole("link", { name: "Cancel order" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Cancel this pending order?" });
    await expect(confirm).toContainText("Returned to your balance (USD)");
    await confirm.getByRole("button", { name: "Cancel order" }).click();
    await expect(page.getByText("Pending order cancelled")).toBeVisible();
    await expect(page.getByText("No data")).toBeVisible();
    const after = await contractBalance(page);
    expect(after.lockBalance).toBe("0.00");
    expect(Number(after.balance)).toBeGreaterThan(Number(before.balance));
    // a cancelled order is never a closed trade: History has none, the Cancelled tab lists it
    await page.getByRole("link", { name: "History" }).click();
    await expect(page).toHaveURL(/type=3/);
    await expect(page.getByText("No data")).toBeVisible();
    await page.getByRole("link", { name: "Cancelled" }).click();
    await expect(page).toHaveURL(/type=4/);
    await row(page, "BTC/USDT").click();
    await expect(detailValue(page, "Status")).toHaveText("Cancelled");
    await expect(detailValue(page, "Close reason")).toHaveText("Cancelled by you");
  });

  test("another user's order id reveals nothing, and cannot be closed", async ({ page }) => {
    await demoUser(page);
    const order = await place(page, {});
    await page.context().clearCookies();
    await demoUser(page);
    const res = await page.goto(`/order?detail=${order.Id}`);
    expect(res?.status()).toBe(404);
    await expect(sheet(page)).toContainText("This order was not found.");
    await expect(page.getByText("BTC/USDT")).toHaveCount(0);
    await expect(sheet(page).locator(".order-details")).toHaveCount(0);
    const missing = await page.goto("/order?detail=999999999");
    expect(missing?.status()).toBe(404);
    await expect(sheet(page)).toContainText("This order was not found.");
    // a forged close of it answers "not found" and changes nothing
    await page.goto(`/order?detail=${order.Id}&confirm=close`);
    await expect(page.getByRole("alertdialog")).toHaveCount(0);
    const forged = await page.request.post("/order?source=0&type=1", {
      form: { intent: "close-order", id: String(order.Id) },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(303);
    await page.goto("/order");
    await expect(page.getByText("Not found")).toBeVisible();
  });

  test("pages: next / previous links without JavaScript, infinite loading with it; 'no more' at the end", async ({ page }, info) => {
    test.setTimeout(60_000);
    const js = info.project.use.javaScriptEnabled !== false;
    await demoUser(page);
    for (let i = 0; i < 21; i++) await place(page, { status: "0", target_price: String(20000 + i) });
    await page.goto("/order?source=0&type=0");
    const rows = page.locator("a.order-row");
    await expect(rows).toHaveCount(20);
    if (js) {
      await rows.last().scrollIntoViewIfNeeded();
      await expect(rows).toHaveCount(21);
      await expect(page.getByText("No more")).toBeVisible();
      await expect(page).not.toHaveURL(/page=2/);
      // the refresh button starts the list over at its first page
      await page.getByRole("link", { name: "Refresh" }).click();
      await expect(rows).toHaveCount(20);
    } else {
      await expect(page.getByText("No more")).toHaveCount(0);
      await page.getByRole("link", { name: "Next page" }).click();
      await expect(page).toHaveURL(/page=2/);
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText("20,000.00");
      await expect(page.getByText("No more")).toBeVisible();
      await expect(page.getByText("Page 2 of 2")).toBeVisible();
      await page.getByRole("link", { name: "Previous page" }).click();
      await expect(rows).toHaveCount(20);
    }
  });

  test("the future tab keeps its status tabs with an empty state", async ({ page }) => {
    await demoUser(page);
    await page.goto("/order?source=1");
    await expect(page.getByRole("link", { name: "In transaction" })).toHaveAttribute("aria-current", "page");
    await page.getByRole("link", { name: "Closed", exact: true }).click();
    await expect(page).toHaveURL(/source=1&type=3/);
    await expect(page.getByText("No data")).toBeVisible();
  });
});
