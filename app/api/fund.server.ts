/**
 * JSON calls of mining (spec §7 /api/fund/*): list (page), info (id), buy (id, amount), subList
 * (page), insList (sub_id, page), applyRefund (sub_id), with the §3 field names (the product's
 * staring_sub_amount is the spec's spelling; a subscription carries get_fund {title,
 * currency_code, liquidated_damages}). Money as decimal strings. Changing calls sent as GET need
 * the authorization header; the same service checks every rule as the pages do.
 */
import { DAY_PROFIT_DECIMALS, SUBSCRIPTION_STATUS_KEYS } from "~/domain/fund";
import { toDecimalString, type Micros } from "~/domain/money";
import { FundInfoSchema, FundPageSchema, IncomePageSchema, RedeemSchema, SubscribeSchema } from "~/forms/fund";
import { parseFields } from "~/forms/parse";
import { requestRedemption, subscribe } from "~/services/fund/commands.server";
import {
  fundInfo,
  incomeRecords,
  listFunds,
  subscriptionRecords,
  type Fund,
  type SubscriptionRecord,
} from "~/services/fund/queries.server";
import { actingUserOrInvalid, failure, ok, params, query, userOrInvalid, type Handler, type Routes } from "./common.server";

const money = (micros: Micros) => toDecimalString(micros, 2);
const profit = (micros: Micros) => toDecimalString(micros, DAY_PROFIT_DECIMALS);

function toWireFund(f: Fund) {
  return {
    id: f.id,
    title: f.title,
    image: f.image,
    currency_code: f.currencyCode,
    dividend_percentage: f.dividendPercentage,
    staring_sub_amount: money(f.startingSubAmount),
    lock_dividend_days: f.lockDividendDays,
    max_sub_amount: money(f.maxSubAmount),
    desc: f.desc,
    liquidated_damages: f.liquidatedDamages,
  };
}

function toWireSub(s: SubscriptionRecord, t: (key: string) => string) {
  return {
    id: s.id,
    status: s.status,
    status_name: t(`fund.status_${SUBSCRIPTION_STATUS_KEYS[s.status] ?? "in_progress"}`),
    share_amount: money(s.shareAmount),
    sub_time: new Date(s.subTime).toISOString(),
    day_profit: profit(s.dayProfit),
    sum_profit: profit(s.sumProfit),
    penalty: money(s.penalty),
    start_day: s.startDay,
    end_day: s.endDay,
    get_fund: { title: s.title, currency_code: s.currencyCode, liquidated_damages: s.liquidatedDamages },
  };
}

const buy: Handler = async (request, ctx) => {
  const q = await params(request, ctx);
  if (q instanceof Response) return q;
  const user = await actingUserOrInvalid(request, ctx);
  if (user instanceof Response) return user;
  const input = parseFields(SubscribeSchema, q);
  if (!input.ok) return failure(ctx, input.errors);
  // the API has no confirm step: no terms to hold the product to
  const result = await subscribe(ctx, user, { ...input.value, terms: undefined });
  if (!result.ok) return failure(ctx, result.errors, result.status);
  const v = result.value;
  return ok(
    ctx,
    {
      id: v.id,
      created: v.created,
      share_amount: money(v.quote.amount),
      day_profit: profit(v.quote.dayProfit),
      total_profit: profit(v.quote.totalProfit),
      start_day: v.quote.startDay,
      end_day: v.quote.endDay,
    },
    "fund.subscribed",
  );
};

const applyRefund: Handler = async (request, ctx) => {
  const q = await params(request, ctx);
  if (q instanceof Response) return q;
  const user = await actingUserOrInvalid(request, ctx);
  if (user instanceof Response) return user;
  const input = parseFields(RedeemSchema, q);
  if (!input.ok) return failure(ctx, input.errors);
  const result = await requestRedemption(ctx, user, input.value.subId);
  if (!result.ok) return failure(ctx, result.errors, result.status);
  return ok(
    ctx,
    { id: result.value.id, status: result.value.status, penalty: money(result.value.penalty) },
    result.value.status === 3 ? "fund.refunded" : "fund.refund_requested",
  );
};

export const fundRoutes: Routes = {
  "/api/fund/list": {
    GET: async (request, ctx) => {
      const input = parseFields(FundPageSchema, query(request));
      if (!input.ok) return failure(ctx, input.errors);
      const page = await listFunds(ctx, input.value.page);
      return ok(ctx, { data: page.items.map(toWireFund), total: page.total, last_page: page.lastPage, page: page.page });
    },
  },
  "/api/fund/info": {
    GET: async (request, ctx) => {
      const input = parseFields(FundInfoSchema, query(request));
      if (!input.ok) return failure(ctx, input.errors);
      const fund = await fundInfo(ctx, input.value.id);
      if (!fund) return failure(ctx, { id: "fund.closed" }, 404);
      return ok(ctx, toWireFund(fund));
    },
  },
  "/api/fund/buy": { GET: buy, POST: buy },
  "/api/fund/subList": {
    GET: async (request, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      const input = parseFields(FundPageSchema, query(request));
      if (!input.ok) return failure(ctx, input.errors);
      const page = await subscriptionRecords(ctx, user.id, input.value.page);
      return ok(ctx, { data: page.items.map((s) => toWireSub(s, ctx.t)), total: page.total, last_page: page.lastPage, page: page.page });
    },
  },
  "/api/fund/insList": {
    GET: async (request, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      const input = parseFields(IncomePageSchema, query(request));
      if (!input.ok) return failure(ctx, input.errors);
      const page = await incomeRecords(ctx, user.id, input.value.subId, input.value.page);
      if (!page) return failure(ctx, { sub_id: "errors.not_found" }, 404);
      return ok(ctx, {
        data: page.items.map((i) => ({
          id: i.id,
          interest: profit(i.interest),
          day: i.day,
          created_at: new Date(i.createdAt).toISOString(),
        })),
        total: page.total,
        last_page: page.lastPage,
        page: page.page,
      });
    },
  },
  "/api/fund/applyRefund": { GET: applyRefund, POST: applyRefund },
};
