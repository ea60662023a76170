// Upstream mode (issue 23, ADR 024) in a real browser: the front end on its own port, in front of
// the platform instance as its §7 backend. The user exists only on the backend: registered,
// credited and, later, made to change password there; the front end signs in through the
// backend, shows the backend's balance, and sends the user back to sign in when the backend
// ends the session (999). What upstream mode does not serve yet is left out, never broken.
import { codeFromOutbox, expect, login, registerByEmail, test, uniqueEmail } from "../fixtures";
import { backend, backendBalances, backendUser } from "./helpers";

test("a visitor sees the backend's instruments with live prices; what is not served yet is left out", async ({
  page,
  javaScriptEnabled,
}) => {
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();
  const featured = page.locator(".featured");
  await expect(featured.getByText("BTC/USDT")).toBeVisible();
  // the price is the backend's market (its socket, relayed by this front end's market room)
  await expect(featured.locator(".featured-price").first()).toHaveText(/\d/);
  if (javaScriptEnabled) {
    // and it moves on the page as the backend's market moves (ETH/USDT: no other test holds its price)
    const eth = page.locator(".instrument-list .instrument-row", { hasText: "ETH/USDT" }).locator(".price");
    const first = await eth.textContent();
    await expect(eth).not.toHaveText(first ?? "", { timeout: 15_000 });
  }
  // the tab bar has the tabs served so far; no links to pages whose areas have no adapter yet
  const tabs = page.getByRole("navigation", { name: "Main" });
  await expect(tabs.getByRole("link")).toHaveText(["Market", "Trade", "Orders", "Account"]);
  await expect(
    page.locator('a[href="/follow"], a[href="/rank"], a[href="/loan"], a[href="/mine/charge"], a[href="/mine/announcement"]'),
  ).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Mining" })).toBeVisible();
  // and such a page, asked for directly, is not found rather than served from this Worker's own data
  expect((await page.request.get("/follow")).status()).toBe(404);
  expect((await page.request.get("/mine/charge")).status()).toBe(404);
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Log in", exact: true })).toBeVisible();
  // the backend's news, through the front end's cache
  await page.goto("/news");
  const article = page.locator(".news-card").first();
  const title = (await article.locator(".news-title").textContent())!.trim();
  await article.click();
  await expect(page).toHaveURL(/\/news\/detail\?id=\d+$/);
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
});

test("registration and the forgotten password go to the backend, which sends and checks the codes", async ({ page }) => {
  const api = await backend();
  const email = uniqueEmail("upstream-register");
  await page.goto("/login");
  await page.getByRole("link", { name: "Create an account" }).click();
  await registerByEmail(page, api, email);
  // signed in on the front end as the backend's new user
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.locator(".assets-card")).toContainText("0.00");
  await page.goto("/user");
  await page.getByRole("button", { name: "Log out" }).click();
  // a new password through the front end's forgot page, with the backend's code
  await page.goto("/forgot");
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText("a code is on its way")).toBeVisible();
  const code = await codeFromOutbox(api, email);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Verification code").fill(code);
  await page.getByLabel("New password", { exact: true }).fill("e2e-password-3");
  await page.getByLabel("Confirm password").fill("e2e-password-3");
  await page.getByRole("button", { name: "Reset password" }).click();
  await expect(page).toHaveURL(/\/login/);
  await login(page, email, "e2e-password-3");
  await expect(page.getByText(email)).toBeVisible();
  await api.dispose();
});

test("sign-in, balances and a transfer all go to the backend; sign-out returns to the visitor's home", async ({ page }) => {
  test.setTimeout(60_000);
  const api = await backend();
  const email = await backendUser(api, "1234.56");
  await login(page, email);
  await expect(page).toHaveURL(/:\d+\/$/);
  await expect(page.locator(".assets-card")).toContainText("1,234.56");
  await expect(page.getByText(email)).toBeVisible();
  // the backend's token never reaches the page
  expect(await page.content()).not.toMatch(/"token"\s*:/);

  // the user centre: the backend's figures; its menu has only what is served
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Account" }).click();
  await expect(page).toHaveURL(/\/user$/);
  await expect(page.locator(".assets-card .big-number")).toContainText("1,234.56");
  await page.getByRole("link", { name: "Wallet" }).click();
  await expect(page.locator('[data-account="funding"]')).toContainText("1,234.56");
  // its menu: only what is served (the accounts overview is; deposits are not yet)
  await expect(page.getByRole("link", { name: "Bank accounts" })).toBeVisible();
  await page.getByRole("link", { name: "Transfer" }).click();
  await expect(page).toHaveURL(/\/mine\/transfer$/);
  await expect(page.getByText("Available in Funding: 1,234.56 USD")).toBeVisible();
  await expect(page.getByText("No transfers yet")).toBeVisible();
  await page.getByLabel("Amount (USD)").fill("234.56");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("234.56 USD will move from Funding to Contract. There is no fee.")).toBeVisible();
  await page.getByRole("button", { name: "Confirm transfer" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Transfer complete." })).toBeVisible();
  await expect(page.getByText("Available in Funding: 1,000.00 USD")).toBeVisible();
  await expect(page.locator(".ledger-list li").first()).toContainText("Funding → Contract");
  // the money moved on the backend, to the cent
  expect(await backendBalances(api, email)).toMatchObject({ change: "1000.00", forex: "234.56" });
  // and the contract account's log shows the backend's line
  await page.goto("/mine/history?accountTypeId=3");
  await expect(page.locator(".ledger-list li").first()).toContainText("Transfer from Funding to Contract");
  await expect(page.locator(".ledger-list li").first()).toContainText("+234.56");
  await page.goto("/mine/transfer");

  // back to the wallet, then the user centre, where the user signs out
  await page.getByRole("link", { name: "Back" }).click();
  await expect(page).toHaveURL(/\/mine\/wallet$/);
  await page.getByRole("link", { name: "Back" }).click();
  await expect(page).toHaveURL(/\/user$/);
  // the invite page: the backend's invite code, in a link to this front end's registration
  await page.getByRole("link", { name: "Invite friends" }).click();
  const inviteCode = (await page.locator(".invite-card dd.num").first().textContent())!.trim();
  expect(inviteCode).toMatch(/^[A-Z0-9]{4,}$/);
  await expect(page.getByText(`/register?invite_code=${inviteCode}`)).toBeVisible();
  await page.goto("/user");
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/:\d+\/$/);
  await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();
  await expect(page.locator(".assets-card")).toHaveCount(0);
  await api.dispose();
});

test("the backend ends the session (a new password there): the next page sends the user to sign in", async ({ page }) => {
  const api = await backend();
  const email = await backendUser(api, "10");
  await login(page, email);
  await expect(page.locator(".assets-card")).toContainText("10.00");
  // on the backend: a password reset, which ends every session of the user there
  expect((await api.post("/api/notify/send_email", { form: { to: email, type: 2 } })).ok()).toBe(true);
  const code = await codeFromOutbox(api, email);
  const reset = await api.post("/api/user/forget_password", {
    form: { type: "email", account: email, new_password: "e2e-password-2", secondary_password: "e2e-password-2", auth_code: code },
  });
  expect(((await reset.json()) as { code: number }).code).toBe(1);
  await page.goto("/?category=1");
  await expect(page).toHaveURL(/\/login\?from=%2F%3Fcategory%3D1$/);
  // signing in again (with the new password) returns to the page the user was on
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("e2e-password-2");
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(/\/\?category=1$/);
  await expect(page.locator(".assets-card")).toContainText("10.00");
  await api.dispose();
});
