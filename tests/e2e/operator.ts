// The seeded operator's session with a fresh step-up, shared by every test of a run.
//
// There is one operator account, step-up codes are sent at most once a minute per address, and
// using one voids the others: parallel tests (three projects, several files) cannot each log in
// and confirm a code. The first test that needs the operator does it (through the UI: log in,
// send the code, read it from the local outbox, confirm) under a lock shared by the Playwright
// workers, and keeps the session's cookies in a file; the others load them into their own
// context. A session left over from an earlier run (a fresh database) fails the check and is
// made again.
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { APIRequestContext, BrowserContext, Cookie, Page } from "@playwright/test";
import { codeFromOutbox, expect, login } from "./fixtures";

export const OPERATOR_EMAIL = "operator@bourse.local";
export const OPERATOR_PASSWORD = "operator-local-only";

function stateFile(baseURL: string) {
  return path.join(os.tmpdir(), `bourse-e2e-operator-${new URL(baseURL).port || "80"}.json`);
}

async function withLock<T>(file: string, work: () => Promise<T>): Promise<T> {
  const lock = `${file}.lock`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // a lock older than a minute belongs to a test that died
      try {
        if (Date.now() - statSync(lock).mtimeMs > 60_000) rmSync(lock, { recursive: true, force: true });
      } catch {
        // gone already
      }
      if (Date.now() > deadline) throw new Error("the operator session lock stayed taken");
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

async function hasFreshStepUp(page: Page): Promise<boolean> {
  const res = await page.goto("/admin");
  if (!res || res.status() !== 200) return false;
  return (await page.getByText("Confirmed for approvals until").count()) > 0;
}

/** Makes `page`'s context the operator's, with a step-up good for the next minutes. */
export async function asSteppedUpOperator(page: Page, request: APIRequestContext, baseURL: string) {
  const context: BrowserContext = page.context();
  const file = stateFile(baseURL);
  await withLock(file, async () => {
    try {
      const saved = JSON.parse(readFileSync(file, "utf8")) as { savedAt: number; cookies: Cookie[] };
      if (Date.now() - saved.savedAt < 10 * 60_000) {
        await context.addCookies(saved.cookies);
        if (await hasFreshStepUp(page)) return;
      }
    } catch {
      // no saved session yet
    }
    await context.clearCookies();
    await login(page, OPERATOR_EMAIL, OPERATOR_PASSWORD);
    await expect(page).not.toHaveURL(/\/login/);
    await page.goto("/admin/verify?from=%2Fadmin");
    await page.getByRole("button", { name: "Send code" }).click();
    await expect(page.getByText("We sent a verification code")).toBeVisible();
    const code = await codeFromOutbox(request, OPERATOR_EMAIL);
    await page.getByLabel("Verification code").fill(code);
    await page.getByRole("button", { name: "Confirm", exact: true }).click();
    await expect(page.getByText("Confirmed for approvals until")).toBeVisible();
    writeFileSync(file, JSON.stringify({ savedAt: Date.now(), cookies: await context.cookies() }));
  });
}
