// Operator-written content as people meet it, with and without JavaScript: an operator writes a
// news item in English (with a picture) and in French in the console; a new user reads it in
// English, switches to French and reads the French text; and a user sends feedback.
import { asSteppedUpOperator } from "./operator";
import { expect, registerByEmail, test, uniqueEmail } from "./fixtures";

// A real 1×1 PNG (it decodes, so the page shows a picture).
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

test.describe("content written by operators", () => {
  test("an operator writes a news item in two languages; a user sees each in their language", async ({ page, request, baseURL }, info) => {
    const js = info.project.use.javaScriptEnabled !== false;
    const tag = `${info.project.name} ${Date.now().toString(36)}`;
    const english = `[e2e] Harbour hours ${tag}`;
    const french = `[e2e] Horaires du port ${tag}`;

    await asSteppedUpOperator(page, request, baseURL!);
    await page.goto("/admin");
    await page.getByRole("navigation", { name: "Operator console" }).getByRole("link", { name: "News" }).click();
    await page.getByRole("link", { name: "Write news" }).click();
    await expect(page).toHaveURL(/\/admin\/news\/edit\?lang=en$/);
    await page.getByLabel("Title").fill(english);
    await page.getByLabel("Summary").fill("When the desk is open");
    await page.getByLabel("Body").fill("The desk opens at nine.\n\n<b>It closes at five.</b>");
    await page.getByLabel("Picture").setInputFiles({ name: "harbour.png", mimeType: "image/png", buffer: PNG });
    if (js) await expect(page.getByText("Photo uploaded. You can choose another to replace it.")).toBeVisible();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Saved. Readers see it now.")).toBeVisible();
    await expect(page.getByRole("heading", { name: english })).toBeVisible();
    await expect(page.getByRole("img", { name: "Current picture" })).toBeVisible();

    // the French text, chosen in the language picker
    await page.getByRole("navigation", { name: "Language" }).getByRole("link", { name: "Français" }).click();
    await expect(page).toHaveURL(/lang=fr/);
    await expect(page.getByText("Not written yet: readers in this language see the English text.")).toBeVisible();
    await page.getByLabel("Title").fill(french);
    await page.getByLabel("Body").fill("Le guichet ouvre à neuf heures.");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Saved. Readers see it now.")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Language" }).getByRole("link", { name: /Français/ })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(page.getByLabel("Title")).toHaveValue(french);

    // a new user reads it in English, markup shown as text, with the picture
    await page.context().clearCookies();
    await registerByEmail(page, request, uniqueEmail(`${info.project.name}-news`));
    await page.goto("/news");
    await page.locator(".news-list a").filter({ hasText: english }).click();
    await expect(page.getByRole("heading", { name: english })).toBeVisible();
    await expect(page.locator("article .text-body p")).toHaveText(["The desk opens at nine.", "It closes at five."]);
    const picture = page.locator("article img.news-image");
    await expect(picture).toHaveAttribute("src", /^\/news\/image\/[0-9a-f-]{36}$/);
    await expect.poll(() => picture.evaluate((i: HTMLImageElement) => (i.complete ? i.naturalWidth : 0))).toBeGreaterThan(0);

    // in French: the French text, in the list and in the item
    await page.goto("/language?from=/news");
    await page.getByRole("button", { name: "Français" }).click();
    await expect(page).toHaveURL(/\/news$/);
    await expect(page.locator(".news-list a").filter({ hasText: french })).toBeVisible();
    await expect(page.locator(".news-list a").filter({ hasText: english })).toHaveCount(0);
    await page.locator(".news-list a").filter({ hasText: french }).click();
    await expect(page.getByRole("heading", { name: french })).toBeVisible();
    await expect(page.locator("article .text-body p")).toHaveText(["Le guichet ouvre à neuf heures."]);

    // German has no text of its own: English
    await page.goto("/language?from=/news");
    await page.getByRole("button", { name: "Deutsch" }).click();
    await expect(page.locator(".news-list a").filter({ hasText: english })).toBeVisible();
  });

  test("feedback: a user sends a message and finds it in their list", async ({ page, request }, info) => {
    await page.goto("/feedback");
    await expect(page).toHaveURL(/\/login\?from=%2Ffeedback$/);
    await registerByEmail(page, request, uniqueEmail(`${info.project.name}-feedback`));
    await page.goto("/feedback");
    await expect(page.getByRole("heading", { name: "Feedback", level: 1 })).toBeVisible();
    await expect(page.getByText("You have not sent any message yet.")).toBeVisible();
    // the message is required
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page).toHaveURL(/\/feedback$/);
    await expect(page.getByText("You have not sent any message yet.")).toBeVisible();
    const message = `The chart freezes on my phone (${info.project.name})`;
    await page.getByRole("textbox", { name: "Your message" }).fill(message);
    await page.getByLabel("Contact").fill("telegram @trader");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.getByText("Thank you: your message was sent.")).toBeVisible();
    await expect(page.getByRole("link", { name: message })).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Your message" })).toHaveValue("");
    await page.getByRole("link", { name: message }).click();
    await expect(page).toHaveURL(/\/feedback\?id=\d+$/);
    await expect(page.getByText("telegram @trader")).toBeVisible();
  });
});
