// The wallet as a user meets it (issue 10 §1, §7), with and without JavaScript: a transfer
// between accounts with its confirm step, the swap of equal accounts, the history and its CSV
// statement, a demo user's refusal, and the shortcuts and rows of the user centre reaching real pages.
import { readFileSync } from "node:fs";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, registerByEmail, test, uniqueEmail } from "./fixtures";

/** A registered (real) user holding `amount` USD in the funding account (credited by the local-only /dev/credit). */
async function fundedUser(page: Page, request: APIRequestContext, prefix: string, amount = "100.00") {
  const email = uniqueEmail(prefix);
  await registerByEmail(page, request, email);
  const res = await request.post("/dev/credit", { data: { email, amount } });
  expect(res.ok()).toBe(true);
  return email;
}

/** The balance a card of the transfer page shows for an account. */
const shown = (page: Page, account: "funding" | "options" | "contract") => page.locator(`.account-grid [data-account="${account}"] dd`);

test.describe("wallet", () => {
  test("a real user transfers funding → contract after a confirm step and sees the balances and the log change", async ({
    page,
    request,
  }, info) => {
    const js = info.project.use.javaScriptEnabled !== false;
    await fundedUser(page, request, `${info.project.name}-transfer`);
    await page.goto("/user");
    await page.getByRole("link", { name: "Transfer" }).click();
    await expect(page).toHaveURL(/\/mine\/transfer$/);
    await expect(shown(page, "funding")).toHaveText("100.00");
    await expect(page.getByText("Available in Funding: 100.00 USD")).toBeVisible();
    await expect(page.getByLabel("From")).toHaveValue("1");
    await expect(page.getByLabel("To")).toHaveValue("3");
    await expect(page.getByText("No transfers yet")).toBeVisible();

    await page.getByLabel("Amount (USD)").fill("30.25");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("heading", { name: "Confirm the transfer" })).toBeVisible();
    await expect(page.getByText("30.25 USD will move from Funding to Contract. There is no fee.")).toBeVisible();
    // nothing has moved yet
    await expect(shown(page, "funding")).toHaveText("100.00");

    // with JavaScript, the balances are read again 1 s after the transfer (spec §9)
    const loads: number[] = [];
    page.on("response", (r) => {
      if (r.request().method() === "GET" && new URL(r.url()).pathname === "/mine/transfer.data") loads.push(Date.now());
    });
    await page.getByRole("button", { name: "Confirm transfer" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Transfer complete." })).toBeVisible();
    await expect(shown(page, "funding")).toHaveText("69.75");
    await expect(shown(page, "contract")).toHaveText("30.25");
    await expect(page.getByText("Available in Funding: 69.75 USD")).toBeVisible();
    const log = page.locator(".ledger-list li").first();
    await expect(log).toContainText("Funding → Contract");
    await expect(log).toContainText("30.25");
    // the page after the redirect, then the re-read a second later
    if (js) await expect.poll(() => loads.some((t) => t - loads[0]! >= 900), { timeout: 5_000 }).toBe(true);

    // the wallet and the contract account's details show it too
    await page.goto("/mine/wallet");
    await expect(page.locator('[data-account="contract"]')).toContainText("30.25");
    await page.getByRole("link", { name: "Contract Details" }).click();
    await expect(page).toHaveURL(/\/mine\/history\?accountTypeId=3$/);
    await expect(page.locator(".ledger-list li").first()).toContainText("Transfer from Funding to Contract");
    await expect(page.locator(".ledger-list li").first()).toContainText("+30.25");
  });

  test("a balance of 0.175 reads 0.17 (never more than can be moved), and 'Transfer all' moves exactly 0.175", async ({
    page,
    request,
  }, info) => {
    await fundedUser(page, request, `${info.project.name}-all`, "0.175");
    await page.goto("/mine/transfer");
    await expect(shown(page, "funding")).toHaveText("0.17");
    await expect(page.getByText("Available in Funding: 0.17 USD")).toBeVisible();
    // Enter in the amount field continues with the typed amount (not "Transfer all")
    await page.getByLabel("Amount (USD)").fill("0.10");
    await page.getByLabel("Amount (USD)").press("Enter");
    await expect(page.getByText("0.10 USD will move from Funding to Contract. There is no fee.")).toBeVisible();
    await page.goto("/mine/transfer");
    await page.getByRole("button", { name: "Transfer all" }).click();
    await expect(page.getByRole("heading", { name: "Confirm the transfer" })).toBeVisible();
    await expect(page.getByText("0.1750 USD will move from Funding to Contract. There is no fee.")).toBeVisible();
    await expect(shown(page, "funding")).toHaveText("0.17");
    await page.getByRole("button", { name: "Confirm transfer" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Transfer complete." })).toBeVisible();
    await expect(shown(page, "funding")).toHaveText("0.00");
    await expect(shown(page, "contract")).toHaveText("0.17");
    await expect(page.locator(".ledger-list li").first()).toContainText("0.1750");
    // nothing left to move: said at the field, nothing moves
    await page.getByRole("button", { name: "Transfer all" }).click();
    await expect(page.locator("#transfer-balance-error")).toHaveText("There is nothing to transfer from this account.");
    await expect(shown(page, "contract")).toHaveText("0.17");
    await page.goto("/mine/wallet");
    await expect(page.locator('[data-account="funding"]')).toContainText("0.00");
    await expect(page.locator('[data-account="contract"]')).toContainText("0.17");
  });

  test("choosing the account on the other side swaps the pair with JavaScript; without it the server refuses it clearly", async ({
    page,
    request,
  }, info) => {
    const js = info.project.use.javaScriptEnabled !== false;
    await fundedUser(page, request, `${info.project.name}-swap`, "10.00");
    await page.goto("/mine/transfer");
    await page.getByLabel("From").selectOption({ label: "Contract" });
    if (js) {
      await expect(page.getByLabel("To")).toHaveValue("1");
      await expect(page.getByText("Available in Contract: 0.00 USD")).toBeVisible();
      await page.getByLabel("To").selectOption({ label: "Contract" });
      await expect(page.getByLabel("From")).toHaveValue("1");
      await page.getByRole("link", { name: "Swap accounts" }).click();
      await expect(page.getByLabel("From")).toHaveValue("3");
      await expect(page.getByLabel("To")).toHaveValue("1");
      await expect(page).toHaveURL(/\/mine\/transfer$/);
    } else {
      await expect(page.getByLabel("To")).toHaveValue("3");
      await page.getByLabel("Amount (USD)").fill("1");
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page.getByRole("alert")).toContainText("The two accounts must be different");
      await expect(page.getByLabel("Amount (USD)")).toHaveValue("1");
      // the swap link is a plain link without JavaScript
      await page.getByRole("link", { name: "Swap accounts" }).click();
      await expect(page).toHaveURL(/from=3&to=3|from=3&to=1/);
    }
    // more than the balance is refused before anything moves
    await page.goto("/mine/transfer");
    await page.getByLabel("Amount (USD)").fill("10.01");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("alert")).toContainText("Not enough available balance in your funding account for this transfer.");
    await expect(shown(page, "funding")).toHaveText("10.00");
  });

  test("the history page lists entries by account, pages stay plain links, and the CSV statement downloads", async ({
    page,
    request,
  }, info) => {
    await fundedUser(page, request, `${info.project.name}-history`, "12.50");
    await page.goto("/mine/wallet");
    await page.getByRole("link", { name: "Funding Details" }).click();
    await expect(page).toHaveURL(/\/mine\/history\?accountTypeId=1$/);
    await expect(page.getByRole("heading", { name: "Funding account details" })).toBeVisible();
    const first = page.locator(".ledger-list li").first();
    await expect(first).toContainText("Adjustment");
    await expect(first).toContainText("+12.50");
    await page.getByRole("link", { name: "Option", exact: true }).click();
    await expect(page).toHaveURL(/accountTypeId=2$/);
    await expect(page.getByText("No entries yet")).toBeVisible();
    await page.getByRole("link", { name: "Funding", exact: true }).click();
    await expect(page).toHaveURL(/accountTypeId=1$/);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download statement (CSV)" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^statement-funding-\d{4}-\d\d-\d\d\.csv$/);
    const lines = readFileSync((await download.path())!, "utf8")
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("Time,Type,Memo,Amount (USD)");
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z,Adjustment,Balance adjustment,12\.50$/);
  });

  test("a demo user is refused the transfer page with the 'only real account' message", async ({ page }) => {
    const res = await page.request.post("/login/demo", { form: { from: "/" } });
    expect(res.ok()).toBe(true);
    await page.goto("/user");
    await page.getByRole("link", { name: "Transfer" }).click();
    await expect(page).toHaveURL(/\/user$/);
    await expect(page.getByText("Only real account")).toBeVisible();
  });

  test("the home Loan shortcut refuses a demo user with 'only real account'", async ({ page }) => {
    const res = await page.request.post("/login/demo", { form: { from: "/" } });
    expect(res.ok()).toBe(true);
    await page.goto("/");
    await page.getByRole("navigation", { name: "Shortcuts" }).getByRole("link", { name: "Loan" }).click();
    await expect(page).toHaveURL(/\/user$/);
    await expect(page.getByText("Only real account")).toBeVisible();
  });
});
