// Mining as a new user does it, with JavaScript on and off: subscribe to a fund product (an empty
// amount asks for one and nothing opens; the confirmation shows day and total profit), the daily
// job pays the next day's income (triggered locally), the income list shows it, an early
// redemption states its penalty before confirming and returns share − penalty (automatically
// for one product, after the operator's approval for another); the balances match each step.
import type { Page } from "@playwright/test";
import { expect, registerByEmail, test, uniqueEmail } from "./fixtures";
import { asSteppedUpOperator } from "./operator";

/** Money strings as integer cents (test arithmetic only). */
const cents = (s: string) => Math.round(Number(s) * 100);

/**
 * Income already paid to the user's subscription of a product. Other tests (the other projects)
 * trigger tomorrow's job in the same local database, which may pay a day to this user's fresh
 * subscription before this test triggers it: balances are checked against what was paid.
 */
async function paidIncome(page: Page, title: string): Promise<number> {
  const res = await page.request.get("/api/fund/subList?page=1");
  const body = (await res.json()) as { data: { data: { sum_profit: string; get_fund: { title: string } }[] } };
  return cents(body.data.data.find((s) => s.get_fund.title === title)!.sum_profit);
}

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

async function fundingBalance(page: Page): Promise<string> {
  const res = await page.request.get("/v2/api/main/wallet/getBalance");
  const body = (await res.json()) as { data: { list: { accountTypeId: number; balance: string }[] } };
  return body.data.list.find((a) => a.accountTypeId === 1)!.balance;
}

async function subscribe(page: Page, title: string, amount: string, js: boolean, figures: { day: string; total: string }) {
  await page.goto("/mining");
  await page.getByRole("listitem").filter({ hasText: title }).getByRole("link", { name: "Subscribe" }).click();
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  // an empty amount: 'input lock num', and no confirmation opens
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByRole("alert")).toContainText("Please enter the amount to lock.");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByText("Day profit")).toHaveCount(0);
  await page.getByLabel("Amount").fill(amount);
  await page.getByRole("button", { name: "Subscribe" }).click();
  const confirm = js ? page.getByRole("dialog", { name: "Confirm subscription" }) : page.locator("main");
  await expect(confirm).toContainText(`Day profit${figures.day} USDT`);
  await expect(confirm).toContainText(`Total profit${figures.total} USDT`);
  await confirm.getByRole("button", { name: "Confirm" }).click();
  await expect(page).toHaveURL(/\/mining\/record$/);
  await expect(page.getByText("Subscribed. Income is paid every day from tomorrow.")).toBeVisible();
}

test("subscribe, daily income, early redemption with the stated penalty (automatic and by the operator)", async ({
  page,
  request,
  browser,
  baseURL,
}, info) => {
  test.setTimeout(90_000);
  const js = info.project.use.javaScriptEnabled !== false;
  const email = uniqueEmail(`${info.project.name}-mining`);
  await registerByEmail(page, request, email);
  expect((await page.request.post("/dev/credit", { data: { email, amount: "1000.00" } })).ok()).toBe(true);

  // Stable Yield: 0.35 % a day for 7 days, 2 % penalty, redemptions approved automatically
  await subscribe(page, "Stable Yield — 7 days", "200", js, { day: "0.7000", total: "4.9000" });
  const stable = page.getByRole("listitem").filter({ hasText: "Stable Yield" });
  await expect(stable).toContainText("In progress");
  await expect(stable).toContainText("200.00 USDT");
  expect(cents(await fundingBalance(page))).toBe(80_000 + (await paidIncome(page, "Stable Yield — 7 days")));

  // the daily job of tomorrow pays the first day (running it twice pays once)
  for (let i = 0; i < 2; i++) expect((await page.request.post(`/dev/fund/income?day=${tomorrow()}`)).ok()).toBe(true);
  await page.goto("/mining/record");
  await expect(stable).toContainText("0.7000 USDT", { useInnerText: true });
  await stable.getByRole("link", { name: "Income" }).click();
  await expect(page).toHaveURL(/\/mining\/income\?id=\d+$/);
  const rows = page.getByRole("list", { name: "Daily income" }).getByRole("listitem");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(tomorrow());
  await expect(rows.first()).toContainText("+0.7000 USDT");
  expect(await fundingBalance(page)).toBe("800.70");

  // early redemption: the penalty is stated before confirming (2 % of 200 = 4.00)
  await page.goto("/mining/record");
  await stable.getByRole("link", { name: "Redeem" }).click();
  const sheet = page.getByRole("dialog", { name: "Early redemption" });
  await expect(sheet).toContainText("Pay 4.00 USDT penal sum for redemption");
  await expect(sheet).toContainText("196.00 USDT");
  await sheet.getByRole("button", { name: "Redeem now" }).click();
  await expect(page.getByText("Redeemed: the amount less the penalty is back in your funding account.")).toBeVisible();
  await expect(stable).toContainText("Refunded");
  await expect(stable.getByRole("button", { name: "Redeem" })).toBeDisabled();
  expect(await fundingBalance(page)).toBe("996.70");

  // Hydro: 0.8 % a day for 30 days, 5 % penalty, the operator approves redemptions
  await subscribe(page, "S19 XP Hydro — 30 days", "100", js, { day: "0.8000", total: "24.0000" });
  const hydro = page.getByRole("listitem").filter({ hasText: "S19 XP Hydro" });
  await hydro.getByRole("link", { name: "Redeem" }).click();
  await expect(page.getByRole("dialog", { name: "Early redemption" })).toContainText("Pay 5.00 USDT penal sum for redemption");
  await page.getByRole("button", { name: "Redeem now" }).click();
  await expect(page.getByText("Redemption requested. An operator will review it.")).toBeVisible();
  await expect(hydro).toContainText("Refunding");
  // no income while refunding; a parallel run may have paid its first day before the request
  const hydroIncome = await paidIncome(page, "S19 XP Hydro — 30 days");
  expect([0, 80]).toContain(hydroIncome);
  expect(cents(await fundingBalance(page))).toBe(89_670 + hydroIncome);

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
      "cf-connecting-ip": `10.252.${info.workerIndex % 250}.${info.repeatEachIndex + 1}`,
    },
  });
  const op = await opContext.newPage();
  await asSteppedUpOperator(op, request, baseURL!);
  await op.goto("/admin/funds");
  const request_ = op.getByRole("article").filter({ hasText: email });
  await expect(request_).toContainText("5.00 USDT");
  await expect(request_).toContainText("95.00 USDT");
  await request_.getByRole("button", { name: "Approve" }).click();
  await expect(op.getByText("Approved.")).toBeVisible();
  await expect(op.getByRole("article").filter({ hasText: email })).toHaveCount(0);
  await opContext.close();

  await page.goto("/mining/record");
  await expect(hydro).toContainText("Refunded");
  expect(cents(await fundingBalance(page))).toBe(99_170 + hydroIncome);
});

test("another user's subscription and a closed product answer 'not found'", async ({ page, request }, info) => {
  await registerByEmail(page, request, uniqueEmail(`${info.project.name}-mining-idor`));
  const res = await page.goto("/mining/income?id=1");
  expect(res?.status()).toBe(404);
  const redeem = await page.goto("/mining/record?redeem=1");
  expect(redeem?.status()).toBe(404);
  const unknown = await page.goto("/mining/subscribe?id=999999");
  expect(unknown?.status()).toBe(404);
});
