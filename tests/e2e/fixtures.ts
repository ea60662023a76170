// Shared fixtures: every page fails its test on a console error or an uncaught exception,
// and helpers read the local outbox (the embedded e-mail provider) like a user reads mail.
import { test as base, expect, type APIRequestContext, type Page } from "@playwright/test";

let clients = 0;

export const test = base.extend<{ consoleErrors: string[] }>({
  // Each test is its own client (as Cloudflare's CF-Connecting-IP would say in production), so
  // the per-client sign-in throttle of one test never slows another.
  extraHTTPHeaders: async ({ browserName: _browser }, provide, info) => {
    clients += 1;
    await provide({
      "accept-language": "en-US,en;q=0.9",
      "cf-connecting-ip": `10.${info.workerIndex % 250}.${Math.floor(clients / 250) % 250}.${clients % 250}`,
    });
  },
  consoleErrors: [
    async ({ page }, use, info) => {
      const errors: string[] = [];
      page.on("console", (msg) => {
        // with where it came from: a failed resource's message does not name it
        if (msg.type() === "error") errors.push(msg.location().url ? `${msg.text()} @ ${msg.location().url}` : msg.text());
      });
      page.on("pageerror", (err) => errors.push(err.message));
      await use(errors);
      // A failed form post answered 4xx logs a resource error in Chromium, and Remix logs the abort
      // of a page-data response that a newer navigation (the user's next click) cut off mid-body;
      // anything else is a bug.
      // a test that provokes another error says so: test.info().annotations.push({ type: "expected-console", description })
      const announced = info.annotations.filter((a) => a.type === "expected-console").map((a) => a.description ?? "");
      const expected = (e: string) =>
        /Failed to load resource: the server responded with a status of 4\d\d/.test(e) ||
        /^AbortError: signal is aborted without reason\n/.test(e) ||
        announced.some((text) => text && e.includes(text));
      expect(errors.filter((e) => !expected(e))).toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

export function uniqueEmail(prefix: string) {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

export async function codeFromOutbox(request: APIRequestContext, to: string): Promise<string> {
  for (let i = 0; i < 20; i++) {
    const res = await request.get("/dev/outbox", { headers: { accept: "application/json" } });
    const { messages } = (await res.json()) as { messages: { to: string; body: string }[] };
    const found = messages.find((m) => m.to === to)?.body.match(/\b(\d{6})\b/)?.[1];
    if (found) return found;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no code for ${to} in the outbox`);
}

export const PASSWORD = "e2e-password-1";

/** Registers a new user by e-mail through the UI (the way a user does). */
export async function registerByEmail(page: Page, request: APIRequestContext, email: string) {
  await page.goto("/register");
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText("We sent a verification code")).toBeVisible();
  const code = await codeFromOutbox(request, email);
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("Verification code").fill(code);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm password").fill(PASSWORD);
  await page.getByRole("button", { name: "Register", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
}

export async function login(page: Page, account: string, password = PASSWORD) {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(account);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
}

/**
 * Reaches for the trade page's chart (a click on it) until the interactive canvas has replaced the
 * server's SVG: chart.js loads on the first pointer, touch, wheel or focus after hydration, so a
 * click before hydration is repeated.
 */
export async function openInteractiveChart(page: Page) {
  const canvas = page.locator(".chart-scroll canvas");
  await expect(async () => {
    await page.locator(".chart-scroll").click({ position: { x: 10, y: 10 } });
    await expect(canvas).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}
