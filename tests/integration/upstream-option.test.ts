// Upstream mode's timed options (issue 23, ADR 024) against a real §7 backend (this Worker as
// the platform): the terms on offer are the backend's, an option bought through the front end is
// the backend's to the step and the micro, its settlement (the backend's engine, at the first
// tick at or after expiry) shows in the front end's lists with its receipt, and the same form sent
// in parallel buys once.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { checkInvariants } from "~/services/ledger/accounts.server";
import { buyMyOption } from "~/services/option/commands.server";
import { myOpenOptionsOn, myOptionDetail, myOptions, optionDetail, optionTerms } from "~/services/option/queries.server";
import { accountBalances, holdPrice, mainRoom, tickMain } from "./helpers";
import { frontContext, upstreamCustomer } from "./upstream-helpers";

const USD = 1_000_000;

async function buyer(amount = 1_000 * USD) {
  return upstreamCustomer("options", amount);
}

const optionsOf = async (userId: number) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM options WHERE user_id = ?1").bind(userId).first<{ n: number }>())!.n;

afterEach(async () => {
  expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
});

describe("timed options through the backend", () => {
  it("the terms on offer are the backend's", async () => {
    const own = await optionTerms(await createServiceContext(env, { lang: "en" }));
    const front = await optionTerms(await frontContext());
    expect(front.durations.map((d) => [d.seconds, d.profitRatio, d.minAmount])).toEqual(
      own.durations.map((d) => [d.seconds, d.profitRatio, d.minAmount]),
    );
    expect(front.amounts).toEqual(own.amounts);
    expect(front.lossLevel).toBe(own.lossLevel);
  });

  it("bought through the front end, settled by the backend, shown with its receipt", async () => {
    await holdPrice("ETHUSDT", 2_000);
    const { user, front } = await buyer();
    const local = await createServiceContext(env, { lang: "en" });
    const bought = await buyMyOption(front, user.id, {
      instrumentId: 2,
      direction: 1,
      amount: "100",
      seconds: 30,
      requestKey: crypto.randomUUID(),
    });
    if (!bought.ok) throw new Error(JSON.stringify(bought.errors));
    const own = (await optionDetail(local, user.id, bought.value.id))!;
    for (const k of [
      "id",
      "direction",
      "amount",
      "profitRatio",
      "seconds",
      "precision",
      "openPrice",
      "openTickAt",
      "expiresAt",
      "status",
    ] as const)
      expect(bought.value[k], k).toEqual(own[k]);
    expect(await accountBalances(user.accounts.options)).toEqual({ balance: 900 * USD, locked: 100 * USD });
    const open = await myOpenOptionsOn(front, user.id, "ETHUSDT");
    expect(open.ok && open.value.map((o) => o.id)).toEqual([own.id]);
    // the backend's engine settles it at the first tick at or after expiry: a win at 0.80
    await mainRoom().setPrice("ETHUSDT", 2_020);
    await tickMain(own.expiresAt);
    const settled = await myOptionDetail(front, user.id, own.id);
    expect(settled).toMatchObject({ ok: true, value: { status: 3, profit: 80 * USD, endPrice: 202_000 } });
    const ownSettled = (await optionDetail(local, user.id, own.id))!;
    expect(settled.ok && settled.value!.endTickAt).toBe(ownSettled.endTickAt);
    const history = await myOptions(front, user.id, 3, 1);
    expect(history.ok && history.value.options.map((o) => [o.id, o.profit])).toEqual([[own.id, 80 * USD]]);
    expect(await accountBalances(user.accounts.options)).toEqual({ balance: 1_080 * USD, locked: 0 });
  });

  it("the same form sent four times at once buys once; a stake below the minimum is the backend's refusal", async () => {
    await holdPrice("ETHUSDT", 2_000);
    const { user, front } = await buyer();
    const requestKey = crypto.randomUUID();
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        buyMyOption(front, user.id, { instrumentId: 2, direction: 2, amount: "20", seconds: 60, requestKey }),
      ),
    );
    expect(results.some((r) => r.ok)).toBe(true);
    expect(await optionsOf(user.id)).toBe(1);
    const small = await buyMyOption(front, user.id, { instrumentId: 2, direction: 2, amount: "1", seconds: 60 });
    expect(Object.values(small.ok ? {} : small.errors)[0]).toMatch(/^errors\.upstream_refused\|.+/);
  });
});
