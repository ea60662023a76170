/**
 * Demo (mock) account reset: brings the available balances of a demo user's three accounts
 * back to the configured starting balances, as one ledger transaction against the platform's
 * demo account (so the ledger stays balanced and the account log shows the reset).
 */
import type { AppContext } from "~/context.server";
import { MAIN_COMPANY_ID } from "~/lib/constants";
import { ACCOUNT_KINDS, PlatformAccount, post, type Posting } from "~/services/ledger.server";

/** The configured starting balances of a demo account, per account kind (micros). */
export async function demoStartingBalances(ctx: AppContext) {
  const row = await ctx.d1
    .prepare(
      "SELECT demo_funding_balance AS funding, demo_options_balance AS options, demo_contract_balance AS contract FROM base_settings WHERE company_id = ?1",
    )
    .bind(MAIN_COMPANY_ID)
    .first<{ funding: number; options: number; contract: number }>();
  return row ?? { funding: 0, options: 0, contract: 0 };
}

export async function resetDemoAccount(ctx: AppContext, userId: number) {
  const settings: Record<string, number> = await demoStartingBalances(ctx);
  const { results } = await ctx.d1
    .prepare("SELECT a.id, a.kind, a.balance FROM accounts a JOIN users u ON u.id = a.user_id WHERE a.user_id = ?1 AND u.is_demo = 1")
    .bind(userId)
    .all<{ id: number; kind: string; balance: number }>();
  const last = await ctx.d1
    .prepare("SELECT COALESCE(MAX(e.id), 0) AS id FROM ledger_entries e JOIN accounts a ON a.id = e.account_id WHERE a.user_id = ?1")
    .bind(userId)
    .first<{ id: number }>();
  const postings: Posting[] = [];
  let net = 0;
  for (const a of results) {
    const target = settings[a.kind] ?? 0;
    const delta = target - a.balance;
    if (delta !== 0) {
      postings.push({ accountId: a.id, amount: delta });
      net += delta;
    }
  }
  if (postings.length === 0) return { changed: false };
  postings.push({ accountId: PlatformAccount.DemoFunding.id, amount: -net });
  // The key names the ledger state it starts from: a double submit of the same reset is one effect.
  const key = `demo_reset:${userId}:${last?.id ?? 0}`;
  await post(ctx.d1, { idempotencyKey: key, kind: "demo_reset", memo: "memo.demo_reset", userId, postings });
  return { changed: true };
}

/** The starting balances of a new demo user: one grant per user (idempotent by user id). */
export async function grantDemoBalances(ctx: AppContext, userId: number) {
  const start: Record<string, number> = await demoStartingBalances(ctx);
  const { results } = await ctx.d1.prepare("SELECT id, kind FROM accounts WHERE user_id = ?1").bind(userId).all<{ id: number; kind: string }>();
  const postings: Posting[] = [];
  let total = 0;
  for (const k of ACCOUNT_KINDS) {
    const account = results.find((r) => r.kind === k.kind);
    const amount = start[k.kind] ?? 0;
    if (account && amount > 0) {
      postings.push({ accountId: account.id, amount });
      total += amount;
    }
  }
  if (total === 0) return;
  postings.push({ accountId: PlatformAccount.DemoFunding.id, amount: -total });
  await post(ctx.d1, { idempotencyKey: `demo_grant:${userId}`, kind: "demo_grant", memo: "memo.demo_grant", userId, postings });
}
