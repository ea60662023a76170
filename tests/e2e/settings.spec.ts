// The operator's site settings as an operator uses them, with and without JavaScript. Other tests
// run at the same time against the same site, so this one changes nothing they rely on: refused
// saves (each message shown, what was typed kept, nothing changed) and saves of the values already
// stored. The effects of real changes are covered in workerd (tests/integration/settings.test.ts).
import { axeProblems } from "./axe";
import { expect, test } from "./fixtures";
import { asSteppedUpOperator } from "./operator";

test("an operator's refused settings say why and change nothing; a save of the same values is confirmed", async ({
  page,
  request,
  baseURL,
}, info) => {
  const js = info.project.use.javaScriptEnabled !== false;
  await asSteppedUpOperator(page, request, baseURL!);
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Operator console" }).getByRole("link", { name: "Site settings" }).click();
  await expect(page).toHaveURL(/\/admin\/settings$/);
  if (js) expect(await axeProblems(page, "/admin/settings")).toEqual([]);

  // support chat: 'go to the link' with a script address
  const chat = page.getByRole("form", { name: "Support chat" });
  await chat.getByRole("radio", { name: "Go to the link" }).check();
  await chat.getByLabel("Chat link").fill("javascript:alert(1)");
  await chat.getByRole("button", { name: "Save" }).click();
  await expect(chat.getByRole("alert")).toContainText("Enter a web address starting with https:// or http://.");
  await expect(chat.getByLabel("Chat link")).toHaveValue("javascript:alert(1)");
  await expect(chat.getByRole("radio", { name: "Go to the link" })).toBeChecked();

  // the site: closing without ticking the confirmation
  const site = page.getByRole("form", { name: "Site status" });
  await expect(site.getByRole("status")).toHaveText("The site is open");
  await site.getByRole("radio", { name: /^Closed/ }).check();
  await site.getByRole("button", { name: "Save" }).click();
  await expect(site.getByRole("alert")).toContainText("Tick the box to confirm that you want to close the site.");
  await expect(site.getByRole("status")).toHaveText("The site is open");
  expect((await request.get("/", { maxRedirects: 0 })).status()).toBe(200);

  // demo balances: three decimals
  const demo = page.getByRole("form", { name: "Demo account starting balances" });
  const stored = await demo.getByLabel("Options (USD)").inputValue();
  await demo.getByLabel("Options (USD)").fill("1.005");
  await demo.getByRole("button", { name: "Save" }).click();
  await expect(demo.getByRole("alert")).toContainText("Enter an amount from 0 up to the maximum above, with at most 2 decimals.");
  await expect(demo.getByLabel("Options (USD)")).toHaveValue("1.005");

  // the stored value typed back: saved, and every section shows what is stored again (the refused
  // link and the unconfirmed closing do not linger in their fields)
  await demo.getByLabel("Options (USD)").fill(stored);
  await demo.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();
  await expect(demo.getByLabel("Options (USD)")).toHaveValue(stored);
  await expect(chat.getByLabel("Chat link")).not.toHaveValue("javascript:alert(1)");
  await expect(site.getByRole("radio", { name: /^Open/ })).toBeChecked();
  await expect(page.getByRole("alert")).toHaveCount(0);
});
