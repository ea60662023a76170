// Mining in upstream mode (issue 23, ADR 024), with JavaScript on and off: a user of the backend
// subscribes to one of the backend's products through the front end (the confirm step shows the
// figures from the product's terms), the backend's money moves, the records are the backend's,
// and an early redemption states its penalty before the backend applies it.
import { expect, test } from "../fixtures";
import { backend, backendBalances, backendUser, signIn } from "./helpers";

test("subscribe to a backend product, see its record, redeem early with the stated penalty", async ({ page, javaScriptEnabled }) => {
  test.setTimeout(60_000);
  const api = await backend();
  const email = await backendUser(api, "1000");
  await signIn(page, email);
  await page.getByRole("link", { name: "Mining" }).click();
  await expect(page).toHaveURL(/\/mining$/);
  const title = "Stable Yield — 7 days";
  await page.getByRole("listitem").filter({ hasText: title }).getByRole("link", { name: "Subscribe" }).click();
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  await page.getByLabel("Amount").fill("200");
  await page.getByRole("button", { name: "Subscribe" }).click();
  const confirm = javaScriptEnabled ? page.getByRole("dialog", { name: "Confirm subscription" }) : page.locator("main");
  await expect(confirm).toContainText("Day profit0.7000 USDT");
  await expect(confirm).toContainText("Total profit4.9000 USDT");
  await confirm.getByRole("button", { name: "Confirm" }).click();
  await expect(page).toHaveURL(/\/mining\/record$/);
  await expect(page.getByText("Subscribed. Income is paid every day from tomorrow.")).toBeVisible();
  const record = page.getByRole("listitem").filter({ hasText: "Stable Yield" });
  await expect(record).toContainText("In progress");
  await expect(record).toContainText("200.00 USDT");
  // the backend's money moved (a day's income may already be paid by another test's daily job)
  expect((await backendBalances(api, email)).change).toMatch(/^800\.(00|70)$/);

  // early redemption: 2 % of 200 stated before confirming; the backend applies it
  await record.getByRole("link", { name: "Redeem" }).click();
  const sheet = page.getByRole("dialog", { name: "Early redemption" });
  await expect(sheet).toContainText("Pay 4.00 USDT penal sum for redemption");
  await sheet.getByRole("button", { name: "Redeem now" }).click();
  await expect(page.getByText("Redeemed: the amount less the penalty is back in your funding account.")).toBeVisible();
  await expect(record).toContainText("Refunded");
  expect((await backendBalances(api, email)).change).toMatch(/^996\.(00|70)$/);
  await api.dispose();
});
