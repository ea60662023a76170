// End-to-end tests in Debian's Chromium (never a downloaded browser), in three projects:
// mobile with JavaScript, mobile without JavaScript, desktop; and the upstream-mode journeys
// (tests/e2e/upstream/) against a second instance in upstream mode in front of the first, with
// and without JavaScript (ADR 024). scripts/e2e.mjs starts both.
import { defineConfig } from "@playwright/test";

const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const launchOptions = {
  executablePath,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
  ],
};
const upstream = process.env.E2E_UPSTREAM_URL ?? "http://localhost:8800";
const mobile = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : 3,
  // CI machines here run everything on 2 cores; under that load wrangler's local proxy can lose
  // its connection to the Worker's process and answer a POST with 503 ("Your worker restarted
  // mid-request"), which no code of ours causes. A test failing that way runs once more on CI
  // (the report counts it as flaky); locally a failure is final.
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: process.env.E2E_BASE_URL ?? "http://localhost:8799",
    launchOptions,
    locale: "en-US",
    extraHTTPHeaders: { "accept-language": "en-US,en;q=0.9" },
    trace: "off",
    // The app registers a service worker (public/sw.js); Playwright's routes do not see the
    // requests a worker answers, so tests run without it: tests/e2e/offline.spec.ts allows it.
    serviceWorkers: "block",
    screenshot: "only-on-failure",
  },
  projects: [
    { name: "mobile-js", testIgnore: "upstream/**", use: { ...mobile, javaScriptEnabled: true } },
    { name: "mobile-nojs", testIgnore: "upstream/**", use: { ...mobile, javaScriptEnabled: false } },
    { name: "desktop", testIgnore: "upstream/**", use: { viewport: { width: 1280, height: 800 }, javaScriptEnabled: true } },
    {
      name: "upstream-js",
      testMatch: "upstream/**/*.spec.ts",
      testIgnore: "upstream/backend-down.spec.ts",
      use: { ...mobile, javaScriptEnabled: true, baseURL: upstream },
    },
    {
      name: "upstream-nojs",
      testMatch: "upstream/**/*.spec.ts",
      testIgnore: "upstream/backend-down.spec.ts",
      use: { ...mobile, javaScriptEnabled: false, baseURL: upstream },
    },
    // the backend stops answering mid-journey: after the other upstream journeys, which it would cut
    {
      name: "upstream-down",
      testMatch: "upstream/backend-down.spec.ts",
      dependencies: ["upstream-js", "upstream-nojs"],
      use: { ...mobile, javaScriptEnabled: true, baseURL: upstream },
    },
  ],
});
