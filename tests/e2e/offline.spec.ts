// Installable and kind offline (issue 22): the service worker (public/sw.js) keeps the offline
// pages, icons, market logos and build files, never a page; when the network drops, the live badge says so and a
// page that cannot load is the offline page in the user's language; back online, pages load again.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

// the other specs block service workers (playwright.config.ts): Playwright's routes miss what a worker answers
test.use({ serviceWorkers: "allow" });

test.beforeEach(({ page: _page }, info) => {
  test.skip(info.project.name !== "mobile-js", "the service worker and the live badge need JavaScript (one project is enough)");
});

/** Waits until the service worker is installed and answers this page's requests (a reload if it came after the page). */
async function underServiceWorker(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  if (!(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)))) await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
}

/** Every URL the site's caches hold, as path and query. */
function cachedUrls(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) {
        const url = new URL(request.url);
        urls.push(url.pathname + url.search);
      }
    }
    return urls;
  });
}

/** The language of the offline page the worker keeps as the user's own (each page tells it its language). */
function usersOfflineLanguage(page: Page): Promise<string | null> {
  return page.evaluate(async () => {
    const kept = await caches.match("/offline?lng=current");
    return kept ? (/<html lang="([^"]+)"/.exec(await kept.text())?.[1] ?? null) : null;
  });
}

test("the worker is served fresh and may fetch from the site only", async ({ request }) => {
  const response = await request.get("/sw.js");
  expect(response.status()).toBe(200);
  expect(response.headers()["cache-control"]).toBe("no-cache");
  expect(response.headers()["content-security-policy"]).toBe("default-src 'none'; connect-src 'self'");
});

test("offline: the badge says so, a page that cannot load is the offline page in the user's language, and back online pages load again", async ({
  page,
  context,
}) => {
  test.slow(); // the worker's install fetches 18 offline pages; the walk goes on- and offline five times
  await page.goto("/");
  await underServiceWorker(page);
  await expect(page.locator(".live-badge")).toHaveAttribute("data-status", "live");

  // the network drops: the badge says offline (not reconnecting), and comes back with the network
  await context.setOffline(true);
  await expect(page.locator(".live-badge")).toHaveAttribute("data-status", "offline");
  await expect(page.locator(".live-badge")).toContainText("Offline");
  // every market's logo shows, one the page had not loaded yet too (the kept copy or a blank mark):
  // no broken image, and no failed request (the fixture fails the test on one)
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect
    .poll(() =>
      page
        .locator("img")
        .evaluateAll(
          (imgs) => imgs.filter((img) => !(img as HTMLImageElement).complete || (img as HTMLImageElement).naturalWidth === 0).length,
        ),
    )
    .toBe(0);
  // a logo no page has shown yet (its address never asked for) is the blank mark, not a broken image
  const neverShown = await page.evaluate(async () => {
    const img = new Image();
    img.src = "/logos/ngas.svg?never-shown";
    await img.decode().catch(() => undefined);
    return img.naturalWidth;
  });
  expect(neverShown).toBeGreaterThan(0);
  await context.setOffline(false);
  await expect(page.locator(".live-badge")).toHaveAttribute("data-status", "live");

  // a page load without network: the offline page, in English
  await context.setOffline(true);
  await page.goto("/trade");
  await expect(page).toHaveURL(/\/trade$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You are offline");
  await expect(page.getByText("Prices and your account will show again when the connection is back.")).toBeVisible();
  await expect(page).toHaveTitle("You are offline · Bourse");
  await expect(page.locator("script")).toHaveCount(0);

  // back online: "Try again" loads the home page
  await context.setOffline(false);
  await page.getByRole("link", { name: "Try again" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator(".live-badge")).toHaveAttribute("data-status", "live");

  // in Arabic, right to left
  await page.goto("/language");
  await page.getByRole("button", { name: /العربية/ }).click();
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect.poll(() => usersOfflineLanguage(page)).toBe("ar");
  await context.setOffline(true);
  await page.goto("/news");
  await expect(page.locator("html")).toHaveAttribute("lang", "ar");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("أنت غير متصل بالإنترنت");
  await expect(page.getByRole("link", { name: "حاول مرة أخرى" })).toHaveAttribute("href", "/");

  await context.setOffline(false);
  await page.goto("/news");
  await expect(page.locator("html")).toHaveAttribute("lang", "ar");
  await expect(page.getByRole("heading", { level: 1, name: "الأخبار" })).toBeVisible();

  // what the worker keeps: the offline pages, the manifest, icons, logos and build files, never a page
  const urls = await cachedUrls(page);
  expect(urls.some((u) => u.startsWith("/build/") && u.endsWith(".js"))).toBe(true);
  expect(urls).toContain("/offline?lng=en");
  expect(urls).toContain("/favicon.svg");
  expect(
    urls.filter(
      (u) => !/^\/build\/|^\/offline\?lng=[a-z]+$|^\/manifest\.webmanifest$|^\/favicon\.svg$|^\/icons\/|^\/logos\/[a-z0-9]+\.svg$/.test(u),
    ),
  ).toEqual([]);
});
