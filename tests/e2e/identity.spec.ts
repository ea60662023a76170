// Real-name verification as a user and the operator do it, with JavaScript (photos uploaded as
// soon as they are chosen) and without (the form posts the files): submit, wait for audit, the
// operator approves or rejects with a reason, the user sees the outcome.
import type { Locator, Page } from "@playwright/test";
import { PASSWORD, expect, login, registerByEmail, test, uniqueEmail } from "./fixtures";

// A real 1×1 PNG (it decodes, so the page and the queue show a picture).
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
const OPERATOR = { email: "operator@bourse.local", password: "operator-local-only" };

async function submitVerification(page: Page, javaScript: boolean, name: string, cardId: string) {
  await page.getByLabel("Real name").fill(name);
  await page.getByLabel("ID or passport number").fill(cardId);
  await page.getByLabel("Front of the document").setInputFiles({ name: "front.png", mimeType: "image/png", buffer: PNG });
  await page.getByLabel("Back of the document").setInputFiles({ name: "back.png", mimeType: "image/png", buffer: PNG });
  // with JavaScript each photo is uploaded at once and shown
  if (javaScript) await expect(page.getByText("Photo uploaded. You can choose another to replace it.")).toHaveCount(2);
  // the submission stores two photos' records and the request: wait for its answer (a busy
  // machine can take longer than an assertion's default wait)
  const posted = (r: { method(): string; url(): string }) => r.method() === "POST" && new URL(r.url()).pathname.startsWith("/mine/auth");
  const answered = page.waitForResponse((r) => posted(r.request()), { timeout: 40_000 });
  // Twice in a few hundred CI runs the click left no request at all (the button focused, idle,
  // no error): a click that sent nothing is repeated; one that sent the form is never sent twice.
  await expect(async () => {
    const sent = page.waitForRequest(posted, { timeout: 5_000 });
    await page.getByRole("button", { name: "Submit for review" }).click();
    await sent;
  }).toPass({ timeout: 30_000 });
  await answered;
}

async function expectPictureShown(scope: Page | Locator, name: string | RegExp) {
  const image = scope.getByRole("img", { name }).first();
  await image.scrollIntoViewIfNeeded();
  await expect.poll(() => image.evaluate((i: HTMLImageElement) => (i.complete ? i.naturalWidth : 0))).toBeGreaterThan(0);
}

async function asOperator(page: Page) {
  await page.context().clearCookies();
  await login(page, OPERATOR.email, OPERATOR.password);
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto("/admin/identity");
}

async function asUser(page: Page, email: string) {
  await page.context().clearCookies();
  await login(page, email, PASSWORD);
  await expect(page).not.toHaveURL(/\/login/);
}

async function submitAsNewUser(page: Page, request: Parameters<typeof registerByEmail>[1], email: string, javaScript: boolean) {
  await registerByEmail(page, request, email);
  await page.goto("/user");
  await expect(page.getByRole("link", { name: /Identity verification/ })).toContainText("Not verified");
  await page.getByRole("link", { name: /Identity verification/ }).click();
  await expect(page).toHaveURL(/\/mine\/auth$/);
  await submitVerification(page, javaScript, "Zoë O'Brien", "p-1234567");
  await expect(page.getByText("Submitted. We will review your documents soon.")).toBeVisible();
  await expect(page.getByText("Waiting for audit")).toBeVisible();
  await expect(page.getByText("P-*****67")).toBeVisible();
  await expect(page.getByText("Zoë O'Brien")).toBeVisible();
  await expect(page.getByRole("button", { name: "Submit for review" })).toHaveCount(0);
  await expectPictureShown(page, "Front of the document");
  await expectPictureShown(page, "Back of the document");
  await page.goto("/user");
  await expect(page.getByRole("link", { name: /Identity verification/ })).toContainText("Waiting for audit");
}

test.describe("real-name verification", () => {
  // each flow registers a user and signs in twice more
  test.describe.configure({ timeout: 60_000 });

  test("a new user submits name, passport number and two photos; the operator sees both photos and approves; the user is certified", async ({
    page,
    request,
  }, info) => {
    const email = uniqueEmail(`${info.project.name}-kyc-ok`);
    const javaScript = info.project.name !== "mobile-nojs";
    await submitAsNewUser(page, request, email, javaScript);

    await asOperator(page);
    const item = page.getByRole("listitem").filter({ hasText: email });
    await expect(item).toBeVisible();
    await expect(item).toContainText("P-1234567");
    await expectPictureShown(item, /Front of the document of Zoë O'Brien/);
    await expectPictureShown(item, /Back of the document of Zoë O'Brien/);
    await item.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByText("Approved.")).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: email })).toContainText("Certified");

    await asUser(page, email);
    await page.goto("/mine/auth");
    await expect(page.getByText("Certified", { exact: true })).toBeVisible();
    await expect(page.getByText("Your identity is verified.")).toBeVisible();
    await page.goto("/user");
    await expect(page.getByRole("link", { name: /Identity verification/ })).toContainText("Certified");
  });

  test("the operator rejects with a reason; the user sees the reason and the form again, and submits again", async ({
    page,
    request,
  }, info) => {
    const email = uniqueEmail(`${info.project.name}-kyc-no`);
    const javaScript = info.project.name !== "mobile-nojs";
    await submitAsNewUser(page, request, email, javaScript);

    await asOperator(page);
    const item = page
      .getByRole("listitem")
      .filter({ hasText: email })
      .filter({ has: page.getByRole("button", { name: "Reject" }) });
    // a rejection needs a reason
    await item.getByRole("button", { name: "Reject" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Give the reason for rejecting." })).toBeVisible();
    await item.getByLabel("Reason").fill("The photo of the back is blurry");
    await item.getByRole("button", { name: "Reject" }).click();
    await expect(page.getByText("Rejected.")).toBeVisible();

    await asUser(page, email);
    await page.goto("/mine/auth");
    await expect(page.getByText("Your verification was rejected: The photo of the back is blurry")).toBeVisible();
    await submitVerification(page, javaScript, "Zoë O'Brien", "P-1234567");
    await expect(page.getByText("Waiting for audit")).toBeVisible();
  });

  test("bad input is answered next to the field, with the values kept", async ({ page, request }, info) => {
    const email = uniqueEmail(`${info.project.name}-kyc-bad`);
    await registerByEmail(page, request, email);
    await page.goto("/mine/auth");
    await page.getByLabel("Real name").fill("Ann 2");
    await page.getByLabel("ID or passport number").fill("P 1234");
    await page.getByLabel("Front of the document").setInputFiles({ name: "front.png", mimeType: "image/png", buffer: PNG });
    await page
      .getByLabel("Back of the document")
      .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a picture at all") });
    if (info.project.name !== "mobile-nojs") await expect(page.getByText("Choose a photo (JPEG, PNG or WebP).")).toBeVisible();
    await page.getByRole("button", { name: "Submit for review" }).click();
    const alert = page.getByRole("alert").filter({ hasText: "Use letters, spaces, dots, hyphens and apostrophes only." });
    await expect(alert).toBeVisible();
    await expect(alert).toContainText("Enter 5 to 30 letters, digits or hyphens.");
    await expect(page.getByLabel("Real name")).toHaveValue("Ann 2");
    await expect(page.getByText("Waiting for audit")).toHaveCount(0);
    // the good front photo is kept (also without JavaScript): only the back needs choosing again
    await expectPictureShown(page, "Front of the document");
    await page.getByLabel("Real name").fill("Ann Lee");
    await page.getByLabel("ID or passport number").fill("P-1234");
    await page.getByLabel("Back of the document").setInputFiles({ name: "back.png", mimeType: "image/png", buffer: PNG });
    if (info.project.name !== "mobile-nojs")
      await expect(page.getByText("Photo uploaded. You can choose another to replace it.")).toHaveCount(2);
    await page.getByRole("button", { name: "Submit for review" }).click();
    await expect(page.getByText("Waiting for audit")).toBeVisible();
    await expect(page.getByText("Ann Lee")).toBeVisible();
  });
});
