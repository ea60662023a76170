// Upstream mode's withdrawals and payout methods (issue 23, ADR 024) against a real §7 backend
// (this Worker as the platform): methods bound and deleted on the backend, a request checked by
// the front end with the backend's currency, method and balance and then made by the backend,
// which locks the amount once per form even when sent in parallel; the records are the backend's.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { DrawType } from "~/domain/withdraw";
import { checkInvariants } from "~/services/ledger/accounts.server";
import { prepareMyWithdrawal, requestMyWithdrawal } from "~/services/withdraw/commands.server";
import { bindMyMethod, deleteMyMethod, myMethods } from "~/services/withdraw/methods.server";
import { myWithdrawBalance, myWithdrawCurrencies, myWithdrawals } from "~/services/withdraw/queries.server";
import { accountBalances } from "./helpers";
import { upstreamCustomer } from "./upstream-helpers";

const USD = 1_000_000;
const TRC20_ADDRESS = "TQ7vY3kCmhG8pN2xW5rLd9sJf4uBzE6aKt";

async function customer(funding = 1_000 * USD) {
  return upstreamCustomer("funding", funding);
}

afterEach(async () => {
  expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
});

describe("withdrawals through the backend", () => {
  it("a method bound, a request checked and made, listed; the method deleted", async () => {
    const { user, front, session } = await customer();
    const currencies = await myWithdrawCurrencies(front, DrawType.Coin);
    expect(currencies.ok && currencies.value.map((c) => c.code)).toContain("USDT");
    const trc20 = currencies.ok ? currencies.value.find((c) => c.protocol === "TRC20")! : null;
    const bound = await bindMyMethod(front, session, { draw_type: "1", draw_currency_id: trc20!.id, dc_address: TRC20_ADDRESS });
    expect(bound.ok).toBe(true);
    const methods = await myMethods(front, user.id, DrawType.Coin);
    const method = methods.ok ? methods.value.find((m) => m.dcAddress === TRC20_ADDRESS)! : null;
    expect(method).toMatchObject({ drawCurrencyId: trc20!.id, protocol: "TRC20" });
    const input = {
      drawCurrencyId: trc20!.id,
      methodId: method!.id,
      amount: "100",
      memo: "",
      drawType: DrawType.Coin,
      requestId: crypto.randomUUID(),
    };
    // the confirm step's figures: the same rule as the platform's, over the backend's terms
    const prepared = await prepareMyWithdrawal(front, session, input);
    expect(prepared).toMatchObject({ ok: true, value: { figures: { amount: 100 * USD, fee: 1 * USD } } });
    const made = await requestMyWithdrawal(front, session, input);
    expect(made).toMatchObject({ ok: true, value: { amount: 100 * USD, fee: 1 * USD, realNumber: "99.00", status: 0 } });
    expect(await accountBalances(user.accounts.funding)).toEqual({ balance: 900 * USD, locked: 100 * USD });
    expect(await myWithdrawBalance(front, user.id)).toEqual({ ok: true, value: { accountId: 0, available: 900 * USD, locked: 100 * USD } });
    const records = await myWithdrawals(front, user.id, DrawType.Coin, 1);
    expect(records.ok && records.value.records.map((r) => [r.amount, r.realNumber, r.address])).toEqual([
      [100 * USD, "99.00", TRC20_ADDRESS],
    ]);
    expect(await deleteMyMethod(front, session, method!.id)).toBe(true);
    const after = await myMethods(front, user.id, DrawType.Coin);
    expect(after.ok && after.value.some((m) => m.id === method!.id)).toBe(false);
  });

  it("the same form sent four times at once locks once; more than the balance is refused before the backend is asked", async () => {
    const { user, front, session } = await customer(300 * USD);
    const currencies = await myWithdrawCurrencies(front, DrawType.Coin);
    const trc20 = currencies.ok ? currencies.value.find((c) => c.protocol === "TRC20")! : null;
    await bindMyMethod(front, session, { draw_type: "1", draw_currency_id: trc20!.id, dc_address: TRC20_ADDRESS });
    const methods = await myMethods(front, user.id, DrawType.Coin);
    const methodId = methods.ok ? methods.value[0]!.id : 0;
    const input = { drawCurrencyId: trc20!.id, methodId, amount: "100", memo: "", drawType: DrawType.Coin, requestId: crypto.randomUUID() };
    const results = await Promise.all(Array.from({ length: 4 }, () => requestMyWithdrawal(front, session, input)));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(await accountBalances(user.accounts.funding)).toEqual({ balance: 200 * USD, locked: 100 * USD });
    const tooMuch = await requestMyWithdrawal(front, session, { ...input, amount: "500", requestId: crypto.randomUUID() });
    expect(tooMuch).toMatchObject({ ok: false, errors: { number: expect.any(String) } });
    expect(await accountBalances(user.accounts.funding)).toEqual({ balance: 200 * USD, locked: 100 * USD });
  });
});
