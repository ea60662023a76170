/**
 * Mining / fund products and subscriptions, the reading side (spec §2 /mining, /mining/record,
 * /mining/income; §3 Fund, Subscription): the products on offer, a user's subscriptions and their
 * daily income, and the figures the confirm steps show. docs/decisions/015-funds.md.
 */
import type { AppContext, ServiceContext } from "~/context.server";
import { columnList, columnListExcept, joinLists, type RowOf } from "~/db/columns";
import { fundSubscriptions, funds } from "~/db/schema";
import { dayProfit, redemptionPenalty, subscriptionDays, totalProfit, utcDay } from "~/domain/fund";
import type { Micros } from "~/domain/money";
import { AccountKind } from "~/services/ledger/accounts.server";
import { upstreamBalances } from "~/services/upstream/account.server";
import type { UpstreamRead } from "~/services/upstream/wire";
import { upstreamFund, upstreamFunds, upstreamIncome, upstreamSubscription, upstreamSubscriptions } from "~/services/upstream/fund.server";

export const FUNDS_PAGE_SIZE = 10;
export const RECORDS_PAGE_SIZE = 10;
export const INCOME_PAGE_SIZE = 20;

export interface Paged<T> {
  items: T[];
  page: number;
  lastPage: number;
  total: number;
}

/** A product's columns as stored (spec §3 Fund): all but the creation time. */
export const FUND_COLUMNS = columnListExcept(funds, ["createdAt"]);
/** A product as stored (spec §3 Fund). */
export type Fund = RowOf<typeof FUND_COLUMNS>;

function paged<T>(items: T[], page: number, total: number, size: number): Paged<T> {
  return { items, page, lastPage: Math.max(1, Math.ceil(total / size)), total };
}

/** Products open for subscription, in the operators' order (spec §2 /mining). */
export async function listFunds(ctx: ServiceContext, page = 1): Promise<Paged<Fund>> {
  if (ctx.config.platform.kind === "upstream") return upstreamFunds(ctx, page);
  const [{ results }, count] = await Promise.all([
    ctx.d1
      .prepare(`SELECT ${FUND_COLUMNS} FROM funds WHERE status = 1 ORDER BY sort, id LIMIT ?1 OFFSET ?2`)
      .bind(FUNDS_PAGE_SIZE, (page - 1) * FUNDS_PAGE_SIZE)
      .all<Fund>(),
    ctx.d1.prepare("SELECT COUNT(*) AS n FROM funds WHERE status = 1").first<{ n: number }>(),
  ]);
  return paged(results, page, count?.n ?? 0, FUNDS_PAGE_SIZE);
}

/** One product open for subscription (a closed or unknown one: null). */
export async function fundInfo(ctx: ServiceContext, id: number | null): Promise<Fund | null> {
  if (id === null) return null;
  if (ctx.config.platform.kind === "upstream") return upstreamFund(ctx, id);
  return ctx.d1.prepare(`SELECT ${FUND_COLUMNS} FROM funds WHERE id = ?1 AND status = 1`).bind(id).first<Fund>();
}

/** What the confirmation step shows (spec §2: rent, mining time, day profit, total profit, amount). */
export interface SubscribeQuote {
  fund: Fund;
  amount: Micros;
  dayProfit: Micros;
  totalProfit: Micros;
  startDay: string;
  endDay: string;
}

export function quoteOf(fund: Fund, amount: Micros, now = Date.now()): SubscribeQuote {
  const days = subscriptionDays(utcDay(now), fund.lockDividendDays);
  return {
    fund,
    amount,
    dayProfit: dayProfit(amount, fund.dividendPercentage),
    totalProfit: totalProfit(amount, fund.dividendPercentage, fund.lockDividendDays),
    ...days,
  };
}

/** The user's funding account and its available balance. */
export async function fundingAccount(ctx: ServiceContext, userId: number) {
  return ctx.d1
    .prepare("SELECT id, balance FROM accounts WHERE user_id = ?1 AND kind = ?2")
    .bind(userId, AccountKind.Funding.kind)
    .first<{ id: number; balance: Micros }>();
}

/** A subscription with its product's title and currency (`s` the subscription, `f` the fund). */
export const SUB_COLUMNS = joinLists(
  columnList(fundSubscriptions, ["id", "fundId"], "s"),
  columnList(funds, ["title", "currencyCode"], "f"),
  columnList(
    fundSubscriptions,
    [
      "status",
      "shareAmount",
      "dayProfit",
      "sumProfit",
      "lockDays",
      "liquidatedDamages",
      "penalty",
      "startDay",
      "endDay",
      "subTime",
      "closedAt",
    ],
    "s",
  ),
);
export type SubscriptionRecord = RowOf<typeof SUB_COLUMNS>;

/** The user's subscriptions, newest first (spec §2 /mining/record). */
export async function subscriptionRecords(ctx: ServiceContext, userId: number, page = 1): Promise<Paged<SubscriptionRecord>> {
  const [{ results }, count] = await Promise.all([
    ctx.d1
      .prepare(
        `SELECT ${SUB_COLUMNS} FROM fund_subscriptions s JOIN funds f ON f.id = s.fund_id WHERE s.user_id = ?1 ORDER BY s.id DESC LIMIT ?2 OFFSET ?3`,
      )
      .bind(userId, RECORDS_PAGE_SIZE, (page - 1) * RECORDS_PAGE_SIZE)
      .all<SubscriptionRecord>(),
    ctx.d1.prepare("SELECT COUNT(*) AS n FROM fund_subscriptions WHERE user_id = ?1").bind(userId).first<{ n: number }>(),
  ]);
  return paged(results, page, count?.n ?? 0, RECORDS_PAGE_SIZE);
}

/** One subscription of this user (another user's or a missing one: null alike). */
export async function ownedSubscription(ctx: ServiceContext, userId: number, id: number | null): Promise<SubscriptionRecord | null> {
  if (id === null) return null;
  return ctx.d1
    .prepare(`SELECT ${SUB_COLUMNS} FROM fund_subscriptions s JOIN funds f ON f.id = s.fund_id WHERE s.id = ?1 AND s.user_id = ?2`)
    .bind(id, userId)
    .first<SubscriptionRecord>();
}

export interface IncomeRecord {
  id: number;
  day: string;
  interest: Micros;
  createdAt: number;
}

/** The daily income of one owned subscription, newest first; null when it is not this user's. */
export async function incomeRecords(
  ctx: ServiceContext,
  userId: number,
  subId: number | null,
  page = 1,
): Promise<(Paged<IncomeRecord> & { sub: SubscriptionRecord }) | null> {
  const sub = await ownedSubscription(ctx, userId, subId);
  if (!sub) return null;
  const [{ results }, count] = await Promise.all([
    ctx.d1
      .prepare(
        "SELECT id, day, interest, created_at AS createdAt FROM fund_incomes WHERE sub_id = ?1 AND user_id = ?2 ORDER BY day DESC LIMIT ?3 OFFSET ?4",
      )
      .bind(sub.id, userId, INCOME_PAGE_SIZE, (page - 1) * INCOME_PAGE_SIZE)
      .all<IncomeRecord>(),
    ctx.d1.prepare("SELECT COUNT(*) AS n FROM fund_incomes WHERE sub_id = ?1 AND user_id = ?2").bind(sub.id, userId).first<{ n: number }>(),
  ]);
  return { ...paged(results, page, count?.n ?? 0, INCOME_PAGE_SIZE), sub };
}

/** What a redemption costs now (the confirm step): penalty = share × liquidated damages / 100. */
export function redemptionOf(sub: Pick<SubscriptionRecord, "shareAmount" | "liquidatedDamages">): { penalty: Micros; returned: Micros } {
  const penalty = redemptionPenalty(sub.shareAmount, sub.liquidatedDamages);
  return { penalty, returned: sub.shareAmount - penalty };
}

/**
 * The signed-in user's subscriptions and income from whichever platform holds them (ADR 024):
 * this one's tables, or the backend's calls in upstream mode (where a read may also find the
 * session over or the backend silent).
 */
export async function mySubscriptions(ctx: AppContext, userId: number, page = 1): Promise<UpstreamRead<Paged<SubscriptionRecord>>> {
  if (ctx.config.platform.kind === "upstream") return upstreamSubscriptions(ctx, page);
  return { ok: true, value: await subscriptionRecords(ctx, userId, page) };
}

export async function myOwnedSubscription(
  ctx: AppContext,
  userId: number,
  id: number | null,
): Promise<UpstreamRead<SubscriptionRecord | null>> {
  if (id === null) return { ok: true, value: null };
  if (ctx.config.platform.kind === "upstream") return upstreamSubscription(ctx, id);
  return { ok: true, value: await ownedSubscription(ctx, userId, id) };
}

export async function myIncome(
  ctx: AppContext,
  userId: number,
  subId: number | null,
  page = 1,
): Promise<UpstreamRead<(Paged<IncomeRecord> & { sub: SubscriptionRecord }) | null>> {
  if (ctx.config.platform.kind !== "upstream") return { ok: true, value: await incomeRecords(ctx, userId, subId, page) };
  const sub = await myOwnedSubscription(ctx, userId, subId);
  if (!sub.ok || !sub.value) return sub.ok ? { ok: true, value: null } : sub;
  const income = await upstreamIncome(ctx, sub.value.id, page);
  return income.ok ? { ok: true, value: { ...income.value, sub: sub.value } } : income;
}

/** The user's available funding balance (the subscription's bound), from whichever platform holds it. */
export async function myFundingBalance(ctx: AppContext, userId: number): Promise<UpstreamRead<Micros>> {
  if (ctx.config.platform.kind !== "upstream") return { ok: true, value: (await fundingAccount(ctx, userId))?.balance ?? 0 };
  const b = await upstreamBalances(ctx);
  return b.ok ? { ok: true, value: b.value.accounts.find((a) => a.kind === "funding")?.balance ?? 0 } : b;
}
