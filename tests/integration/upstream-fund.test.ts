// Upstream mode's mining (issue 23, ADR 024) against a real §7 backend (this Worker as the
// platform): the backend's products through the cache, subscriptions that move the backend's
// money once per form even when sent in parallel, the records and an early redemption.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { checkMySubscription, redeemMine, subscribeMine } from "~/services/fund/commands.server";
import { fundInfo, listFunds, myIncome, myOwnedSubscription, mySubscriptions } from "~/services/fund/queries.server";
import { frontContext, upstreamCustomer } from "./upstream-helpers";

async function signedIn(funding: number) {
  return upstreamCustomer("funding", funding);
}

const balance = async (accountId: number) =>
  (await env.DB.prepare("SELECT balance FROM accounts WHERE id = ?1").bind(accountId).first<{ balance: number }>())!.balance;
const subscriptionsOf = async (userId: number) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM fund_subscriptions WHERE user_id = ?1").bind(userId).first<{ n: number }>())!.n;

describe("mining through the backend", () => {
  it("the products are the backend's, with the same terms", async () => {
    const own = await listFunds(await createServiceContext(env, { lang: "en" }));
    const front = await listFunds(await frontContext());
    expect(front.items.map((f) => [f.id, f.title, f.dividendPercentage, f.startingSubAmount, f.maxSubAmount, f.lockDividendDays])).toEqual(
      own.items.map((f) => [f.id, f.title, f.dividendPercentage, f.startingSubAmount, f.maxSubAmount, f.lockDividendDays]),
    );
    expect(await fundInfo(await frontContext(), own.items[0]!.id)).toMatchObject({ id: own.items[0]!.id, title: own.items[0]!.title });
  });

  it("a subscription moves the backend's money; the same form sent four times at once subscribes once", async () => {
    const { user, front, session } = await signedIn(1_000_000_000);
    const product = (await listFunds(front)).items[0]!;
    const amount = (product.startingSubAmount / 1_000_000).toFixed(2);
    const quote = await checkMySubscription(front, session, { fundId: product.id, amount });
    expect(quote).toMatchObject({ ok: true, value: { amount: product.startingSubAmount } });
    const requestId = crypto.randomUUID();
    const results = await Promise.all(
      Array.from({ length: 4 }, async () => subscribeMine(front, session, { fundId: product.id, amount, requestId })),
    );
    expect(results.some((r) => r.ok)).toBe(true);
    expect(await subscriptionsOf(user.id)).toBe(1);
    expect(await balance(user.accounts.funding)).toBe(1_000_000_000 - product.startingSubAmount);
    const records = await mySubscriptions(front, user.id);
    expect(records).toMatchObject({
      ok: true,
      value: { total: 1, items: [{ title: product.title, shareAmount: product.startingSubAmount, status: 1 }] },
    });
    const id = records.ok ? records.value.items[0]!.id : 0;
    expect(await myOwnedSubscription(front, user.id, id)).toMatchObject({ ok: true, value: { id } });
    expect(await myIncome(front, user.id, id)).toMatchObject({ ok: true, value: { items: [], sub: { id } } });
    // another user's subscription id: not found, nothing revealed
    expect(await myOwnedSubscription(front, user.id, id + 100_000)).toEqual({ ok: true, value: null });
  });

  it("an amount beyond the balance is refused on the amount's field before the backend is asked", async () => {
    const { front, session } = await signedIn(1_000_000);
    const product = (await listFunds(front)).items.find((f) => f.startingSubAmount > 1_000_000)!;
    const result = await subscribeMine(front, session, { fundId: product.id, amount: (product.startingSubAmount / 1_000_000).toFixed(2) });
    expect(result).toMatchObject({ ok: false, errors: { amount: expect.any(String) } });
  });

  it("an early redemption goes to the backend, which applies its rule", async () => {
    const { user, front, session } = await signedIn(1_000_000_000);
    const product = (await listFunds(front)).items[0]!;
    const made = await subscribeMine(front, session, { fundId: product.id, amount: (product.startingSubAmount / 1_000_000).toFixed(2) });
    expect(made.ok).toBe(true);
    const records = await mySubscriptions(front, user.id);
    const id = records.ok ? records.value.items[0]!.id : 0;
    const redeemed = await redeemMine(front, session, id);
    expect(redeemed).toMatchObject({ ok: true, value: { id } });
    const after = await mySubscriptions(front, user.id);
    expect(after.ok && after.value.items[0]!.status).not.toBe(1);
    // redeemed once: a second request is the backend's refusal
    expect((await redeemMine(front, session, id)).ok).toBe(false);
  });
});
