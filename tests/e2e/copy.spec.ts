// Copy trading as users and the operator meet it, with JavaScript and without: a user applies to
// become a trader (the agreement required — disabled button with JavaScript, the server's refusal
// without), the operator approves, the trader shows on /rank, a second user follows with a
// multiple and a bond through the guide and sees the follow on the trader's detail, then
// unfollows through the confirm step; the trader, in another browser, refreshes my-follower (pulling
// the list down on a phone, the refresh button on a desktop, reloading without JavaScript).
import type { Page } from "@playwright/test";
import { PASSWORD, expect, login, registerByEmail, test, uniqueEmail } from "./fixtures";
import { OPERATOR_EMAIL, OPERATOR_PASSWORD } from "./operator";

async function signInAs(page: Page, email: string, password = PASSWORD) {
  await page.context().clearCookies();
  await login(page, email, password);
  await expect(page).not.toHaveURL(/\/login/);
}

test.describe("copy trading", () => {
  test.describe.configure({ timeout: 90_000 });

  test("a user applies, the operator approves, another user follows from the ranking and unfollows through the confirm step", async ({
    page,
    request,
    baseURL,
    browser,
  }, info) => {
    const js = info.project.use.javaScriptEnabled !== false;

    // 1. the future trader applies
    const traderEmail = uniqueEmail(`${info.project.name}-leader`);
    await registerByEmail(page, request, traderEmail);
    await page.goto("/user");
    const uid = (await page.getByText(/^UID:/).textContent())!.replace(/\D/g, "");
    await page.goto("/follow");
    await expect(page).toHaveURL(/\/follow\/trader-apply$/);
    await expect(page.getByRole("heading", { name: "Application documents" })).toBeVisible();
    const apply = page.getByRole("button", { name: "Apply" });
    const agree = page.getByLabel("I have read and agree to the application documents");
    if (js) {
      await expect(apply).toBeDisabled();
      await agree.check();
      await expect(apply).toBeEnabled();
      await agree.uncheck();
      await expect(apply).toBeDisabled();
    } else {
      // without JavaScript the button cannot wait for the box: the server refuses the form unticked
      await apply.click();
      await expect(page.getByRole("alert").filter({ hasText: "Tick the box to agree first." })).toBeVisible();
      await expect(page.getByText("Waiting for an operator's review.")).toHaveCount(0);
    }
    await agree.check();
    await apply.click();
    await expect(page.getByText("Application sent. An operator will review it.")).toBeVisible();
    await expect(page.getByText("Waiting for an operator's review.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Apply" })).toHaveCount(0);

    // 2. the operator approves it (no step-up: no money moves)
    await signInAs(page, OPERATOR_EMAIL, OPERATOR_PASSWORD);
    await page.goto("/admin/traders");
    const item = page.getByRole("listitem").filter({ hasText: traderEmail });
    await expect(item).toBeVisible();
    await item.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Approved." })).toBeVisible();
    const nickname = `${traderEmail.slice(0, 2)}***${uid.slice(-4)}`;
    await expect(page.getByRole("heading", { name: new RegExp(`${nickname.replace(/\*/g, "\\*")} · ${uid}`) })).toBeVisible();

    // the trader now lands on their followers
    await signInAs(page, traderEmail);
    await page.goto("/follow");
    await expect(page).toHaveURL(/\/follow\/my-follower$/);
    await expect(page.getByText("No followers yet.")).toBeVisible();

    // 3. a second user, with 300 USD in the contract account, finds the trader on /rank
    const followerEmail = uniqueEmail(`${info.project.name}-copier`);
    await page.context().clearCookies();
    await registerByEmail(page, request, followerEmail);
    expect((await request.post("/dev/credit", { data: { email: followerEmail, amount: "500" } })).ok()).toBe(true);
    const moved = await page.request.post("/api/account/transfer", {
      form: { balance: "300", from: "1", to: "3", currency_id: "1" },
      headers: { origin: baseURL! },
    });
    expect(((await moved.json()) as { code: number }).code).toBe(1);
    await page.goto("/rank");
    const card = page.getByRole("link").filter({ hasText: nickname });
    await expect(card).toBeVisible();
    await expect(card).toContainText("3-week return");
    await card.click();
    await expect(page).toHaveURL(/\/follow\/trader\?id=\d+$/);
    const detailUrl = page.url();
    await expect(page.getByRole("heading", { name: nickname, level: 2 })).toBeVisible();
    await expect(page.getByText("Realised profit ÷ margin used, over the trader's own orders closed in the last 21 days.")).toBeVisible();

    // 4. follows through the guide: multiple 3, bond 120 USD
    await page.getByRole("link", { name: "Follow", exact: true }).click();
    await expect(page).toHaveURL(/\/follow\/submit\?id=\d+$/);
    await expect(page.getByRole("heading", { name: "Before you follow" })).toBeVisible();
    await page.getByLabel("I understand how copy trading works and its risks").check();
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.getByLabel("Multiple").fill("3");
    if (js) await expect(page.getByText("auto follow: 3")).toBeVisible();
    await page.getByLabel("Maximum follow bond (USD)").fill("400");
    await page.getByRole("button", { name: "Follow now" }).click();
    // above the contract balance: refused, the values kept
    await expect(
      page.getByRole("alert").filter({ hasText: "The maximum follow bond cannot be more than your contract balance." }),
    ).toBeVisible();
    await expect(page.getByLabel("Multiple")).toHaveValue("3");
    await page.getByLabel("Maximum follow bond (USD)").fill("120");
    await page.getByRole("button", { name: "Follow now" }).click();
    await expect(page.getByText("You now follow this trader.")).toBeVisible();
    expect(page.url()).toBe(detailUrl);
    await expect(page.getByRole("heading", { name: "Your follow" })).toBeVisible();
    await expect(page.getByText("auto follow: 3")).toBeVisible();
    await expect(page.getByText("120.00")).toBeVisible();
    await expect(page.getByRole("link", { name: "Follow", exact: true })).toHaveCount(0);

    // the trader, in another browser, sees the follower on my-follower
    const traderPage = await browser.newPage(info.project.use);
    await signInAs(traderPage, traderEmail);
    await traderPage.goto("/follow/my-follower");
    const followerCard = traderPage.getByRole("listitem").filter({ has: traderPage.getByRole("heading", { level: 3 }) });
    await expect(followerCard).toHaveCount(1);

    // the follow-list shows the card
    await page.goto("/follow/follow-list");
    const mine = page.getByRole("listitem").filter({ hasText: nickname }).first();
    await expect(mine).toContainText("×3");
    await expect(mine).toContainText("120.00");

    // 5. unfollows through the confirm step (its warning, the choice for open copies)
    await page.goto(detailUrl);
    await page.getByRole("link", { name: "Unfollow" }).click();
    await expect(page.getByText("your open orders will no longer follow this trader's closing order")).toBeVisible();
    await page.getByLabel("Close them now at the market price").check();
    await page.getByRole("button", { name: "Unfollow" }).click();
    await expect(page.getByText("You no longer follow this trader.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Follow", exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Your follow" })).toHaveCount(0);

    // the trader's list refreshes: by pulling it down on a phone, by the refresh button on a
    // desktop, by reloading without JavaScript
    if (js && info.project.use.hasTouch) {
      const cdp = await traderPage.context().newCDPSession(traderPage);
      const box = (await traderPage.getByRole("heading", { name: "Followers", exact: true }).boundingBox())!;
      const x = Math.round(box.x + 20);
      const y = Math.round(box.y + 5);
      await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y }] });
      for (const dy of [30, 60, 90, 110])
        await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x, y: y + dy }] });
      await expect(traderPage.getByText("Release to refresh")).toBeVisible();
      await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    } else if (js) await traderPage.getByRole("button", { name: "Refresh" }).click();
    else await traderPage.reload();
    await expect(traderPage.getByText("No followers yet.")).toBeVisible();
    await traderPage.close();
  });
});
