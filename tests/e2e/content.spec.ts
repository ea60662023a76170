// Content screens as a user meets them, with and without JavaScript: news list → detail,
// announcements opening in place, the invite page (link, QR code, the old '#/register' form),
// the company e-mail, and the user centre's customer-service row reaching a real page.
import { expect, registerByEmail, test, uniqueEmail } from "./fixtures";

test.describe("content", () => {
  test("news: the list leads to an item with its date, picture and paragraphs", async ({ page }) => {
    await page.goto("/news");
    await expect(page.getByRole("heading", { name: "News", level: 1 })).toBeVisible();
    // the seeded items (operators' items written by other tests are tagged [e2e])
    const items = page.locator(".news-list a").filter({ hasNotText: "[e2e]" });
    await expect(items).toHaveCount(6);
    // newest first
    await expect(items.first()).toContainText("Account Security Tips");
    await expect(items.last()).toContainText("Understanding Leverage and Margin");
    await items.filter({ hasText: "Stop-Loss and Take-Profit Orders Explained" }).click();
    await expect(page).toHaveURL(/\/news\/detail\?id=3$/);
    await expect(page.getByRole("heading", { name: "Stop-Loss and Take-Profit Orders Explained" })).toBeVisible();
    await expect(page.locator("article time")).toHaveAttribute("datetime", "2026-11-10T07:45:00.000Z");
    await expect(page.locator("article img.news-image")).toHaveAttribute("src", "/news/3.svg");
    await expect(page.locator("article .text-body p")).toHaveCount(3);
    await expect(page.locator("article .text-body p").first()).toContainText("A stop-loss closes a position automatically");
    await page.getByRole("link", { name: "Back" }).click();
    await expect(page).toHaveURL(/\/news$/);
    // an unknown id: a not-found page with a way home
    const res = await page.goto("/news/detail?id=987654");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  });

  test("announcements: newest first, each opens in place", async ({ page }) => {
    await page.goto("/");
    await page.locator("nav.shortcuts").getByRole("link", { name: "Announcements" }).click();
    await expect(page).toHaveURL(/\/mine\/announcement$/);
    const summaries = page.locator("details.announcement summary");
    await expect(summaries).toHaveCount(4);
    await expect(summaries.first()).toContainText("Scheduled Maintenance");
    const restrictions = page.locator("details.announcement").filter({ hasText: "Service Restrictions" });
    const body = restrictions.getByText("North Korea, Israel, China, Vanuatu and Cuba", { exact: false });
    await expect(body).toBeHidden();
    await restrictions.locator("summary").click();
    await expect(body).toBeVisible();
    await restrictions.locator("summary").click();
    await expect(body).toBeHidden();
  });

  test("invite: the link and its QR code; the link (and its old '#/register' form with JavaScript) opens registration with the code", async ({
    page,
    request,
  }, info) => {
    const js = info.project.use.javaScriptEnabled !== false;
    await registerByEmail(page, request, uniqueEmail(`${info.project.name}-invite`));
    await page.goto("/user");
    await page.getByRole("link", { name: "Invite friends" }).click();
    await expect(page).toHaveURL(/\/mine\/invite$/);
    const linkEl = page.getByTestId("invite-link");
    const link = (await linkEl.textContent())!;
    const origin = new URL(page.url()).origin;
    expect(link).toMatch(new RegExp(`^${origin.replace(/[.]/g, "\\.")}/register\\?invite_code=[A-Z0-9]+$`));
    await expect(linkEl).toHaveAttribute("href", link);
    const code = new URL(link).searchParams.get("invite_code")!;
    await expect(page.locator("dd.num")).toHaveText(code);
    const qr = page.getByRole("img", { name: "QR code of your invite link" });
    await expect(qr).toBeVisible();
    expect(await qr.evaluate((el) => el.tagName.toLowerCase())).toBe("svg");
    await expect(qr).toHaveAttribute("data-qr-text", link);
    expect(((await qr.locator("path").getAttribute("d")) ?? "").length).toBeGreaterThan(200);
    if (js) {
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
      await page.getByRole("button", { name: "Copy link" }).click();
      await expect(page.getByText("Copy success")).toBeVisible();
    } else {
      await expect(page.getByRole("button", { name: "Copy link" })).toHaveCount(0);
    }

    // A visitor opening the link (this browser, signed out).
    await page.context().clearCookies();
    await page.goto(link);
    await expect(page).toHaveURL(/\/register\?invite_code=/);
    await expect(page.getByLabel("Invite code (optional)")).toHaveValue(code);
    if (js) {
      await page.goto(`/#/register?invite_code=${code}`);
      await expect(page).toHaveURL(new RegExp(`/register\\?invite_code=${code}$`));
      await expect(page.getByLabel("Invite code (optional)")).toHaveValue(code);
    }
  });

  test("the user centre's customer-service and e-mail rows reach real pages", async ({ page, request }, info) => {
    await registerByEmail(page, request, uniqueEmail(`${info.project.name}-chat`));
    await page.goto("/user");
    await page.getByRole("link", { name: "Customer service" }).click();
    await expect(page).toHaveURL(/\/mine\/chat$/);
    await expect(page.getByRole("heading", { name: "Customer service", level: 1 })).toBeVisible();
    // The local seed configures no chat link: the page says so and offers the e-mail instead.
    await expect(page.getByText("Online chat is not available at the moment.")).toBeVisible();
    await page.getByRole("link", { name: "Company e-mail" }).click();
    await expect(page).toHaveURL(/\/mine\/email$/);
    const mail = page.locator(".address-text a");
    await expect(mail).toHaveAttribute("href", /^mailto:[^@\s]+@[^@\s]+$/);
    await expect(page.getByText("Coming soon")).toHaveCount(0);
  });
});
