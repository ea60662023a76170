// Deposits as a user and an operator meet them, with JavaScript on and off: a coin deposit
// (a coin count, its USD figure shown before submitting) and a bank deposit, each with a proof
// photo; the operator approves one and rejects the other; the user sees the outcome and the
// funding balance credited once.
import { expect, registerByEmail, test, uniqueEmail } from "./fixtures";
import { asSteppedUpOperator } from "./operator";

/** A small valid JPEG (start and end markers; the server checks both). */
const PHOTO = {
  name: "receipt.jpg",
  mimeType: "image/jpeg",
  buffer: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, ...Array(300).fill(9), 0xff, 0xd9]),
};

test("a user deposits by coin and by bank with proof photos; the operator approves one and rejects the other; the balance is credited once", async ({
  page,
  request,
  browser,
  baseURL,
}, info) => {
  test.setTimeout(90_000);
  const js = info.project.use.javaScriptEnabled !== false;
  const email = uniqueEmail(`${info.project.name}-deposit`);
  await registerByEmail(page, request, email);

  // coin: BTC, as a coin count; its address with a QR code
  await page.goto("/mine/charge?type=0");
  await page.getByRole("link", { name: "BTC · BTC" }).click();
  await expect(page.getByRole("heading", { name: "Deposit address: BTC (BTC)" })).toBeVisible();
  await expect(page.getByRole("img", { name: "QR code of the deposit address" })).toBeVisible();
  await expect(page.getByText("bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh")).toBeVisible();
  if (js) await expect(page.getByRole("button", { name: "Copy address" })).toBeVisible();
  await page.getByLabel("Amount in").selectOption("coin");
  await page.getByRole("textbox", { name: "Amount", exact: true }).fill("0.002");
  if (js) await expect(page.getByText("Credited: 124.00 USD")).toBeVisible();
  await page.getByLabel("Proof of payment").setInputFiles(PHOTO);
  if (js) await expect(page.getByText("Photo uploaded")).toBeVisible();
  await page.getByRole("button", { name: "Continue" }).click();
  const confirm = page.getByRole("region", { name: "Check your deposit" });
  await expect(confirm).toContainText("124.00 USD (0.002 BTC)");
  await expect(confirm.getByRole("img", { name: "Proof of payment" })).toBeVisible();
  await confirm.getByRole("button", { name: "Submit deposit" }).click();
  await expect(page).toHaveURL(/\/mine\/charge\/records\?type=0$/);
  await expect(page.getByText("Deposit submitted")).toBeVisible();

  // bank: the wire account must be chosen
  await page.goto("/mine/charge?type=1");
  await expect(page.getByText("HCBKHKHH")).toBeVisible();
  await page.getByRole("radio", { name: /Harbour Commercial Bank/ }).check();
  await page.getByLabel("Amount (USD)").fill("300.50");
  await page.getByLabel("Proof of payment").setInputFiles(PHOTO);
  if (js) await expect(page.getByText("Photo uploaded")).toBeVisible();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("region", { name: "Check your deposit" })).toContainText("300.50 USD");
  await page.getByRole("button", { name: "Submit deposit" }).click();
  await expect(page).toHaveURL(/\/mine\/charge\/records\?type=1$/);

  await page.goto("/mine/charge/records");
  const records = page.getByRole("list", { name: "Deposit records" }).getByRole("listitem");
  await expect(records).toHaveCount(2);
  await expect(records.filter({ hasText: "300.50 USD" })).toContainText("Unchecked");
  await expect(records.filter({ hasText: "124.00 USD" })).toContainText("Unchecked");

  // the operator, in a browser of their own (same project settings)
  const { viewport, isMobile, hasTouch, javaScriptEnabled } = info.project.use;
  const opContext = await browser.newContext({
    baseURL,
    viewport,
    isMobile,
    hasTouch,
    javaScriptEnabled,
    locale: "en-US",
    extraHTTPHeaders: {
      "accept-language": "en-US,en;q=0.9",
      "cf-connecting-ip": `10.251.${info.workerIndex % 250}.${info.repeatEachIndex + 1}`,
    },
  });
  const op = await opContext.newPage();
  await asSteppedUpOperator(op, request, baseURL!);
  await op.goto("/admin/deposits");
  const coinItem = op.getByRole("article").filter({ hasText: email }).filter({ hasText: "0.002 BTC" });
  const bankItem = op.getByRole("article").filter({ hasText: email }).filter({ hasText: "Harbour Commercial Bank" });
  await expect(coinItem).toContainText("124.00 USD");
  await expect(coinItem.getByRole("img", { name: /Proof of payment/ })).toBeVisible();
  await coinItem.getByRole("button", { name: "Approve and credit" }).click();
  await expect(op.getByText("Approved.")).toBeVisible();
  await bankItem.getByLabel("Reason").fill("No payment of 300.50 USD arrived");
  await bankItem.getByRole("button", { name: "Reject" }).click();
  await expect(op.getByText("Rejected.", { exact: true })).toBeVisible();
  await expect(op.getByRole("article").filter({ hasText: email })).toHaveCount(0);
  await opContext.close();

  // the user sees both outcomes, and the funding account credited once
  await page.goto("/mine/charge/records");
  await expect(records.filter({ hasText: "124.00 USD" })).toContainText("Finished");
  await expect(records.filter({ hasText: "300.50 USD" })).toContainText("Rejected");
  await expect(records.filter({ hasText: "300.50 USD" })).toContainText("No payment of 300.50 USD arrived");
  await page.goto("/user");
  await expect(page.locator(".account-grid div").filter({ hasText: "Funding" }).locator("dd")).toHaveText("124.00");
  await expect(page.locator(".assets-card .big-number")).toContainText("124.00");
});
