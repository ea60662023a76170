import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PlatformAccount, checkInvariants } from "~/services/ledger/accounts.server";
import { LedgerError, post } from "~/services/ledger/post.server";
import { createUser, fund } from "./helpers";

const USD = 1_000_000;

async function balance(accountId: number) {
  return env.DB.prepare("SELECT balance, lock_balance AS lockBalance FROM accounts WHERE id = ?1")
    .bind(accountId)
    .first<{ balance: number; lockBalance: number }>();
}

describe("ledger", () => {
  it("moves money as one balanced transaction and keeps balances equal to entries", async () => {
    const user = await createUser();
    await fund(user.accounts.funding, 250 * USD);
    await post(env.DB, {
      idempotencyKey: crypto.randomUUID(),
      kind: "transfer",
      userId: user.id,
      postings: [
        { accountId: user.accounts.funding, amount: -100 * USD },
        { accountId: user.accounts.contract, amount: 100 * USD },
      ],
    });
    expect(await balance(user.accounts.funding)).toEqual({ balance: 150 * USD, lockBalance: 0 });
    expect(await balance(user.accounts.contract)).toEqual({ balance: 100 * USD, lockBalance: 0 });
    expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
  });

  it("writes 90 postings of one transaction (entries in several multi-row inserts, balances in one update from them): every entry and balance exact", async () => {
    const user = await createUser();
    await fund(user.accounts.funding, 1_000 * USD);
    // 30 moves of 1..30 USD funding → contract, and within the contract account 30 moves available → locked
    const postings = Array.from({ length: 30 }, (_, i) => [
      { accountId: user.accounts.funding, amount: -(i + 1) * USD },
      { accountId: user.accounts.contract, amount: (i + 1) * USD },
    ]).flat();
    postings.push(
      ...Array.from({ length: 15 }, () => [
        { accountId: user.accounts.contract, amount: -2 * USD },
        { accountId: user.accounts.contract, bucket: 1 as const, amount: 2 * USD },
      ]).flat(),
    );
    const { transactionId } = await post(env.DB, { idempotencyKey: crypto.randomUUID(), kind: "transfer", userId: user.id, postings });
    const entries = await env.DB.prepare("SELECT COUNT(*) AS n, SUM(amount) AS total FROM ledger_entries WHERE transaction_id = ?1")
      .bind(transactionId)
      .first<{ n: number; total: number }>();
    expect(entries).toEqual({ n: 90, total: 0 });
    expect(await balance(user.accounts.funding)).toEqual({ balance: (1_000 - 465) * USD, lockBalance: 0 });
    expect(await balance(user.accounts.contract)).toEqual({ balance: (465 - 30) * USD, lockBalance: 30 * USD });
    expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
  });

  it("refuses postings that do not sum to zero and changes nothing", async () => {
    const user = await createUser();
    await expect(
      post(env.DB, {
        idempotencyKey: crypto.randomUUID(),
        kind: "adjustment",
        postings: [
          { accountId: user.accounts.funding, amount: 5 },
          { accountId: PlatformAccount.Fees.id, amount: -4 },
        ],
      }),
    ).rejects.toThrow(LedgerError);
    expect((await balance(user.accounts.funding))!.balance).toBe(0);
  });

  it("aborts an overdraft as a whole: no entry, no balance change", async () => {
    const user = await createUser();
    await fund(user.accounts.funding, 10 * USD);
    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_entries").first<{ n: number }>();
    const error = await post(env.DB, {
      idempotencyKey: crypto.randomUUID(),
      kind: "withdraw",
      postings: [
        { accountId: user.accounts.funding, amount: -11 * USD },
        { accountId: PlatformAccount.ExternalWithdrawals.id, amount: 11 * USD },
      ],
    }).catch((e) => e);
    expect(error).toBeInstanceOf(LedgerError);
    expect((error as LedgerError).code).toBe("insufficient_funds");
    expect((await balance(user.accounts.funding))!.balance).toBe(10 * USD);
    const after = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_entries").first<{ n: number }>();
    expect(after!.n).toBe(before!.n);
  });

  it("gives a retried key exactly one effect and returns the original transaction", async () => {
    const user = await createUser();
    const key = crypto.randomUUID();
    const first = await fund(user.accounts.funding, 5 * USD, key);
    const again = await fund(user.accounts.funding, 5 * USD, key);
    expect(again).toEqual({ transactionId: first.transactionId, replayed: true });
    expect((await balance(user.accounts.funding))!.balance).toBe(5 * USD);
    await expect(fund(user.accounts.funding, 6 * USD, key)).rejects.toMatchObject({ code: "idempotency_conflict" });
  });

  it("under 100 concurrent withdrawals against a balance covering 25, accepts exactly 25", async () => {
    const user = await createUser();
    await fund(user.accounts.funding, 25 * USD);
    const attempts = Array.from({ length: 100 }, () =>
      post(env.DB, {
        idempotencyKey: crypto.randomUUID(),
        kind: "withdraw",
        userId: user.id,
        postings: [
          { accountId: user.accounts.funding, amount: -1 * USD },
          { accountId: PlatformAccount.ExternalWithdrawals.id, amount: 1 * USD },
        ],
      }).then(
        () => "ok",
        (e: LedgerError) => e.code,
      ),
    );
    const results = await Promise.all(attempts);
    expect(results.filter((r) => r === "ok")).toHaveLength(25);
    expect(results.filter((r) => r === "insufficient_funds")).toHaveLength(75);
    expect((await balance(user.accounts.funding))!.balance).toBe(0);
    expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
  });

  it("50 concurrent duplicates of one key settle once", async () => {
    const user = await createUser();
    const key = crypto.randomUUID();
    const results = await Promise.all(Array.from({ length: 50 }, () => fund(user.accounts.funding, 3 * USD, key)));
    expect(new Set(results.map((r) => r.transactionId)).size).toBe(1);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect((await balance(user.accounts.funding))!.balance).toBe(3 * USD);
  });

  it("keeps every invariant across a random sequence of movements checked against a model", async () => {
    const users = await Promise.all([createUser(), createUser(), createUser()]);
    const accounts = users.flatMap((u) => [u.accounts.funding, u.accounts.options, u.accounts.contract]);
    const model = new Map<number, { balance: number; lock: number }>(accounts.map((a) => [a, { balance: 0, lock: 0 }]));
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let step = 0; step < 120; step++) {
      const a = accounts[rand(accounts.length)]!;
      const b = accounts[rand(accounts.length)]!;
      const amount = (1 + rand(500)) * 10_000; // 0.01 .. 5.00 USD
      const op = rand(4);
      const m = model.get(a)!;
      try {
        if (op === 0) {
          await fund(a, amount);
          m.balance += amount;
        } else if (op === 1 && a !== b) {
          await post(env.DB, {
            idempotencyKey: crypto.randomUUID(),
            kind: "transfer",
            postings: [
              { accountId: a, amount: -amount },
              { accountId: b, amount },
            ],
          });
          m.balance -= amount;
          model.get(b)!.balance += amount;
        } else if (op === 2) {
          // lock margin: available → locked, plus a fee to the platform
          await post(env.DB, {
            idempotencyKey: crypto.randomUUID(),
            kind: "trade_margin",
            postings: [
              { accountId: a, amount: -amount - 100 },
              { accountId: a, bucket: 1, amount },
              { accountId: PlatformAccount.Fees.id, amount: 100 },
            ],
          });
          m.balance -= amount + 100;
          m.lock += amount;
        } else {
          // release locked margin with a loss paid to the counterparty
          const loss = Math.floor(amount / 3);
          await post(env.DB, {
            idempotencyKey: crypto.randomUUID(),
            kind: "trade_settle",
            postings: [
              { accountId: a, bucket: 1, amount: -amount },
              { accountId: a, amount: amount - loss },
              { accountId: PlatformAccount.Counterparty.id, amount: loss },
            ],
          });
          m.lock -= amount;
          m.balance += amount - loss;
        }
      } catch (error) {
        expect((error as LedgerError).code).toBe("insufficient_funds");
      }
      if (step % 20 === 19) {
        expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
        for (const [id, expected] of model) {
          const actual = await balance(id);
          expect({ balance: actual!.balance, lockBalance: actual!.lockBalance }).toEqual({
            balance: expected.balance,
            lockBalance: expected.lock,
          });
        }
      }
    }
  });
});
