// Upstream mode's wallet (issue 23, ADR 024) against a real §7 backend (this Worker as the
// platform): transfers go to the backend with the form's one-time token, so a double submission
// through the front end moves money once; parallel transfers cannot overdraw; an answer lost on
// its way back is an unknown outcome, and sending the same form again does not move money twice.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { myAccountHistory, myBalances, myTransfer, myTransferLog } from "~/services/wallet.server";
import { backend, frontContext, upstreamCustomer } from "./upstream-helpers";

async function signedIn(funding: number) {
  return upstreamCustomer("funding", funding);
}

const backendBalance = async (accountId: number) =>
  (await env.DB.prepare("SELECT balance FROM accounts WHERE id = ?1").bind(accountId).first<{ balance: number }>())!.balance;
const transfersOf = async (userId: number) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM transfers WHERE user_id = ?1").bind(userId).first<{ n: number }>())!.n;

describe("transfers through the backend", () => {
  it("moves the backend's money; the front end's balances and log are the backend's", async () => {
    const { user, token } = await signedIn(100_000_000);
    const front = await frontContext(token);
    const done = await myTransfer(
      front,
      { id: user.id, isDemo: false },
      { from: "1", to: "3", amount: "30.25", requestId: crypto.randomUUID() },
    );
    expect(done).toMatchObject({ ok: true, value: { fromKind: "funding", toKind: "contract", amount: 30_250_000 } });
    expect(await backendBalance(user.accounts.funding)).toBe(69_750_000);
    expect(await backendBalance(user.accounts.contract)).toBe(30_250_000);
    const balances = await myBalances(front, user.id);
    expect(balances.ok && balances.value.accounts.map((a) => [a.kind, a.balance])).toEqual([
      ["funding", 69_750_000],
      ["options", 0],
      ["contract", 30_250_000],
    ]);
    const log = await myTransferLog(front, user.id, 1);
    expect(log).toMatchObject({
      ok: true,
      value: { total: 1, transfers: [{ fromKind: "funding", toKind: "contract", amount: 30_250_000 }] },
    });
    // the contract account's log: the backend's line, in the backend's words
    const history = await myAccountHistory(front, user.id, 3, 1);
    expect(history).toMatchObject({
      ok: true,
      value: {
        account: { kind: "contract", balance: 30_250_000, lockBalance: 0 },
        history: {
          total: 1,
          entries: [{ amount: 30_250_000, kind: "transfer", kindText: "Transfer", memoText: "Transfer from Funding to Contract" }],
        },
      },
    });
  });

  it("the same form submitted five times at once moves the money once", async () => {
    const { user, token } = await signedIn(100_000_000);
    const requestId = crypto.randomUUID();
    const results = await Promise.all(
      Array.from({ length: 5 }, async () =>
        myTransfer(await frontContext(token), { id: user.id, isDemo: false }, { from: "1", to: "3", amount: "40", requestId }),
      ),
    );
    expect(results.some((r) => r.ok)).toBe(true);
    expect(await transfersOf(user.id)).toBe(1);
    expect(await backendBalance(user.accounts.funding)).toBe(60_000_000);
  });

  it("parallel transfers beyond the balance: the backend refuses the rest in its own words, nothing is overdrawn", async () => {
    const { user, token } = await signedIn(100_000_000);
    const results = await Promise.all(
      Array.from({ length: 6 }, async () =>
        myTransfer(
          await frontContext(token),
          { id: user.id, isDemo: false },
          { from: "1", to: "2", amount: "30", requestId: crypto.randomUUID() },
        ),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    for (const refused of results.filter((r) => !r.ok)) {
      expect(Object.values(refused.ok ? {} : refused.errors)[0]).toMatch(/^errors\.upstream_refused\|.+/);
    }
    expect(await backendBalance(user.accounts.funding)).toBe(10_000_000);
    expect(await backendBalance(user.accounts.options)).toBe(90_000_000);
  });

  it("the answer is lost: the outcome is unknown; the same form sent again by the user moves nothing more", async () => {
    const { user, token } = await signedIn(100_000_000);
    const lostAnswer: typeof fetch = async (input, init) => {
      await backend(input, init);
      throw new TypeError("connection reset");
    };
    const form = { from: "1", to: "3", amount: "25", requestId: crypto.randomUUID() };
    const lost = await myTransfer(await frontContext(token, lostAnswer), { id: user.id, isDemo: false }, form);
    expect(lost).toMatchObject({ ok: false, status: 503, errors: { form: "errors.outcome_unknown" } });
    expect(await backendBalance(user.accounts.funding)).toBe(75_000_000);
    // the user checks, or sends the same form again: one transfer
    const again = await myTransfer(await frontContext(token), { id: user.id, isDemo: false }, form);
    expect(again.ok || Object.values(again.errors)[0]).toBeTruthy();
    expect(await transfersOf(user.id)).toBe(1);
    expect(await backendBalance(user.accounts.funding)).toBe(75_000_000);
  });

  it("a demo user is refused before anything reaches the backend", async () => {
    const { user, token } = await signedIn(10_000_000);
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls += 1;
      return backend(input, init);
    };
    const result = await myTransfer(
      await frontContext(token, counting),
      { id: user.id, isDemo: true },
      { from: "1", to: "3", amount: "1" },
    );
    expect(result).toMatchObject({ ok: false, status: 403, errors: { form: "errors.only_real_account" } });
    expect(calls).toBe(0);
  });
});
