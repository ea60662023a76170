/**
 * Withdrawals (issue 10 §3, §6; spec §2 /mine/withdraw, /mine/withdraw-way, §9): a new user
 * without a method meets the not-bound confirm, binds a coin address, sees the fee and the amount
 * received (spec §9 formula) before confirming, and finds the request under review with the
 * amount locked in the funding account; the operator approves one request and rejects another
 * (a fresh e-mail code first), and the user sees paid / rejected with the rejected amount back;
 * a demo user is refused. Money comes from the local-only POST /dev/credit.
 */
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, login, registerByEmail, test, uniqueEmail } from "./fixtures";
import { asSteppedUpOperator } from "./operator";

const OPERATOR = { email: "operator@bourse.local", password: "operator-local-only" };
const ERC20_ADDRESS = "0x8f3A1c9B2e47D6a05F1b8C3d9E2f4A6b7C8d9E0f";
const TRC20_ADDRESS = "TQ7vY3kCmhG8pN2xW5rLd9sJf4uBzE6aKt";
/** A TRON payout transaction id (64 hex digits). */
const TX_ID = "3f5a9c0e7b1d2468ace02468bdf13579ace02468bdf13579ace02468bdf13579";

async function credit(request: APIRequestContext, email: string, amount: string) {
  const res = await request.post("/dev/credit", { data: { email, amount } });
  expect(res.ok(), await res.text()).toBe(true);
}

const figure = (scope: ReturnType<Page["locator"]>, name: string) => scope.locator(`[data-figure="${name}"] dd`);

test("a user binds an address, sees the fee and the amount received before confirming, and the request is under review", async ({
  page,
  request,
}, info) => {
  const js = info.project.use.javaScriptEnabled !== false;
  const email = uniqueEmail("withdraw");
  await registerByEmail(page, request, email);
  await credit(request, email, "500");

  // no method yet: the confirm leads to adding one
  await page.goto("/mine/withdraw?type=0");
  const notBound = page.getByRole("alertdialog");
  await expect(notBound).toContainText("Please bind a withdrawal method first.");
  await notBound.getByRole("link", { name: "Add a method" }).click();
  await expect(page).toHaveURL(/\/mine\/withdraw-way\?type=1&from=withdraw$/);

  // a malformed address is refused next to the field, the value kept
  await page.getByLabel("Currency").selectOption({ label: "USDT · ERC20" });
  await page.getByLabel("Address").fill(TRC20_ADDRESS);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "This is not a valid ERC20 address." })).toBeVisible();
  await expect(page.getByLabel("Address")).toHaveValue(TRC20_ADDRESS);
  await page.getByLabel("Currency").selectOption({ label: "USDT · ERC20" });
  await page.getByLabel("Address").fill(ERC20_ADDRESS);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/mine\/withdraw\?type=0$/);
  await expect(page.getByText("Withdrawal method saved.")).toBeVisible();

  await expect(figure(page.locator(".funding-balance"), "available")).toHaveText("500.00 USD");
  await expect(page.getByRole("radio", { name: /^USDT · ERC20/ })).toBeChecked();
  await expect(page.getByRole("radio", { name: /0x8f3A…9E0f/ })).toBeChecked();
  await page.getByLabel("Amount (USD)").fill("120.50");
  const preview = page.locator("#withdraw-preview");
  if (js) {
    // live: fee 1% of 120.50 = 1.205 → 1.21 (up to the cent); received (120.50 − 1.21) × 1 = 119.29 USDT
    await expect(figure(preview, "fee")).toHaveText("1.21 USD");
    await expect(figure(preview, "received")).toHaveText("119.29 USDT");
    await page.getByLabel("Amount (USD)").fill("-5");
    await expect(figure(preview, "received")).toHaveText("0.00 USDT");
    await page.getByLabel("Amount (USD)").fill("120.50");
  }
  // (with JavaScript the page's data reloads after the preview: Confirm is pressed once that is done, as a person would)
  const reloaded = js ? page.waitForResponse((r) => r.request().method() === "GET" && new URL(r.url()).pathname.endsWith(".data")) : null;
  await page.getByRole("button", { name: "Next" }).click();
  await reloaded;

  // the confirm step shows the same figures; nothing is requested yet
  const confirm = page.locator("#withdraw-confirm");
  await expect(confirm.getByRole("heading", { name: "Confirm withdrawal" })).toBeVisible();
  await expect(figure(confirm, "amount")).toHaveText("120.50 USD");
  await expect(figure(confirm, "fee")).toHaveText("1.21 USD");
  await expect(figure(confirm, "received")).toHaveText("119.29 USDT");
  await expect(confirm).toContainText(ERC20_ADDRESS);
  await expect(figure(page.locator(".funding-balance"), "locked")).toHaveText("0.00 USD");
  await confirm.getByRole("button", { name: "Confirm withdrawal" }).click();

  await expect(page.getByText("Withdrawal requested. It is now under review.")).toBeVisible();
  const record = page.locator(".withdraw-record").first();
  await expect(record).toContainText("120.50 USD");
  await expect(record).toContainText("Under review");
  await expect(record).toContainText("119.29 USDT");
  await expect(figure(page.locator(".funding-balance"), "available")).toHaveText("379.50 USD");
  await expect(figure(page.locator(".funding-balance"), "locked")).toHaveText("120.50 USD");

  // the saved address: short in the list, whole on its detail
  await page.goto("/mine/coin-address-list");
  await expect(page.getByText("0x8f3A…9E0f")).toBeVisible();
  await page.getByRole("link", { name: /0x8f3A…9E0f/ }).click();
  await expect(page.getByText(ERC20_ADDRESS)).toBeVisible();
});

test("the operator approves one withdrawal and rejects another; the user sees paid, rejected and the refund", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail("withdraw-review");
  await registerByEmail(page, request, email);
  await credit(request, email, "500");
  const bound = await page.request.post("/api/wallet/bind_draw_method", {
    form: { draw_type: "1", draw_currency_id: "1", dc_address: TRC20_ADDRESS },
  });
  const method = ((await bound.json()) as { data: { id: number } }).data.id;
  const ids: number[] = [];
  for (const number of ["100", "50"]) {
    const res = await page.request.post("/api/account/draw", {
      form: { draw_currency_id: "1", draw_method_id: String(method), number, memo: "" },
    });
    const body = (await res.json()) as { code: number; msg: string; data: { id: number } };
    expect(body.code, body.msg).toBe(1);
    ids.push(body.data.id);
  }
  const [paid, rejected] = ids as [number, number];

  await page.context().clearCookies();
  await login(page, OPERATOR.email, OPERATOR.password);
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto("/admin/withdrawals");
  const card = (id: number) => page.locator(`[data-withdrawal="${id}"]`);
  await expect(card(paid)).toContainText("100.00 USD");
  await expect(card(paid)).toContainText(email);
  await expect(card(paid)).toContainText("99.00 USDT");
  await expect(card(paid)).toContainText(TRC20_ADDRESS);

  // approving a payout asks for a fresh code first (the shared operator session then has one)
  await card(paid).getByRole("button", { name: "Approve" }).click();
  await expect(page).toHaveURL(/\/admin\/verify\?from=/);
  await asSteppedUpOperator(page, request, baseURL!);
  await page.goto("/admin/withdrawals");
  // the payout's transaction id is needed, in the network's format
  await card(paid).getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText("Enter the payout's transaction ID in its network's format")).toBeVisible();
  await card(paid).getByLabel("Transaction ID").fill(TX_ID.toUpperCase());
  await card(paid).getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText("Approved.")).toBeVisible();
  await expect(card(paid)).toContainText(TX_ID);

  // rejecting needs a reason
  await card(rejected).getByRole("button", { name: "Reject" }).click();
  await expect(page.getByText("Give the reason for rejecting.")).toBeVisible();
  await card(rejected).getByLabel("Reason").fill("Address not verified");
  await card(rejected).getByRole("button", { name: "Reject" }).click();
  await expect(page.getByText("Rejected.", { exact: true })).toBeVisible();
  await expect(card(rejected)).toContainText("Address not verified");
  await expect(card(paid)).toContainText("Paid");

  // the user: paid and rejected, the rejected amount back in the balance
  await page.context().clearCookies();
  await login(page, email);
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto("/mine/withdraw?type=0");
  await expect(page.locator(`[data-record="${paid}"]`)).toContainText("Paid");
  await expect(page.locator(`[data-record="${paid}"] [data-field="tx"]`)).toContainText(TX_ID);
  await expect(page.locator(`[data-record="${paid}"]`).getByRole("link", { name: "View on explorer" })).toHaveAttribute(
    "href",
    `https://tronscan.org/#/transaction/${TX_ID}`,
  );
  await expect(page.locator(`[data-record="${rejected}"]`)).toContainText("Rejected");
  await expect(page.locator(`[data-record="${rejected}"]`)).toContainText("Address not verified");
  await expect(figure(page.locator(".funding-balance"), "available")).toHaveText("400.00 USD");
  await expect(figure(page.locator(".funding-balance"), "locked")).toHaveText("0.00 USD");
});

test("a normal user gets 404 under /admin/withdrawals", async ({ page, request }) => {
  await registerByEmail(page, request, uniqueEmail("withdraw-404"));
  const res = await page.goto("/admin/withdrawals");
  expect(res?.status()).toBe(404);
});

test("a demo user is refused withdrawals", async ({ page }) => {
  const res = await page.request.post("/login/demo", { form: { from: "/" } });
  expect(res.ok()).toBe(true);
  await page.goto("/mine/withdraw?type=0");
  await expect(page).toHaveURL(/\/user$/);
  await expect(page.getByText("Only real account: please register or log in to a real account.")).toBeVisible();
  const api = await page.request.post("/api/account/draw", {
    form: { draw_currency_id: "1", draw_method_id: "1", number: "20", memo: "" },
  });
  expect(((await api.json()) as { msg: string }).msg).toBe("Only real account: please register or log in to a real account.");
});
