// Timed options end to end in workerd: buying, settlement by the main market room's engine at
// the first tick at or after expiry (one set-based batch), exactly once, with its receipt.
import { abortAllDurableObjects, env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { PlatformAccount, checkInvariants } from "~/services/ledger/accounts.server";
import { buyOption } from "~/services/option/commands.server";
import { listOptions } from "~/services/option/queries.server";
import {
  createUser,
  form,
  formErrors,
  fund,
  get,
  loggedInSocket,
  sessionFor,
  signedSessionCookie,
  visibleText,
  tickMain as tickAt,
  holdPrice as hold,
  accountBalances as balances,
  mainRoom as main,
} from "./helpers";

const USD = 1_000_000;
async function option(id: number) {
  return (await env.DB.prepare(
    "SELECT status, profit, end_price AS endPrice, end_tick_at AS endTickAt, late, expires_at AS expiresAt FROM options WHERE id = ?1",
  )
    .bind(id)
    .first<{
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
      [{ instrumentId: 999, direction: 1, amount: "10", seconds: 60 }, "errors.instrument_not_found"],
      [{ instrumentId: 2, direction: 2, amount: "100", seconds: 60 }, "errors.insufficient_stake"],
    ];
    for (const [input, error] of bad) {
      const r = await buyOption(ctx, user.id, input);
      expect(r.ok ? "ok" : Object.values(r.errors)[0]!.split("|")[0], JSON.stringify(input)).toBe(error);
    }
    // a refusal names the command's field, with its argument; one that depends on the moment is a conflict
    expect(await buyOption(ctx, user.id, { instrumentId: 2, direction: 1, amount: "5", seconds: 60 })).toEqual({
      ok: false,
      errors: { amount: expect.stringMatching(/^errors\.amount_min\|\d+$/) },
      status: 400,
    });
    expect(await buyOption(ctx, user.id, { instrumentId: 2, direction: 2, amount: "100", seconds: 60 })).toEqual({
      ok: false,
      errors: { amount: "errors.insufficient_stake" },
      status: 409,
    });
    expect(await balances(user.accounts.options)).toEqual({ balance: 90 * USD, locked: 10 * USD });
  });
});

describe("settlement", () => {
  it("a demo reset ends an open option with the stake back in the starting balance; its expiry later settles nothing", async () => {
    await hold("ETHUSDT", 2_000);
    const ctx = await createServiceContext(env);
    const user = await createUser({ isDemo: true });
    await fund(user.accounts.options, 1_000 * USD);
    const { demoStartingBalances, resetDemoAccount } = await import("~/services/demo.server");
    const start = await demoStartingBalances(ctx);
    const bought = await buyOption(ctx, user.id, { instrumentId: 2, direction: 1, amount: "100", seconds: 30 });
    if (!bought.ok) throw new Error(JSON.stringify(bought.errors));
    expect((await balances(user.accounts.options)).locked).toBe(100 * USD);
    await resetDemoAccount(ctx, user.id);
    expect(await option(bought.value.id)).toMatchObject({ status: 3, profit: 0, endPrice: 200_000, late: 0 });
    expect(await balances(user.accounts.options)).toEqual({ balance: start.options, locked: 0 });
    // the engine reaches its expiry at a winning price: nothing moves (the lock it would take is gone)
    await main().setPrice("ETHUSDT", 2_100);
    await tickAt(bought.value.expiresAt);
    expect(await option(bought.value.id)).toMatchObject({ status: 3, profit: 0 });
    expect(await balances(user.accounts.options)).toEqual({ balance: start.options, locked: 0 });
    const settled = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_transactions WHERE idempotency_key = ?1")
      .bind(`option_settle:${bought.value.id}`)
      .first<{ n: number }>();
    expect(settled!.n).toBe(0);
    // the receipt says why it ended
    const res = await get("/v2/api/micro/orders?status=3&page=1", { headers: { authorization: await sessionFor(user.id), lang: "en" } });
    const body = (await res.json()) as { data: { data: { Id: number; FactProfits: string; Receipt: { settlement: { feed: string } } }[] } };
    expect(body.data.data.find((o) => o.Id === bought.value.id)).toMatchObject({
      FactProfits: "0.00",
      Receipt: { settlement: { feed: "reset" } },
    });
  });

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
    expect(msg.data).toEqual(
      expect.arrayContaining([
        { Id: up.value.id, FactProfits: "80.00" },
        { Id: down.value.id, FactProfits: "-50.00" },
      ]),
    );
    // a replayed tick settles nothing twice
    await main().tickNow(settledAt);
    await main().setPrice("ETHUSDT", 2_000);
    await tickAt(tie.value.expiresAt);
    expect(await option(tie.value.id)).toMatchObject({ status: 3, profit: 8_500_000, endPrice: 200_000 });
    // 1000 − 160 stakes + 180 (win) + 18.50 (tie) = 1038.50
    expect(await balances(user.accounts.options)).toEqual({ balance: 1_038_500_000, locked: 0 });
    // the platform's options account took the other side of this user's settlements
    const platform = await env.DB.prepare(
      "SELECT SUM(e.amount) AS total FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id WHERE t.user_id = ?1 AND e.account_id = ?2",
    )
      .bind(user.id, PlatformAccount.Options.id)
      .first<{ total: number }>();
    expect(platform!.total).toBe(-38_500_000);
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_transactions WHERE idempotency_key IN (?1, ?2, ?3)")
      .bind(`option_settle:${up.value.id}`, `option_settle:${down.value.id}`, `option_settle:${tie.value.id}`)
      .first<{ n: number }>();
    expect(n!.n).toBe(3);
    socket.ws.close();
    // the API's receipt
    const res = await get("/v2/api/micro/orders?status=3&page=1", { headers: { authorization: await sessionFor(user.id), lang: "en" } });
    const body = (await res.json()) as {
      data: {
        data: { Id: number; FactProfits: string; EndPrice: number; Receipt: { settlement: { feed: string; late: boolean } } }[];
        total: number;
      };
    };
    expect(body.data.total).toBe(3);
    expect(body.data.data.find((o) => o.Id === up.value.id)).toMatchObject({
      FactProfits: "80.00",
      EndPrice: 2020,
      Receipt: { settlement: { feed: "sim", late: false } },
    });
  });

  it("an option whose expiry passed while the room was away settles at the first price after its return, marked late; a restart settles nothing twice", async () => {
    await hold("BNBUSDT", 900);
    const ctx = await createServiceContext(env);
    const user = await buyer(1_000 * USD);
    const bought = await buyOption(ctx, user.id, { instrumentId: 14, direction: 1, amount: "20", seconds: 30 });
    if (!bought.ok) throw new Error(JSON.stringify(bought.errors));
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
    if (!bought.ok) throw new Error(JSON.stringify(bought.errors));
    await main().setPrice("ETHUSDT", 1_990);
    await main().tickNow(Math.max(opened + 1, bought.value.expiresAt - 400));
    expect((await option(bought.value.id)).status).toBe(1);
    await main().setPrice("ETHUSDT", 2_050);
    const after = await tickAt(bought.value.expiresAt + 600);
    expect(await option(bought.value.id)).toMatchObject({ status: 3, endPrice: 205_000, endTickAt: after, profit: -10 * USD });
  });

  it("the spec §7 micro calls: get_seconds lists durations and stakes, submit needs the authorization header for GET", async () => {
    const seconds = (await (await get("/v2/api/micro/get_seconds", { headers: { lang: "en" } })).json()) as {
      data: { sec: { Seconds: number; ProfitRatio: string; LimitAmount: string }[]; number: { Number: string }[] };
    };
    expect(seconds.data.sec[0]).toEqual({ Id: 1, Seconds: 30, ProfitRatio: "0.80", LimitAmount: "10.00" });
    expect(seconds.data.number.map((n) => n.Number)).toContain("100.00");
    await hold("ETHUSDT", 2_000);
    const user = await buyer(100 * USD);
    const token = await sessionFor(user.id);
    const bought = (await (
      await get("/v2/api/micro/submit?forex_id=2&type=1&number=10&seconds=60", { headers: { authorization: token, lang: "en" } })
    ).json()) as { code: number; data: { Number: string; OpenPrice: number; RemainMilliSeconds: number } };
    expect(bought.code).toBe(1);
    expect(bought.data).toMatchObject({ Number: "10.00", OpenPrice: 2000 });
    expect(bought.data.RemainMilliSeconds).toBeGreaterThan(50_000);
    const refused = (await (
      await get("/v2/api/micro/submit?forex_id=2&type=1&number=5&seconds=60", { headers: { authorization: token, lang: "en" } })
    ).json()) as { code: number; msg: string };
    expect(refused.code).toBe(0);
    expect(refused.msg).toBe("The minimum for this duration is 10 USD.");
    // the API parses through the future tab's form: no direction is a bad request, an unknown duration says so
    const errorsOf = async (path: string) =>
      ((await (await get(path, { headers: { authorization: token, lang: "en" } })).json()) as { data: { errors: Record<string, string> } })
        .data.errors;
    expect(await errorsOf("/v2/api/micro/submit?forex_id=2&number=10&seconds=60")).toEqual({
      type: "The request could not be understood.",
    });
    expect(Object.keys(await errorsOf("/v2/api/micro/submit?forex_id=2&type=2&number=10&seconds=abc"))).toEqual(["seconds"]);
    expect(Object.keys(await errorsOf("/v2/api/micro/submit?forex_id=2&type=2&number=abc&seconds=60"))).toEqual(["number"]);
    const open = (await (await get("/v2/api/micro/orders?status=1", { headers: { authorization: token } })).json()) as {
      data: { total: number };
    };
    expect(open.data.total).toBe(1);
  });
});

describe("refusals name what they are about", () => {
  const STAKE = "Not enough available balance in your options account for this stake.";

  it("a stake above the options balance names the options account and the stake: the service, the JSON call and the no-JavaScript form", async () => {
    await hold("ETHUSDT", 2_000);
    const user = await buyer(50 * USD);
    // plenty in the contract account changes nothing: the stake comes from the options account
    await fund(user.accounts.contract, 10_000 * USD);
    const token = await sessionFor(user.id);
    const api = (await (
      await get("/v2/api/micro/submit?forex_id=2&type=1&number=100&seconds=60", { headers: { authorization: token, lang: "en" } })
    ).json()) as { code: number; msg: string };
    expect(api).toMatchObject({ code: 0, msg: STAKE });
    const page = await form(
      "/trade?code=ETHUSDT&tab=future",
      { forex_id: "2", type: "1", number: "100", seconds: "60" },
      { cookie: await signedSessionCookie(token) },
    );
    expect(page.status).toBe(409);
    const text = visibleText(await page.text());
    expect(text).toContain(STAKE);
    expect(text).not.toContain("contract account");
    expect(await balances(user.accounts.options)).toEqual({ balance: 50 * USD, locked: 0 });
  });

  it("an unknown forex_id on an order call says the instrument does not exist (no 'showing the first one')", async () => {
    const user = await buyer(100 * USD);
    await fund(user.accounts.contract, 1_000 * USD);
    const headers = { authorization: await sessionFor(user.id), lang: "en" };
    for (const path of [
      "/v2/api/micro/submit?forex_id=999&type=1&number=10&seconds=60",
      "/v2/api/forex/submit?forex_id=999&type=1&cont=0.01&status=1&multiple=10",
      "/v2/api/forex/submit?forex_id=abc&type=1&cont=0.01&status=1&multiple=10",
    ]) {
      const body = (await (await get(path, { headers })).json()) as { code: number; msg: string };
      expect(body, path).toMatchObject({ code: 0, msg: "This instrument doesn't exist." });
    }
    // the page's fallback for an unknown code stays as it was
    expect(visibleText(await (await get("/trade?code=NOPE")).text())).toContain(
      "That instrument doesn't exist. Showing the first one instead.",
    );
  });
});

describe("the operator's option terms (/admin/options)", () => {
  type Terms = { data: { sec: { Id: number; Seconds: number; ProfitRatio: string; LimitAmount: string }[]; number: { Number: string }[] } };
  const terms = async () => ((await (await get("/v2/api/micro/get_seconds", { headers: { lang: "en" } })).json()) as Terms).data;
  async function cookieOf(role: "operator" | "user") {
    const user = await createUser();
    if (role === "operator") await env.DB.prepare("UPDATE users SET role = 'operator' WHERE id = ?1").bind(user.id).run();
    return signedSessionCookie(await sessionFor(user.id));
  }
  const durationRow = (seconds: number) =>
    env.DB.prepare("SELECT id, profit_ratio AS ratio, min_amount AS min, status FROM option_durations WHERE seconds = ?1")
      .bind(seconds)
      .all<{ id: number; ratio: string; min: number; status: number }>()
      .then((r) => r.results);

  it("adds a duration, edits it and takes it off offer; new options use the new terms, bought ones keep theirs; bad input changes nothing", async () => {
    const op = await cookieOf("operator");
    const seconds = 1_000 + Math.floor(Math.random() * 8_000);
    const save = (fields: Record<string, string>) =>
      form(
        "/admin/options",
        { intent: "option-duration-save", seconds: String(seconds), profit_ratio: "0.7", min_amount: "5", status: "1", ...fields },
        { cookie: op },
      );
    expect((await get("/admin/options", { cookie: op })).status).toBe(200);
    expect((await save({})).status).toBe(302);
    // the same length again (a double submit) is refused: one row
    const again = await save({});
    expect(again.status).toBe(409);
    expect(formErrors(await again.text())).toContain("This duration is already on the list.");
    const [row] = await durationRow(seconds);
    expect(await durationRow(seconds)).toHaveLength(1);
    expect(row).toMatchObject({ ratio: "0.70", min: 5 * USD, status: 1 });
    expect((await terms()).sec).toContainEqual({ Id: row!.id, Seconds: seconds, ProfitRatio: "0.70", LimitAmount: "5.00" });

    await hold("ETHUSDT", 2_000);
    const ctx = await createServiceContext(env);
    const user = await buyer(100 * USD);
    const before = await buyOption(ctx, user.id, { instrumentId: 2, direction: 1, amount: "10", seconds });
    if (!before.ok) throw new Error(JSON.stringify(before.errors));
    expect(before.value.profitRatio).toBe("0.70");

    const edit = (fields: Record<string, string>) => save({ id: String(row!.id), ...fields });
    const bads: Record<string, string>[] = [
      { seconds: "5" },
      { seconds: "abc" },
      { profit_ratio: "0" },
      { profit_ratio: "11" },
      { profit_ratio: "0.12345" },
      { min_amount: "-1" },
      { min_amount: "1e3" },
      { seconds: "60" },
    ];
    for (const bad of bads) expect((await edit(bad)).status, JSON.stringify(bad)).toBeGreaterThanOrEqual(400);
    expect((await durationRow(seconds))[0]).toMatchObject({ ratio: "0.70", min: 5 * USD, status: 1 });
    expect((await edit({ id: "999999999" })).status).toBe(404);
    expect((await edit({ id: "1 OR 1=1" })).status).toBe(404);

    expect((await edit({ profit_ratio: "0.9000", min_amount: "20" })).status).toBe(302);
    const after = await buyOption(ctx, user.id, { instrumentId: 2, direction: 1, amount: "20", seconds });
    if (!after.ok) throw new Error(JSON.stringify(after.errors));
    expect(after.value.profitRatio).toBe("0.90");
    expect((await buyOption(ctx, user.id, { instrumentId: 2, direction: 1, amount: "10", seconds })).ok).toBe(false); // below the new minimum
    expect(
      (await env.DB.prepare("SELECT profit_ratio AS ratio FROM options WHERE id = ?1").bind(before.value.id).first<{ ratio: string }>())!
        .ratio,
    ).toBe("0.70");

    // off offer (the box unticked): gone from the list, refused when bought
    expect(
      (
        await form(
          "/admin/options",
          { intent: "option-duration-save", id: String(row!.id), seconds: String(seconds), profit_ratio: "0.9", min_amount: "20" },
          { cookie: op },
        )
      ).status,
    ).toBe(302);
    expect((await terms()).sec.some((d) => d.Seconds === seconds)).toBe(false);
    expect(await buyOption(ctx, user.id, { instrumentId: 2, direction: 1, amount: "20", seconds })).toMatchObject({
      ok: false,
      errors: { seconds: "errors.unknown_duration" },
    });
  });

  it("at least one duration stays on offer", async () => {
    const op = await cookieOf("operator");
    const open = (
      await env.DB.prepare(
        "SELECT id, seconds, profit_ratio AS ratio, min_amount AS min FROM option_durations WHERE status = 1 ORDER BY id",
      ).all<{ id: number; seconds: number; ratio: string; min: number }>()
    ).results;
    const post = (d: (typeof open)[number], status: "1" | "") =>
      form(
        "/admin/options",
        {
          intent: "option-duration-save",
          id: String(d.id),
          seconds: String(d.seconds),
          profit_ratio: d.ratio,
          min_amount: String(d.min / USD),
          status,
        },
        { cookie: op },
      );
    try {
      for (const d of open.slice(1)) expect((await post(d, "")).status).toBe(302);
      const last = await post(open[0]!, "");
      expect(last.status).toBe(409);
      expect(formErrors(await last.text())).toContain("At least one duration must stay on offer.");
      expect((await terms()).sec.map((d) => d.Seconds)).toEqual([open[0]!.seconds]);
    } finally {
      for (const d of open.slice(1)) await post(d, "1");
    }
    expect((await terms()).sec.map((d) => d.Seconds)).toEqual(expect.arrayContaining(open.map((d) => d.seconds)));
  });

  it("what a wrong option costs: set to the profit figure, a new option loses 8.00 of 10 while one bought before loses its whole stake; the trade page shows it before buying", async () => {
    const op = await cookieOf("operator");
    const setLevel = (level: string) => form("/admin/options", { intent: "option-loss-save", loss_level: level }, { cookie: op });
    const ctx = await createServiceContext(env);
    const user = await buyer(100 * USD);
    const cookie = await signedSessionCookie(await sessionFor(user.id));
    await hold("ETHUSDT", 2_000);
    const page = async () =>
      visibleText(await (await get("/trade?code=ETHUSDT&tab=future", { cookie, headers: { "accept-language": "en" } })).text());
    expect(await page()).toContain("Lost if wrong -10.00 USD");
    const before = await buyOption(ctx, user.id, { instrumentId: 2, direction: 1, amount: "10", seconds: 30 });
    try {
      expect((await setLevel("2")).status).toBe(400);
      expect((await setLevel("1")).status).toBe(302);
      expect(await page()).toContain("Lost if wrong -8.00 USD");
      const after = await buyOption(ctx, user.id, { instrumentId: 2, direction: 1, amount: "10", seconds: 30 });
      if (!before.ok || !after.ok) throw new Error("buying failed");
      expect([before.value.lossLevel, after.value.lossLevel]).toEqual([0, 1]);
      await main().setPrice("ETHUSDT", 1_990);
      await tickAt(Math.max(before.value.expiresAt, after.value.expiresAt));
      expect(await option(before.value.id)).toMatchObject({ status: 3, profit: -10 * USD });
      expect(await option(after.value.id)).toMatchObject({ status: 3, profit: -8 * USD });
      expect(await balances(user.accounts.options)).toEqual({ balance: 82 * USD, locked: 0 });
    } finally {
      expect((await setLevel("0")).status).toBe(302);
    }
    expect((await form("/admin/options", { intent: "option-loss-save", loss_level: "1" }, { cookie: await cookieOf("user") })).status).toBe(
      404,
    );
  });

  it("replaces the preset stakes (sorted, no duplicates); bad lists change nothing; users and visitors get 404", async () => {
    const op = await cookieOf("operator");
    const original = (await terms()).number.map((n) => n.Number);
    const save = (amounts: string, cookie = op) => form("/admin/options", { intent: "option-stakes-save", amounts }, { cookie });
    try {
      expect((await save("100, 5 25,5")).status).toBe(302);
      expect((await terms()).number.map((n) => n.Number)).toEqual(["5.00", "25.00", "100.00"]);
      for (const bad of ["", "0", "10, abc", "1 2 3 4 5 6 7 8 9", "2000000"]) {
        const res = await save(bad);
        expect(res.status, bad).toBe(400);
      }
      const refused = await save("1 2 3 4 5 6 7 8 9");
      expect(formErrors(await refused.text())).toContain("Enter at most 8 amounts.");
      expect((await terms()).number.map((n) => n.Number)).toEqual(["5.00", "25.00", "100.00"]);
      const user = await cookieOf("user");
      expect((await save("1", user)).status).toBe(404);
      expect((await get("/admin/options", { cookie: user })).status).toBe(404);
      expect((await get("/admin/options")).status).toBe(404);
      expect((await form("/admin/options", { intent: "nonsense" }, { cookie: op })).status).toBe(400);
    } finally {
      expect((await save(original.join(", "))).status).toBe(302);
    }
    expect((await terms()).number.map((n) => n.Number)).toEqual(original);
  });
});
