// A loan as a new user and the operator do it, with JavaScript (signature drawn on the pad,
// photos uploaded ahead) and without (the full name typed as the signature, files posted with the
// form): loan KYC → operator approval → terms, amount and summary → agreement → signature →
// operator pays out (step-up) → the funding balance → repayment with a proof → operator settles.
import type { Page } from "@playwright/test";
import { axeProblems } from "./axe";
import { expect, registerByEmail, test, uniqueEmail } from "./fixtures";
import { asSteppedUpOperator } from "./operator";

const PHOTO = {
  name: "photo.jpg",
  mimeType: "image/jpeg",
  buffer: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, ...Array(300).fill(9), 0xff, 0xd9]),
};

test("a user passes the loan identity check, applies for 1,000 USD, signs, is paid out, repays with a proof and the operator settles it", async ({
  page,
  request,
  browser,
  baseURL,
}, info) => {
  test.setTimeout(120_000);
  const js = info.project.use.javaScriptEnabled !== false;
  const email = uniqueEmail(`${info.project.name}-loan`);
  await registerByEmail(page, request, email);
  const a11y: string[] = [];
  const check = async (p: Page, screen: string) => {
    if (js) a11y.push(...(await axeProblems(p, screen)));
  };

  // the loan KYC: bad input first (answered next to the field, values kept)
  await page.goto("/loan");
  await page.getByLabel("Last name").fill("Lovelace");
  await page.getByLabel("First name").fill("Ada");
  await page.getByLabel("Sex").selectOption("2");
  await page.getByLabel("Date of birth").fill("1949/12/31");
  await page.getByLabel("Country").fill("United Kingdom");
  await page.getByLabel("Mobile number").fill("+44 7700 900123");
  await page.getByLabel("Document", { exact: true }).selectOption("2");
  await page.getByLabel("Photo of you holding the document").setInputFiles(PHOTO);
  if (js) await expect(page.getByText("Photo uploaded")).toBeVisible();
  await page.getByRole("button", { name: "Submit for review" }).click();
  await expect(page.getByRole("alert")).toContainText("between 1950/01/01 and today");
  await check(page, "/loan (errors)");
  await expect(page.getByLabel("Last name")).toHaveValue("Lovelace");
  await page.getByLabel("Date of birth").fill("1990/05/17");
  if (!js) await page.getByLabel("Photo of you holding the document").setInputFiles(PHOTO);
  await page.getByRole("button", { name: "Submit for review" }).click();
  await expect(page.getByText("Loan identity check submitted: we review it within 48 hours.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Your identity check is waiting for review." })).toBeVisible();

  // the operator approves the KYC
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
  await op.goto("/admin/loans");
  const kycItem = op.getByRole("article").filter({ hasText: email });
  await expect(kycItem).toContainText("Ada Lovelace");
  await check(op, "/admin/loans");
  await expect(kycItem.getByRole("img", { name: "Photo of Ada Lovelace holding the document" })).toBeVisible();
  await kycItem.getByRole("button", { name: "Approve" }).click();
  await expect(op.getByText("Approved.")).toBeVisible();

  // terms, amount, summary
  await page.goto("/loan");
  await expect(page).toHaveURL(/\/loan\/submit$/);
  await page.getByRole("radio", { name: /^7 days/ }).check();
  await page.getByLabel("Loan amount (USD)").fill("5000");
  await page.getByRole("button", { name: "Show the summary" }).click();
  await expect(page.getByRole("alert")).toContainText("within this term's minimum and maximum");
  await page.getByLabel("Loan amount (USD)").fill("1000");
  const summary = page.getByRole("region", { name: "Summary" });
  // with JavaScript the summary follows the amount as it is typed
  if (js) await expect(summary).toContainText("1,003.50 USD");
  await page.getByRole("button", { name: "Show the summary" }).click();
  await expect(summary).toContainText("3.50 USD");
  await expect(summary).toContainText("1,003.50 USD");
  await check(page, "/loan/submit");
  await summary.getByRole("link", { name: "Continue to the agreement" }).click();
  await expect(page.getByText("Borrower: Ada Lovelace")).toBeVisible();
  await expect(page.getByText(/late fee of 0.25% of the amount per day/)).toBeVisible();
  await page.getByRole("link", { name: "Sign the agreement" }).click();

  // unsigned is refused; then sign (drawn with JavaScript, typed without)
  await page.getByRole("button", { name: "Sign and apply" }).click();
  await expect(page.getByRole("alert")).toContainText("Please sign the agreement.");
  await check(page, "/loan/sign");
  if (js) {
    const pad = page.locator("canvas.signature-pad");
    await pad.scrollIntoViewIfNeeded();
    const box = (await pad.boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + 40);
    await page.mouse.down();
    await page.mouse.move(box.x + 80, box.y + 90, { steps: 5 });
    await page.mouse.move(box.x + 160, box.y + 30, { steps: 5 });
    await page.mouse.up();
    await expect(pad).toHaveAttribute("data-state", "done");
  } else {
    await page.getByLabel("Or type your full name as your signature").fill("Ada Lovelace");
  }
  await page.getByRole("button", { name: "Sign and apply" }).click();
  await expect(page).toHaveURL(/\/loan\/record$/);
  await expect(page.getByText("Loan application sent: it is waiting for review.")).toBeVisible();
  const record = page.getByRole("listitem").filter({ hasText: "1,000.00 USD" });
  await expect(record).toContainText("Awaiting review");
  await expect(record.getByRole("button", { name: "Repay" })).toBeDisabled();

  // the operator pays out
  await op.goto("/admin/loans");
  const loanItem = op
    .getByRole("article")
    .filter({ hasText: email })
    .filter({ has: op.getByRole("button", { name: "Approve and pay out" }) });
  await expect(loanItem).toContainText("1,000.00 USD");
  await loanItem.getByRole("button", { name: "Approve and pay out" }).click();
  await expect(op.getByText("Approved.")).toBeVisible();

  await page.goto("/user");
  await expect(page.locator(".account-grid div").filter({ hasText: "Funding" }).locator("dd")).toHaveText("1,000.00");

  // repayment with a proof
  await page.goto("/loan/record");
  await expect(record).toContainText("To repay");
  await record.getByRole("link", { name: "Repay" }).click();
  await expect(page).toHaveURL(/\/loan\/repayment\?loan_id=\d+$/);
  await expect(page.locator(".loan-total")).toHaveText("1,003.50 USD");
  await check(page, "/loan/repayment");
  await page.getByRole("radio").first().check();
  await page.getByLabel("Transfer proof").setInputFiles(PHOTO);
  if (js) await expect(page.getByText("Photo uploaded")).toBeVisible();
  await page.getByRole("button", { name: "Send the repayment proof" }).click();
  await expect(page.getByText("Repayment proof sent: we check it and then settle your loan.")).toBeVisible();
  await expect(record).toContainText("Repayment under check");

  // the operator settles it
  await op.goto("/admin/loans");
  const repayItem = op
    .getByRole("article")
    .filter({ hasText: email })
    .filter({ has: op.getByRole("button", { name: "Approve: loan repaid" }) });
  await expect(repayItem).toContainText("1,003.50 USD");
  await repayItem.getByRole("button", { name: "Approve: loan repaid" }).click();
  await expect(op.getByText("Approved.")).toBeVisible();
  await opContext.close();

  await page.goto("/loan/record");
  await expect(record).toContainText("Repaid");
  await check(page, "/loan/record");
  expect(a11y).toEqual([]);
});
