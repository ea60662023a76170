// A randomized model test of the wallet (issue 10 §8): thousands of random operations by several
// users at once — deposits approved and rejected, transfers, withdrawals requested, approved and
// rejected, contract orders opened and closed — checked after every round against a simple model
// of every balance, and against the ledger's invariants:
//   - each transaction sums to zero, each balance equals the sum of its entries, no user balance
//     is negative (checkInvariants);
//   - every user's available and locked balances equal the model's;
//   - the money in users' hands equals approved deposits − paid withdrawals − fees ± trading
//     results, and the external and fee accounts moved by exactly those amounts.
// Each round, every user does one thing (their own, or an operator decision on their request), all
// at the same time; an operation's expected outcome (accepted or refused) is predicted by the model
// before it runs. The seed is printed so a failure can be replayed (WALLET_MODEL_SEED).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createServiceContext, type ServiceContext } from "~/context.server";
import { closeOrder, placeOrder } from "~/services/contract/commands.server";
import { approveDeposit, rejectDeposit, submitDeposit } from "~/services/deposit.server";
import { PlatformAccount, checkInvariants } from "~/services/ledger/accounts.server";
import { sessionIdOf, userForToken, type SessionUser } from "~/services/session.server";
import { transfer } from "~/services/wallet.server";
import { requestWithdrawal } from "~/services/withdraw/commands.server";
import { bindMethod } from "~/services/withdraw/methods.server";
import { approveWithdrawal, rejectWithdrawal } from "~/services/withdraw/operator.server";
import { createUser, mainRoom, sessionFor } from "./helpers";

const USD = 1_000_000;
const CENT = 10_000;
const USERS = 5;
const ROUNDS = 400;
const TRC20_ADDRESS = "TQ7vY3kCmhG8pN2xW5rLd9sJf4uBzE6aKt";
/** Seeded withdrawal currency 1: USDT TRC20, a fixed fee of 1 USD, at least 10 USD. */
const WITHDRAW_FEE = 1 * USD;
const WITHDRAW_MIN = 10 * USD;
const KINDS = ["funding", "options", "contract"] as const;
type Kind = (typeof KINDS)[number];

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const dec = (micros: number) => (micros / USD).toFixed(2);
const main = mainRoom;

interface Model {
  user: SessionUser;
  accounts: Record<Kind, number>;
  available: Record<Kind, number>;
  locked: Record<Kind, number>;
  methodId: number;
  deposits: { id: number; amount: number }[];
  withdrawals: { id: number; amount: number }[];
  orders: { id: number; margin: number }[];
}

async function asSessionUser(userId: number): Promise<SessionUser> {
  return (await userForToken(env.DB, await sessionFor(userId)))!;
}

async function proofFor(userId: number) {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    "INSERT INTO uploads (id, user_id, purpose, r2_key, content_type, size, status) VALUES (?1, ?2, 'deposit_proof', ?3, 'image/jpeg', 100, 1)",
  )
    .bind(id, userId, `u/${userId}/${id}`)
    .run();
  return id;
}

async function platform(id: number) {
  return (await env.DB.prepare("SELECT balance FROM accounts WHERE id = ?1").bind(id).first<{ balance: number }>())!.balance;
}

describe("the wallet under random concurrent use", () => {
  it(`${USERS} users × ${ROUNDS} rounds of random operations keep every balance equal to the model and the ledger whole`, async () => {
    const seed = Number(process.env.WALLET_MODEL_SEED ?? Math.floor(Math.random() * 2 ** 31));
    console.log(`wallet model seed ${seed}`);
    const random = rng(seed);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    const cents = (max: number) => Math.floor(random() * (max / CENT + 1)) * CENT;
    const ctx: ServiceContext = await createServiceContext(env);

    // a held price, so a contract order's result is known (it closes at its open price)
    await main().setPrice("BTCUSDT", 50_000);
    await main().tickNow(Math.max(Date.now(), (await main().engineView()).lastTick + 1000));

    const opUser = await createUser();
    await env.DB.prepare("UPDATE users SET role = 'operator' WHERE id = ?1").bind(opUser.id).run();
    const opToken = await sessionFor(opUser.id);
    const operator = (await userForToken(env.DB, opToken))!;
    const opSession = await sessionIdOf(opToken);
    await env.DB.prepare("INSERT INTO operator_step_ups (session_id, verified_at) VALUES (?1, ?2)").bind(opSession, Date.now()).run();

    const startExternalDeposits = await platform(PlatformAccount.ExternalDeposits.id);
    const startExternalWithdrawals = await platform(PlatformAccount.ExternalWithdrawals.id);
    const startFees = await platform(PlatformAccount.Fees.id);
    const startCounterparty = await platform(PlatformAccount.Counterparty.id);
    const totals = { approvedDeposits: 0, paidWithdrawals: 0, withdrawalFees: 0, tradeFees: 0, tradeResults: 0 };

    const models: Model[] = [];
    for (let i = 0; i < USERS; i++) {
      const created = await createUser();
      const user = await asSessionUser(created.id);
      const method = await bindMethod(ctx, user, { draw_type: "1", draw_currency_id: 1, dc_address: TRC20_ADDRESS } as never);
      if (!method.ok) throw new Error(`bind failed: ${JSON.stringify(method)}`);
      models.push({
        user,
        accounts: created.accounts,
        available: { funding: 0, options: 0, contract: 0 },
        locked: { funding: 0, options: 0, contract: 0 },
        methodId: method.value.id,
        deposits: [],
        withdrawals: [],
        orders: [],
      });
    }

    const counts: Record<string, { ok: number; refused: number }> = {};
    const count = (op: string, ok: boolean) => {
      counts[op] ??= { ok: 0, refused: 0 };
      counts[op][ok ? "ok" : "refused"] += 1;
    };

    async function step(m: Model): Promise<void> {
      const options = ["deposit", "transfer", "transfer", "withdraw"];
      if (m.deposits.length) options.push("approve_deposit", "approve_deposit", "reject_deposit");
      if (m.withdrawals.length) options.push("approve_withdrawal", "reject_withdrawal");
      if (m.available.contract >= 60 * USD) options.push("order");
      if (m.orders.length) options.push("close");
      const op = pick(options);
      switch (op) {
        case "deposit": {
          const amount = cents(300 * USD) + CENT;
          const r = await submitDeposit(ctx, m.user, {
            type: 0,
            charge_id: "1",
            number: dec(amount),
            proofImg: await proofFor(m.user.id),
            request_id: crypto.randomUUID(),
          });
          expect(r.ok, JSON.stringify(r)).toBe(true);
          if (r.ok) m.deposits.push({ id: r.value.id, amount });
          return count(op, r.ok);
        }
        case "approve_deposit":
        case "reject_deposit": {
          const d = m.deposits.splice(Math.floor(random() * m.deposits.length), 1)[0]!;
          const r =
            op === "approve_deposit"
              ? await approveDeposit(ctx, operator, opSession, d.id)
              : await rejectDeposit(ctx, operator, d.id, "model test");
          expect(r.ok, JSON.stringify(r)).toBe(true);
          if (op === "approve_deposit") {
            m.available.funding += d.amount;
            totals.approvedDeposits += d.amount;
          }
          return count(op, r.ok);
        }
        case "transfer": {
          const from = pick(KINDS);
          const to = pick(KINDS.filter((k) => k !== from));
          const amount = cents(Math.floor(m.available[from] * 1.2)) + CENT;
          const r = await transfer(ctx, m.user, { from, to, amount: dec(amount), requestId: crypto.randomUUID() });
          const expected = amount <= m.available[from];
          expect(r.ok, `${op} ${dec(amount)} ${from}→${to} with ${dec(m.available[from])}: ${JSON.stringify(r)}`).toBe(expected);
          if (r.ok) {
            m.available[from] -= amount;
            m.available[to] += amount;
          }
          return count(op, r.ok);
        }
        case "withdraw": {
          const amount = cents(Math.max(20 * USD, Math.floor(m.available.funding * 1.2)));
          const r = await requestWithdrawal(ctx, m.user, {
            drawCurrencyId: 1,
            methodId: m.methodId,
            amount: dec(amount),
            memo: "",
            requestId: crypto.randomUUID(),
          });
          const expected = amount >= WITHDRAW_MIN && amount <= m.available.funding;
          expect(r.ok, `${op} ${dec(amount)} with ${dec(m.available.funding)}: ${JSON.stringify(r)}`).toBe(expected);
          if (r.ok) {
            m.available.funding -= amount;
            m.locked.funding += amount;
            m.withdrawals.push({ id: r.value.id, amount });
          }
          return count(op, r.ok);
        }
        case "approve_withdrawal":
        case "reject_withdrawal": {
          const w = m.withdrawals.splice(Math.floor(random() * m.withdrawals.length), 1)[0]!;
          const r =
            op === "approve_withdrawal"
              ? await approveWithdrawal(ctx, operator, opSession, w.id, "a".repeat(64))
              : await rejectWithdrawal(ctx, operator, w.id, "model test");
          expect(r.ok, JSON.stringify(r)).toBe(true);
          m.locked.funding -= w.amount;
          if (op === "approve_withdrawal") {
            totals.paidWithdrawals += w.amount;
            totals.withdrawalFees += WITHDRAW_FEE;
          } else m.available.funding += w.amount;
          return count(op, r.ok);
        }
        case "order": {
          const r = await placeOrder(ctx, m.user.id, {
            side: random() < 0.5 ? 1 : 2,
            lots: "0.01",
            instrumentId: 1,
            entry: 1,
            leverage: 10,
          });
          expect(r.ok, JSON.stringify(r)).toBe(true);
          if (r.ok) {
            m.available.contract -= r.value.margin + r.value.fee;
            m.locked.contract += r.value.margin;
            totals.tradeFees += r.value.fee;
            m.orders.push({ id: r.value.id, margin: r.value.margin });
          }
          return count(op, r.ok);
        }
        case "close": {
          const o = m.orders.splice(Math.floor(random() * m.orders.length), 1)[0]!;
          const r = await closeOrder(ctx, m.user.id, o.id);
          expect(r.ok, JSON.stringify(r)).toBe(true);
          const profit = r.ok ? (r.value.profit ?? 0) : 0;
          m.locked.contract -= o.margin;
          m.available.contract += o.margin + profit;
          totals.tradeResults += profit;
          return count(op, r.ok);
        }
      }
    }

    for (let round = 0; round < ROUNDS; round++) {
      await Promise.all(models.map((m) => step(m)));
      const invariants = await checkInvariants(env.DB);
      expect(invariants, `round ${round}`).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
      const ids = models.flatMap((m) => KINDS.map((k) => m.accounts[k]));
      const { results } = await env.DB.prepare(
        `SELECT id, balance, lock_balance AS locked FROM accounts WHERE id IN (${ids.join(",")})`,
      ).all<{ id: number; balance: number; locked: number }>();
      const byId = new Map(results.map((r) => [r.id, r]));
      let held = 0;
      for (const m of models) {
        for (const k of KINDS) {
          const row = byId.get(m.accounts[k])!;
          expect({ available: row.balance, locked: row.locked }, `round ${round}, user ${m.user.id}, ${k}`).toEqual({
            available: m.available[k],
            locked: m.locked[k],
          });
          held += row.balance + row.locked;
        }
      }
      expect(held, `round ${round}: users' money`).toBe(
        totals.approvedDeposits - totals.paidWithdrawals - totals.tradeFees + totals.tradeResults,
      );
    }

    expect(await platform(PlatformAccount.ExternalDeposits.id)).toBe(startExternalDeposits - totals.approvedDeposits);
    expect(await platform(PlatformAccount.ExternalWithdrawals.id)).toBe(
      startExternalWithdrawals + totals.paidWithdrawals - totals.withdrawalFees,
    );
    expect(await platform(PlatformAccount.Fees.id)).toBe(startFees + totals.withdrawalFees + totals.tradeFees);
    expect(await platform(PlatformAccount.Counterparty.id)).toBe(startCounterparty - totals.tradeResults);
    const operations = Object.values(counts).reduce((s, c) => s + c.ok + c.refused, 0);
    console.log(`wallet model: ${operations} operations`, JSON.stringify(counts));
    expect(operations).toBe(USERS * ROUNDS);
    // the run exercised every kind of operation, accepted and (where possible) refused
    for (const op of [
      "deposit",
      "approve_deposit",
      "reject_deposit",
      "transfer",
      "withdraw",
      "approve_withdrawal",
      "reject_withdrawal",
      "order",
      "close",
    ])
      expect(counts[op]?.ok ?? 0, op).toBeGreaterThan(0);
    expect(counts.transfer!.refused + counts.withdraw!.refused).toBeGreaterThan(0);
  }, 240_000);
});
