// Withdrawals in upstream mode (issue 23, ADR 024), with JavaScript on and off: a user of the
// backend binds an address through the front end (the backend checks it), sees the fee and the
// amount received before confirming (the same rule, over the backend's terms), and the request
// is the backend's: the amount locked there, the record listed from there.
import type { Locator } from "@playwright/test";
import { expect, test } from "../fixtures";
import { backend, backendUser, signIn } from "./helpers";

const ERC20_ADDRESS = "0x8f3A1c9B2e47D6a05F1b8C3d9E2f4A6b7C8d9E0f";
const figure = (scope: Locator, name: string) => scope.locator(`[data-figure="${name}"] dd`);

test("bind an address, request a withdrawal with its fee shown first: the backend holds the request", async ({
  page,
  javaScriptEnabled,
}) => {
  test.setTimeout(60_000);
  const api = await backend();
  const email = await backendUser(api, "500");
  await signIn(page, email);
  await page.goto("/mine/withdraw?type=0");
  await page.getByRole("alertdialog").getByRole("link", { name: "Add a method" }).click();
  await expect(page).toHaveURL(/\/mine\/withdraw-way\?type=1&from=withdraw$/);
  await page.getByLabel("Currency").selectOption({ label: "USDT · ERC20" });
  await page.getByLabel("Address").fill(ERC20_ADDRESS);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/mine\/withdraw\?type=0$/);
  await expect(page.getByText("Withdrawal method saved.")).toBeVisible();
  await expect(figure(page.locator(".funding-balance"), "available")).toHaveText("500.00 USD");
  await page.getByLabel("Amount (USD)").fill("120.50");
  const reloaded = javaScriptEnabled
    ? page.waitForResponse((r) => r.request().method() === "GET" && new URL(r.url()).pathname.endsWith(".data"))
    : null;
  await page.getByRole("button", { name: "Next" }).click();
  await reloaded;
  const confirm = page.locator("#withdraw-confirm");
  await expect(figure(confirm, "fee")).toHaveText("1.21 USD");
  await expect(figure(confirm, "received")).toHaveText("119.29 USDT");
  await confirm.getByRole("button", { name: "Confirm withdrawal" }).click();
  await expect(page.getByText("Withdrawal requested. It is now under review.")).toBeVisible();
  const record = page.locator(".withdraw-record").first();
  await expect(record).toContainText("120.50 USD");
  await expect(record).toContainText("Under review");
  await expect(figure(page.locator(".funding-balance"), "locked")).toHaveText("120.50 USD");
  await api.dispose();
});
