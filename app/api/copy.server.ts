/**
 * Copy-trading calls (spec §7, issue 11 §5) with the spec §3 Trader / Leader / Master list item /
 * Follower fields: /api/follow/list (leaders), trader_list, apply_trader, trader_detail,
 * follow_trader (trader_id, multiple, max_amount), canal_follow (trader_id; close_orders=1 closes
 * the open copies now, otherwise they run on without following the trader's close),
 * followed_trader, my_follower, and /v2/api/forex/my_deal_follow_order (page, user_id,
 * follower_user_id, status 1 following / 3 closed). Also pause_follow (trader_id, paused 1/0)
 * and set_copy_stop (trader_id, copy_stop_loss). Money as exact decimal strings, rates as
 * percentages with 2 decimals ("12.34").
 */
import { hundredthsToPercent } from "~/domain/contract";
import { shareDecimalToPercent } from "~/domain/copy";
import { toDecimalString } from "~/domain/money";
import {
  ApplySchema,
  CopyStopSchema,
  FollowOrdersQuerySchema,
  FollowSchema,
  PageQuerySchema,
  PauseSchema,
  TraderQuerySchema,
  UnfollowSchema,
  appliesByCall,
  applyFieldsOfCall,
  copyStopFieldsOfCall,
  followFieldsOfCall,
  followOrdersFieldsOfCall,
  pauseFieldsOfCall,
  traderQueryFieldsOfCall,
  unfollowFieldsOfCall,
} from "~/forms/copy";
import { parseFields } from "~/forms/parse";
import { followTrader, setCopyStopLoss, setFollowPaused, unfollow } from "~/services/copy/follows.server";
import { applicationOf, isTrader, leaders, traderDetail, traderList, type FollowRow, type TraderRow } from "~/services/copy/queries.server";
import { applyTrader } from "~/services/copy/traders.server";
import { followCards, followOrders, myFollowers } from "~/services/copy/views.server";
import { toWireOrder } from "./contract.server";
import { actingUserOrInvalid, failure, ok, params, query, userOrInvalid, type Handler, type Routes } from "./common.server";

const money = (micros: number) => toDecimalString(micros, 2);
const percent = (hundredths: number) => hundredthsToPercent(hundredths);

/** The page asked for (the call's query): the schemas never refuse it. */
function pageOf(request: Request): number {
  const parsed = parseFields(PageQuerySchema, query(request));
  return parsed.ok ? parsed.value.page : 1;
}

/** Spec §3 Trader. */
function wireTrader(t: TraderRow, isFollowed: boolean) {
  return {
    id: t.userId,
    user_id: t.userId,
    nickname: t.nickname,
    avatar: t.avatar ?? "",
    follow_num: t.followNum,
    is_followed: isFollowed ? 1 : 0,
    profit_percent: percent(t.totalRate),
    total_profit: money(t.totalProfit),
    three_week_rate: percent(t.threeWeekRate),
    three_week_win: percent(t.threeWeekWin),
    three_week_profit: money(t.threeWeekProfit),
    total_rate: percent(t.totalRate),
    total_trade_num: t.totalTradeNum,
    profit_share: shareDecimalToPercent(t.profitShare),
    status: t.status,
    suspended_reason: t.status === 0 ? t.suspendedReason : "",
  };
}

function wireFollow(f: FollowRow | null) {
  if (!f) return null;
  return {
    follow_id: f.id,
    multiple: f.multiple,
    max_amount: money(f.maxAmount),
    status: f.status,
    copy_stop_loss: money(f.copyStopLoss),
    created_at: new Date(f.createdAt).toISOString(),
  };
}

const list: Handler = async (request, ctx) => {
  const page = await leaders(ctx, pageOf(request));
  return ok(ctx, {
    data: page.data.map((l) => ({
      rank: l.rank,
      user_id: l.userId,
      user: l.nickname,
      avatar: l.avatar ?? "",
      multiple: l.multiple,
      three_week_rate: percent(l.threeWeekRate),
      three_week_win: percent(l.threeWeekWin),
      three_week_profit: money(l.threeWeekProfit),
      total_rate: percent(l.totalRate),
      total_trade_num: l.totalTradeNum,
      code: l.code,
      follow_num: l.followNum,
    })),
    total: page.total,
    last_page: page.lastPage,
    page: page.page,
  });
};

const traders: Handler = async (request, ctx) => {
  const user = await ctx.user();
  const page = await traderList(ctx, user?.id ?? null, pageOf(request));
  return ok(ctx, { data: page.data.map((t) => wireTrader(t, t.isFollowed)), total: page.total, last_page: page.lastPage, page: page.page });
};

const apply: Handler = async (request, ctx) => {
  if (!appliesByCall(request.method, query(request))) {
    // reading the application's state
    const reader = await userOrInvalid(ctx);
    if (reader instanceof Response) return reader;
    const [app, trader] = await Promise.all([applicationOf(ctx, reader.id), isTrader(ctx, reader.id)]);
    return ok(ctx, {
      is_trader: trader ? 1 : 0,
      application: app && { id: app.id, status: app.status, reason: app.reason, created_at: new Date(app.createdAt).toISOString() },
    });
  }
  const user = await actingUserOrInvalid(request, ctx);
  if (user instanceof Response) return user;
  const q = await params(request, ctx);
  if (q instanceof Response) return q;
  const command = parseFields(ApplySchema, applyFieldsOfCall(q));
  if (!command.ok) return failure(ctx, command.errors);
  const result = await applyTrader(ctx, user, command.value);
  if (!result.ok) return failure(ctx, result.errors, result.status);
  return ok(
    ctx,
    {
      application: {
        id: result.value.id,
        status: result.value.status,
        reason: "",
        created_at: new Date(result.value.createdAt).toISOString(),
      },
    },
    "copy.applied",
  );
};

const detail: Handler = async (request, ctx) => {
  const user = await ctx.user();
  const q = await params(request, ctx);
  if (q instanceof Response) return q;
  const parsed = parseFields(TraderQuerySchema, traderQueryFieldsOfCall(q));
  const traderId = parsed.ok ? (parsed.value.trader_id ?? null) : null;
  const found = traderId === null ? null : await traderDetail(ctx, user?.id ?? null, traderId);
  if (!found) return failure(ctx, { trader_id: "copy.trader_unknown" }, 404);
  return ok(ctx, { ...wireTrader(found.trader, found.follow !== null), follow: wireFollow(found.follow) });
};

const follow: Handler = async (request, ctx) => {
  const user = await actingUserOrInvalid(request, ctx);
  if (user instanceof Response) return user;
  const q = await params(request, ctx);
  if (q instanceof Response) return q;
  const command = parseFields(FollowSchema, followFieldsOfCall(q));
  if (!command.ok) return failure(ctx, command.errors);
  const result = await followTrader(ctx, user, command.value);
  if (!result.ok) return failure(ctx, result.errors, result.status);
  return ok(ctx, wireFollow(result.value), "copy.followed");
};

const cancel: Handler = async (request, ctx) => {
  const user = await actingUserOrInvalid(request, ctx);
  if (user instanceof Response) return user;
  const q = await params(request, ctx);
  if (q instanceof Response) return q;
  const command = parseFields(UnfollowSchema, unfollowFieldsOfCall(q));
  if (!command.ok) return failure(ctx, command.errors);
  const result = await unfollow(ctx, user, command.value);
  if (!result.ok) return failure(ctx, result.errors, result.status);
  return ok(
    ctx,
    { follow_id: result.value.followId, closed: result.value.closed, not_closed: result.value.failed, kept: result.value.kept },
    "copy.unfollowed",
  );
};

const pause: Handler = async (request, ctx) => {
  const user = await actingUserOrInvalid(request, ctx);
  if (user instanceof Response) return user;
  const q = await params(request, ctx);
  if (q instanceof Response) return q;
  const command = parseFields(PauseSchema, pauseFieldsOfCall(q));
  if (!command.ok) return failure(ctx, command.errors);
  const result = await setFollowPaused(ctx, user, command.value);
  if (!result.ok) return failure(ctx, result.errors, result.status);
  return ok(ctx, { status: result.value.status }, command.value.paused ? "copy.paused" : "copy.resumed");
};

const copyStop: Handler = async (request, ctx) => {
  const user = await actingUserOrInvalid(request, ctx);
  if (user instanceof Response) return user;
  const q = await params(request, ctx);
  if (q instanceof Response) return q;
  const command = parseFields(CopyStopSchema, copyStopFieldsOfCall(q));
  if (!command.ok) return failure(ctx, command.errors);
  const result = await setCopyStopLoss(ctx, user, command.value);
  if (!result.ok) return failure(ctx, result.errors, result.status);
  return ok(ctx, { copy_stop_loss: money(result.value.copyStopLoss) }, "copy.stop_saved");
};

/** Spec §3 Master list item. */
const followed: Handler = async (_request, ctx) => {
  const user = await userOrInvalid(ctx);
  if (user instanceof Response) return user;
  const cards = await followCards(ctx, user.id);
  return ok(ctx, {
    data: cards.map((c) => ({
      id: c.followId,
      user_id: c.traderId,
      nickname: c.nickname,
      avatar: c.avatar ?? "",
      follow_num: c.followNum,
      position_num: c.positionNum,
      total_num: c.totalNum,
      total_amount: money(c.totalAmount),
      position_quantity: c.multiple,
      max_amount: money(c.maxAmount),
      total_profits: money(c.totalProfits),
      status: c.status,
      copy_stop_loss: money(c.copyStopLoss),
      trader_status: c.traderStatus,
      suspended_reason: c.traderStatus === 0 ? c.suspendedReason : "",
    })),
    total: cards.length,
  });
};

const followers: Handler = async (request, ctx) => {
  const user = await userOrInvalid(ctx);
  if (user instanceof Response) return user;
  const result = await myFollowers(ctx, user.id, pageOf(request));
  if (!result.ok) return failure(ctx, result.errors, result.status);
  const r = result.value;
  return ok(ctx, {
    will_pay_profit: money(r.willPay),
    total_profits: money(r.totalProfits),
    position_profits: money(r.positionProfits),
    follow_num: r.followNum,
    profit_share: shareDecimalToPercent(r.profitShare),
    data: r.data.map((f) => ({
      follow_id: f.followId,
      nickname: f.nickname,
      avatar: f.avatar ?? "",
      profitability: percent(f.profitability),
      total_profits: money(f.totalProfits),
      status: f.status,
    })),
    total: r.total,
    last_page: r.lastPage,
    page: r.page,
  });
};

/** The caller's copies: follower_user_id must be the caller (another user's → 404); user_id narrows to one trader, follow_id to one follow. */
const followOrderList: Handler = async (request, ctx) => {
  const user = await userOrInvalid(ctx);
  if (user instanceof Response) return user;
  const parsed = parseFields(FollowOrdersQuerySchema, followOrdersFieldsOfCall(query(request)));
  if (!parsed.ok) return failure(ctx, parsed.errors);
  const { follower_user_id: follower, status, follow_id: followId, user_id: traderId, page: pageNumber } = parsed.value;
  if (follower !== undefined && follower !== user.id) return failure(ctx, { follower_user_id: "errors.not_found" }, 404);
  if (status !== 1 && status !== 3) return failure(ctx, { status: "errors.bad_request" });
  if (followId === null || traderId === null) return failure(ctx, { follow_id: "errors.not_found" }, 404);
  const page = await followOrders(ctx, user.id, { followId, traderId, status, page: pageNumber });
  if (!page) return failure(ctx, { follow_id: "errors.not_found" }, 404);
  return ok(ctx, {
    data: page.orders.map(toWireOrder),
    all_fact_profits: money(page.allProfit),
    total: page.total,
    last_page: page.lastPage,
    page: page.page,
  });
};

export const copyRoutes: Routes = {
  "/api/follow/list": { GET: list },
  "/api/follow/trader_list": { GET: traders, POST: traders },
  "/api/follow/apply_trader": { GET: apply, POST: apply },
  "/api/follow/trader_detail": { GET: detail, POST: detail },
  "/api/follow/follow_trader": { GET: follow, POST: follow },
  "/api/follow/canal_follow": { GET: cancel, POST: cancel },
  "/api/follow/pause_follow": { GET: pause, POST: pause },
  "/api/follow/set_copy_stop": { GET: copyStop, POST: copyStop },
  "/api/follow/followed_trader": { GET: followed, POST: followed },
  "/api/follow/my_follower": { GET: followers, POST: followers },
  "/v2/api/forex/my_deal_follow_order": { GET: followOrderList },
};
