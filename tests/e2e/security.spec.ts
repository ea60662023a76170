import { PASSWORD, codeFromOutbox, expect, registerByEmail, test, uniqueEmail } from "./fixtures";

test.describe("sign-in and passwords, as a user meets them", () => {
  test("after three wrong passwords the form asks for the picture code (a captcha, not a lock)", async ({ page, request }, info) => {
    const email = uniqueEmail(`${info.project.name}-captcha`);
    await registerByEmail(page, request, email);
    await page.context().clearCookies();
    for (let i = 0; i < 3; i++) {
      await page.goto("/login");
      await page.getByLabel("E-mail").fill(email);
      await page.getByLabel("Password", { exact: true }).fill(`wrong-password-${i}`);
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await expect(page.getByRole("alert")).toContainText("Incorrect account or password");
    }
    // the next attempt needs the picture: the image and its field are there, values kept
    await expect(page.getByRole("img", { name: /Picture code/ })).toBeVisible();
    await expect(page.getByLabel("Picture code")).toBeVisible();
    await expect(page.getByLabel("E-mail")).toHaveValue(email);
    // the picture code is required, and a wrong one is refused (the right one is tested with a known captcha in the integration tests)
    await expect(page.getByLabel("Picture code")).toHaveAttribute("required", "");
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Picture code").fill("ZZZZZ");
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    await expect(page.getByRole("alert")).toContainText("The picture code is wrong");
    await expect(page.getByLabel("Picture code")).toHaveValue("");
  });

  test("a common password is refused with the reason, and the values the user typed stay", async ({ page, request }, info) => {
    const email = uniqueEmail(`${info.project.name}-weak`);
    await page.goto("/register");
    await page.getByLabel("E-mail", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Send code" }).click();
    await expect(page.getByText("We sent a verification code")).toBeVisible();
    const code = await codeFromOutbox(request, email);
    await page.getByLabel("Verification code").fill(code);
    await page.getByLabel("Password", { exact: true }).fill("password123");
    await page.getByLabel("Confirm password").fill("password123");
    await page.getByRole("button", { name: "Register", exact: true }).click();
    await expect(page.getByRole("alert")).toContainText("too common or too easy to guess");
    await expect(page.getByLabel("E-mail", { exact: true })).toHaveValue(email);
    await expect(page.getByLabel("Verification code")).toHaveValue(code);
    await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
  });
});
