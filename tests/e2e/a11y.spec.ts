/**
 * Accessibility: axe-core with the WCAG 2.0/2.1/2.2 A and AA rules on every screen, in light and
 * dark, English and Arabic, as a visitor and signed in (a demo user, and a registered user for
 * /mine/password, which demo users are refused). One test per language × theme × visitor/signed
 * in visits all its screens; every violation of impact "serious" or "critical" fails it, listed
 * by screen, rule and target. axe is injected with page.evaluate (the CSP blocks script tags).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { Intent } from "../../app/forms/intents";
import { PASSWORD, codeFromOutbox, expect, openInteractiveChart, test, uniqueEmail } from "./fixtures";

const AXE_SOURCE = readFileSync(path.join(process.cwd(), "node_modules", "axe-core", "axe.min.js"), "utf8");
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
/**
 * Rules axe keeps off by default as experimental, switched on: label in name (WCAG 2.5.3) and
 * orientation (1.3.4). (p-as-heading stays off: it takes a bold balance figure for a heading.)
 */
const EXPERIMENTAL = ["label-content-name-mismatch", "css-orientation-lock"];
const FAILING = new Set(["serious", "critical"]);

interface Violation {
  screen: string;
  rule: string;
  impact: string;
  help: string;
  target: string;
  summary: string;
}

interface AxeResult {
  violations: { id: string; impact?: string | null; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }[];
}

/** Runs axe on the page as it is now and returns its serious and critical violations. */
async function axe(page: Page, screen: string): Promise<Violation[]> {
  // colours are measured once entrance animations (a sheet sliding in) have finished
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(
    async ({ tags, experimental }) => {
      const w = window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResult> } };
      const rules = Object.fromEntries(experimental.map((id) => [id, { enabled: true }]));
      const r = await w.axe.run(document, { runOnly: { type: "tag", values: tags }, rules, resultTypes: ["violations"] });
      return r.violations.map((v) => ({
        id: v.id,
        impact: v.impact ?? "",
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.map(String).join(" "), summary: n.failureSummary ?? "" })),
      }));
    },
    { tags: TAGS, experimental: EXPERIMENTAL },
  );
  return failing(result, screen);
}

/**
 * axe needs timers, which a page without JavaScript never runs. For the no-JavaScript project,
 * the page's document as it is now (what the visitor sees: no scripts ran) is shown, without its
 * scripts, in a page of the same size that runs scripts, and axe runs there.
 */
async function axeWithoutJs(page: Page, helper: Page, screen: string): Promise<Violation[]> {
  const html = (await page.content())
    .replace(/<script\b[\s\S]*?<\/script>/gi, "")
    .replace(/<link rel="modulepreload"[^>]*>/gi, "")
    .replace(/<\/?noscript>/gi, "");
  await helper.route(page.url(), (route) => route.fulfill({ contentType: "text/html; charset=utf-8", body: html }));
  await helper.goto(page.url());
  await helper.unroute(page.url());
  return axe(helper, screen);
}

function failing(
  result: { id: string; impact: string; help: string; nodes: { target: string; summary: string }[] }[],
  screen: string,
): Violation[] {
  return result
    .filter((v) => FAILING.has(v.impact))
    .flatMap((v) =>
      v.nodes.map((n) => ({
        screen,
        rule: v.id,
        impact: v.impact,
        help: v.help,
        target: n.target,
        summary: n.summary.split("\n").slice(1).join(" ").trim(),
      })),
    );
}

function report(found: Violation[]) {
  const byRule = new Map<string, number>();
  for (const v of found) byRule.set(v.rule, (byRule.get(v.rule) ?? 0) + 1);
  const lines = [`${found.length} serious/critical axe violations (${[...byRule].map(([r, n]) => `${r}: ${n}`).join(", ")})`];
  for (const v of found) lines.push(`  ${v.screen}  [${v.rule}, ${v.impact}] ${v.help}\n      ${v.target}\n      ${v.summary}`);
  return lines.join("\n");
}

/** Settings as a user makes them: plain form posts that set cookies (sent by the page too). */
async function prepare(page: Page, lang: "en" | "ar", theme: "light" | "dark") {
  const lr = await page.request.post("/language", { form: { intent: Intent.Language, lang, from: "/" } });
  expect(lr.ok()).toBe(true);
  const tr = await page.request.post("/settings", { form: { intent: Intent.Theme, theme, redirectTo: "/" } });
  expect(tr.ok()).toBe(true);
}

/** Registers a real account with plain form posts (the outbox holds its code); signs it in. */
async function registerRealUser(page: Page) {
  const email = uniqueEmail("a11y");
  const sent = await page.request.post("/register", { form: { intent: Intent.SendCode, type: "email", account: email } });
  expect(sent.ok()).toBe(true);
  const code = await codeFromOutbox(page.request, email);
  const done = await page.request.post("/register", {
    form: { intent: Intent.Register, type: "email", account: email, sms_code: code, password: PASSWORD, re_password: PASSWORD },
  });
  expect(done.ok()).toBe(true);
  // some money to move (local-only credit: there is no deposit flow yet)
  const credit = await page.request.post("/dev/credit", { data: { email, amount: "50.00" } });
  expect(credit.ok()).toBe(true);
}

/** A holding contract order of the signed-in user (the spec's JSON call; retried while the market feed starts). */
async function placeOrder(page: Page): Promise<number> {
  for (let i = 0; i < 20; i++) {
    const res = await page.request.post("/v2/api/forex/submit", {
      form: { type: "1", cont: "0.01", forex_id: "1", status: "1", multiple: "10" },
    });
    const body = (await res.json()) as { code: number; data: { Id: number } };
    if (body.code === 1) return body.data.Id;
    await page.waitForTimeout(500);
  }
  throw new Error("the order was refused");
}

/** Submits the page's main form as it is, without the browser's own checks: the server's errors show. */
async function submitInvalid(page: Page) {
  const form = page.locator("form.form").first();
  await form.evaluate((f) => f.setAttribute("novalidate", ""));
  await form.locator("button.primary[type=submit]").click();
  await expect(page.locator(".form-errors[role=alert]")).toBeVisible();
}

const LANGS = ["en", "ar"] as const;
const THEMES = ["light", "dark"] as const;

for (const lang of LANGS) {
  for (const theme of THEMES) {
    for (const who of ["visitor", "signed in"] as const) {
      test(`axe: no serious or critical violations (${lang}, ${theme}, ${who})`, async ({ page, browser }, info) => {
        test.setTimeout(180_000);
        const js = info.project.use.javaScriptEnabled !== false;
        const { viewport, isMobile, hasTouch, deviceScaleFactor } = info.project.use;
        const helper = js
          ? null
          : await (await browser.newContext({ viewport, isMobile, hasTouch, deviceScaleFactor, javaScriptEnabled: true })).newPage();
        const found: Violation[] = [];
        const settle = async () => {
          await page.waitForLoadState("load");
          if (js) await page.waitForLoadState("networkidle");
        };
        const check = async (screen: string) => {
          await settle();
          await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
          await expect(page.locator("html")).toHaveAttribute("lang", lang);
          found.push(...(helper ? await axeWithoutJs(page, helper, screen) : await axe(page, screen)));
        };
        const visit = async (url: string) => {
          await page.goto(url);
          await check(url);
        };
        const tradeScreens = async () => {
          await page.goto("/trade");
          // with JavaScript, the interactive chart replaces the server's SVG once the user reaches for it
          if (js) await openInteractiveChart(page);
          await check("/trade");
          await page.goto("/trade?tab=future");
          if (js) await openInteractiveChart(page);
          await check("/trade?tab=future");
          await page.locator(".drawer summary").click();
          await expect(page.locator(".drawer-panel")).toBeVisible();
          await check("/trade (instrument drawer open)");
        };
        const productScreens = async () => {
          await visit("/product");
          await page.locator('a[href*="company="]').first().click();
          await expect(page.getByRole("dialog")).toBeVisible();
          await check("/product (company open)");
        };

        await prepare(page, lang, theme);
        if (who === "visitor") {
          await visit("/");
          await tradeScreens();
          await productScreens();
          await visit("/login");
          await visit("/login?captcha=1");
          await visit("/user/web3-login");
          await page.goto("/login");
          if (lang === "en" && theme === "light") {
            // a real failed attempt (once per project: sign-in attempts are throttled per client)
            await page.locator("input[name=account]").fill(uniqueEmail("a11y-nobody"));
            await page.locator("input[name=password]").fill("not-the-password");
            await page.locator("form.form button.primary[type=submit]").click();
            await expect(page.locator(".form-errors[role=alert]")).toBeVisible();
            await check("/login (wrong password)");
            await page.goto("/login");
          }
          await submitInvalid(page);
          await check("/login (errors)");
          await visit("/register");
          await page.locator("input[name=account]").fill("not-an-email");
          await submitInvalid(page);
          await check("/register (e-mail, errors)");
          await visit("/register?type=mobile");
          await page.locator("input[name=account]").fill("12");
          await submitInvalid(page);
          await check("/register (mobile, errors)");
          await visit("/forgot");
          await submitInvalid(page);
          await check("/forgot (errors)");
          await visit("/language");
          await visit("/follow");
          await visit("/rank");
          await visit("/dev/outbox");
          await visit("/news");
          await visit("/news/detail?id=1");
          await visit("/mine/announcement");
          await page.locator("details.announcement summary").first().click();
          await check("/mine/announcement (one open)");
          await visit("/mine/email");
          await visit("/mine/chat");
        } else {
          await page.goto("/login");
          await page.locator('form[action="/login/demo"] button[type=submit]').click();
          await expect(page).toHaveURL(/\/$/);
          await check("/ (demo user, with the welcome toast)");
          await tradeScreens();
          await productScreens();
          await visit("/user");
          await visit(`/user?confirm=${Intent.ResetDemo}`);
          await page.goto("/mine/password");
          await expect(page).toHaveURL(/\/user$/);
          await check("/user (demo refused /mine/password: error toast)");
          await visit("/mine/system");
          await visit("/feedback");
          await submitInvalid(page);
          await check("/feedback (errors)");
          await visit("/order");
          const order = await placeOrder(page);
          await visit("/order");
          await visit(`/order?detail=${order}`);
          await visit(`/order?detail=${order}&confirm=close`);
          await visit("/order?source=1");
          await visit("/follow");
          await visit("/rank");
          await visit("/language");
          await visit("/dev/outbox");
          // /mine/password needs a registered account
          await page.context().clearCookies();
          await registerRealUser(page);
          await prepare(page, lang, theme);
          await visit("/mine/password");
          await submitInvalid(page);
          await check("/mine/password (errors)");
          await visit("/user");
          await visit("/mine/wallet");
          await visit("/mine/accounts");
          await visit("/mine/history?accountTypeId=1");
          await visit("/mine/transfer");
          await submitInvalid(page);
          await check("/mine/transfer (errors)");
          await page.goto("/mine/transfer");
          await page.locator("input[name=balance]").fill("1");
          await page.locator("form.form button.primary[type=submit]").click();
          await expect(page.locator(".confirm-card")).toBeVisible();
          await check("/mine/transfer (confirm)");
          await page.locator(".confirm-card button.primary[type=submit]").click();
          await expect(page.locator(".ledger-list li")).toHaveCount(1);
          await check("/mine/transfer (done, with the log)");
          await visit("/mine/invite");
        }
        await helper?.context().close();
        expect(found.length, report(found)).toBe(0);
      });
    }
  }
}
