/**
 * Contract trading (issue 8): placing market and pending orders, closing, cancelling, stop-loss
 * and take-profit, the order lists, and the engine's side (its state, and the set-based
 * settlement of everything one tick triggers).
 *
 * Every transition is one ledger transaction guarded by the order's unique state-transition key
 * (`order_exits`: one per order leaving a state, shared by every path that can move it), so a
 * manual close and a stop-loss of the same position, or two tabs closing it, realise exactly once.
 * Figures come from app/domain/contract.ts, the same functions the browser's preview runs.
 */
import type { ServiceContext } from "~/context.server";
import { profitShareOf } from "~/domain/copy";
import {
  MAX_EFFECTIVE_LEVERAGE,
  OrderStatus,
  Side,
  checkEffectiveLeverage,
  checkLots,
  checkPendingPrice,
  checkStops,
  nextDelivery,
  orderFigures,
  parsePrice,
  pendingCrossing,
  pendingPriceBand,
  profit as profitOf,
  realisedProfit,
  stepsToDecimal,
  toScaled6,
  type ContractTerms,
  type ExitReason,
  type PriceSteps,
} from "~/domain/contract";
import {
  LOAD_PAGE,
  type DeliverySchedule,
  type EngineChange,
  type EngineOrder,
  type SettlementRequest,
  type SettlementResult,
} from "~/domain/engine";
import type { ShardFilter } from "~/domain/engine-shards";
import { leverages, type Instrument } from "~/domain/instrument";
import { priceToSteps, type Quote } from "~/domain/market";
import type { Micros } from "~/domain/money";
import { MAIN_COMPANY_ID } from "~/lib/constants";
import {
  AccountKind,
  Bucket,
  LedgerError,
  PlatformAccount,
  batchPostingStatements,
  openBatch,
  post,
  postBatch,
  tradingAccount,
  txOfKey,
  type Posting,
  type PostRequest,
} from "~/services/ledger.server";
import { notifyEngine } from "~/services/live.server";
import { forgetCachedSession, writeSessionGuard } from "~/services/session.server";
import { findInstrument, listInstruments, marketQuotes, quoteOf } from "~/services/market.server";

export const PAGE_SIZE = 20;

/** A contract order row as stored. */
export interface ContractOrderRow {
  id: number;
  userId: number;
  accountId: number;
  instrumentId: number;
  code: string;
  side: 1 | 2;
  status: OrderStatus;
  lots: number;
  contractSize: number;
  precision: number;
  leverage: number;
  marginMode: number;
  originPrice: number;
  openPrice: number | null;
  pendingCrossing: number;
  closePrice: number | null;
  margin: Micros;
  fee: Micros;
  stopLoss: number;
  takeProfit: number;
  liquidation: number;
  profit: Micros | null;
  closeReason: string | null;
  followType: number;
  originId: number | null;
  /** The follow a copy belongs to (follow_type 2), else null. */
  followId: number | null;
  createdAt: number;
  filledAt: number | null;
  closedAt: number | null;
  updatedAt: number;
}

export const ORDER_COLUMNS = `id, user_id AS userId, account_id AS accountId, instrument_id AS instrumentId, code, side, status, lots,
  contract_size AS contractSize, precision, leverage, margin_mode AS marginMode, origin_price AS originPrice, open_price AS openPrice,
  pending_crossing AS pendingCrossing, close_price AS closePrice, margin, fee, stop_loss AS stopLoss, take_profit AS takeProfit,
  liquidation, profit, close_reason AS closeReason, follow_type AS followType, origin_id AS originId, follow_id AS followId, created_at AS createdAt,
  filled_at AS filledAt, closed_at AS closedAt, updated_at AS updatedAt`;

/** An order with its live figures (holding: at the current price; closed: as realised). */
export interface ContractOrder extends ContractOrderRow {
  showCode: string;
  /** Mark price (steps) used for `currentProfit`: the current price while holding, the close price after. */
  markPrice: number | null;
  currentProfit: Micros;
}

export type PlaceError =
  | "errors.market_closed"
  | "errors.prices_stale"
  | "errors.no_multiple"
  | "errors.leverage_too_high"
  | "errors.multiple_invalid"
  | "errors.lots_required"
  | "errors.lots_invalid"
  | "errors.lots_step"
  | "errors.lots_min"
  | "errors.lots_max"
  | "errors.price_required"
  | "errors.price_invalid"
  | "errors.price_far"
  | "errors.stop_loss_side"
  | "errors.take_profit_side"
  | "errors.stop_invalid"
  | "errors.insufficient_balance"
  | "errors.instrument_not_found"
  | "errors.only_real_account"
  | "errors.bad_request"
  | "errors.session_invalid"
  | "errors.try_again";

export interface PlaceInput {
  /** OrderType: 1 buy, 2 sell. */
  side: number;
  /** cont: lots as typed. */
  lots: string;
  instrumentId: number;
  /** status: 1 market, 0 pending. */
  entry: number;
  /** target_price: the pending order's buy price. */
  targetPrice?: string;
  stopLoss?: string;
  takeProfit?: string;
  /** multiple. */
  leverage?: number;
  /** A per-form token: a double-submitted form places one order (optional for the API). */
  requestKey?: string;
  /** The price read started by prepareOrder (else it is read here). */
  prepared?: ReturnType<typeof prepareOrder>;
  /** When the user came from a cached session lookup: the batch re-checks this session (writeSessionGuard). */
  sessionId?: string;
  /**
   * The user leads copy trading: a market order is told to the engine at once, so the copies open
   * without waiting for the next tick's catch-up (other users' orders are not notified: the
   * catch-up finds them, which keeps the order path to one batch).
   */
  trader?: boolean;
}

export type Result<T, E extends string = string> =
  { ok: true; value: T } | { ok: false; error: E; field?: string; params?: Record<string, string | number> };

/** A refusal as a message key, with its argument when it has one ("errors.lots_step|0.01"). */
export function messageOf(result: { error: string; params?: Record<string, string | number> }): string {
  const value = result.params?.value;
  return value === undefined ? result.error : `${result.error}|${value}`;
}

function fail<E extends string>(
  error: E,
  field?: string,
  params?: Record<string, string | number>,
): { ok: false; error: E; field?: string; params?: Record<string, string | number> } {
  return { ok: false, error, field, params };
}

/** Settings change only when an operator edits them: each isolate keeps the fee mode a few seconds. */
const SETTINGS_TTL_MS = 5_000;
let feeModeCache: { at: number; mode: number } | null = null;

/** trade_fee_type of the base settings (1 = per lot, otherwise a share of the margin). */
export async function feeMode(ctx: ServiceContext): Promise<number> {
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

/** An optional price field: "" / "0" / absent → 0 (none); otherwise steps, or null when malformed. */
function optionalPrice(input: string | undefined, precision: number): PriceSteps | null {
  const text = (input ?? "").trim();
  if (text === "" || /^0+(\.0+)?$/.test(text)) return 0;
  return parsePrice(text, precision);
}

/** A user's contract account, and whether the user is a demo user, never change: each isolate remembers the last few thousand. */
const contractAccounts = new Map<number, ContractAccount>();
type ContractAccount = { id: number; isDemo: boolean };

async function contractAccountOf(ctx: ServiceContext, userId: number): Promise<ContractAccount | null> {
  const known = contractAccounts.get(userId);
  if (known !== undefined) return known;
  const row = await ctx.d1
    .prepare("SELECT a.id, u.is_demo AS demo FROM accounts a JOIN users u ON u.id = a.user_id WHERE a.user_id = ?1 AND a.kind = ?2")
    .bind(userId, AccountKind.Contract.kind)
    .first<{ id: number; demo: number }>();
  if (!row) return null;
  if (contractAccounts.size >= 5_000) contractAccounts.delete(contractAccounts.keys().next().value!);
  const account = { id: row.id, isDemo: row.demo === 1 };
  contractAccounts.set(userId, account);
  return account;
}

/** The engine's read: an order's columns and, for a copy, its trader (live profit names the trader followed). */
const ENGINE_COLUMNS = `${ORDER_COLUMNS}, (SELECT f.trader_id FROM follows f WHERE f.id = contract_orders.follow_id) AS traderId`;

export function engineOrderOf(row: ContractOrderRow & { traderId?: number | null }): EngineOrder {
  return {
    id: row.id,
    originId: row.followType === 2 ? (row.originId ?? null) : null,
    followId: row.followType === 2 ? (row.followId ?? null) : null,
    ...(row.followType === 2 && row.traderId ? { traderId: row.traderId } : {}),
    userId: row.userId,
    code: row.code,
    side: row.side,
    status: row.status === OrderStatus.Pending ? 0 : 1,
    lots: row.lots,
    contractSize: row.contractSize,
    precision: row.precision,
    price: row.openPrice ?? row.originPrice,
    margin: row.margin,
    fee: row.fee,
    stopLoss: row.stopLoss,
    takeProfit: row.takeProfit,
    liquidation: row.liquidation,
    pendingCrossing: row.pendingCrossing,
    updatedAt: row.updatedAt,
  };
}

async function orderRow(ctx: ServiceContext, id: number): Promise<ContractOrderRow | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  return ctx.d1.prepare(`SELECT ${ORDER_COLUMNS} FROM contract_orders WHERE id = ?1`).bind(id).first<ContractOrderRow>();
}

/** The user's order (null for another user's or a missing one: nothing is revealed). */
export async function ownOrder(ctx: ServiceContext, userId: number, id: number): Promise<ContractOrderRow | null> {
  const row = await orderRow(ctx, id);
  return row && row.userId === userId ? row : null;
}

/** The current quote of an instrument, and whether it can be traded on now. */
function liveQuote(ctx: ServiceContext, code: string): Promise<{ quote: Quote | null; stale: boolean }> {
  return quoteOf(ctx, code);
}

/** Starts reading the price an order on this instrument needs, e.g. while the session is checked (pass it as `quote`). */
export function prepareOrder(
  ctx: ServiceContext,
  instrumentId: number,
): Promise<{ code: string; quote: Quote | null; stale: boolean } | null> {
  const read = findInstrument(ctx, instrumentId).then(async (i) => (i ? { code: i.code, ...(await quoteOf(ctx, i.code)) } : null));
  read.catch(() => {});
  return read;
}

/** Everything an order's opening batch needs, decided and checked by placeOrder. */
export interface OpenOrderWrite {
  userId: number;
  accountId: number;
  isDemo: boolean;
  instrument: Pick<Instrument, "id" | "code" | "pricePrecision" | "marginMode">;
  contractSize: number;
  side: Side;
  lots: number;
  pending: boolean;
  target: PriceSteps;
  market: PriceSteps;
  leverage: number;
  figures: { margin: Micros; fee: Micros; liquidation: PriceSteps | null };
  stopLoss: PriceSteps;
  takeProfit: PriceSteps;
  key: string;
  now: number;
  sessionId?: string;
}

/**
 * The order's one ledger transaction (margin and fee move, the session re-checked, the order row
 * inserted): the batch placeOrder posts. The benchmark's bare write (/dev/bench/batch) posts the
 * same request built here, so the order path is measured against exactly its own write.
 */
export function openOrderWrite(db: D1Database, w: OpenOrderWrite): PostRequest {
  const { accountId, figures, pending } = w;
  const postings: Posting[] = pending
    ? [
        { accountId, bucket: Bucket.Available, amount: -(figures.margin + figures.fee) },
        { accountId, bucket: Bucket.Locked, amount: figures.margin + figures.fee },
      ]
    : [
        { accountId, bucket: Bucket.Available, amount: -(figures.margin + figures.fee) },
        { accountId, bucket: Bucket.Locked, amount: figures.margin },
        { accountId: tradingAccount("fees", w.isDemo), amount: figures.fee },
      ];
  const insert = db
    .prepare(
      `INSERT INTO contract_orders (user_id, account_id, instrument_id, code, side, status, lots, contract_size, precision, leverage, margin_mode,
         origin_price, open_price, pending_crossing, margin, fee, stop_loss, take_profit, liquidation, open_tx, filled_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ${txOfKey("?20")}, ?21, ?22)
       RETURNING ${ORDER_COLUMNS}`,
    )
    .bind(
      w.userId,
      accountId,
      w.instrument.id,
      w.instrument.code,
      w.side,
      pending ? OrderStatus.Pending : OrderStatus.Holding,
      w.lots,
      w.contractSize,
      w.instrument.pricePrecision,
      w.leverage,
      w.instrument.marginMode,
      pending ? w.target : w.market,
      pending ? null : w.market,
      pending ? (pendingCrossing(w.target, w.market) === "up" ? 1 : -1) : 0,
      figures.margin,
      figures.fee,
      w.stopLoss,
      w.takeProfit,
      figures.liquidation ?? 0,
      w.key,
      pending ? null : w.now,
      w.now,
    );
  return {
    idempotencyKey: w.key,
    kind: "trade_margin",
    memo: pending ? "memo.contract_pending" : "memo.contract_open",
    userId: w.userId,
    postings: postings.filter((p) => p.amount !== 0),
    guards: w.sessionId ? [writeSessionGuard(db, w.sessionId, w.now)] : [],
    effects: [insert],
  };
}

/** Places a market or pending order: margin (and fee) move in one ledger transaction with the order row. */
export async function placeOrder(ctx: ServiceContext, userId: number, input: PlaceInput): Promise<Result<ContractOrder, PlaceError>> {
  const instrument = await findInstrument(ctx, input.instrumentId);
  if (!instrument) return fail("errors.instrument_not_found", "forex_id");
  // the price and the account are fetched while the input is checked
  const quoted = (input.prepared ?? Promise.resolve(null)).then((p) =>
    p && p.code === instrument.code ? p : liveQuote(ctx, instrument.code),
  );
  const account = contractAccountOf(ctx, userId);
  quoted.catch(() => {});
  account.catch(() => {});
  const terms = termsOf(instrument, await feeMode(ctx));
  if (!terms) return fail("errors.instrument_not_found", "forex_id");
  const side = input.side === Side.Sell ? Side.Sell : input.side === Side.Buy ? Side.Buy : null;
  if (side === null) return fail("errors.bad_request", "type");

  // leverage (multiple): required unless the margin is fixed per lot
  let leverage = 0;
  if (instrument.marginMode !== 1) {
    const offered = leverages(instrument);
    if (offered.length === 0) return fail("errors.no_multiple", "multiple");
    if (input.leverage === undefined || !offered.includes(input.leverage)) return fail("errors.multiple_invalid", "multiple");
    leverage = input.leverage;
  }

  const lotsCheck = checkLots(input.lots, instrument.lotStep, instrument.minLots);
  if (lotsCheck.check !== "ok") {
    const value =
      lotsCheck.check === "lots_step"
        ? instrument.lotStep
        : lotsCheck.check === "lots_min"
          ? instrument.minLots
          : lotsCheck.check === "lots_max"
            ? "1000"
            : undefined;
    return fail(`errors.${lotsCheck.check}`, "cont", value === undefined ? undefined : { value });
  }
  const lots = lotsCheck.lots;

  const pending = input.entry === 0;
  let target = 0;
  if (pending) {
    if (!(input.targetPrice ?? "").trim()) return fail("errors.price_required", "target_price");
    const parsed = parsePrice(input.targetPrice ?? "", instrument.pricePrecision);
    if (parsed === null || parsed <= 0) return fail("errors.price_invalid", "target_price", { value: instrument.pricePrecision });
    target = parsed;
  }
  const stopLoss = optionalPrice(input.stopLoss, instrument.pricePrecision);
  if (stopLoss === null) return fail("errors.stop_invalid", "stop_loss_price", { value: instrument.pricePrecision });
  const takeProfit = optionalPrice(input.takeProfit, instrument.pricePrecision);
  if (takeProfit === null) return fail("errors.stop_invalid", "target_profit_price", { value: instrument.pricePrecision });

  const { quote, stale } = await quoted;
  if (!quote || quote.MarketStatus !== 1) return fail("errors.market_closed");
  if (stale) return fail("errors.prices_stale");
  const market = priceToSteps(quote.Close, instrument.pricePrecision);
  const price = pending ? target : market;
  if (pending && checkPendingPrice(price, market) !== "ok") {
    const band = pendingPriceBand(market);
    return fail("errors.price_far", "target_price", {
      value: `${stepsToDecimal(band.min, instrument.pricePrecision)} – ${stepsToDecimal(band.max, instrument.pricePrecision)}`,
    });
  }
  const stops = checkStops(side, price, stopLoss, takeProfit);
  if (stops !== "ok") return fail(`errors.${stops}`, stops === "stop_loss_side" ? "stop_loss_price" : "target_profit_price");
  // an instrument set up past the platform's maximum leverage would open positions liquidated a tick later
  if (
    checkEffectiveLeverage(
      { marginMode: instrument.marginMode, pricePrecision: instrument.pricePrecision, leverages: leverages(instrument) },
      price,
    ) !== "ok"
  ) {
    return fail("errors.leverage_too_high", undefined, { value: MAX_EFFECTIVE_LEVERAGE });
  }

  const figures = orderFigures(terms, side, lots, price, leverage);
  const contract = await account;
  if (contract === null) return fail("errors.try_again");
  const accountId = contract.id;

  const key = `contract_open:${userId}:${input.requestKey && /^[A-Za-z0-9_-]{8,64}$/.test(input.requestKey) ? input.requestKey : crypto.randomUUID()}`;
  const now = Date.now();
  const write = openOrderWrite(ctx.d1, {
    userId,
    accountId,
    isDemo: contract.isDemo,
    instrument,
    contractSize: terms.contractSize,
    side,
    lots,
    pending,
    target,
    market,
    leverage,
    figures,
    stopLoss,
    takeProfit,
    key,
    now,
    sessionId: input.sessionId,
  });
  let row: ContractOrderRow | null = null;
  try {
    const posted = await post(ctx.d1, write);
    row = (posted.results?.[0]?.results?.[0] as ContractOrderRow | undefined) ?? null;
  } catch (error) {
    if (error instanceof LedgerError && error.code === "session_ended") {
      forgetCachedSession(input.sessionId!);
      return fail("errors.session_invalid");
    }
    if (error instanceof LedgerError && error.code === "insufficient_funds") return fail("errors.insufficient_balance", "cont");
    if (error instanceof LedgerError && error.code === "idempotency_conflict") {
      // the same form submitted twice with other figures (the price moved): the first one stands
    } else throw error;
  }
  // a replayed or doubled submission answers the order it placed the first time
  row ??= await ctx.d1
    .prepare(`SELECT ${ORDER_COLUMNS} FROM contract_orders WHERE open_tx = ${txOfKey("?1")}`)
    .bind(key)
    .first<ContractOrderRow>();
  if (!row) return fail("errors.try_again");
  // No notification (except a leader's market order, for its copies): the price read above keeps
  // the market clock running, and the engine reads every row changed since its watermark at the
  // start of each tick (the order is committed now).
  if (input.trader && row.status === OrderStatus.Holding) tellEngine(ctx, [{ op: "upsert", order: engineOrderOf(row) }]);
  return { ok: true, value: withFigures(row, new Map([[instrument.code, quote]]), new Map([[instrument.code, instrument.showCode]])) };
}

export type CloseError =
  | "errors.not_found"
  | "errors.order_closed"
  | "errors.close_pending"
  | "errors.market_closed"
  | "errors.prices_stale"
  | "errors.order_not_pending"
  | "errors.try_again";

export interface ProfitShare {
  followId: number;
  traderAccount: number;
  amount: Micros;
}

/**
 * Copy trading: the trader's share of the realised profit of closing copies (app/domain/copy.ts
 * profitShareOf, at the share the operator set for the trader), with the trader's contract
 * account that receives it. Copies closing at a loss, and own orders, pay nothing.
 */
export async function profitShareFor(ctx: ServiceContext, exits: { id: number; profit: Micros }[]): Promise<Map<number, ProfitShare>> {
  const out = new Map<number, ProfitShare>();
  const winners = exits.filter((e) => e.profit > 0);
  if (winners.length === 0) return out;
  const { results } = await ctx.d1
    .prepare(
      `SELECT o.id, f.id AS followId, t.profit_share AS share, a.id AS traderAccount
         FROM json_each(?1) j CROSS JOIN contract_orders o ON o.id = j.value
         JOIN follows f ON f.id = o.follow_id
         JOIN traders t ON t.user_id = f.trader_id
         JOIN accounts a ON a.user_id = t.user_id AND a.kind = 'contract'
        WHERE o.follow_type = 2`,
    )
    .bind(JSON.stringify(winners.map((w) => w.id)))
    .all<{ id: number; followId: number; share: string; traderAccount: number }>();
  const profits = new Map(winners.map((w) => [w.id, w.profit]));
  for (const r of results) {
    const amount = profitShareOf(profits.get(r.id) ?? 0, r.share);
    if (amount > 0) out.set(r.id, { followId: r.followId, traderAccount: r.traderAccount, amount });
  }
  return out;
}

/** Closes a holding position at the current price (manual close). */
export async function closeOrder(ctx: ServiceContext, userId: number, id: number): Promise<Result<ContractOrderRow, CloseError>> {
  const row = await ownOrder(ctx, userId, id);
  if (!row) return fail("errors.not_found");
  // one's own pending order is cancelled, not closed: said plainly
  if (row.status !== OrderStatus.Holding) return fail(row.status === OrderStatus.Pending ? "errors.close_pending" : "errors.order_closed");
  const [{ quote, stale }, contract] = await Promise.all([liveQuote(ctx, row.code), contractAccountOf(ctx, userId)]);
  if (!quote || quote.MarketStatus !== 1) return fail("errors.market_closed");
  if (stale) return fail("errors.prices_stale");
  if (!contract) return fail("errors.try_again");
  const price = priceToSteps(quote.Close, row.precision);
  const realised = realisedProfit(profitOf(row.side, row.openPrice!, price, row.lots, row.contractSize, row.precision), row.margin);
  const key = `contract_exit:${row.id}`;
  const now = Date.now();
  // a copy closing with a profit pays the trader's share (copy trading), in the same transaction
  const share =
    row.followType === 2 && row.followId ? await profitShareFor(ctx, [{ id: row.id, profit: realised }]) : new Map<number, ProfitShare>();
  const paid = share.get(row.id);
  const postings: Posting[] = [
    { accountId: row.accountId, bucket: Bucket.Locked, amount: -row.margin },
    { accountId: row.accountId, bucket: Bucket.Available, amount: row.margin + realised - (paid?.amount ?? 0) },
    { accountId: tradingAccount("counterparty", contract.isDemo), amount: -realised },
    ...(paid ? [{ accountId: paid.traderAccount, amount: paid.amount }] : []),
  ].filter((p) => p.amount !== 0);
  try {
    if (postings.length >= 2) {
      await post(ctx.d1, {
        idempotencyKey: key,
        kind: "trade_settle",
        memo: "memo.contract_manual",
        userId,
        postings,
        guards: [exitGuard(ctx, row.id, OrderStatus.Holding, "manual", price, realised)],
        effects: [
          closeEffect(ctx, row.id, price, realised, "manual", now),
          ...(paid
            ? [ctx.d1.prepare("UPDATE follows SET paid_share = paid_share + ?2 WHERE id = ?1").bind(paid.followId, paid.amount)]
            : []),
          // a trader's own position: the ranking's statistics are recomputed at the next read
          ...(row.followType !== 2 ? [ctx.d1.prepare("UPDATE traders SET stats_at = 0 WHERE user_id = ?1").bind(userId)] : []),
        ],
      });
    } else {
      await ctx.d1.batch([
        exitGuard(ctx, row.id, OrderStatus.Holding, "manual", price, realised),
        closeEffect(ctx, row.id, price, realised, "manual", now),
      ]);
    }
  } catch (error) {
    if (isLostRace(error)) return fail("errors.order_closed");
    throw error;
  }
  tellEngine(ctx, [{ op: "remove", id: row.id, price, code: row.code, userId: row.userId }]);
  return { ok: true, value: (await orderRow(ctx, row.id))! };
}

/** Cancels a pending order: its margin and fee go back to the available balance. */
export async function cancelOrder(ctx: ServiceContext, userId: number, id: number): Promise<Result<ContractOrderRow, CloseError>> {
  const row = await ownOrder(ctx, userId, id);
  if (!row) return fail("errors.not_found");
  if (row.status !== OrderStatus.Pending)
    return fail(row.status === OrderStatus.Holding ? "errors.order_not_pending" : "errors.order_closed");
  const key = `contract_pending_exit:${row.id}`;
  const now = Date.now();
  const amount = row.margin + row.fee;
  const guard = exitGuard(ctx, row.id, OrderStatus.Pending, "cancel", null, 0);
  const effect = ctx.d1
    .prepare("UPDATE contract_orders SET status = 4, close_reason = 'cancel', closed_at = ?2, updated_at = ?2 WHERE id = ?1 AND status = 0")
    .bind(row.id, now);
  try {
    if (amount > 0) {
      await post(ctx.d1, {
        idempotencyKey: key,
        kind: "trade_margin",
        memo: "memo.contract_cancel",
        userId,
        postings: [
          { accountId: row.accountId, bucket: Bucket.Locked, amount: -amount },
          { accountId: row.accountId, bucket: Bucket.Available, amount },
        ],
        guards: [guard],
        effects: [effect],
      });
    } else await ctx.d1.batch([guard, effect]);
  } catch (error) {
    if (isLostRace(error)) return fail("errors.order_closed");
    throw error;
  }
  tellEngine(ctx, [{ op: "remove", id: row.id, code: row.code, userId: row.userId }]);
  return { ok: true, value: (await orderRow(ctx, row.id))! };
}

/**
 * Tells the engine about a committed change, after the response (the engine also reads every row
 * changed since its watermark at the start of each tick, so it never acts on a tick without it).
 */
function tellEngine(ctx: ServiceContext, changes: EngineChange[]) {
  ctx.waitUntil(notifyEngine(ctx, changes));
}

/** Another path moved the order first (its unique exit key exists): nothing was written. */
function isLostRace(error: unknown) {
  if (error instanceof LedgerError)
    return error.code === "idempotency_conflict" || error.code === "guard_failed" || error.code === "insufficient_funds";
  return String((error as Error)?.message ?? error).includes("UNIQUE constraint failed");
}

/** The unique exit key of a single close or cancel (no batch: its own post()). */
function exitGuard(ctx: ServiceContext, orderId: number, fromStatus: number, reason: ExitReason, price: number | null, realised: number) {
  return ctx.d1
    .prepare("INSERT INTO order_exits (order_id, from_status, reason, price, profit) VALUES (?1, ?2, ?3, ?4, ?5)")
    .bind(orderId, fromStatus, reason, price, realised);
}

function closeEffect(ctx: ServiceContext, id: number, price: number, realised: number, reason: ExitReason, now: number) {
  return ctx.d1
    .prepare(
      "UPDATE contract_orders SET status = 3, close_price = ?2, profit = ?3, close_reason = ?4, closed_at = ?5, updated_at = ?5 WHERE id = ?1 AND status = 1",
    )
    .bind(id, price, realised, reason, now);
}

export type StopsError =
  | "errors.not_found"
  | "errors.order_closed"
  | "errors.stops_holding_only"
  | "errors.stop_invalid"
  | "errors.stop_loss_side"
  | "errors.take_profit_side"
  | "errors.market_closed"
  | "errors.try_again";

/** Sets or clears (0) the stop-loss and take-profit of a holding position, checked against its side and the current price. */
export async function setStops(
  ctx: ServiceContext,
  userId: number,
  id: number,
  input: { stopLoss?: string; takeProfit?: string },
): Promise<Result<ContractOrderRow, StopsError>> {
  const row = await ownOrder(ctx, userId, id);
  if (!row) return fail("errors.not_found");
  if (row.status !== OrderStatus.Holding)
    return fail(row.status === OrderStatus.Pending ? "errors.stops_holding_only" : "errors.order_closed");
  const stopLoss = optionalPrice(input.stopLoss, row.precision);
  if (stopLoss === null) return fail("errors.stop_invalid", "stop_loss_price", { value: row.precision });
  const takeProfit = optionalPrice(input.takeProfit, row.precision);
  if (takeProfit === null) return fail("errors.stop_invalid", "target_profit_price", { value: row.precision });
  const { quote } = await liveQuote(ctx, row.code);
  if (!quote) return fail("errors.market_closed");
  const stops = checkStops(row.side, priceToSteps(quote.Close, row.precision), stopLoss, takeProfit);
  if (stops !== "ok") return fail(`errors.${stops}`, stops === "stop_loss_side" ? "stop_loss_price" : "target_profit_price");
  const result = await ctx.d1
    .prepare("UPDATE contract_orders SET stop_loss = ?3, take_profit = ?4, updated_at = ?5 WHERE id = ?1 AND user_id = ?2 AND status = 1")
    .bind(row.id, userId, stopLoss, takeProfit, Date.now())
    .run();
  if (!result.meta.changes) return fail("errors.order_closed");
  const updated = (await orderRow(ctx, row.id))!;
  tellEngine(ctx, [{ op: "upsert", order: engineOrderOf(updated) }]);
  return { ok: true, value: updated };
}

// ---- lists ----

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

// ---- the engine's side ----

/**
 * For the engine's index. At room start (`changedSince` 0): every open order (pending and
 * holding). Afterwards, the catch-up: orders inserted after `afterId` (ids are given in commit
 * order, so each new order is read once) and orders of at most `afterId` changed since
 * `changedSince` (stop changes, fills, closes). `lastId` is the highest order id seen.
 */
export async function engineOrders(
  ctx: ServiceContext,
  changedSince = 0,
  afterId = 0,
  page = LOAD_PAGE,
  filter?: ShardFilter,
): Promise<{
  open: EngineOrder[];
  gone: number[];
  goneRows: { id: number; code: string; userId: number }[];
  watermark: number;
  lastId: number;
  more: boolean;
}> {
  const watermark = Date.now();
  const [rows, max] = await ctx.d1.batch([
    changedSince > 0
      ? ctx.d1
          .prepare(
            // new rows a page at a time (a burst of inserts is read over several ticks, never in one answer)
            `SELECT * FROM (SELECT ${ENGINE_COLUMNS} FROM contract_orders WHERE id > ?2 ORDER BY id LIMIT ?3)
             UNION ALL
             SELECT ${ENGINE_COLUMNS} FROM contract_orders WHERE status IN (0, 1, 3, 4) AND updated_at >= ?1 AND id <= ?2`,
          )
          .bind(changedSince, afterId, page)
      : // parked settlements wait for an operator (app/services/engine.server.ts), even across a restart
        // (a page by id: the start reads at most `page` rows per query)
        ctx.d1
          .prepare(
            `SELECT ${ENGINE_COLUMNS} FROM contract_orders WHERE status IN (0, 1) AND id > ?1 AND id NOT IN (SELECT item_id FROM engine_parked WHERE kind = 'contract')
               AND (?3 IS NULL OR (code IN (SELECT value FROM json_each(?3)) AND user_id % ?4 = ?5)) ORDER BY id LIMIT ?2`,
          )
          .bind(afterId, page, filter ? JSON.stringify(filter.codes) : null, filter?.parts ?? 1, filter?.part ?? 0),
    ctx.d1.prepare("SELECT COALESCE(MAX(id), 0) AS id FROM contract_orders"),
  ]);
  const open: EngineOrder[] = [];
  const gone: number[] = [];
  const goneRows: { id: number; code: string; userId: number }[] = [];
  let fresh = 0;
  let lastFresh = afterId;
  for (const row of rows!.results as ContractOrderRow[]) {
    if (row.id > afterId) {
      fresh += 1;
      lastFresh = Math.max(lastFresh, row.id);
    }
    if (row.status === OrderStatus.Pending || row.status === OrderStatus.Holding) open.push(engineOrderOf(row));
    else {
      gone.push(row.id);
      goneRows.push({ id: row.id, code: row.code, userId: row.userId });
    }
  }
  // a catch-up that read a full page of new rows goes on from the last of them next time
  if (changedSince > 0 && fresh === page) return { open, gone, goneRows, watermark, lastId: lastFresh, more: true };
  return {
    open,
    gone,
    goneRows,
    watermark,
    lastId: (max!.results[0] as { id: number }).id,
    more: changedSince === 0 && open.length === page,
  };
}

/** Delivery contracts and their next delivery; an unset (or long past with nothing open) instant is set from the schedule. */
export async function deliverySchedules(ctx: ServiceContext, now = Date.now()): Promise<DeliverySchedule[]> {
  const { results } = await ctx.d1
    .prepare("SELECT id, code, delivery_days AS days, delivery_at AS at FROM instruments WHERE status = 1 AND delivery_days > 0")
    .all<{ id: number; code: string; days: number; at: number | null }>();
  const out: DeliverySchedule[] = [];
  for (const r of results) {
    let at = r.at;
    if (at === null) {
      at = nextDelivery(r.days, now);
      await ctx.d1.prepare("UPDATE instruments SET delivery_at = ?2 WHERE id = ?1 AND delivery_at IS NULL").bind(r.id, at).run();
    }
    out.push({ instrumentId: r.id, code: r.code, days: r.days, at });
  }
  return out;
}

/**
 * Settles everything one tick triggered in ONE D1 batch whose statement count does not depend on
 * how many orders it moves (the orders travel as one JSON parameter):
 *   1. each order's unique exit key (INSERT OR IGNORE … WHERE the order is still in its state):
 *      an order another path moved first is skipped, never moved twice;
 *   2. one ledger transaction per moved order (its own idempotency key), and their entries,
 *      INSERT … SELECT from the exit rows of this batch;
 *   3. balances, empty-transaction removal and the per-transaction balance check
 *      (batchPostingStatements);
 *   4. the orders' new state, and delivery instruments rolled to their next date.
 */
export async function settleContracts(ctx: ServiceContext, req: SettlementRequest): Promise<SettlementResult> {
  const db = ctx.d1;
  const b = req.batchId;
  const shares = await profitShareFor(ctx, req.exits);
  const exits = JSON.stringify(
    req.exits.map((e) => ({
      id: e.id,
      r: e.reason,
      p: e.price,
      pl: e.profit,
      sh: shares.get(e.id)?.amount ?? 0,
      ta: shares.get(e.id)?.traderAccount ?? 0,
      fo: shares.get(e.id)?.followId ?? 0,
    })),
  );
  const pend = JSON.stringify([
    ...req.fills.map((f) => ({ id: f.id, r: "fill", p: f.price })),
    ...req.cancels.map((c) => ({ id: c.id, r: c.reason, p: null })),
  ]);
  const rolls = JSON.stringify(req.rolls.map((r) => ({ id: r.instrumentId, from: r.from, to: r.to })));
  const statements = [
    openBatch(db, b),
    db
      .prepare(
        `INSERT OR IGNORE INTO order_exits (order_id, from_status, batch_id, reason, price, profit)
         SELECT o.id, 1, ?1, json_extract(j.value, '$.r'), json_extract(j.value, '$.p'), json_extract(j.value, '$.pl')
           FROM json_each(?2) j CROSS JOIN contract_orders o ON o.id = json_extract(j.value, '$.id') AND o.status = 1
         RETURNING order_id, reason`,
      )
      .bind(b, exits),
    db
      .prepare(
        `INSERT OR IGNORE INTO order_exits (order_id, from_status, batch_id, reason, price, profit)
         SELECT o.id, 0, ?1, json_extract(j.value, '$.r'), json_extract(j.value, '$.p'), 0
           FROM json_each(?2) j CROSS JOIN contract_orders o ON o.id = json_extract(j.value, '$.id') AND o.status = 0
         RETURNING order_id, reason`,
      )
      .bind(b, pend),
    db
      .prepare(
        `INSERT INTO ledger_transactions (idempotency_key, kind, memo, user_id, batch_id)
         SELECT CASE x.from_status WHEN 1 THEN 'contract_exit:' ELSE 'contract_pending_exit:' END || x.order_id,
                CASE WHEN x.from_status = 1 THEN 'trade_settle' WHEN x.reason = 'fill' THEN 'trade_fee' ELSE 'trade_margin' END,
                'memo.contract_' || x.reason, o.user_id, ?1
           FROM order_exits x JOIN contract_orders o ON o.id = x.order_id
          WHERE x.batch_id = ?1 ORDER BY x.order_id, x.from_status`,
      )
      .bind(b),
    // Entries of positions leaving status 1: the margin leaves the locked balance, margin + profit
    // returns to the available balance, the counterparty takes the other side of the profit.
    db
      .prepare(
        `INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount)
         SELECT t.id, e.account_id, e.bucket, e.amount FROM (
           SELECT x.order_id AS oid, o.account_id AS account_id, 1 AS bucket, -o.margin AS amount, 1 AS n
             FROM order_exits x JOIN contract_orders o ON o.id = x.order_id WHERE x.batch_id = ?1 AND x.from_status = 1
           UNION ALL
           SELECT x.order_id, o.account_id, 0, o.margin + x.profit, 2
             FROM order_exits x JOIN contract_orders o ON o.id = x.order_id WHERE x.batch_id = ?1 AND x.from_status = 1
           UNION ALL
           -- the other side: the trading counterparty, or the demo books for a demo user's order
           SELECT x.order_id, CASE WHEN u.is_demo = 1 THEN ?4 ELSE ?2 END, 0, -x.profit, 3
             FROM order_exits x JOIN contract_orders o ON o.id = x.order_id JOIN users u ON u.id = o.user_id WHERE x.batch_id = ?1 AND x.from_status = 1
           UNION ALL
           -- copy trading: the trader's share of a copy's profit moves from the follower to the trader
           -- (driven by the list, each exit found by its key: a join on a json_each subquery has
           -- no index and made this quadratic in the number of exits)
           SELECT x.order_id, o.account_id, 0, -json_extract(j.value, '$.sh'), 4
             FROM json_each(?3) j
             CROSS JOIN order_exits x ON x.order_id = json_extract(j.value, '$.id') AND x.from_status = 1
             JOIN contract_orders o ON o.id = x.order_id
            WHERE x.batch_id = ?1 AND json_extract(j.value, '$.sh') > 0
           UNION ALL
           SELECT x.order_id, json_extract(j.value, '$.ta'), 0, json_extract(j.value, '$.sh'), 5
             FROM json_each(?3) j
             CROSS JOIN order_exits x ON x.order_id = json_extract(j.value, '$.id') AND x.from_status = 1
            WHERE x.batch_id = ?1 AND json_extract(j.value, '$.sh') > 0
         ) e JOIN ledger_transactions t ON t.idempotency_key = 'contract_exit:' || e.oid
          WHERE e.amount <> 0 ORDER BY e.oid, e.n`,
      )
      .bind(b, PlatformAccount.Counterparty.id, exits, PlatformAccount.DemoCounterparty.id),
    db
      .prepare(
        `UPDATE follows SET paid_share = follows.paid_share + s.total
           FROM (SELECT json_extract(j.value, '$.fo') AS fo, SUM(json_extract(j.value, '$.sh')) AS total
                   FROM json_each(?2) j JOIN order_exits x ON x.order_id = json_extract(j.value, '$.id') AND x.batch_id = ?1 AND x.from_status = 1
                  WHERE json_extract(j.value, '$.sh') > 0 GROUP BY 1) AS s
          WHERE follows.id = s.fo`,
      )
      .bind(b, exits),
    // Entries of pending orders leaving status 0: a fill pays the held fee to the fee account (the demo one for a demo user); a
    // cancel returns margin and fee to the available balance.
    db
      .prepare(
        `INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount)
         SELECT t.id, e.account_id, e.bucket, e.amount FROM (
           SELECT x.order_id AS oid, o.account_id AS account_id, 1 AS bucket,
                  CASE WHEN x.reason = 'fill' THEN -o.fee ELSE -(o.margin + o.fee) END AS amount, 1 AS n
             FROM order_exits x JOIN contract_orders o ON o.id = x.order_id WHERE x.batch_id = ?1 AND x.from_status = 0
           UNION ALL
           SELECT x.order_id, CASE WHEN x.reason <> 'fill' THEN o.account_id WHEN u.is_demo = 1 THEN ?3 ELSE ?2 END, 0,
                  CASE WHEN x.reason = 'fill' THEN o.fee ELSE o.margin + o.fee END, 2
             FROM order_exits x JOIN contract_orders o ON o.id = x.order_id JOIN users u ON u.id = o.user_id WHERE x.batch_id = ?1 AND x.from_status = 0
         ) e JOIN ledger_transactions t ON t.idempotency_key = 'contract_pending_exit:' || e.oid
          WHERE e.amount <> 0 ORDER BY e.oid, e.n`,
      )
      .bind(b, PlatformAccount.Fees.id, PlatformAccount.DemoFees.id),
    ...batchPostingStatements(db, b),
    db
      .prepare(
        `UPDATE contract_orders
            SET status = CASE WHEN x.from_status = 1 THEN 3 WHEN x.reason = 'fill' THEN 1 ELSE 4 END,
                open_price = CASE WHEN x.from_status = 0 AND x.reason = 'fill' THEN x.price ELSE contract_orders.open_price END,
                filled_at = CASE WHEN x.from_status = 0 AND x.reason = 'fill' THEN ?2 ELSE contract_orders.filled_at END,
                close_price = CASE WHEN x.from_status = 1 THEN x.price ELSE contract_orders.close_price END,
                profit = CASE WHEN x.from_status = 1 THEN x.profit ELSE contract_orders.profit END,
                close_reason = CASE WHEN x.reason = 'fill' THEN contract_orders.close_reason ELSE x.reason END,
                closed_at = CASE WHEN x.reason = 'fill' THEN contract_orders.closed_at ELSE ?2 END,
                updated_at = ?2
           FROM order_exits x
          WHERE x.batch_id = ?1 AND x.order_id = contract_orders.id`,
      )
      .bind(b, req.time),
    db
      .prepare(
        `UPDATE instruments SET delivery_at = r.next
           FROM (SELECT json_extract(value, '$.id') AS id, json_extract(value, '$.from') AS prev, json_extract(value, '$.to') AS next FROM json_each(?1)) AS r
          WHERE instruments.id = r.id AND instruments.delivery_at = r.prev`,
      )
      .bind(rolls),
    // a trader's own position closed: the ranking's statistics are recomputed at the next read
    db
      .prepare(
        `UPDATE traders SET stats_at = 0
          WHERE user_id IN (SELECT o.user_id FROM order_exits x JOIN contract_orders o ON o.id = x.order_id
                             WHERE x.batch_id = ?1 AND x.from_status = 1 AND o.follow_type <> 2)`,
      )
      .bind(b),
  ];
  const results = await postBatch(db, statements);
  const moved1 = (results[1]!.results ?? []) as { order_id: number; reason: string }[];
  const moved0 = (results[2]!.results ?? []) as { order_id: number; reason: string }[];
  const ids = [...moved1, ...moved0].map((m) => m.order_id);
  const owners = new Map<number, number>();
  if (ids.length > 0) {
    const { results: rows } = await db
      .prepare("SELECT o.id, o.user_id AS userId FROM order_exits x JOIN contract_orders o ON o.id = x.order_id WHERE x.batch_id = ?1")
      .bind(b)
      .all<{ id: number; userId: number }>();
    for (const r of rows) owners.set(r.id, r.userId);
  }
  return {
    exited: moved1.map((m) => ({ id: m.order_id, userId: owners.get(m.order_id) ?? 0, reason: m.reason })),
    filled: moved0.filter((m) => m.reason === "fill").map((m) => ({ id: m.order_id, userId: owners.get(m.order_id) ?? 0 })),
    cancelled: moved0.filter((m) => m.reason !== "fill").map((m) => ({ id: m.order_id, userId: owners.get(m.order_id) ?? 0 })),
  };
}

/** Engine changes for orders that a service moved (e.g. a demo reset). */
export async function notifyRemoved(ctx: ServiceContext, ids: number[]) {
  const changes: EngineChange[] = ids.map((id) => ({ op: "remove", id }));
  await notifyEngine(ctx, changes);
}
