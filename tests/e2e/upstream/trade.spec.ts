// Contract trading in upstream mode (issue 23, ADR 024), with JavaScript on and off: a user of the
// backend places a market order on the front end's trade page (ETH/USDT, whose price no test
// holds), sees it confirmed with the backend's figures and among the page's open orders, finds
// it on the order page, closes it with the confirm step, and the backend's history and balance
// show the close; and a timed option bought on the future tab is the backend's.
import { expect, test } from "../fixtures";
import { backend, backendBalances, backendUser, signIn } from "./helpers";

test("place a contract order on the trade page, close it on the order page: all on the backend", async ({ page }) => {
  test.setTimeout(60_000);
  const api = await backend();
  const email = await backendUser(api, "1000");
  // the money is in the contract account: a transfer on the backend, as its own app would do it
  const signedIn = await api.post("/api/user/loginForU", { form: { account: email, password: "e2e-password-1" } });
  const token = ((await signedIn.json()) as { data: { token: string } }).data.token;
  const moved = await api.post("/api/account/transfer", {
    form: { from: "1", to: "3", balance: "1000" },
    headers: { authorization: token },
  });
  expect(((await moved.json()) as { code: number }).code).toBe(1);

  await signIn(page, email);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Trade" }).click();
  await expect(page).toHaveURL(/\/trade/);
  await page.goto("/trade?code=ETHUSDT");
  await page.getByLabel("Lots", { exact: true }).fill("0.1");
  await page.getByRole("button", { name: "Buy", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Order confirmed" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Buy · Market");
  await expect(dialog).toContainText("ETH/USDT · 0.1 lots");
  await expect(page.locator(".open-orders li")).toHaveCount(1);
  const balances = await backendBalances(api, email);
  expect(Number(balances.forex)).toBeLessThan(1000);

  await page.goto("/order");
  const row = page.locator("a.order-row").filter({ hasText: "ETH/USDT" });
  await expect(row).toHaveCount(1);
  await row.click();
  const sheet = page.getByRole("dialog", { name: "Order details" });
  await expect(sheet).toBeVisible();
  await sheet.getByRole("link", { name: "Close position" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Close position" }).click();
  await expect(page.getByText("Position closed")).toBeVisible();
  await expect(row).toHaveCount(0);
  await page.getByRole("link", { name: "History" }).click();
  await expect(page.locator("a.order-row").filter({ hasText: "ETH/USDT" })).toHaveCount(1);
  // nothing is locked on the backend any more
  const after = await api.get(`/v2/api/main/wallet/getBalance?t=${Date.now()}`, { headers: { authorization: token } });
  const list = ((await after.json()) as { data: { list: { type: string; lockBalance: string }[] } }).data.list;
  expect(list.find((a) => a.type === "forex")!.lockBalance).toBe("0.00");
  await api.dispose();
});

test("buy a timed option on the future tab; it is the backend's, listed on the order page", async ({ page }) => {
  // two instances and the backend's calls per page: under the full suite's load this takes longer
  test.setTimeout(60_000);
  const api = await backend();
  const email = await backendUser(api, "500");
  const signedIn = await api.post("/api/user/loginForU", { form: { account: email, password: "e2e-password-1" } });
  const token = ((await signedIn.json()) as { data: { token: string } }).data.token;
  const moved = await api.post("/api/account/transfer", {
    form: { from: "1", to: "2", balance: "500" },
    headers: { authorization: token },
  });
  expect(((await moved.json()) as { code: number }).code).toBe(1);

  await signIn(page, email);
  await page.goto("/trade?code=ETHUSDT");
  await page.getByRole("link", { name: "Future", exact: true }).click();
  await expect(page).toHaveURL(/tab=future/);
  const durations = page.getByRole("group", { name: "Duration" });
  await expect(durations.getByRole("radio", { name: /^30 seconds/ })).toBeChecked();
  await expect(durations).toContainText("Payout 80%");
  await page.getByLabel("Amount (USD)").fill("100");
  await page.getByRole("button", { name: "Buy up" }).click();
  const dialog = page.getByRole("dialog", { name: "Option bought" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("ETH/USDT · Up");
  await expect(dialog).toContainText("100.00 USD");
  await dialog.getByRole("link", { name: "View orders" }).click();
  await expect(page).toHaveURL(/\/order\?source=1&type=1$/);
  await expect(page.locator("a.order-row").filter({ hasText: "ETH/USDT" })).toHaveCount(1);
  // the stake is locked on the backend
  const after = await api.get(`/v2/api/main/wallet/getBalance?t=${Date.now()}`, { headers: { authorization: token } });
  const list = ((await after.json()) as { data: { list: { type: string; balance: string; lockBalance: string }[] } }).data.list;
  expect(list.find((a) => a.type === "micro")).toMatchObject({ balance: "400.00", lockBalance: "100.00" });
  await api.dispose();
});
