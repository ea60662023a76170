// Timed options end to end in workerd: buying, settlement by the main market room's engine at
// the first tick at or after expiry (one set-based batch), exactly once, with its receipt.
import { abortAllDurableObjects, env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { PlatformAccount, checkInvariants } from "~/services/ledger.server";
import { buyOption, listOptions } from "~/services/option.server";
import { createUser, fund, get, loggedInSocket, sessionFor, tickMain as tickAt, holdPrice as hold, accountBalances as balances, mainRoom as main } from "./helpers";

const USD = 1_000_000;
async function option(id: number) {
  return (await env.DB.prepare("SELECT status, profit, end_price AS endPrice, end_tick_at AS endTickAt, late, expires_at AS expiresAt FROM options WHERE id = ?1").bind(id).first<{
    status: number;
    profit: number | null;
    endPrice: number | null;
    endTickAt: number | null;
    late: number;
    expiresAt: number;
  }>())!;
}
async function buyer(amount = 1_000 * USD) {
  const user = await createUser();
  await fund(user.accounts.options, amount);
  return user;
}

afterEach(async () => {
  expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
});

describe("buying options", () => {
  it("the stake moves to the locked balance with the option row; bad input changes nothing", async () => {
    await hold("ETHUSDT", 2_000);
    const ctx = await createServiceContext(env);
    const user = await buyer(100 * USD);
    const bought = await buyOption(ctx, user.id, { instrumentId: 2, direction: 1, amount: "10", seconds: 60 });
    expect(bought.ok).toBe(true);
    expect(await balances(user.accounts.options)).toEqual({ balance: 90 * USD, locked: 10 * USD });
    const bad: [Parameters<typeof buyOption>[2], string][] = [
      [{ instrumentId: 2, direction: 1, amount: "0", seconds: 60 }, "errors.amount_invalid"],
      [{ instrumentId: 2, direction: 1, amount: "-5", seconds: 60 }, "errors.amount_invalid"],
      [{ instrumentId: 2, direction: 1, amount: "abc", seconds: 60 }, "errors.amount_invalid"],
      [{ instrumentId: 2, direction: 1, amount: "", seconds: 60 }, "errors.amount_required"],
      [{ instrumentId: 2, direction: 1, amount: "5", seconds: 60 }, "errors.amount_min"],
      [{ instrumentId: 2, direction: 1, amount: "10.001", seconds: 60 }, "errors.amount_invalid"],
      [{ instrumentId: 2, direction: 1, amount: "5000000", seconds: 60 }, "errors.amount_max"],
      [{ instrumentId: 2, direction: 1, amount: "10", seconds: 45 }, "errors.unknown_duration"],
      [{ instrumentId: 999, direction: 1, amount: "10", seconds: 60 }, "errors.unknown_instrument"],
      [{ instrumentId: 2, direction: 3, amount: "10", seconds: 60 }, "errors.bad_request"],
      [{ instrumentId: 2, direction: 2, amount: "100", seconds: 60 }, "errors.insufficient_balance"],
    ];
    for (const [input, error] of bad) {
      const r = await buyOption(ctx, user.id, input);
      expect(r.ok ? "ok" : r.error, JSON.stringify(input)).toBe(error);
    }
    expect(await balances(user.accounts.options)).toEqual({ balance: 90 * USD, locked: 10 * USD });
  });
});

describe("settlement", () => {
  it("win, loss and tie settle at the first tick at or after expiry, once, with the spec's amounts and a receipt", async () => {
    const opened = await hold("ETHUSDT", 2_000);
    const ctx = await createServiceContext(env);
    const user = await buyer(1_000 * USD);
    const socket = await loggedInSocket(user.id);
    socket.send({ type: "sub", topic: "MICRO_SETTLED" });
    const up = await buyOption(ctx, user.id, { instrumentId: 2, direction: 1, amount: "100", seconds: 30 }); // wins (0.80)
    const down = await buyOption(ctx, user.id, { instrumentId: 2, direction: 2, amount: "50", seconds: 30 }); // loses
    const tie = await buyOption(ctx, user.id, { instrumentId: 2, direction: 2, amount: "10", seconds: 60 }); // tie: wins (0.85)
    if (!up.ok || !down.ok || !tie.ok) throw new Error("buying failed");
    expect(up.value.openTickAt).toBe(opened);
    // before expiry nothing settles
    await hold("ETHUSDT", 2_010);
    expect((await option(up.value.id)).status).toBe(1);
    // the first tick at or after the 30 s expiry decides the first two
    await main().setPrice("ETHUSDT", 2_020);
    const settledAt = await tickAt(up.value.expiresAt);
    expect(await option(up.value.id)).toMatchObject({ status: 3, profit: 80 * USD, endPrice: 202_000, endTickAt: settledAt, late: 0 });
    expect(await option(down.value.id)).toMatchObject({ status: 3, profit: -50 * USD });
    expect((await option(tie.value.id)).status).toBe(1);
    const msg = await socket.next((m) => m.type === "MICRO_SETTLED");
    expect(msg.data).toEqual(expect.arrayContaining([{ Id: up.value.id, FactProfits: "80.00" }, { Id: down.value.id, FactProfits: "-50.00" }]));
    // a replayed tick settles nothing twice
    await main().tickNow(settledAt);
    await main().setPrice("ETHUSDT", 2_000);
    await tickAt(tie.value.expiresAt);
    expect(await option(tie.value.id)).toMatchObject({ status: 3, profit: 8_500_000, endPrice: 200_000 });
    // 1000 − 160 stakes + 180 (win) + 18.50 (tie) = 1038.50
    expect(await balances(user.accounts.options)).toEqual({ balance: 1_038_500_000, locked: 0 });
    // the platform's options account took the other side of this user's settlements
    const platform = await env.DB.prepare("SELECT SUM(e.amount) AS total FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id WHERE t.user_id = ?1 AND e.account_id = ?2").bind(user.id, PlatformAccount.Options.id).first<{ total: number }>();
    expect(platform!.total).toBe(-38_500_000);
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_transactions WHERE idempotency_key IN (?1, ?2, ?3)").bind(`option_settle:${up.value.id}`, `option_settle:${down.value.id}`, `option_settle:${tie.value.id}`).first<{ n: number }>();
    expect(n!.n).toBe(3);
    socket.ws.close();
    // the API's receipt
    const res = await get("/v2/api/micro/orders?status=3&page=1", { headers: { authorization: await sessionFor(user.id), lang: "en" } });
    const body = (await res.json()) as { data: { data: { Id: number; FactProfits: string; EndPrice: number; Receipt: { settlement: { feed: string; late: boolean } } }[]; total: number } };
    expect(body.data.total).toBe(3);
    expect(body.data.data.find((o) => o.Id === up.value.id)).toMatchObject({ FactProfits: "80.00", EndPrice: 2020, Receipt: { settlement: { feed: "sim", late: false } } });
  });

  it("an option whose expiry passed while the room was away settles at the first price after its return, marked late; a restart settles nothing twice", async () => {
    await hold("BNBUSDT", 900);
    const ctx = await createServiceContext(env);
    const user = await buyer(1_000 * USD);
    const bought = await buyOption(ctx, user.id, { instrumentId: 14, direction: 1, amount: "20", seconds: 30 });
    if (!bought.ok) throw new Error(bought.error);
    await tickAt();
    // the room goes away (restart); when it comes back the expiry is long past
    await abortAllDurableObjects();
    await main().setPrice("BNBUSDT", 950);
    await tickAt(bought.value.expiresAt + 5_000);
    const after = await option(bought.value.id);
    expect(after).toMatchObject({ status: 3, profit: 16 * USD, endPrice: 95_000 });
    expect(after.endTickAt!).toBeGreaterThan(after.expiresAt);
    await abortAllDurableObjects();
    await tickAt();
    expect(await balances(user.accounts.options)).toEqual({ balance: 1_016 * USD, locked: 0 });
    const list = await listOptions(ctx, user.id, 3, 1);
    expect(list.total).toBe(1);
  });

  it("an expiry that falls between two ticks settles at the first tick after it, not the one before", async () => {
    const opened = await hold("ETHUSDT", 2_000);
    const ctx = await createServiceContext(env);
    const user = await buyer(100 * USD);
    const bought = await buyOption(ctx, user.id, { instrumentId: 2, direction: 2, amount: "10", seconds: 30 });
    if (!bought.ok) throw new Error(bought.error);
    await main().setPrice("ETHUSDT", 1_990);
    await main().tickNow(Math.max(opened + 1, bought.value.expiresAt - 400));
    expect((await option(bought.value.id)).status).toBe(1);
    await main().setPrice("ETHUSDT", 2_050);
    const after = await tickAt(bought.value.expiresAt + 600);
    expect(await option(bought.value.id)).toMatchObject({ status: 3, endPrice: 205_000, endTickAt: after, profit: -10 * USD });
  });

  it("the spec §7 micro calls: get_seconds lists durations and stakes, submit needs the authorization header for GET", async () => {
    const seconds = (await (await get("/v2/api/micro/get_seconds", { headers: { lang: "en" } })).json()) as { data: { sec: { Seconds: number; ProfitRatio: string; LimitAmount: string }[]; number: { Number: string }[] } };
    expect(seconds.data.sec[0]).toEqual({ Id: 1, Seconds: 30, ProfitRatio: "0.80", LimitAmount: "10.00" });
    expect(seconds.data.number.map((n) => n.Number)).toContain("100.00");
    await hold("ETHUSDT", 2_000);
    const user = await buyer(100 * USD);
    const token = await sessionFor(user.id);
    const bought = (await (await get("/v2/api/micro/submit?forex_id=2&type=1&number=10&seconds=60", { headers: { authorization: token, lang: "en" } })).json()) as { code: number; data: { Number: string; OpenPrice: number; RemainMilliSeconds: number } };
    expect(bought.code).toBe(1);
    expect(bought.data).toMatchObject({ Number: "10.00", OpenPrice: 2000 });
    expect(bought.data.RemainMilliSeconds).toBeGreaterThan(50_000);
    const refused = (await (await get("/v2/api/micro/submit?forex_id=2&type=1&number=5&seconds=60", { headers: { authorization: token, lang: "en" } })).json()) as { code: number; msg: string };
    expect(refused.code).toBe(0);
    expect(refused.msg).toBe("The minimum for this duration is 10 USD.");
    const open = (await (await get("/v2/api/micro/orders?status=1", { headers: { authorization: token } })).json()) as { data: { total: number } };
    expect(open.data.total).toBe(1);
  });
});
