// When the live feed is stale (the socket says so), the page says "Prices delayed" and refreshes
// its data from the server every 15 s, but never in the middle of something the user is doing:
// typing in a form, a form post or navigation on its way, or a hidden tab. A refresh that cut a
// navigation off (or was cut off by the user's next click) is what these tests reproduce.
import type { Page, Request } from "@playwright/test";
import { expect, test } from "./fixtures";

const REFRESH_MS = 15_000;

test.beforeEach(({ page: _page }, info) => {
  test.skip(info.project.use.javaScriptEnabled === false, "live prices need JavaScript");
});

/** The page's socket answers like a live server whose market feed has gone stale. */
async function staleFeed(page: Page) {
  await page.clock.install();
  await page.routeWebSocket(/\/v2\/ws/, (ws) => {
    ws.send(JSON.stringify({ type: "DAY_MARKET", data: [{ code: "btcusdt", stale: true }] }));
    ws.onMessage((raw) => {
      const message = JSON.parse(String(raw)) as { type?: string; timestamp?: number };
      if (message.type === "ping") ws.send(JSON.stringify({ type: "pong", timestamp: message.timestamp }));
    });
  });
}

/** Collects the page's data requests (Remix's `.data` loads) and the ones the browser aborted. */
function dataRequests(page: Page) {
  const loads: string[] = [];
  const aborted: string[] = [];
  const isData = (r: Request) => r.method() === "GET" && new URL(r.url()).pathname.endsWith(".data");
  page.on("request", (r) => isData(r) && loads.push(r.url()));
  page.on("requestfailed", (r) => isData(r) && aborted.push(r.url()));
  return { loads, aborted };
}

/** Waits until the page's router has nothing in flight (Remix keeps it on window.__remixRouter). */
async function settled(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(() => {
        const { state } = (window as unknown as { __remixRouter: { state: { navigation: { state: string }; revalidation: string } } })
          .__remixRouter;
        return `${state.navigation.state}/${state.revalidation}`;
      }),
    )
    .toBe("idle/idle");
  await page.waitForTimeout(50);
}

test("a stale feed is shown, and the page refreshes its data every 15 s while the tab is visible and idle", async ({ page }) => {
  await staleFeed(page);
  const { loads } = dataRequests(page);
  await page.goto("/");
  await expect(page.locator(".live-badge")).toHaveAttribute("data-status", "stale");
  await expect(page.locator(".live-badge")).toContainText("Prices delayed");
  expect(loads).toHaveLength(0);

  await page.clock.runFor(REFRESH_MS);
  await expect.poll(() => loads.length).toBe(1);
  await settled(page);
  await page.clock.runFor(REFRESH_MS);
  await expect.poll(() => loads.length).toBe(2);
  await settled(page);

  // a hidden tab does not spend the user's data
  await page.evaluate(() => Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" }));
  await page.clock.runFor(REFRESH_MS * 2);
  await page.waitForTimeout(300);
  expect(loads).toHaveLength(2);
  await page.evaluate(() => delete (document as { visibilityState?: unknown }).visibilityState);
  await page.clock.runFor(REFRESH_MS);
  await expect.poll(() => loads.length).toBe(3);
});

/** Runs the clock until the page's first refresh: then the feed is known to be stale and the refresh armed. */
async function firstRefresh(page: Page, loads: string[]) {
  for (let i = 0; i < 4 && loads.length === 0; i++) {
    await page.clock.runFor(REFRESH_MS);
    await page.waitForTimeout(300);
  }
  expect(loads).toHaveLength(1);
  await settled(page);
}

test("no refresh while the user is typing; a button that keeps the focus does not stop it; it resumes when they leave the field", async ({
  page,
}) => {
  await staleFeed(page);
  const { loads } = dataRequests(page);
  await page.goto("/login");
  await firstRefresh(page, loads);

  await page.getByRole("button", { name: "Show password" }).click();
  await page.clock.runFor(REFRESH_MS);
  await expect.poll(() => loads.length).toBe(2);
  await settled(page);

  await page.getByLabel("E-mail", { exact: true }).fill("someone@example.com");
  await page.clock.runFor(REFRESH_MS * 2);
  await page.waitForTimeout(300);
  expect(loads).toHaveLength(2);
  await expect(page.getByLabel("E-mail", { exact: true })).toHaveValue("someone@example.com");

  await page.getByLabel("E-mail", { exact: true }).blur();
  await page.clock.runFor(REFRESH_MS);
  await expect.poll(() => loads.length).toBe(3);
  await expect(page.getByLabel("E-mail", { exact: true })).toHaveValue("someone@example.com");
});

test("a refresh never cuts off a form post on its way: the post's page loads once, nothing is aborted", async ({ page }) => {
  await staleFeed(page);
  const { loads, aborted } = dataRequests(page);
  await page.goto("/language?from=/login");
  await firstRefresh(page, loads);
  // the page the form leads to is slow to load
  await page.route(/\/login\.data/, async (route) => {
    await new Promise((r) => setTimeout(r, 1_500));
    await route.continue().catch(() => {});
  });
  await page.getByRole("button", { name: /^English/ }).click();
  await expect.poll(() => loads.filter((u) => u.includes("/login.data")).length).toBe(1);
  await page.clock.runFor(REFRESH_MS + 1_000);
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Log in");
  expect(aborted).toEqual([]);
  expect(loads.filter((u) => u.includes("/login.data"))).toHaveLength(1);
});
