/**
 * Contract trading's reads (issue 8): the order row and its live figures, the user's order lists
 * (/order, my_deal), one order's detail, the holdings on an instrument, and the terms an order is
 * figured with (the instrument's rule inputs and the fee mode of the base settings).
 */
import type { AppContext, ServiceContext } from "~/context.server";
import { OrderStatus, profit as profitOf, realisedProfit, toScaled6, type ContractTerms } from "~/domain/contract";
import type { Instrument } from "~/domain/instrument";
import { priceToSteps, type Quote } from "~/domain/market";
import type { Micros } from "~/domain/money";
import { MAIN_COMPANY_ID } from "~/lib/constants";
import { listInstruments, marketQuotes } from "~/services/market.server";
import { basicInfo } from "~/services/account.server";
import type { UpstreamRead } from "~/services/upstream/wire";
import { upstreamOrder, upstreamOrderPage } from "~/services/upstream/contract.server";
import { ORDER_COLUMNS } from "./columns";
import type { ContractOrder, ContractOrderRow } from "./views";

export const PAGE_SIZE = 20;

/** Settings change only when an operator edits them: each isolate keeps the fee mode a few seconds. */
const SETTINGS_TTL_MS = 5_000;
let feeModeCache: { at: number; mode: number } | null = null;

/** trade_fee_type of the base settings (1 = per lot, otherwise a share of the margin). */
export async function feeMode(ctx: ServiceContext): Promise<number> {
  if (ctx.config.platform.kind === "upstream") return (await basicInfo(ctx)).trade_fee_type;
  if (feeModeCache && Date.now() - feeModeCache.at < SETTINGS_TTL_MS) return feeModeCache.mode;
  const row = await ctx.d1
    .prepare("SELECT trade_fee_type AS mode FROM base_settings WHERE company_id = ?1")
    .bind(MAIN_COMPANY_ID)
    .first<{ mode: number }>();
  feeModeCache = { at: Date.now(), mode: row?.mode ?? 2 };
  return feeModeCache.mode;
}

/** The rule inputs of an instrument (null when its configuration is unusable). */
export function termsOf(instrument: Instrument, mode: number): ContractTerms | null {
  const contractSize = toScaled6(instrument.contractSize);
  if (contractSize === null || contractSize <= 0) return null;
  return {
    marginMode: instrument.marginMode,
    contractSize,
    pricePrecision: instrument.pricePrecision,
    feeRate: instrument.feeRate,
    feeMode: mode,
  };
}

/** One order by id, whoever owns it. */
export async function orderRow(ctx: ServiceContext, id: number): Promise<ContractOrderRow | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  return ctx.d1.prepare(`SELECT ${ORDER_COLUMNS} FROM contract_orders WHERE id = ?1`).bind(id).first<ContractOrderRow>();
}

/** The user's order (null for another user's or a missing one: nothing is revealed). */
export async function ownOrder(ctx: ServiceContext, userId: number, id: number): Promise<ContractOrderRow | null> {
  const row = await orderRow(ctx, id);
  return row && row.userId === userId ? row : null;
}

export interface OrderPage {
  orders: ContractOrder[];
  total: number;
  /** all_fact_profits: live profit of the holding list, realised profit of the history. */
  allProfit: Micros;
  page: number;
  lastPage: number;
}

/** Adds the live figures: holding orders at the current price, closed ones as realised. */
export function withFigures(row: ContractOrderRow, quotes: Map<string, Quote>, names: Map<string, string>): ContractOrder {
  const quote = quotes.get(row.code);
  let markPrice: number | null = null;
  let currentProfit = 0;
  if (row.status === OrderStatus.Holding && row.openPrice !== null && quote) {
    markPrice = priceToSteps(quote.Close, row.precision);
    currentProfit = realisedProfit(profitOf(row.side, row.openPrice, markPrice, row.lots, row.contractSize, row.precision), row.margin);
  } else if (row.status === OrderStatus.Closed) {
    markPrice = row.closePrice;
    currentProfit = row.profit ?? 0;
  } else if (row.status === OrderStatus.Pending && quote) {
    markPrice = priceToSteps(quote.Close, row.precision);
  }
  return { ...row, showCode: names.get(row.code) ?? row.code, markPrice, currentProfit };
}

async function namesAndQuotes(ctx: ServiceContext) {
  const [list, market] = await Promise.all([listInstruments(ctx), marketQuotes(ctx)]);
  return { names: new Map(list.map((i) => [i.code, i.showCode])), quotes: market.quotes };
}

/** The order lists of /order and my_deal: status 1 holding, 0 pending, 3 history (closed and cancelled). */
export async function listOrders(
  ctx: ServiceContext,
  userId: number,
  status: number,
  page: number,
  pageSize = PAGE_SIZE,
): Promise<OrderPage> {
  // history (3) is the closed positions only; cancelled pending orders (4) are a list of their own
  const statuses = status === 3 ? [3] : status === 4 ? [4] : status === 0 ? [0] : [1];
  const p = Math.max(1, Math.min(10_000, Math.floor(page) || 1));
  const placeholders = statuses.map((_, i) => `?${i + 2}`).join(", ");
  const order = statuses[0] === 3 || statuses[0] === 4 ? "COALESCE(closed_at, updated_at) DESC, id DESC" : "id DESC";
  const [rows, count, all] = await ctx.d1.batch([
    ctx.d1
      .prepare(
        `SELECT ${ORDER_COLUMNS} FROM contract_orders WHERE user_id = ?1 AND status IN (${placeholders}) ORDER BY ${order} LIMIT ${pageSize} OFFSET ${(p - 1) * pageSize}`,
      )
      .bind(userId, ...statuses),
    ctx.d1
      .prepare(
        `SELECT COUNT(*) AS n, COALESCE(SUM(profit), 0) AS realised FROM contract_orders WHERE user_id = ?1 AND status IN (${placeholders})`,
      )
      .bind(userId, ...statuses),
    statuses[0] === 1
      ? ctx.d1.prepare(`SELECT ${ORDER_COLUMNS} FROM contract_orders WHERE user_id = ?1 AND status = 1 LIMIT 1000`).bind(userId)
      : ctx.d1.prepare("SELECT 1 WHERE 0"),
  ]);
  const { names, quotes } = await namesAndQuotes(ctx);
  const orders = (rows!.results as ContractOrderRow[]).map((r) => withFigures(r, quotes, names));
  const totals = count!.results[0] as { n: number; realised: number };
  const allProfit =
    statuses[0] === 1
      ? (all!.results as ContractOrderRow[]).reduce((sum, r) => sum + withFigures(r, quotes, names).currentProfit, 0)
      : statuses[0] === 3
        ? totals.realised
        : 0;
  return { orders, total: totals.n, allProfit, page: p, lastPage: Math.max(1, Math.ceil(totals.n / pageSize)) };
}

export async function orderDetail(ctx: ServiceContext, userId: number, id: number): Promise<ContractOrder | null> {
  const row = await ownOrder(ctx, userId, id);
  if (!row) return null;
  const { names, quotes } = await namesAndQuotes(ctx);
  return withFigures(row, quotes, names);
}

/** The user's holding positions on one instrument (the chart's lines and the desktop trade page). */
export async function holdingOn(ctx: ServiceContext, userId: number, code: string): Promise<ContractOrderRow[]> {
  const { results } = await ctx.d1
    .prepare(`SELECT ${ORDER_COLUMNS} FROM contract_orders WHERE user_id = ?1 AND code = ?2 AND status IN (0, 1) ORDER BY id DESC LIMIT 50`)
    .bind(userId, code)
    .all<ContractOrderRow>();
  return results;
}

/**
 * The signed-in user's orders from whichever platform holds them (ADR 024): this one's tables, or
 * the backend's my_deal in upstream mode, read back into rows whose live figures come from the
 * market room's prices by the same rules (withFigures).
 */
export async function myOrders(ctx: AppContext, userId: number, status: number, page: number): Promise<UpstreamRead<OrderPage>> {
  if (ctx.config.platform.kind !== "upstream") return { ok: true, value: await listOrders(ctx, userId, status, page) };
  const [list, market] = await Promise.all([listInstruments(ctx), marketQuotes(ctx)]);
  const read = await upstreamOrderPage(ctx, userId, status, page, list);
  if (!read.ok) return read;
  const names = new Map(list.map((i) => [i.code, i.showCode]));
  const orders = read.value.rows.map((r) => withFigures(r, market.quotes, names));
  // the holding list's total is live here as on the platform (this page's positions); the others the backend's
  const allProfit = status === 1 && read.value.lastPage === 1 ? orders.reduce((s, o) => s + o.currentProfit, 0) : read.value.allProfit;
  return { ok: true, value: { orders, total: read.value.total, allProfit, page: read.value.page, lastPage: read.value.lastPage } };
}

/** One of the user's orders with its live figures (null: not the user's, or unknown). */
export async function myOrder(ctx: AppContext, userId: number, id: number): Promise<UpstreamRead<ContractOrder | null>> {
  if (ctx.config.platform.kind !== "upstream") return { ok: true, value: await orderDetail(ctx, userId, id) };
  const [list, market] = await Promise.all([listInstruments(ctx), marketQuotes(ctx)]);
  const read = await upstreamOrder(ctx, userId, id, list);
  if (!read.ok || !read.value) return read.ok ? { ok: true, value: null } : read;
  return { ok: true, value: withFigures(read.value, market.quotes, new Map(list.map((i) => [i.code, i.showCode]))) };
}

/** The user's open and pending positions on one instrument (the trade page's). */
export async function myHoldingsOn(ctx: AppContext, userId: number, code: string): Promise<UpstreamRead<ContractOrderRow[]>> {
  if (ctx.config.platform.kind !== "upstream") return { ok: true, value: await holdingOn(ctx, userId, code) };
  const list = await listInstruments(ctx);
  const [holding, pending] = await Promise.all([upstreamOrderPage(ctx, userId, 1, 1, list), upstreamOrderPage(ctx, userId, 0, 1, list)]);
  if (!holding.ok) return holding;
  if (!pending.ok) return pending;
  return { ok: true, value: [...pending.value.rows, ...holding.value.rows].filter((r) => r.code === code).sort((a, b) => b.id - a.id) };
}
