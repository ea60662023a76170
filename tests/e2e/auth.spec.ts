import { PASSWORD, codeFromOutbox, expect, login, registerByEmail, test, uniqueEmail } from "./fixtures";

test.describe("accounts", () => {
  test("register by e-mail with the outbox code, see the user centre, log out", async ({ page, request }, info) => {
    const email = uniqueEmail(info.project.name);
    await registerByEmail(page, request, email);
    await expect(page.getByRole("status").filter({ hasText: "Your account is ready" })).toBeVisible();
    // a long e-mail never makes the page scroll sideways on a phone
    const viewport = page.viewportSize()!.width;
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport);
    await page.getByRole("link", { name: "Account" }).click();
    await expect(page).toHaveURL(/\/user$/);
    await expect(page.getByText(email)).toBeVisible();
    await expect(page.getByText(/UID: \d{8}/)).toBeVisible();
    await expect(page.getByText("Total assets (USD)")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport);
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText("Logout success")).toBeVisible();
    await page.goto("/user");
    await expect(page).toHaveURL(/\/login\?from=%2Fuser$/);
  });

  test("logs back in and returns to the page asked for", async ({ page, request }, info) => {
    const email = uniqueEmail(`${info.project.name}-again`);
    await registerByEmail(page, request, email);
    await page.context().clearCookies();
    await page.goto("/user");
    await expect(page).toHaveURL(/\/login\?from=%2Fuser$/);
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    await expect(page).toHaveURL(/\/user$/);
    await expect(page.getByText(email)).toBeVisible();
  });

  test("a wrong password says so and keeps the account typed", async ({ page }, info) => {
    const account = uniqueEmail(`${info.project.name}-nobody`);
    await login(page, account, "not-the-password");
    await expect(page.getByRole("alert")).toContainText("Incorrect account or password");
    await expect(page.getByLabel("E-mail")).toHaveValue(account);
  });

  test("bad registration input gets field errors and creates nothing", async ({ page }) => {
    await page.goto("/register");
    await page.getByLabel("E-mail", { exact: true }).fill("not-an-email");
    await page.getByLabel("Verification code").fill("123456");
    await page.getByLabel("Password", { exact: true }).fill("abcdefgh1");
    await page.getByLabel("Confirm password").fill("abcdefgh2");
    // bypass the browser's own checks to see the server's answer (as a no-JS client may)
    await page.locator("form.form").evaluate((f) => f.setAttribute("novalidate", ""));
    await page.getByRole("button", { name: "Register", exact: true }).click();
    await expect(page.getByRole("alert")).toContainText("This e-mail address doesn't look right.");
    await expect(page.getByLabel("E-mail", { exact: true })).toHaveValue("not-an-email");
  });

  test("mismatched passwords are caught", async ({ page, request }, info) => {
    const email = uniqueEmail(`${info.project.name}-mismatch`);
    await page.goto("/register");
    await page.getByLabel("E-mail", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Send code" }).click();
    await expect(page.getByText("We sent a verification code")).toBeVisible();
    const code = await codeFromOutbox(request, email);
    await page.getByLabel("Verification code").fill(code);
    await page.getByLabel("Password", { exact: true }).fill("abcdefgh1");
    await page.getByLabel("Confirm password").fill("abcdefgh2");
    await page.getByRole("button", { name: "Register", exact: true }).click();
    await expect(page.getByRole("alert")).toContainText("The two passwords do not match.");
    await expect(page).toHaveURL(/\/register/);
  });

  test("the send-code button counts down 60 seconds", async ({ page }, info) => {
    await page.goto("/register");
    await page.getByLabel("E-mail", { exact: true }).fill(uniqueEmail(`${info.project.name}-count`));
    await page.getByRole("button", { name: "Send code" }).click();
    const button = page.getByRole("button", { name: /Resend in \d+s/ });
    await expect(button).toBeDisabled();
  });

  test("a demo user trades on simulated funds and is refused the password page", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Try a demo account" }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/user");
    await expect(page.getByText("Demo account").first()).toBeVisible();
    await expect(page.getByText("100,000.00")).toBeVisible();
    await page.getByRole("link", { name: "Reset password" }).click();
    await expect(page).toHaveURL(/\/user$/);
    await expect(page.getByText("Only real account")).toBeVisible();
  });

  test("unknown paths go home", async ({ page }) => {
    await page.goto("/definitely/not/here");
    await expect(page).toHaveURL(/\/$/);
  });
});
