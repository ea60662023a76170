// Copy trading through the real Worker and D1: applications and their review (once, whatever the
// concurrency), following with bad input, concurrent follows, unfollow with both choices for open
// copies, pause / resume, the statistics from closed orders, nobody else's follow orders, and the
// §7 calls' shapes. Copies are made here the way the engine will make them (follow_type 2,
// origin_id, follow_id) on top of real orders, since the engine is built separately.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { placeOrder } from "~/services/contract/commands.server";
import { reviewApplication } from "~/services/copy/operator.server";
import { checkInvariants } from "~/services/ledger/accounts.server";
import {
  cookiesFrom,
  createUser,
  form,
  formErrors,
  fund,
  get,
  sessionFor,
  signedSessionCookie,
  visibleText,
  holdPrice as hold,
} from "./helpers";

const USD = 1_000_000;
type Answer<T = Record<string, unknown>> = { code: number; msg: string; data: (T & { errors?: Record<string, string> }) | null };

async function person(options: { role?: "user" | "operator"; isDemo?: boolean; contract?: number } = {}) {
  const user = await createUser({ isDemo: options.isDemo });
  if (options.role === "operator") await env.DB.prepare("UPDATE users SET role = 'operator' WHERE id = ?1").bind(user.id).run();
  if (options.contract) await fund(user.accounts.contract, options.contract);
  return { user, cookie: await signedSessionCookie(await sessionFor(user.id)) };
}

async function api<T = Record<string, unknown>>(
  path: string,
  cookie: string,
  fields?: Record<string, string>,
): Promise<{ status: number; body: Answer<T> }> {
  const res = fields ? await form(path, fields, { cookie }) : await get(path, { cookie });
  expect(res.status).toBeLessThan(500);
  return { status: res.status, body: (await res.json()) as Answer<T> };
}

async function operatorOf() {
  const op = await person({ role: "operator" });
  return { ...op, session: { id: op.user.id, role: "operator" as const } };
}

/** A user who applied and was approved: a trader. */
async function makeTrader(contract = 0) {
  const t = await person({ contract });
  const applied = await api("/api/follow/apply_trader", t.cookie, { agree: "1" });
  expect(applied.body.code, applied.body.msg).toBe(1);
  const { id } = (applied.body.data as { application: { id: number } }).application;
  const ctx = await createServiceContext(env);
  const op = await operatorOf();
  const r = await reviewApplication(ctx, op.session, { id, decision: "approve" });
  expect(r.ok).toBe(true);
  return t;
}

const followCount = async (followerId: number) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM follows WHERE follower_id = ?1").bind(followerId).first<{ n: number }>())!.n;

afterEach(async () => {
  expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
});

describe("applying to become a trader", () => {
  it("needs the agreement ticked; a demo user is refused; a second application while waiting is refused; the state is readable", async () => {
    const { user, cookie } = await person();
    const none = await api("/api/follow/apply_trader", cookie);
    expect(none.body).toMatchObject({ code: 1, data: { is_trader: 0, application: null } });

    const unticked = await api("/api/follow/apply_trader", cookie, { agree: "" });
    expect(unticked.body.code).toBe(0);
    expect(unticked.body.msg).toBe("Tick the box to agree first.");

    const first = await api("/api/follow/apply_trader", cookie, { agree: "1" });
    expect(first.body).toMatchObject({
      code: 1,
      msg: "Application sent. An operator will review it.",
      data: { application: { status: 0 } },
    });
    const again = await api("/api/follow/apply_trader", cookie, { agree: "1" });
    expect(again.body.code).toBe(0);
    expect(again.body.msg).toBe("Your application is already waiting for review.");
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM trader_applications WHERE user_id = ?1")
      .bind(user.id)
      .first<{ n: number }>();
    expect(rows!.n).toBe(1);
    expect((await api("/api/follow/apply_trader", cookie)).body.data).toMatchObject({ is_trader: 0, application: { status: 0 } });

    const demo = await person({ isDemo: true });
    const refused = await api("/api/follow/apply_trader", demo.cookie, { agree: "1" });
    expect(refused.body.code).toBe(0);
    expect(refused.body.msg).toContain("real account");
  });

  it("of 20 concurrent reviews (approve and reject) exactly one decides; an approval makes a trader with is_trader set, and a trader cannot apply again", async () => {
    const { user, cookie } = await person();
    const applied = await api("/api/follow/apply_trader", cookie, { agree: "on" });
    const { id } = (applied.body.data as { application: { id: number } }).application;
    const ops = await Promise.all([operatorOf(), operatorOf()]);
    // 20 real page posts from two operators, approvals and rejections mixed
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        form(
          "/admin/traders",
          { id: String(id), intent: i % 4 === 3 ? "reject" : "approve", reason: i % 4 === 3 ? "not enough history" : "" },
          { cookie: ops[i % 2]!.cookie },
        ),
      ),
    );
    for (const r of responses) expect(r.status).toBe(302);
    const flashes = responses.map((r) => r.headers.getSetCookie().join(";"));
    expect(flashes).toHaveLength(20);
    const decisions = await env.DB.prepare("SELECT decision FROM operator_decisions WHERE subject = 'trader' AND subject_id = ?1")
      .bind(String(id))
      .all<{ decision: string }>();
    expect(decisions.results).toHaveLength(1);
    const approved = decisions.results[0]!.decision === "approve";
    const u = await env.DB.prepare("SELECT is_trader AS t FROM users WHERE id = ?1").bind(user.id).first<{ t: number }>();
    const t = await env.DB.prepare("SELECT nickname, status, profit_share AS share FROM traders WHERE user_id = ?1")
      .bind(user.id)
      .first<{ nickname: string; status: number; share: string }>();
    if (approved) {
      expect(u!.t).toBe(1);
      expect(t).toMatchObject({ status: 1, share: "0" });
      expect(t!.nickname).toMatch(/^\w{2}\*\*\*\d{4}$/);
      const again = await api("/api/follow/apply_trader", cookie, { agree: "1" });
      expect(again.body.msg).toBe("You are already a trader.");
    } else {
      expect(u!.t).toBe(0);
      expect(t).toBeNull();
    }
  });

  it("a rejection needs a reason, which the applicant then sees; they may apply again", async () => {
    const { cookie } = await person();
    const applied = await api("/api/follow/apply_trader", cookie, { agree: "1" });
    const { id } = (applied.body.data as { application: { id: number } }).application;
    const ctx = await createServiceContext(env);
    const op = await operatorOf();
    expect(await reviewApplication(ctx, op.session, { id, decision: "reject" })).toMatchObject({
      ok: false,
      errors: { reason: "admin.reason_required" },
    });
    expect((await reviewApplication(ctx, op.session, { id, decision: "reject", reason: "Trade for a month first" })).ok).toBe(true);
    expect((await api("/api/follow/apply_trader", cookie)).body.data).toMatchObject({
      is_trader: 0,
      application: { status: 2, reason: "Trade for a month first" },
    });
    expect((await api("/api/follow/apply_trader", cookie, { agree: "1" })).body.code).toBe(1);
  });
});

describe("the operator's traders page", () => {
  it("is 404 to anyone else; sets the profit share within 0–50 %; suspends with a reason followers see, and resumes", async () => {
    const trader = await makeTrader();
    const user = await person();
    expect((await get("/admin/traders", { cookie: user.cookie })).status).toBe(404);
    expect(
      (await form("/admin/traders", { trader_id: String(trader.user.id), intent: "suspend", reason: "x" }, { cookie: user.cookie })).status,
    ).toBe(404);
    const op = await operatorOf();
    const page = await get("/admin/traders", { cookie: op.cookie });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`trader-${trader.user.id}`);
    const share = (value: string) =>
      form("/admin/traders", { trader_id: String(trader.user.id), intent: "profit-share", profit_share: value }, { cookie: op.cookie });
    const over = await share("50.5");
    expect(over.status).toBe(400);
    const overHtml = await over.text();
    expect(overHtml).toMatch(/name="profit_share"[^>]*value="50.5"/); // kept, with the message at the field
    expect(overHtml).toMatch(/id="share-\d+-error"/);
    expect((await share("-1")).status).toBe(400);
    expect((await share("12.5")).status).toBe(302);
    const row = () =>
      env.DB.prepare("SELECT status, suspended_reason AS reason, profit_share AS share FROM traders WHERE user_id = ?1")
        .bind(trader.user.id)
        .first();
    expect(await row()).toEqual({ status: 1, reason: "", share: "0.125" });
    expect(
      (await form("/admin/traders", { trader_id: String(trader.user.id), intent: "suspend", reason: "" }, { cookie: op.cookie })).status,
    ).toBe(400);
    expect(
      (await form("/admin/traders", { trader_id: String(trader.user.id), intent: "suspend", reason: "Risk review" }, { cookie: op.cookie }))
        .status,
    ).toBe(302);
    expect(await row()).toEqual({ status: 0, reason: "Risk review", share: "0.125" });
    const detail = await api("/api/follow/trader_detail?trader_id=" + trader.user.id, user.cookie);
    expect(detail.body.data).toMatchObject({ status: 0, suspended_reason: "Risk review", profit_share: "12.5" });
    const ranking = await api<{ data: { user_id: number }[] }>("/api/follow/list", user.cookie);
    expect(ranking.body.data!.data.map((l) => l.user_id)).not.toContain(trader.user.id);
    expect((await form("/admin/traders", { trader_id: String(trader.user.id), intent: "resume" }, { cookie: op.cookie })).status).toBe(302);
    expect(await row()).toEqual({ status: 1, reason: "", share: "0.125" });
  });
});

describe("following", () => {
  it("bad input gets a clear message and changes nothing", async () => {
    const trader = await makeTrader();
    const follower = await person({ contract: 500 * USD });
    const cases: [Record<string, string>, string][] = [
      [{ multiple: "0", max_amount: "100" }, "The multiple must be from 1 to 100."],
      [{ multiple: "-3", max_amount: "100" }, "The multiple must be a whole number."],
      [{ multiple: "abc", max_amount: "100" }, "The multiple must be a whole number."],
      [{ multiple: "2.5", max_amount: "100" }, "The multiple must be a whole number."],
      [{ multiple: "1000000", max_amount: "100" }, "The multiple must be from 1 to 100."],
      [{ multiple: "99999999999999999999", max_amount: "100" }, "The multiple must be from 1 to 100."],
      [{ multiple: "2", max_amount: "99999999999999999999999" }, "The maximum follow bond cannot be more than your contract balance."],
      [{ multiple: "", max_amount: "100" }, "Enter the multiple."],
      [{ multiple: "2", max_amount: "-5" }, "Enter an amount above 0 with at most 2 decimals."],
      [{ multiple: "2", max_amount: "0" }, "Enter an amount above 0 with at most 2 decimals."],
      [{ multiple: "2", max_amount: "1e3" }, "Enter an amount above 0 with at most 2 decimals."],
      [{ multiple: "2", max_amount: "500.01" }, "The maximum follow bond cannot be more than your contract balance."],
    ];
    for (const [fields, message] of cases) {
      const r = await api("/api/follow/follow_trader", follower.cookie, { trader_id: String(trader.user.id), ...fields });
      expect(r.body.code, JSON.stringify(fields)).toBe(0);
      expect(Object.values(r.body.data!.errors!), JSON.stringify(fields)).toContain(message);
    }
    const self = await api("/api/follow/follow_trader", trader.cookie, {
      trader_id: String(trader.user.id),
      multiple: "1",
      max_amount: "1",
    });
    expect(self.body.msg).toBe("You cannot follow yourself.");
    const unknown = await api("/api/follow/follow_trader", follower.cookie, { trader_id: "999999999", multiple: "1", max_amount: "10" });
    expect(unknown).toMatchObject({ status: 404, body: { code: 0, msg: "This trader does not exist." } });
    const notTrader = await person();
    expect(
      (await api("/api/follow/follow_trader", follower.cookie, { trader_id: String(notTrader.user.id), multiple: "1", max_amount: "10" }))
        .body.msg,
    ).toBe("This trader does not exist.");
    expect((await api("/api/follow/follow_trader", follower.cookie, { trader_id: "abc", multiple: "1", max_amount: "10" })).body.code).toBe(
      0,
    );
    expect(await followCount(follower.user.id)).toBe(0);

    const suspended = await makeTrader();
    await env.DB.prepare("UPDATE traders SET status = 0, suspended_reason = 'under review' WHERE user_id = ?1")
      .bind(suspended.user.id)
      .run();
    expect(
      (await api("/api/follow/follow_trader", follower.cookie, { trader_id: String(suspended.user.id), multiple: "1", max_amount: "10" }))
        .body.msg,
    ).toBe("This trader is suspended: you cannot follow them now.");

    const okay = await api("/api/follow/follow_trader", follower.cookie, {
      trader_id: String(trader.user.id),
      multiple: "3",
      max_amount: "500",
    });
    expect(okay.body).toMatchObject({
      code: 1,
      msg: "You now follow this trader.",
      data: { multiple: 3, max_amount: "500.00", status: 1, copy_stop_loss: "0.00" },
    });
    const twice = await api("/api/follow/follow_trader", follower.cookie, {
      trader_id: String(trader.user.id),
      multiple: "5",
      max_amount: "100",
    });
    expect(twice.body.msg).toBe("You already follow this trader.");
    expect(await followCount(follower.user.id)).toBe(1);
  });

  it("a demo account cannot follow: its simulated profit would pay the trader a real share", async () => {
    const trader = await makeTrader();
    const demo = await person({ isDemo: true, contract: 100_000 * USD });
    const refused = await api("/api/follow/follow_trader", demo.cookie, {
      trader_id: String(trader.user.id),
      multiple: "10",
      max_amount: "5000",
    });
    expect(refused.body.code).toBe(0);
    expect(refused.body.msg).toMatch(/real account/i);
    expect(await followCount(demo.user.id)).toBe(0);
    // the page says so instead of the form, and refuses a post all the same
    expect(visibleText(await (await get(`/follow/submit?id=${trader.user.id}`, { cookie: demo.cookie })).text())).toContain(
      "Only real account",
    );
    const page = await form(
      `/follow/submit?id=${trader.user.id}`,
      { intent: "follow", multiple: "10", max_amount: "5000" },
      { cookie: demo.cookie },
    );
    expect(page.status).toBe(403);
    expect(await followCount(demo.user.id)).toBe(0);
  });

  it("10 concurrent follows of the same trader make one follow", async () => {
    const trader = await makeTrader();
    const follower = await person({ contract: 100 * USD });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api("/api/follow/follow_trader", follower.cookie, { trader_id: String(trader.user.id), multiple: String(i + 1), max_amount: "50" }),
      ),
    );
    expect(answers.filter((a) => a.body.code === 1)).toHaveLength(1);
    for (const a of answers.filter((x) => x.body.code !== 1)) expect(a.body.msg).toBe("You already follow this trader.");
    expect(await followCount(follower.user.id)).toBe(1);
  });

  it("pause and resume keep the settings; a copy stop-loss is saved; nobody else can change them", async () => {
    const trader = await makeTrader();
    const follower = await person({ contract: 100 * USD });
    await api("/api/follow/follow_trader", follower.cookie, { trader_id: String(trader.user.id), multiple: "4", max_amount: "80" });
    const paused = await api("/api/follow/pause_follow", follower.cookie, { trader_id: String(trader.user.id), paused: "1" });
    expect(paused.body).toMatchObject({ code: 1, data: { status: 2 } });
    const row = () =>
      env.DB.prepare("SELECT status, multiple, max_amount AS max, copy_stop_loss AS stop FROM follows WHERE follower_id = ?1")
        .bind(follower.user.id)
        .first();
    expect(await row()).toEqual({ status: 2, multiple: 4, max: 80 * USD, stop: 0 });
    expect((await api("/api/follow/pause_follow", follower.cookie, { trader_id: String(trader.user.id), paused: "0" })).body.data).toEqual({
      status: 1,
    });
    expect(
      (await api("/api/follow/set_copy_stop", follower.cookie, { trader_id: String(trader.user.id), copy_stop_loss: "25.5" })).body.data,
    ).toEqual({ copy_stop_loss: "25.50" });
    expect(
      (await api("/api/follow/set_copy_stop", follower.cookie, { trader_id: String(trader.user.id), copy_stop_loss: "-1" })).body.code,
    ).toBe(0);
    expect(await row()).toEqual({ status: 1, multiple: 4, max: 80 * USD, stop: 25.5 * USD });
    const other = await person();
    expect((await api("/api/follow/pause_follow", other.cookie, { trader_id: String(trader.user.id), paused: "1" })).body.msg).toBe(
      "You do not follow this trader.",
    );
    expect(await row()).toMatchObject({ status: 1 });
  });
});

describe("unfollowing with open copies", () => {
  /** The trader's order and a follower's copy of it, linked as the engine links them. */
  async function copiedPosition(traderId: number, followerId: number, followId: number) {
    await hold("BTCUSDT", 50_000);
    const ctx = await createServiceContext(env);
    const own = await placeOrder(ctx, traderId, { side: 1, lots: "0.01", instrumentId: 1, entry: 1, leverage: 10 });
    if (!own.ok) throw new Error(JSON.stringify(own.errors));
    const copy = await placeOrder(ctx, followerId, { side: 1, lots: "0.02", instrumentId: 1, entry: 1, leverage: 10 });
    if (!copy.ok) throw new Error(JSON.stringify(copy.errors));
    await env.DB.prepare("UPDATE contract_orders SET follow_type = 2, origin_id = ?2, follow_id = ?3 WHERE id = ?1")
      .bind(copy.value.id, own.value.id, followId)
      .run();
    return { traderOrder: own.value.id, copy: copy.value.id };
  }

  async function setup() {
    const trader = await makeTrader(10_000 * USD);
    const follower = await person({ contract: 1_000 * USD });
    const f = await api<{ follow_id: number }>("/api/follow/follow_trader", follower.cookie, {
      trader_id: String(trader.user.id),
      multiple: "2",
      max_amount: "500",
    });
    const followId = f.body.data!.follow_id;
    return { trader, follower, followId, ...(await copiedPosition(trader.user.id, follower.user.id, followId)) };
  }

  const orderRow = (id: number) =>
    env.DB.prepare("SELECT status, origin_id AS originId, follow_id AS followId, close_reason AS reason FROM contract_orders WHERE id = ?1")
      .bind(id)
      .first();

  it("let run: the follow ends, the copy stays open without its origin link (no longer follows the trader's close) but still counts as this follow's", async () => {
    const { trader, follower, followId, copy } = await setup();
    const listed = await api<{ data: { Id: number; FollowType: number }[] }>(
      `/v2/api/forex/my_deal_follow_order?status=1&user_id=${trader.user.id}`,
      follower.cookie,
    );
    expect(listed.body.data!.data.map((o) => [o.Id, o.FollowType])).toEqual([[copy, 2]]);
    const r = await api("/api/follow/canal_follow", follower.cookie, { trader_id: String(trader.user.id) });
    expect(r.body).toMatchObject({ code: 1, msg: "You no longer follow this trader.", data: { follow_id: followId, kept: 1, closed: 0 } });
    expect(await orderRow(copy)).toEqual({ status: 1, originId: null, followId, reason: null });
    expect(await env.DB.prepare("SELECT status FROM follows WHERE id = ?1").bind(followId).first()).toEqual({ status: 0 });
    const detail = await api("/api/follow/trader_detail?trader_id=" + trader.user.id, follower.cookie);
    expect(detail.body.data).toMatchObject({ is_followed: 0, follow: null });
    expect((await api("/api/follow/canal_follow", follower.cookie, { trader_id: String(trader.user.id) })).body.msg).toBe(
      "You do not follow this trader.",
    );
  });

  it("close now: the follow ends and the copy closes at the market price; the trader's own order stays open", async () => {
    const { trader, follower, followId, copy, traderOrder } = await setup();
    await hold("BTCUSDT", 50_100);
    const r = await api("/api/follow/canal_follow", follower.cookie, { trader_id: String(trader.user.id), close_orders: "1" });
    expect(r.body).toMatchObject({ code: 1, data: { follow_id: followId, closed: 1, not_closed: 0 } });
    expect(await orderRow(copy)).toMatchObject({ status: 3, reason: "manual" });
    expect(await orderRow(traderOrder)).toMatchObject({ status: 1 });
    const closed = await api<{ data: { Id: number; FactProfits: string }[] }>(
      `/v2/api/forex/my_deal_follow_order?status=3&follow_id=${followId}`,
      follower.cookie,
    );
    // 0.02 BTC × (50,100 − 50,000) = +2.00
    expect(closed.body.data!.data).toEqual([expect.objectContaining({ Id: copy, FactProfits: "2.00" })]);
  });

  it("another user's follow orders answer 404, by follow id and by follower id", async () => {
    const { follower, followId } = await setup();
    const other = await person();
    expect((await api(`/v2/api/forex/my_deal_follow_order?status=1&follow_id=${followId}`, other.cookie)).status).toBe(404);
    expect((await api(`/v2/api/forex/my_deal_follow_order?status=1&follower_user_id=${follower.user.id}`, other.cookie)).status).toBe(404);
    expect((await api(`/v2/api/forex/my_deal_follow_order?status=1&follow_id=999999999`, other.cookie)).status).toBe(404);
    const mine = await api<{ total: number }>(
      `/v2/api/forex/my_deal_follow_order?status=1&follower_user_id=${follower.user.id}`,
      follower.cookie,
    );
    expect(mine.body.data!.total).toBe(1);
    // the follower's list and the trader's followers
    const cards = await api<{ data: Record<string, unknown>[] }>("/api/follow/followed_trader", follower.cookie);
    expect(cards.body.data!.data[0]).toMatchObject({
      id: followId,
      position_num: 1,
      total_num: 0,
      max_amount: "500.00",
      position_quantity: 2,
      total_profits: "0.00",
      total_amount: "100.00",
    });
  });
});

describe("statistics and the ranking", () => {
  it("are computed from the trader's closed own orders (three weeks ending now, and all time), shown by list, trader_detail and my_follower", async () => {
    const trader = await makeTrader();
    const now = Date.now();
    const day = 86_400_000;
    const closed = [
      { profit: 30 * USD, margin: 100 * USD, at: now - day },
      { profit: -10 * USD, margin: 100 * USD, at: now - 2 * day },
      { profit: 45 * USD, margin: 50 * USD, at: now - 30 * day },
    ];
    const account = await env.DB.prepare("SELECT id FROM accounts WHERE user_id = ?1 AND kind = 'contract'")
      .bind(trader.user.id)
      .first<{ id: number }>();
    for (const [i, c] of closed.entries()) {
      await env.DB.prepare(
        `INSERT INTO contract_orders (user_id, account_id, instrument_id, code, side, status, lots, contract_size, precision, leverage, margin_mode, origin_price, open_price, close_price,
           margin, fee, profit, close_reason, follow_type, open_tx, filled_at, closed_at, updated_at)
         VALUES (?1, ?2, 1, 'BTCUSDT', 1, 3, 10000, 1000000, 2, 10, 2, 5000000, 5000000, 5000000, ?3, 0, ?4, 'manual', 1, ?5, ?6, ?6, ?6)`,
      )
        .bind(trader.user.id, account!.id, c.margin, c.profit, `stats-${trader.user.id}-${i}`, c.at)
        .run();
    }
    // a copy in the trader's account (follow_type 2) is not the trader's own trade: it does not count
    await env.DB.prepare(
      `INSERT INTO contract_orders (user_id, account_id, instrument_id, code, side, status, lots, contract_size, precision, leverage, margin_mode, origin_price, open_price, close_price,
         margin, fee, profit, close_reason, follow_type, open_tx, filled_at, closed_at, updated_at)
       VALUES (?1, ?2, 1, 'BTCUSDT', 1, 3, 10000, 1000000, 2, 10, 2, 5000000, 5000000, 5000000, ?3, 0, ?3, 'manual', 2, ?4, ?5, ?5, ?5)`,
    )
      .bind(trader.user.id, account!.id, 1000 * USD, `stats-${trader.user.id}-copy`, now)
      .run();
    await env.DB.prepare("UPDATE traders SET stats_at = 0 WHERE user_id = ?1").bind(trader.user.id).run();
    const viewer = await person();
    const detail = await api("/api/follow/trader_detail?trader_id=" + trader.user.id, viewer.cookie);
    // three weeks: (30 − 10) ÷ 200 = 10.00 %, 1 win of 2 = 50.00 %, profit 20; all time: 65 ÷ 250 = 26.00 %, 3 orders
    expect(detail.body.data).toMatchObject({
      three_week_rate: "10.00",
      three_week_win: "50.00",
      three_week_profit: "20.00",
      total_rate: "26.00",
      total_trade_num: 3,
      total_profit: "65.00",
      is_followed: 0,
    });
    const ranking = await api<{ data: Record<string, unknown>[] }>("/api/follow/list?page=1", viewer.cookie);
    expect(ranking.body.data!.data.find((l) => l.user_id === trader.user.id)).toMatchObject({
      three_week_rate: "10.00",
      three_week_win: "50.00",
      total_trade_num: 3,
      multiple: 10,
      code: "BTCUSDT",
    });
    const mine = await api("/api/follow/my_follower", trader.cookie);
    expect(mine.body.data).toMatchObject({ will_pay_profit: "0.00", total_profits: "0.00", follow_num: 0, data: [] });
    const notTrader = await api("/api/follow/my_follower", viewer.cookie);
    expect(notTrader.body).toMatchObject({ code: 0, msg: "Only traders have followers." });
    const list = await api<{ data: { user_id: number; is_followed: number }[] }>("/api/follow/trader_list", viewer.cookie);
    expect(list.body.data!.data.find((t) => t.user_id === trader.user.id)).toMatchObject({ is_followed: 0 });
  });
});

describe("the screens without JavaScript", () => {
  it("/follow sends a user to the application and a trader to their followers; the application form is refused unticked and accepted ticked", async () => {
    const { user, cookie } = await person();
    const home = await get("/follow", { cookie });
    expect(home.headers.get("location")).toBe("/follow/trader-apply");
    const page = await get("/follow/trader-apply", { cookie });
    expect([page.status, page.headers.get("location")]).toEqual([200, null]);
    expect(visibleText(await page.text())).toContain("Application documents");
    const unticked = await form("/follow/trader-apply", { intent: "apply-trader" }, { cookie });
    expect(unticked.status).toBe(400);
    expect(formErrors(await unticked.text())).toContain("Tick the box to agree first.");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM trader_applications WHERE user_id = ?1").bind(user.id).first()).toEqual({
      n: 0,
    });
    const ticked = await form("/follow/trader-apply", { intent: "apply-trader", agree: "on" }, { cookie });
    expect(ticked.status).toBe(302);
    expect(visibleText(await (await get("/follow/trader-apply", { cookie })).text())).toContain("Waiting for an operator's review.");
    // applying twice (a second tab): the page says why nothing happened
    const twice = await form("/follow/trader-apply", { intent: "apply-trader", agree: "on" }, { cookie });
    expect(twice.headers.get("location")).toBe("/follow/trader-apply");
    expect(visibleText(await (await get("/follow/trader-apply", { cookie: cookiesFrom(twice, cookie) })).text())).toContain(
      "Your application is already waiting for review.",
    );
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM trader_applications WHERE user_id = ?1").bind(user.id).first()).toEqual({
      n: 1,
    });
    const trader = await makeTrader();
    expect((await get("/follow", { cookie: trader.cookie })).headers.get("location")).toBe("/follow/my-follower");
    expect((await get("/follow/my-follower", { cookie })).headers.get("location")).toBe("/follow/trader-apply");
  });

  it("follow through the guide and the form, see it on the detail and the list, then unfollow through the confirm step", async () => {
    const trader = await makeTrader();
    const follower = await person({ contract: 300 * USD });
    const submit = `/follow/submit?id=${trader.user.id}`;
    expect(visibleText(await (await get(submit, { cookie: follower.cookie })).text())).toContain("Before you follow");
    expect((await form(submit, { intent: "preview" }, { cookie: follower.cookie })).status).toBe(400);
    const agreed = await form(submit, { intent: "preview", agree: "on" }, { cookie: follower.cookie });
    expect(agreed.status).toBe(302);
    const cookie = cookiesFrom(agreed, follower.cookie);
    expect(visibleText(await (await get(submit, { cookie })).text())).toContain("auto follow:");
    const bad = await form(submit, { intent: "follow", multiple: "0", max_amount: "400" }, { cookie });
    expect(bad.status).toBe(400);
    const errors = formErrors(await bad.text());
    expect(errors).toContain("The multiple must be from 1 to 100.");
    expect(errors).toContain("The maximum follow bond cannot be more than your contract balance.");
    const done = await form(submit, { intent: "follow", multiple: "7", max_amount: "250.5" }, { cookie });
    expect(done.headers.get("location")).toBe(`/follow/trader?id=${trader.user.id}`);
    const detail = visibleText(await (await get(`/follow/trader?id=${trader.user.id}`, { cookie })).text());
    expect(detail).toContain("auto follow: 7");
    expect(detail).toContain("250.50");
    expect(detail).toContain("Unfollow");
    // following twice (a second tab): back on the trader's page with the reason; still one follow
    const twice = await form(submit, { intent: "follow", multiple: "3", max_amount: "100" }, { cookie });
    expect(twice.headers.get("location")).toBe(`/follow/trader?id=${trader.user.id}`);
    expect(visibleText(await (await get(`/follow/trader?id=${trader.user.id}`, { cookie: cookiesFrom(twice, cookie) })).text())).toContain(
      "You already follow this trader.",
    );
    expect(await followCount(follower.user.id)).toBe(1);
    const list = visibleText(await (await get("/follow/follow-list", { cookie })).text());
    expect(list).toContain("Traders you follow");
    expect(list).toContain("×7");
    const confirm = visibleText(await (await get(`/follow/trader?id=${trader.user.id}&confirm=unfollow`, { cookie })).text());
    expect(confirm).toContain("will no longer follow this trader's closing order");
    const gone = await form(`/follow/trader?id=${trader.user.id}`, { intent: "unfollow", open: "keep" }, { cookie });
    expect(gone.status).toBe(302);
    expect(await followCount(follower.user.id)).toBe(1);
    expect(await env.DB.prepare("SELECT status FROM follows WHERE follower_id = ?1").bind(follower.user.id).first()).toEqual({ status: 0 });
    // another user's follow orders by id: 404
    const followId = (await env.DB.prepare("SELECT id FROM follows WHERE follower_id = ?1").bind(follower.user.id).first<{ id: number }>())!
      .id;
    const other = await person();
    expect((await get(`/follow/follow-list?orders=${followId}&status=1`, { cookie: other.cookie })).status).toBe(404);
    expect((await get(`/follow/follow-list?orders=${followId}&status=3`, { cookie })).status).toBe(200);
    expect((await get("/follow/trader?id=999999999", { cookie })).status).toBe(404);
  });

  it("/rank lists the active traders and links each to its detail", async () => {
    const trader = await makeTrader();
    const html = await (await get("/rank")).text();
    expect(html).toContain(`/follow/trader?id=${trader.user.id}`);
    // every figure on a card is explained (the win rate as winning closes ÷ closes)
    const text = visibleText(html);
    expect(text).toContain("How these figures are computed");
    const en = (await import("../../locales/en/common.json")).default as { copy: Record<string, string> };
    for (const key of [
      "explain_three_week_rate",
      "explain_three_week_win",
      "explain_three_week_profit",
      "explain_total_rate",
      "explain_total_trade_num",
    ])
      expect(text).toContain(en.copy[key]);
  });
});
