// Upstream mode when the backend stops answering mid-journey (issue 23, ADR 024): the switch
// between the front end and the platform (scripts/backend-switch.mjs) cuts every connection, as
// a backend that goes down does. The user, signed in, keeps a working page: the market from the
// cache with its live prices marked delayed, the balance said to be unavailable, and a page that
// needs the backend says "service unavailable" and asks again by itself, never a 500; when the
// backend is back, that page comes back on its own.
import { request as playwrightRequest } from "@playwright/test";
import { codeFromOutbox, expect, login, PASSWORD, test, uniqueEmail } from "../fixtures";

const backendUrl = process.env.E2E_BASE_URL ?? "http://localhost:8799";
const switchUrl = process.env.E2E_SWITCH_URL ?? "http://127.0.0.1:8801";

async function backendSwitch(state: "up" | "down") {
  const res = await fetch(`${switchUrl}/__switch/${state}`, { method: "POST" });
  expect(((await res.json()) as { up: boolean }).up).toBe(state === "up");
}

// one switch for the whole front end: these tests take turns
test.describe.configure({ mode: "serial" });

test.afterEach(async () => {
  await backendSwitch("up");
});

/** A user of the backend, with money. */
async function backendUser(amount: string) {
  const api = await playwrightRequest.newContext({ baseURL: backendUrl });
  const email = uniqueEmail("upstream-down");
  await api.post("/api/notify/send_email", { form: { to: email, type: 1 } });
  const code = await codeFromOutbox(api, email);
  await api.post("/api/user/register", {
    data: { type: "email", account: email, password: PASSWORD, re_password: PASSWORD, sms_code: code },
  });
  await api.post("/dev/credit", { data: { email, amount } });
  await api.dispose();
  return email;
}

test("the backend goes down mid-journey: stale prices, an unavailable balance, pages that retry by themselves", async ({ page }) => {
  // the page that needs the backend answers 503 while it is down, which Chromium logs
  test.info().annotations.push({ type: "expected-console", description: "status of 503 (Service Unavailable)" });
  const email = await backendUser("50");
  await login(page, email);
  await expect(page.locator(".assets-card")).toContainText("50.00");
  await expect(page.locator(".live-badge")).toHaveAttribute("data-status", "live");

  await backendSwitch("down");
  // the live prices say they are delayed (the backend's market socket is cut)
  await expect(page.locator(".live-badge")).toHaveAttribute("data-status", /stale|reconnecting|offline/, { timeout: 20_000 });
  // the home page again: the market from the cache, the balance said to be unavailable
  const home = await page.goto("/");
  expect(home?.status()).toBe(200);
  await expect(page.locator(".featured").getByText("BTC/USDT")).toBeVisible();
  await expect(page.getByText("Your balance cannot be shown right now")).toBeVisible();
  // a page that needs the backend: "service unavailable, retrying", not an error page
  const transfer = await page.goto("/mine/transfer");
  expect(transfer?.status()).toBe(503);
  await expect(
    page.getByRole("heading", { name: "The service is not answering right now. This page tries again by itself in a few seconds." }),
  ).toBeVisible();

  // the backend back: the page comes back by itself
  await backendSwitch("up");
  await expect(page.getByText("Available in Funding: 50.00 USD")).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/mine\/transfer$/);
});

test("without JavaScript: the unavailable page asks again by itself and comes back with the backend", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: process.env.E2E_UPSTREAM_URL ?? "http://localhost:8800" });
  const page = await context.newPage();
  const email = await backendUser("20");
  await login(page, email);
  await expect(page.locator(".assets-card")).toContainText("20.00");
  await backendSwitch("down");
  const transfer = await page.goto("/mine/transfer");
  expect(transfer?.status()).toBe(503);
  await expect(page.getByRole("heading", { name: /The service is not answering right now/ })).toBeVisible();
  await backendSwitch("up");
  await expect(page.getByText("Available in Funding: 20.00 USD")).toBeVisible({ timeout: 20_000 });
  await context.close();
});
