import { chromium } from "@playwright/test";
const [,, url, out, w = "390", h = "844", extra = ""] = process.argv;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
const ctx = await browser.newContext({ viewport: { width: +w, height: +h }, deviceScaleFactor: 1, locale: "en-US", extraHTTPHeaders: { "accept-language": "en-US" } });
const page = await ctx.newPage();
if (extra === "demo") { await page.goto("http://localhost:8787/login"); await page.getByRole("button", { name: "Try a demo account" }).click(); await page.waitForURL(/\/$/); }
if (extra.startsWith("lang=")) { await ctx.addCookies([{ name: "lang", value: extra.slice(5), url: "http://localhost:8787" }]); }
if (extra === "dark") { await ctx.addCookies([{ name: "theme", value: "dark", url: "http://localhost:8787" }]); }
await page.goto(url);
await page.screenshot({ path: out, fullPage: true });
await browser.close();
