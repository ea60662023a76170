/**
 * Upstream mode's mining / funds (issue 23, ADR 024): the backend's products (§7 fund/list,
 * fund/info, through the D1 cache: they are product terms), and the user's subscriptions, income
 * and redemptions (fund/buy, subList, insList, applyRefund, asked for each time), in the shapes
 * the platform's own fund services give, so the mining pages do not change. Amounts are read into
 * micros exactly; a subscription's form token goes along as `request_id` (a Bourse backend makes
 * a repeated one a single subscription), and an answer that never came is an unknown outcome.
 */
import * as v from "valibot";
import type { AppContext, ServiceContext } from "~/context.server";
import type { Micros } from "~/domain/money";
import type { Fund, IncomeRecord, Paged, SubscriptionRecord } from "~/services/fund/queries.server";
import type { Outcome } from "~/services/outcome";
import { cachedRead, FRESH_MS } from "./cache.server";
import { callAsUser } from "./sessions.server";
import { Amount, commandFailed, Decimal, Int, readOf, RequiredTime, Text, type UpstreamRead } from "./wire";

/** A percentage as decimal text ("1.25"). */
const Percent = Decimal;
const Day = v.pipe(v.string(), v.regex(/^\d{4}-\d\d-\d\d$/));

const WireFund = v.object({
  id: v.pipe(Int, v.minValue(1)),
  title: Text(200),
  image: Text(500),
  currency_code: v.optional(v.pipe(v.string(), v.maxLength(12)), "USDT"),
  dividend_percentage: Percent,
  staring_sub_amount: Amount,
  lock_dividend_days: v.pipe(Int, v.minValue(1)),
  max_sub_amount: Amount,
  desc: Text(5000),
  liquidated_damages: v.optional(Percent, "0"),
});
const FundPage = v.object({ data: v.array(WireFund), total: v.optional(Int, 0), last_page: v.optional(Int, 1), page: v.optional(Int, 1) });

const WireSub = v.object({
  id: v.pipe(Int, v.minValue(1)),
  status: Int,
  share_amount: Amount,
  sub_time: RequiredTime,
  day_profit: Amount,
  sum_profit: Amount,
  penalty: v.optional(Amount, "0"),
  start_day: Day,
  end_day: Day,
  get_fund: v.object({ title: Text(200), currency_code: v.optional(v.string(), "USDT"), liquidated_damages: v.optional(Percent, "0") }),
});
const SubPage = v.object({ data: v.array(WireSub), total: v.optional(Int, 0), last_page: v.optional(Int, 1), page: v.optional(Int, 1) });
const IncomePage = v.object({
  data: v.array(v.object({ id: v.pipe(Int, v.minValue(1)), interest: Amount, day: Day, created_at: RequiredTime })),
  total: v.optional(Int, 0),
  last_page: v.optional(Int, 1),
  page: v.optional(Int, 1),
});

function toFund(f: v.InferOutput<typeof WireFund>, sort = 0): Fund {
  return {
    id: f.id,
    title: f.title,
    // only same-site pictures are shown (the pages' CSP): the backend's are left to the default
    image: /^\/(?![/\\])[A-Za-z0-9._~/-]*$/.test(f.image) ? f.image : "",
    currencyCode: f.currency_code,
    dividendPercentage: f.dividend_percentage,
    startingSubAmount: f.staring_sub_amount,
    lockDividendDays: f.lock_dividend_days,
    maxSubAmount: f.max_sub_amount,
    desc: f.desc,
    liquidatedDamages: f.liquidated_damages,
    autoRefund: 0,
    status: 1,
    sort,
  };
}

const DAY_MS = 24 * 60 * 60_000;

function toSubscription(s: v.InferOutput<typeof WireSub>): SubscriptionRecord {
  return {
    id: s.id,
    // the contract names the product by its title only
    fundId: 0,
    title: s.get_fund.title,
    currencyCode: s.get_fund.currency_code,
    status: s.status,
    shareAmount: s.share_amount,
    dayProfit: s.day_profit,
    sumProfit: s.sum_profit,
    lockDays: Math.max(1, Math.round((Date.parse(s.end_day) - Date.parse(s.start_day)) / DAY_MS) + 1),
    liquidatedDamages: s.get_fund.liquidated_damages,
    penalty: s.penalty,
    startDay: s.start_day,
    endDay: s.end_day,
    subTime: s.sub_time,
    closedAt: null,
  };
}

function paged<T>(items: T[], p: { total: number; last_page: number; page: number }): Paged<T> {
  return { items, total: p.total, page: p.page, lastPage: Math.max(1, p.last_page) };
}

/** The backend's products on offer (a page of them), through the cache; none when it never answered. */
export async function upstreamFunds(ctx: ServiceContext, page: number): Promise<Paged<Fund>> {
  const list = await cachedRead(ctx, { path: "/api/fund/list", params: { page }, schema: FundPage, freshMs: FRESH_MS.instruments });
  if (!list) return { items: [], total: 0, page, lastPage: 1 };
  return paged(
    list.data.data.map((f, n) => toFund(f, n)),
    list.data,
  );
}

/** One product on offer, through the cache (a closed or unknown one: null). */
export async function upstreamFund(ctx: ServiceContext, id: number): Promise<Fund | null> {
  const found = await cachedRead(ctx, { path: "/api/fund/info", params: { id }, schema: WireFund, freshMs: FRESH_MS.instruments });
  return found ? toFund(found.data) : null;
}

/** Subscribes (spec §7 fund/buy) with the form's token; the backend checks and moves the money. */
export async function upstreamSubscribe(
  ctx: AppContext,
  fundId: number,
  amount: string,
  requestId?: string,
): Promise<Outcome<{ id: number }>> {
  const answer = await callAsUser<unknown>(ctx, {
    method: "POST",
    path: "/api/fund/buy",
    params: { id: fundId, amount, request_id: requestId },
  });
  if (!answer.ok) return commandFailed(answer, ["amount"]);
  const made = v.safeParse(v.object({ id: v.pipe(Int, v.minValue(1)) }), answer.data);
  return { ok: true, value: { id: made.success ? made.output.id : 0 } };
}

/** The user's subscriptions, newest first (spec §7 subList). */
export async function upstreamSubscriptions(ctx: AppContext, page: number): Promise<UpstreamRead<Paged<SubscriptionRecord>>> {
  const read = readOf(await callAsUser(ctx, { method: "GET", path: "/api/fund/subList", params: { page }, read: true }), SubPage);
  return read.ok ? { ok: true, value: paged(read.value.data.map(toSubscription), read.value) } : read;
}

/** Pages of subscriptions a search for one of them reads at most (the contract has no call for one). */
const FIND_PAGES = 10;

/** One of the user's subscriptions, found in its list (null when it is not there). */
export async function upstreamSubscription(ctx: AppContext, id: number): Promise<UpstreamRead<SubscriptionRecord | null>> {
  for (let page = 1; page <= FIND_PAGES; page++) {
    const read = await upstreamSubscriptions(ctx, page);
    if (!read.ok) return read;
    const found = read.value.items.find((s) => s.id === id);
    if (found) return { ok: true, value: found };
    if (page >= read.value.lastPage) break;
  }
  return { ok: true, value: null };
}

/** A subscription's daily income (spec §7 insList). */
export async function upstreamIncome(ctx: AppContext, subId: number, page: number): Promise<UpstreamRead<Paged<IncomeRecord>>> {
  const read = readOf(
    await callAsUser(ctx, { method: "GET", path: "/api/fund/insList", params: { sub_id: subId, page }, read: true }),
    IncomePage,
  );
  if (!read.ok) return read;
  return {
    ok: true,
    value: paged(
      read.value.data.map((i) => ({ id: i.id, day: i.day, interest: i.interest, createdAt: i.created_at })),
      read.value,
    ),
  };
}

/** Asks to redeem a subscription early (spec §7 applyRefund); the backend decides the status. */
export async function upstreamRedeem(ctx: AppContext, subId: number): Promise<Outcome<{ id: number; status: number; penalty: Micros }>> {
  const answer = await callAsUser<unknown>(ctx, { method: "POST", path: "/api/fund/applyRefund", params: { sub_id: subId } });
  if (!answer.ok) return commandFailed(answer, []);
  const done = v.safeParse(
    v.object({ id: v.optional(Int, subId), status: v.optional(Int, 2), penalty: v.optional(Amount, "0") }),
    answer.data ?? {},
  );
  return { ok: true, value: done.success ? done.output : { id: subId, status: 2, penalty: 0 } };
}
